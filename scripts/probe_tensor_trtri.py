"""chol_tensor_trtri probe (device): TRTRI, POTRI and POTI through the backend calls
(linalg._cuda.triangular.trtri, linalg._cuda.cholesky.potri / poti; the operand reset before
each call, ms between CUDA events: bench_cholesky.timeit) with kernels/potrf.cu
chol_tensor_trtri off and on (cholesky.TENSOR_TRTRI_RANGE, for a whole matrix and for the
recursion's blocks: POTRI / POTI above n = 128 take it there), alternated over --rounds, and the
largest difference of the two results over the largest entry.

    python3 scripts/probe_tensor_trtri.py [--sizes 80,96,128,192,256] [--batches 1000,10240]
                                          [--ops trtri,trtri_kept,trtri_upper_unit,potri,poti]
                                          [--dtypes float64] [--first 65] [--threads 4:192]
                                          [--rounds 2]

One markdown row per (op, dtype, n, batch): off ms, on ms (each round), off / on (medians), %
of the copy bandwidth on (the matrix read and written once), diff. trtri: lower, in place;
trtri_kept: lower, the input kept (out of place); trtri_upper_unit: upper with a unit diagonal,
in place. "on" serves n from --first to 128 (and with --threads NT:THREADS,... those thread
counts a block).
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


def settings(on, dtype, first, threads, defaults):
    gchol.TENSOR_TRTRI_RANGE = {dtype: (first, gchol.TENSOR_MAX)} if on else {}
    gchol.TENSOR_TRTRI_THREADS = {**defaults, **threads} if on else defaults
    gchol._tensor_trtri_config.cache_clear()


def operands(op, dtype, batch, n):
    """(the operand the call overwrites, its original, the call)."""
    l, _ = gchol.potrf(spd_batch(batch, n, numpy.dtype(dtype)), True)
    if op == "poti":
        a = spd_batch(batch, n, numpy.dtype(dtype))
        return a, a.copy(), lambda w: gchol.poti(w, True)
    if op == "potri":
        return l, l.copy(), lambda w: gchol.potri(w, True)
    if op == "trtri_upper_unit":
        u = cupy.ascontiguousarray(l.swapaxes(1, 2))
        return u, u.copy(), lambda w: gtri.trtri(w, False, True)
    keep = ("a",) if op == "trtri_kept" else ()
    return l, l.copy(), lambda w: gtri.trtri(w, True, False, keep=keep)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="80,96,128,192,256")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--ops", default="trtri,trtri_kept,trtri_upper_unit,potri,poti")
    parser.add_argument("--dtypes", default="float64")
    parser.add_argument("--first", type=int, default=65)
    parser.add_argument("--threads", default="")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    threads = {int(k): int(v) for k, v in (p.split(":") for p in args.threads.split(",") if p)}
    rules = dict(gchol.TENSOR_TRTRI_RANGE), dict(gchol.TENSOR_TRTRI_THREADS)
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth:.0f} GB/s; on: n from {args.first}, threads "
          f"{ {**rules[1], **threads} }\n")
    print("| op | dtype | n | batch | off ms | on ms | off / on | % bw on | diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    for dtype in args.dtypes.split(","):
        for n in (int(v) for v in args.sizes.split(",")):
            for batch in (int(v) for v in args.batches.split(",")):
                for op in args.ops.split(","):
                    work, original, fn = operands(op, dtype, batch, n)
                    reset = lambda: cupy.copyto(work, original)  # noqa: E731
                    call = lambda: fn(work)  # noqa: E731
                    apply = lambda on: settings(on, dtype, args.first, threads,  # noqa: E731
                                                rules[1])
                    times, _, diff = alternate(call, reset, lambda out: out[0], (False, True),
                                               apply, args.rounds)
                    off, on = statistics.median(times[False]), statistics.median(times[True])
                    item = numpy.dtype(dtype).itemsize
                    pct = 2 * batch * n * n * item / (on * 1e-3) / 1e9 / bandwidth * 100
                    print(f"| {op} | {dtype} | {n} | {batch} | "
                          + " / ".join(f"{t:.3f}" for t in times[False]) + " | "
                          + " / ".join(f"{t:.3f}" for t in times[True])
                          + f" | {off / on:.2f} | {pct:.0f} | {diff:.1e} |", flush=True)
                    del work, original
                    cupy.get_default_memory_pool().free_all_blocks()
    gchol.TENSOR_TRTRI_RANGE, gchol.TENSOR_TRTRI_THREADS = rules
    gchol._tensor_trtri_config.cache_clear()


if __name__ == "__main__":
    main()
