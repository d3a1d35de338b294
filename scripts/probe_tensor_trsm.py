"""chol_tensor_trsm probe (device): TRSM on the left and POTRS with n right-hand sides through the
backend calls (linalg._cuda.triangular.trsm, linalg._cuda.cholesky.potrs; in place, B reset
before each call, ms between CUDA events: bench_cholesky.timeit) with kernels/potrf.cu
chol_tensor_trsm off and on (cholesky.TENSOR_TRSM_RULES at n = 33-128, for a whole matrix and for
the recursion's blocks; POTRS above n = 128 also with chol_tensor_solve on its recursion's blocks,
cholesky.NESTED_TENSOR_SOLVE), alternated over --rounds, and the largest difference of the two
results over the largest entry.

    python3 scripts/probe_tensor_trsm.py [--sizes 64,96,128,192,256] [--batches 1000,10240]
                                         [--ops trsm,trsm_lt,trsm_un,trsm_right,potrs]
                                         [--rounds 2]

One markdown row per (op, n, batch): off ms, on ms (each round), off / on (medians), % of the
copy bandwidth on (A, B read once, X written once), diff. trsm: lower N; trsm_lt: lower T;
trsm_un: upper N (the last two solve backward); trsm_right, trsm_right_lt: the right side, lower
N and T.
"""
import argparse
import statistics
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cholesky import alternate, copy_bandwidth, spd_batch  # noqa: E402
from linalg._cuda import cholesky as gchol, triangular as gtri  # noqa: E402

# op -> (side, lower, trans) of a TRSM with the Cholesky factor (or its transpose as an upper A)
OPS = {"trsm": ("left", True, "N"), "trsm_lt": ("left", True, "T"),
       "trsm_un": ("left", False, "N"), "trsm_right": ("right", True, "N"),
       "trsm_right_lt": ("right", True, "T")}


def settings(on):
    gchol.TENSOR_TRSM_RULES = {"float64": ((33, 128, 100),)} if on else {}
    gchol.NESTED_TENSOR_SOLVE = on


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="64,96,128,192,256")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--ops", default="trsm,trsm_lt,trsm_un,potrs")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    rules = dict(gchol.TENSOR_TRSM_RULES), gchol.NESTED_TENSOR_SOLVE
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth:.0f} GB/s\n")
    print("| op | n | batch | off ms | on ms | off / on | % bw on | diff |")
    print("|---|---|---|---|---|---|---|---|")
    for n in (int(v) for v in args.sizes.split(",")):
        for batch in (int(v) for v in args.batches.split(",")):
            l, _ = gchol.potrf(spd_batch(batch, n, numpy.float64), True)
            u = cupy.ascontiguousarray(l.swapaxes(1, 2))
            b = cupy.random.default_rng(2).standard_normal((batch, n, n))
            work = cupy.empty_like(b)
            reset = lambda: cupy.copyto(work, b)  # noqa: E731
            for op in args.ops.split(","):
                if op == "potrs":
                    call = lambda: gchol.potrs(l, work, True)  # noqa: E731
                else:
                    side, lower, trans = OPS[op]
                    a = l if lower else u
                    call = lambda: gtri.trsm(a, work, side, lower, trans)  # noqa: E731
                times, _, diff = alternate(call, reset, lambda _: work, (False, True), settings,
                                           args.rounds)
                off, on = statistics.median(times[False]), statistics.median(times[True])
                pct = 3 * batch * n * n * 8 / (on * 1e-3) / 1e9 / bandwidth * 100
                print(f"| {op} | {n} | {batch} | " + " / ".join(f"{t:.3f}" for t in times[False])
                      + " | " + " / ".join(f"{t:.3f}" for t in times[True])
                      + f" | {off / on:.2f} | {pct:.0f} | {diff:.1e} |", flush=True)
            del l, u, b, work
            cupy.get_default_memory_pool().free_all_blocks()
    gchol.TENSOR_TRSM_RULES, gchol.NESTED_TENSOR_SOLVE = rules


if __name__ == "__main__":
    main()
