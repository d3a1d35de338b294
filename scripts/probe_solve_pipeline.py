"""chol_tensor_solve's pipelined POTRS (device probe): POTRS and POSV with n right-hand sides
through the backend calls (linalg._cuda.cholesky.potrs / posv, float64, lower; B reset before each
call, ms between CUDA events: bench_cholesky.timeit) with cholesky.TENSOR_SOLVE_PIPELINED off and
on (the PIPE instantiation on a resident grid: a pass's stores in flight with the next pass's
copies, the last pass's with the next matrix's), alternated over --rounds
(bench_cholesky.alternate), and the largest difference of the two solutions over the largest
entry.

    python3 scripts/probe_solve_pipeline.py [--sizes 64,96,128,160] [--batches 1000,10240]
                                            [--ops potrs,potrs_kept,posv] [--rounds 2]

potrs: in place; potrs_kept: B kept (out of place); posv: A kept (POTRF into a new array, then
POTRS), B overwritten. One markdown row per (op, n, batch): off ms, on ms (each round), off / on
(medians), % of the copy bandwidth on (bench_cholesky's count: A read, B read and written;
POSV's factor written too), diff.
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
from linalg._cuda import cholesky as gchol  # noqa: E402

MATRICES_MOVED = {"potrs": 3, "potrs_kept": 3, "posv": 4}


def pipelined(on):
    gchol.TENSOR_SOLVE_PIPELINED = on
    gchol._tensor_solve_config.cache_clear()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="64,96,128,160")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--ops", default="potrs,potrs_kept,posv")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    committed = gchol.TENSOR_SOLVE_PIPELINED
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth:.0f} GB/s\n")
    print("| op | n | batch | off ms | on ms | off / on | % bw on | diff |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for n in (int(v) for v in args.sizes.split(",")):
            for batch in (int(v) for v in args.batches.split(",")):
                a = spd_batch(batch, n, numpy.float64)
                l, _ = gchol.potrf(a, True, keep=("a",))
                b = cupy.random.default_rng(2).standard_normal((batch, n, n))
                work = cupy.empty_like(b)
                calls = {"potrs": lambda: gchol.potrs(l, work, True),
                         "potrs_kept": lambda: gchol.potrs(l, work, True, keep=("b",)),
                         "posv": lambda: gchol.posv(a, work, True, keep=("a",))}
                for op in args.ops.split(","):
                    times, _, diff = alternate(calls[op], lambda: cupy.copyto(work, b),
                                               lambda out: out[0], (False, True), pipelined,
                                               args.rounds)
                    off, on = statistics.median(times[False]), statistics.median(times[True])
                    pct = (MATRICES_MOVED[op] * batch * n * n * 8 / (on * 1e-3) / 1e9 / bandwidth
                           * 100)
                    print(f"| {op} | {n} | {batch} | "
                          + " / ".join(f"{t:.3f}" for t in times[False]) + " | "
                          + " / ".join(f"{t:.3f}" for t in times[True])
                          + f" | {off / on:.2f} | {pct:.0f} | {diff:.1e} |", flush=True)
                del a, l, b, work
                cupy.get_default_memory_pool().free_all_blocks()
    finally:
        pipelined(committed)


if __name__ == "__main__":
    main()
