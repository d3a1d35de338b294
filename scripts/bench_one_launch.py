"""Where the one-launch small-batch path stops paying: POTRF, TRTRI, POTRI and POTI with
LEAF < n <= 64 as one chol_small<T, 64> launch against the default path without it (the
left-looking panels / recursion, or the vendor path where the tuning table's small-batch rule
sends the batch), both through our backend, over batch counts.

    python3 scripts/bench_one_launch.py [--quick] [--output DIR] [--block]

--block does the same for chol_block (65 <= n <= 128, n = 65, 96, 128, LAUUM too, batch 1..1600)
and its BLOCK_LAUNCH_BELOW bounds; --pair for TRSM and POTRS (n right-hand sides) as one
tri_pair launch (n = 33, 48, 64) and its PAIR_LAUNCH_BELOW bounds.

For n = 33, 48, 64, float64 and float32, batch 1, 4, 16, ... 16384: the median time of each path
(CUDA events, scripts/bench_cholesky.timeit), the batch where the default path starts to win
(scripts/bench_crossover.crossover), and the ONE_LAUNCH_BELOW bound per operation that those
crossovers give (the smallest over n per op and dtype; linalg/_cuda/triangular.py holds the
values).
Writes one_launch.md and one_launch.csv under --output.
"""
import argparse
import csv
import json
import math
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

OPS = ("potrf", "trtri", "potri", "poti")
SIZES = (33, 48, 64)
BATCHES = (1, 4, 16, 64, 256, 1024, 2048, 4096, 16384)
# --block: chol_block (65 <= n <= 128), its rule and the ops it serves.
BLOCK_OPS = OPS + ("lauum",)
BLOCK_SIZES = (65, 96, 128)
BLOCK_BATCHES = (1, 8, 32, 100, 200, 400, 800, 1600)
# --pair: tri_pair as one launch (LEAF < n <= PAIR_MAX) for TRSM and POTRS.
PAIR_OPS = ("trsm", "potrs")


def measure(op, n, batch, dtype, one_launch, rule="one_launch_below"):
    """Median ms of ``op`` with the one-launch path (routing function ``rule``) forced on or off."""
    from bench_crossover import measure_with
    bound = 10**12 if one_launch else 0
    return measure_with(op, n, batch, dtype, rule, lambda o, d: bound)


def bound(points):
    """ONE_LAUNCH_BELOW from (batch, default ms, one-launch ms) points: the batch from which the
    default path wins for good (bench_crossover.crossover, rounded down), the largest batch
    measured where the one launch always won, 0 where it never did."""
    from bench_crossover import crossover
    c = crossover(points)
    return points[-1][0] if c is None else int(c)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="n = 64 and four batch counts only")
    parser.add_argument("--output", type=Path, default=Path("out/one_launch"))
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--block", action="store_true",
                      help="chol_block for 65 <= n <= 128 (BLOCK_LAUNCH_BELOW; writes "
                           "block_launch.md/.csv) instead of chol_small<T, 64>")
    mode.add_argument("--pair", action="store_true",
                      help="TRSM / POTRS by one tri_pair launch for 33 <= n <= 64 "
                           "(PAIR_LAUNCH_BELOW; writes pair_launch.md/.csv)")
    args = parser.parse_args(argv)
    args.output.mkdir(parents=True, exist_ok=True)
    ops, rule, stem = OPS, "one_launch_below", "one_launch"
    sizes = (64,) if args.quick else SIZES
    batches = BATCHES[::2] if args.quick else BATCHES
    if args.block:
        ops, rule, stem = BLOCK_OPS, "block_launch_below", "block_launch"
        sizes = (128,) if args.quick else BLOCK_SIZES
        batches = BLOCK_BATCHES[::2] if args.quick else BLOCK_BATCHES
    if args.pair:
        ops, rule, stem = PAIR_OPS, "pair_launch_below", "pair_launch"
    rows, bounds = [], {}
    lines = ["| op | dtype | n | batch | one launch ms | default ms | ratio |", "|---|---|---|---|---|---|---|"]
    for op in ops:
        for dtype in (numpy.float64, numpy.float32):
            name = numpy.dtype(dtype).name
            for n in sizes:
                points = []
                for batch in batches:
                    one = measure(op, n, batch, dtype, True, rule)
                    default = measure(op, n, batch, dtype, False, rule)
                    points.append((batch, default, one))
                    rows.append([op, name, n, batch, f"{one:.4f}", f"{default:.4f}"])
                    lines.append(f"| {op} | {name} | {n} | {batch} | {one:.4f} | {default:.4f} | "
                                 f"{default / one:.2f} |")
                    print(lines[-1], flush=True)
                below = bound(points)
                bounds[f"{op} {name}"] = min(bounds.get(f"{op} {name}", math.inf), below)
                lines.append(f"| {op} | {name} | {n} | one launch below batch {below} | | | |")
    table = {"block_launch": "BLOCK_LAUNCH_BELOW", "pair_launch": "PAIR_LAUNCH_BELOW"}.get(
        stem, "ONE_LAUNCH_BELOW")
    lines += ["", f"{table} (smallest crossover batch per op and dtype): " + json.dumps(bounds)]
    (args.output / f"{stem}.md").write_text("\n".join(lines) + "\n")
    with open(args.output / f"{stem}.csv", "w", newline="") as f:
        csv.writer(f).writerows([["op", "dtype", "n", "batch", "one_launch_ms", "default_ms"]] + rows)
    print(lines[-1])


if __name__ == "__main__":
    main()
