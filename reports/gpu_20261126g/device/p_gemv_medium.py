"""Scratch: GEMV-N and TRSV at medium batch counts, GPU time (CUDA graph) of the table's kernel,
the flat kernel and cuBLAS, best of two rounds; and the public calls (events) against the vendor."""
import sys
sys.path.insert(0, "scripts"); sys.path.insert(0, ".")
import numpy, cupy, linalg, torch
from bench_blas import timeit, timeit_gpu
from linalg._cuda import blas, trsv
for dt in (numpy.float32, numpy.float64):
    for n, batches in ((64, (300, 1000, 3000, 10240)), (128, (512, 1000, 2000, 4000, 10240)),
                       (256, (256, 500, 1000, 2000, 4000, 10240))):
        for batch in batches:
            a = cupy.random.standard_normal((batch, n, n)).astype(dt)
            x = cupy.random.standard_normal((batch, n)).astype(dt)
            y = cupy.empty((batch, n), dtype=dt)
            runs = {"table": lambda: blas.gemv(a, x, y, _path="kernel"),
                    "flat": lambda: blas.gemv(a, x, y, _params=blas.FLAT_PARAMS),
                    "vendor": lambda: blas.gemv(a, x, y, _path="vendor")}
            best = {k: min(timeit_gpu(f, 10, 2) for _ in range(2)) for k, f in runs.items()}
            pub = min(timeit(lambda: linalg.gemv(a, x, y, overwrite_y=True), 20) for _ in range(2))
            ven = min(timeit(lambda: cupy.matmul(a, x[:, :, None]), 20) for _ in range(2))
            print(f"gemv_n {dt.__name__} n={n} batch={batch}: gpu table {best['table']:.4f} flat {best['flat']:.4f} vendor {best['vendor']:.4f} | public {pub:.4f} vs matmul {ven:.4f} ({ven/pub:.2f}x)", flush=True)
            del a, x, y
for dt in (numpy.float64, numpy.float32):
    for n in (64, 128, 256):
        for batch in (8, 100, 1000):
            a = cupy.tril(cupy.random.standard_normal((batch, n, n)).astype(dt) / n)
            idx = cupy.arange(n); a[:, idx, idx] = 1
            x0 = cupy.random.standard_normal((batch, n)).astype(dt); x = x0.copy()
            pub = min(timeit(lambda: linalg.trsv(a, x, lower=True, overwrite_x=True), 20) for _ in range(3))
            gk = min(timeit_gpu(lambda: trsv.trsv(a, x, lower=True, _path="kernel"), 10, 2) for _ in range(2))
            ta = torch.as_tensor(a, device="cuda"); tb = torch.as_tensor(x0, device="cuda")[..., None]
            ven = min(timeit(lambda: torch.linalg.solve_triangular(ta, tb, upper=False), 20) for _ in range(3))
            print(f"trsv {dt.__name__} n={n} batch={batch}: public {pub:.4f} (kernel gpu {gk:.4f}) vs torch {ven:.4f} ({ven/pub:.2f}x)", flush=True)
