"""POSV with n right-hand sides (device probe): kernels/potrf.cu chol_tensor_solve's fused POSV
(the factorization in shared memory, never written) against POTRF then POTRS (chol_tensor /
chol_left, then chol_tensor_solve's POTRS) through the backend call linalg._cuda.cholesky.posv,
in place (A and B overwritten) and keeping both (the default public call), alternated over
--rounds; ms between CUDA events (bench_cholesky.timeit, the operands reset before each call),
and the largest difference of the two solutions over the largest entry. With --op poti the
same for POTI: chol_tensor_inverse's fused POTI against POTRF then POTRI (linalg._cuda.cholesky
.poti, A overwritten, or kept).

    python3 scripts/probe_posv_rule.py [--op posv] [--sizes 48,64,80,96] [--batches 1000,10240]
                                       [--rounds 2]

One markdown row per (n, batch, keep): fused ms, two-step ms (each round), fused / two-step
(medians), diff.
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
from linalg._cuda import cholesky as gchol  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="48,64,80,96")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--op", default="posv", choices=("posv", "poti"))
    args = parser.parse_args(argv)
    posv = args.op == "posv"
    ranges, belows = (("TENSOR_SOLVE_RANGE", "TENSOR_SOLVE_BELOW") if posv
                      else ("TENSOR_INVERSE_RANGE", "TENSOR_INVERSE_BELOW"))
    rule, below = dict(getattr(gchol, ranges)), dict(getattr(gchol, belows))
    setattr(gchol, belows, {})                     # the fused setting at every batch
    fused_on = {**rule, (args.op, "float64"): (33, 128)}
    fused_off = {k: v for k, v in rule.items() if k != (args.op, "float64")}
    print("| n | batch | keep | fused ms | two-step ms | fused / two-step | diff |")
    print("|---|---|---|---|---|---|---|")
    for n in (int(v) for v in args.sizes.split(",")):
        for batch in (int(v) for v in args.batches.split(",")):
            a = spd_batch(batch, n, numpy.float64)
            b = cupy.random.default_rng(3).standard_normal((batch, n, n))
            wa, wb = cupy.empty_like(a), cupy.empty_like(b)

            def reset():
                cupy.copyto(wa, a)
                cupy.copyto(wb, b)
            for keep in ((), ("a", "b") if posv else ("a",)):
                call = ((lambda: gchol.posv(wa, wb, True, keep=keep)) if posv  # noqa: E731
                        else (lambda: gchol.poti(wa, True, keep=keep)))
                apply = lambda fused: setattr(gchol, ranges,  # noqa: E731
                                              fused_on if fused else fused_off)
                times, _, diff = alternate(call, reset, lambda out: out[0], (False, True), apply,
                                           args.rounds)
                on, off = statistics.median(times[True]), statistics.median(times[False])
                print(f"| {n} | {batch} | {', '.join(keep) or '-'} | "
                      + " / ".join(f"{t:.3f}" for t in times[True]) + " | "
                      + " / ".join(f"{t:.3f}" for t in times[False])
                      + f" | {on / off:.2f} | {diff:.1e} |", flush=True)
            del a, b, wa, wb
            cupy.get_default_memory_pool().free_all_blocks()
    setattr(gchol, ranges, rule)
    setattr(gchol, belows, below)


if __name__ == "__main__":
    main()
