"""Where the time of a small batched call goes, on the GPU machine: for each operation at small n
(float64, batch 10240), the public call and the backend alone, each as

  event  -- CUDA events around one isolated call (the benchmarks' number: host + GPU),
  host   -- host microseconds a call in a loop without synchronization,
  stream -- microseconds a call of 200 calls issued back to back (max of host and GPU time),

and, under Nsight Compute (``--ncu``: run as ``ncu --csv --metrics gpu__time_duration.sum
--nvtx python3 scripts/probe_call_costs.py --ncu``), each call three times inside an NVTX range
named after it, so that the kernels' GPU durations can be read per call.

    python3 scripts/probe_call_costs.py [--sizes 4 8 16 32] [--ncu] [--profile NAME ...]

--profile adds cProfile's view of the named calls (e.g. "public trsm").
"""
import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

import numpy
import cupy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import linalg  # noqa: E402
from linalg._cuda import blas as gblas, cholesky as gchol, syrk as gsyrk  # noqa: E402
from linalg._cuda import triangular as gtri, trsv as gtrsv  # noqa: E402

BATCH = 10240


def calls(n, batch=BATCH, dtype=numpy.float64):
    """{name: (fn, reset or None)} of the public and backend calls at order n."""
    gen = cupy.random.default_rng(n)
    x = gen.standard_normal((batch, n, n))
    a = cupy.ascontiguousarray((x @ x.swapaxes(1, 2) / n + cupy.eye(n)).astype(dtype))
    l, _ = gchol.potrf(a.copy(), True)
    work = cupy.empty_like(a)
    b = gen.standard_normal((batch, n, n)).astype(dtype)
    bw = cupy.empty_like(b)
    v = gen.standard_normal((batch, n, 1)).astype(dtype)
    vw = cupy.empty_like(v)
    x1 = gen.standard_normal((batch, n)).astype(dtype)
    xw = cupy.empty_like(x1)
    y = cupy.empty((batch, n), dtype)
    c = cupy.empty_like(a)

    def from_(dst, src):
        return lambda: cupy.copyto(dst, src)
    return {
        "public potrf": (lambda: linalg.potrf(work, overwrite_a=True, return_info=True), from_(work, a)),
        "backend potrf": (lambda: gchol.potrf(work, True), from_(work, a)),
        "public potrs1": (lambda: linalg.potrs(l, vw, overwrite_b=True, return_info=True), from_(vw, v)),
        "backend potrs1": (lambda: gchol.potrs(l, vw, True), from_(vw, v)),
        "public trsm": (lambda: linalg.trsm(l, bw, overwrite_b=True, return_info=True), from_(bw, b)),
        "backend trsm": (lambda: gtri.trsm(l, bw, "left", True, "N", False, 1.0), from_(bw, b)),
        "public trmm": (lambda: linalg.trmm(l, bw, overwrite_b=True), from_(bw, b)),
        "backend trmm": (lambda: gtri.trmm(l, bw, "left", True, "N", False, 1.0), from_(bw, b)),
        "public trtri": (lambda: linalg.trtri(work, overwrite_a=True, return_info=True), from_(work, l)),
        "backend trtri": (lambda: gtri.trtri(work, True, False), from_(work, l)),
        "public lauum": (lambda: linalg.lauum(work, overwrite_a=True), from_(work, l)),
        "backend lauum": (lambda: gtri.lauum(work, True), from_(work, l)),
        "public trsv": (lambda: linalg.trsv(l, xw, overwrite_x=True, return_info=True), from_(xw, x1)),
        "backend trsv": (lambda: gtrsv.trsv(l, xw), from_(xw, x1)),
        "public gemv": (lambda: linalg.gemv(a, x1, y, overwrite_y=True, beta=0), None),
        "public gemm": (lambda: linalg.gemm(a, b, c, overwrite_c=True), None),
        "cupy.matmul": (lambda: cupy.matmul(a, b), None),
        "public syrk": (lambda: linalg.syrk(a), None),
        "backend syrk": (lambda: gsyrk.syrk(a, None, True, "N", 1.0, 0.0), None),
        "cupy.empty": (lambda: cupy.empty(batch, numpy.int32), None),
    }


def event_us(fn, reset, reps=50):
    """bench_cholesky.timeit (events around one isolated call, median) in microseconds."""
    import bench_cholesky
    return bench_cholesky.timeit(fn, reset, reps=reps, warmup=3) * 1e3


def host_us(fn, n=2000):
    for _ in range(100):
        fn()
    cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    h = (time.perf_counter() - t) / n * 1e6
    cupy.cuda.Device().synchronize()
    return h


def stream_us(fn, n=200):
    """bench_blas.timeit over one group of n back-to-back calls, in microseconds a call."""
    import bench_blas
    return bench_blas.timeit(fn, reps=1, warmup=1, inner=n) * 1e3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32])
    p.add_argument("--ncu", action="store_true")
    p.add_argument("--profile", nargs="*", default=[])
    args = p.parse_args()
    if args.ncu:
        from cupy.cuda import nvtx
        for n in args.sizes:
            for name, (fn, reset) in calls(n).items():
                fn()                                   # compile outside the ranges
                cupy.cuda.Device().synchronize()
                for _ in range(3):
                    if reset is not None:
                        reset()
                    nvtx.RangePush(f"{name} n={n}")
                    fn()
                    nvtx.RangePop()
                cupy.cuda.Device().synchronize()
        return
    print(f"float64, batch {BATCH}; us a call: event (isolated, events around it), host (loop, no "
          "sync), stream (200 back to back)", flush=True)
    print(f"{'call':18s} {'n':>4s} {'event':>8s} {'host':>8s} {'stream':>8s}")
    for n in args.sizes:
        for name, (fn, reset) in calls(n).items():
            fn()
            cupy.cuda.Device().synchronize()
            ev = event_us(fn, reset)
            print(f"{name:18s} {n:4d} {ev:8.1f} {host_us(fn):8.1f} {stream_us(fn):8.1f}", flush=True)
    for name in args.profile:
        fn, _ = calls(args.sizes[0])[name]
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(2000):
            fn()
        pr.disable()
        cupy.cuda.Device().synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(22)
        print("=====", name, f"n={args.sizes[0]}")
        print(s.getvalue()[:5000])


if __name__ == "__main__":
    main()
