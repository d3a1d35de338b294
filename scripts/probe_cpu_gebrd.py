"""The CPU GEBRD's two paths against each other (linalg/_cpu/bidiag.py): LAPACK's blocked
algorithm (labrd panels and trailing GEMMs, the default for real matrices from BLOCKED_FROM on)
and the unblocked kernel, in alternating runs on the same float64 square batch.

    python3 scripts/probe_cpu_gebrd.py [--sizes 64 80 96 128 192 256] [--reps 5]

For each n: batch 1000 (64 / n)^3 (at least 20), the median wall time of each path over --reps
alternating runs, and their ratio (the numbers in linalg/_cpu/bidiag.py and the README).
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from linalg._cpu import bidiag  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 80, 96, 128, 192, 256])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args(argv)
    rng = numpy.random.default_rng(0)
    default = bidiag.BLOCKED_FROM
    print("| n | batch | unblocked ms | blocked ms | unblocked / blocked |")
    print("|---|---|---|---|---|")
    try:
        for n in args.sizes:
            batch = max(20, int(1000 * (64 / n) ** 3))
            a = rng.standard_normal((batch, n, n))
            times = {"unblocked": [], "blocked": []}
            for _ in range(args.reps):
                for path, bound in (("unblocked", n + 1), ("blocked", min(default, n))):
                    bidiag.BLOCKED_FROM = bound
                    work = a.copy()
                    start = time.perf_counter()
                    bidiag.gebrd(work)
                    times[path].append(time.perf_counter() - start)
            u, b = (statistics.median(times[p]) * 1e3 for p in ("unblocked", "blocked"))
            print(f"| {n} | {batch} | {u:.1f} | {b:.1f} | {u / b:.2f} |", flush=True)
    finally:
        bidiag.BLOCKED_FROM = default


if __name__ == "__main__":
    main()
