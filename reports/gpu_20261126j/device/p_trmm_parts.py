"""Scratch (session 2026-11-26j): where a one-matrix float64 TRMM's time goes on the dense path
(n = 96) and on tri_tile (n = 128, 256): ms of each piece by scripts/bench_cholesky.timeit
(queued calls), and the GPU time of one call between events after a synchronize."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
import linalg  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri, vendor  # noqa: E402


def gpu_time(fn, reps=20):
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    out = []
    for _ in range(reps):
        cupy.cuda.Device().synchronize()
        start.record()
        fn()
        end.record()
        end.synchronize()
        out.append(cupy.cuda.get_elapsed_time(start, end))
    return sorted(out)[len(out) // 2]


gen = cupy.random.default_rng(0)
for dtype in (numpy.float64, numpy.float32):
    for n in (96, 112, 128, 256):
        l = cupy.tril(gen.standard_normal((1, n, n))).astype(dtype)
        b = gen.standard_normal((1, n, n)).astype(dtype)
        out = cupy.empty_like(b)
        t = gtri.triangle_copy(l, True, False)
        pieces = {
            "public linalg.trmm": lambda: linalg.trmm(l, b),
            "backend gtri.trmm": lambda: gtri.trmm(l, b, "left", True, "N", False, 1.0),
            "_vendor_trmm": lambda: gtri._vendor_trmm(l, b, False, True, "N", False, 1.0),
            "tile_trmm": lambda: gtri.tile_trmm(l, b, False, True, False, False, 1.0),
            "triangle_copy": lambda: gtri.triangle_copy(l, True, False),
            "vendor.gemm": lambda: vendor.gemm(out, t, b, 1.0),
            "cupy.empty_like": lambda: cupy.empty_like(b),
            "cupy.matmul": lambda: cupy.matmul(l, b),
        }
        print(f"## {numpy.dtype(dtype).name} n = {n}, batch 1: path {'tile' if gtri.use_tile('trmm', l.dtype, n, 'left') else 'other'}")
        print("| piece | queued ms | GPU ms (one call) |")
        print("|---|---|---|")
        for name, fn in pieces.items():
            print(f"| {name} | {timeit(fn, reps=30):.4f} | {gpu_time(fn):.4f} |", flush=True)
