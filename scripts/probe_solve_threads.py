"""Threads a block of chol_tensor_solve and chol_tensor_trsm at NT = 4 (device probe): POTRS with
n right-hand sides and TRSM on both sides through the backend calls (linalg._cuda.cholesky.potrs,
linalg._cuda.triangular.trsm; in place, B reset before each call, ms between CUDA events:
bench_cholesky.timeit) with cholesky.TENSOR_SOLVE_THREADS[4] set to each of --threads in turn
(the kernels' launch bound allows up to 512 there: one block an SM), alternated over --rounds,
and the largest difference from the first setting's result over the largest entry. n = 97..128
run the kernels on the whole matrix, n = 256 on the two halves of the recursion.

    python3 scripts/probe_solve_threads.py [--sizes 112,128,256] [--batches 1000,10240]
                                           [--threads 256,384,512] [--ops potrs,trsm,trsm_right]
                                           [--rounds 2]

One markdown row per (op, n, batch): ms for each setting (each round), the first setting's
median over each other's, the largest difference.
"""
import argparse
import statistics
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cholesky import alternate, spd_batch  # noqa: E402
from linalg._cuda import cholesky as gchol, triangular as gtri  # noqa: E402


def use_threads(threads, defaults):
    gchol.TENSOR_SOLVE_THREADS = {**defaults, 4: threads}
    gchol._tensor_solve_config.cache_clear()
    gchol._tensor_trsm_config.cache_clear()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="112,128,256")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--threads", default="256,384,512")
    parser.add_argument("--ops", default="potrs,trsm,trsm_right")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    settings = [int(v) for v in args.threads.split(",")]
    defaults = dict(gchol.TENSOR_SOLVE_THREADS)
    print("| op | n | batch | " + " | ".join(f"{t} threads ms" for t in settings)
          + " | " + " | ".join(f"{settings[0]} / {t}" for t in settings[1:]) + " | diff |")
    print("|---" * (4 + 2 * len(settings) - 1) + "|")
    for n in (int(v) for v in args.sizes.split(",")):
        for batch in (int(v) for v in args.batches.split(",")):
            l, _ = gchol.potrf(spd_batch(batch, n, numpy.float64), True)
            b = cupy.random.default_rng(2).standard_normal((batch, n, n))
            work = cupy.empty_like(b)
            reset = lambda: cupy.copyto(work, b)  # noqa: E731
            for op in args.ops.split(","):
                if op == "potrs":
                    call = lambda: gchol.potrs(l, work, True)  # noqa: E731
                else:
                    side = "right" if op == "trsm_right" else "left"
                    call = lambda: gtri.trsm(l, work, side, True, "N")  # noqa: E731
                times, _, diff = alternate(call, reset, lambda _: work, settings,
                                           lambda t: use_threads(t, defaults), args.rounds)
                med = {t: statistics.median(times[t]) for t in settings}
                print(f"| {op} | {n} | {batch} | "
                      + " | ".join(" / ".join(f"{v:.3f}" for v in times[t]) for t in settings)
                      + " | " + " | ".join(f"{med[settings[0]] / med[t]:.2f}"
                                           for t in settings[1:])
                      + f" | {diff:.1e} |", flush=True)
            del l, b, work
            cupy.get_default_memory_pool().free_all_blocks()
    use_threads(defaults[4], defaults)


if __name__ == "__main__":
    main()
