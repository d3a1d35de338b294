"""Scratch (session 2026-11-26j): TRMM (left, lower, N) and LAUUM (lower) at small batches,
public calls with the table's dispatch (tri_tile from n = 65) against the same calls with
tri_tile switched off (the dense cuBLAS product of the triangle), and the benchmark's vendor
(cupy.matmul / torch.matmul on the triangle). ms, scripts/bench_cholesky.timeit."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
import torch  # noqa: E402
import linalg  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

real_use_tile = gtri.use_tile
gen = cupy.random.default_rng(0)
print("| op | dtype | n | batch | table | no tile | vendor | table/vendor | no tile/vendor | max diff |")
print("|---|---|---|---|---|---|---|---|---|---|")
for op in ("trmm", "lauum"):
    for dtype in (numpy.float64, numpy.float32):
        for n in (96, 128, 256, 512):
            for batch in (1, 2, 8, 32, 100):
                l = cupy.tril(gen.standard_normal((batch, n, n)) + n * cupy.eye(n)).astype(dtype)
                b = gen.standard_normal((batch, n, n)).astype(dtype)
                bw, lw = b.copy(), l.copy()
                if op == "trmm":
                    fn = lambda: linalg.trmm(l, bw, overwrite_b=True)   # noqa: E731
                    reset = lambda: None                                # noqa: E731
                    tl = None
                    vendor = lambda: cupy.matmul(l, b)                 # noqa: E731
                    res = lambda: linalg.trmm(l, b)                    # noqa: E731
                else:
                    fn = lambda: linalg.lauum(lw, overwrite_a=True)    # noqa: E731
                    reset = lambda: cupy.copyto(lw, l)                 # noqa: E731
                    tl = torch.from_dlpack(l)
                    vendor = lambda: torch.matmul(tl.mT, tl)           # noqa: E731
                    res = lambda: linalg.lauum(l)                      # noqa: E731
                times, outs = [], []
                for tile in (True, False):
                    gtri.use_tile = real_use_tile if tile else (lambda *args: False)
                    try:
                        times.append(timeit(fn, reset, reps=30))
                        outs.append(res())
                    finally:
                        gtri.use_tile = real_use_tile
                v = timeit(vendor, reps=30)
                diff = float(cupy.abs(outs[0] - outs[1]).max() / cupy.abs(outs[0]).max())
                print(f"| {op} | {numpy.dtype(dtype).name} | {n} | {batch} | {times[0]:.4f} | "
                      f"{times[1]:.4f} | {v:.4f} | {v / times[0]:.2f} | {v / times[1]:.2f} | "
                      f"{diff:.1e} |", flush=True)
