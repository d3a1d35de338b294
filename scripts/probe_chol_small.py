"""Device probe: launch parameters of the leaf kernels at batch 10240, float64 and float32.
chol_small<T, NMAX> (kernels/potrf.cu): matrices per block (PER_BLOCK in
linalg/_cuda/triangular.py) and a register cap (NVRTC --maxrregcount), for each phase chain
(potrf, trtri, lauum, potri, poti), n = 16 and 32. tri_warp (kernels/tri_warp.cu, TRSM n = 32
left and right, nrhs = n): threads per block and a register cap. Every configuration's result is
compared with the production launch's (bit for bit: same arithmetic, only the launch shape
differs).

    python3 scripts/probe_chol_small.py [--n 16 32] [--caps 0 64 128] [--per-block 1 2 4 8 16]
                                        [--no-trsm] [--ops trtri,potri]
    # prints one line per (op, dtype, n)
"""
import argparse
import os
import sys

import numpy
import cupy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from bench_cholesky import timeit, spd_batch  # noqa: E402
from linalg._cuda import triangular as tri  # noqa: E402
from linalg._cuda._compile import ctype, grid_1d, kernel, register_cap  # noqa: E402

OPS = {"potrf": tri.CHOL_POTRF, "trtri": tri.CHOL_TRTRI, "lauum": tri.CHOL_LAUUM,
       "potri": tri.CHOL_TRTRI | tri.CHOL_LAUUM,
       "poti": tri.CHOL_POTRF | tri.CHOL_TRTRI | tri.CHOL_LAUUM}
BATCH = 10240


def launch(a, ops, per_block, cap):
    batch, n = a.shape[0], a.shape[1]
    nmax = tri.chol_small_class(n)
    launcher = kernel("potrf", f"chol_small<{ctype(a.dtype)}, {nmax}, false>", "pqqiqiiipp",
                      options=register_cap(cap))
    smem = per_block * (nmax * (nmax + 1) + 1) * a.itemsize
    info = cupy.empty(batch, dtype=numpy.int32)
    launcher(grid_1d(batch, per_block), per_block * nmax, (a, n, n * n, n, batch, ops, 1, 0, info,
                                                                   a), smem)
    return info


def tri_warp_sweep(dtype):
    """TRSM n = 32 (lower, no transpose) left and right through tri_warp: threads x cap."""
    n = 32
    l0 = spd_batch(BATCH, n, dtype)
    tri.chol_small(l0, tri.CHOL_POTRF, True)
    b0 = cupy.random.default_rng(1).standard_normal((BATCH, n, n)).astype(dtype)
    for right in (False, True):
        flags = tri.TRI_LOWER | (tri.TRI_RIGHT if right else 0)
        lanes = tri.tri_warp_lanes(tri.TRI_WARP_SOLVE, right)
        b = b0.copy()
        reset = lambda: cupy.copyto(b, b0)  # noqa: E731
        base = timeit(lambda: tri.tri_warp(l0, b, flags, tri.TRI_WARP_SOLVE), reset, reps=15)
        reset(); tri.tri_warp(l0, b, flags, tri.TRI_WARP_SOLVE)
        want = b.get()
        items = []
        for threads in (64, 128, 256, 512):
            for cap in (0, 64, 128):
                per_block = threads // lanes
                smem = per_block * (2 if right else 1) * n * (n + 1) * b.itemsize
                launcher = kernel("tri_warp", f"tri_warp<{ctype(dtype)}, 32, {tri.TRI_WARP_SOLVE}, {lanes}, false>",
                                  "pqqpqqiiqiTpp", dtype, options=register_cap(cap))
                config = (launcher, grid_1d(BATCH, per_block), threads, smem)
                try:
                    run = lambda: tri._launch_on_rhs(config, l0, b, n, flags, 1.0, b)  # noqa: E731
                    t = timeit(run, reset, reps=15)
                    reset(); run()
                    same = numpy.array_equal(b.get(), want)
                    items.append((t, f"t{threads}/cap{cap} {t:.4f}{'' if same else ' DIFFERENT'}"))
                except Exception as exc:
                    items.append((float("inf"), f"t{threads}/cap{cap} {type(exc).__name__}"))
        items.sort()
        print(f"trsm {'right' if right else 'left'} {numpy.dtype(dtype).name} n=32: production "
              f"(t128) {base:.4f}; best " + "; ".join(s for _, s in items[:6]), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[16, 32])
    parser.add_argument("--caps", type=int, nargs="+", default=[0, 64, 128],
                        help="register caps to try (0: NVRTC's choice)")
    parser.add_argument("--per-block", type=int, nargs="+", default=[1, 2, 4, 8, 16],
                        help="matrices per block to try")
    parser.add_argument("--no-trsm", action="store_true", help="skip the tri_warp sweep")
    parser.add_argument("--ops", default=",".join(OPS), help="phase chains to sweep")
    args = parser.parse_args()
    for n in args.n:
        for dtype in (numpy.float64, numpy.float32):
            a0 = spd_batch(BATCH, n, dtype)
            factor = a0.copy()
            tri.chol_small(factor, tri.CHOL_POTRF, True)
            for name, ops in OPS.items():
                if name not in args.ops.split(","):
                    continue
                src = a0 if ops & tri.CHOL_POTRF else factor
                a = src.copy()
                reset = lambda: cupy.copyto(a, src)  # noqa: E731
                base = timeit(lambda: tri.chol_small(a, ops, True), reset, reps=15)
                reset(); tri.chol_small(a, ops, True)
                want = a.get()
                items = []
                for per_block in args.per_block:
                    for cap in args.caps:
                        try:
                            t = timeit(lambda: launch(a, ops, per_block, cap), reset, reps=15)
                            reset(); launch(a, ops, per_block, cap)
                            same = numpy.array_equal(a.get(), want)
                            items.append((t, f"pb{per_block}/cap{cap} {t:.4f}{'' if same else ' DIFFERENT'}"))
                        except Exception as exc:       # too much shared memory, ...
                            items.append((float("inf"), f"pb{per_block}/cap{cap} {type(exc).__name__}"))
                items.sort()
                pb, cap = tri.chol_small_launch(dtype, tri.chol_small_class(n), ops)
                print(f"{name} {numpy.dtype(dtype).name} n={n}: production "
                      f"(pb{pb}/cap{cap}) {base:.4f}; best "
                      + "; ".join(s for _, s in items[:6]), flush=True)
    for dtype in () if args.no_trsm else (numpy.float64, numpy.float32):
        tri_warp_sweep(dtype)


if __name__ == "__main__":
    main()
