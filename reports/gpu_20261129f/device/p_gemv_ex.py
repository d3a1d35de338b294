#!/usr/bin/env python3
"""Why cupy.matmul of a batch with x as a column beats our cuBLAS GEMV path (call 8): the same
product (row-major y = A x as column-major y^T = x^T A^T, 1 x n, k = n) by cupy.matmul, by our
path (blas._vendor_gemv: dgemmStridedBatched / sgemmStridedBatched), and by direct calls of
gemmStridedBatchedEx (CuPy's call) and of the typed routine with the same arguments; CUDA
events, median of 50 after warm-up, one process.

    python3 p_gemv_ex.py > gemv_ex.md
"""
import statistics
import sys
from pathlib import Path

import cupy
import numpy
from cupy.cuda import device
from cupy_backends.cuda.api import runtime
from cupy_backends.cuda.libs import cublas

sys.path.insert(0, str(Path.cwd()))
from linalg._cuda import blas  # noqa: E402


def timeit(fn, reps=50):
    for _ in range(5):
        fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    out = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        out.append(cupy.cuda.get_elapsed_time(start, end))
    return statistics.median(out)


def direct(a, x, y, ex):
    batch, n, k = a.shape
    handle = device.get_cublas_handle()
    cublas.setStream(handle, cupy.cuda.get_current_stream().ptr)
    cublas.setPointerMode(handle, cublas.CUBLAS_POINTER_MODE_HOST)
    one, zero = numpy.ones(1, a.dtype), numpy.zeros(1, a.dtype)
    if ex:
        t = runtime.CUDA_R_64F if a.dtype == numpy.float64 else runtime.CUDA_R_32F
        ct = cublas.CUBLAS_COMPUTE_64F if a.dtype == numpy.float64 else cublas.CUBLAS_COMPUTE_32F
        cublas.gemmStridedBatchedEx(handle, 0, 0, 1, n, k, one.ctypes.data, x.data.ptr, t, 1, k,
                                    a.data.ptr, t, k, n * k, zero.ctypes.data, y.data.ptr, t, 1,
                                    n, batch, ct, cublas.CUBLAS_GEMM_DEFAULT)
    else:
        fn = cublas.dgemmStridedBatched if a.dtype == numpy.float64 else cublas.sgemmStridedBatched
        fn(handle, 0, 0, 1, n, k, one.ctypes.data, x.data.ptr, 1, k, a.data.ptr, k, n * k,
           zero.ctypes.data, y.data.ptr, 1, n, batch)


def main():
    print("| dtype | n | batch | matmul ms | ours ms | Ex direct ms | typed direct ms | "
          "max diff |")
    print("|---|---|---|---|---|---|---|---|")
    for dtype in ("float64", "float32"):
        for n in (256, 512):
            for batch in (1, 30, 100):
                g = cupy.random.default_rng(n)
                a = g.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
                x = g.standard_normal((batch, n), dtype=numpy.float64).astype(dtype)
                y = cupy.empty((batch, n), dtype)
                ref = cupy.matmul(a, x[:, :, None])[:, :, 0]
                t = [timeit(lambda: cupy.matmul(a, x[:, :, None])),
                     timeit(lambda: blas._vendor_gemv(a, x, y, "N", 1.0, 0.0))]
                outs = [y.copy()]
                for ex in (True, False):
                    t.append(timeit(lambda: direct(a, x, y, ex)))
                    outs.append(y.copy())
                diff = max(float(abs(o - ref).max() / abs(ref).max()) for o in outs)
                print(f"| {dtype} | {n} | {batch} | " + " | ".join(f"{v:.4f}" for v in t)
                      + f" | {diff:.1e} |", flush=True)


if __name__ == "__main__":
    main()
