"""Where the small-batch vendor paths stop paying: our recursion (or TRSV kernel) against the
vendor path of the same operation, both through our backend, over batch counts.

    python3 scripts/bench_crossover.py [--quick] [--output DIR] [--dtype float64]

For each operation with a small-batch rule (linalg/tuning/*.json, read by
linalg/_cuda/triangular.small_batch), n in 64..512 and batch counts 1, 4, 16, ... up to
batch * n ~ 5e5: the median time of each path (CUDA events, scripts/bench_cholesky.timeit), the
crossover batch (geometric middle of the last batch where the vendor path wins and the first
where ours does) and batch * n there, and the "vendor_below" rule those crossovers make (a JSON
object per operation, one bound per size class, for linalg/tuning/*.json). Writes crossover.md,
crossover.csv and crossover_rules.json under --output; the tuning tables' H100 values come from it.
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

OPS = ("potrf", "potrs", "potrs_vector", "trsm", "trtri", "potri", "trsv")
SIZES = (64, 128, 256, 512)
MAX_BATCH_N = 530_000


def batches(n, quick):
    out, b = [], 1
    while b * n <= MAX_BATCH_N:
        out.append(b)
        b *= 16 if quick else 4
    return out


def setup(op, n, batch, dtype):
    """(call, reset) for ``op`` on fresh data: call runs our backend, reset restores inputs."""
    import cupy
    import bench_cholesky as bc
    from linalg._cuda import cholesky as gchol, triangular as gtri, trsv as gtrsv
    a = bc.spd_batch(batch, n, dtype)
    l, _ = gchol.potrf(a.copy(), True)
    work = cupy.empty_like(a)
    gen = cupy.random.default_rng(1)
    nrhs = 1 if op in ("potrs_vector", "trsv") else n
    b = gen.standard_normal((batch, n, nrhs), dtype=numpy.float64).astype(dtype)
    bw = cupy.empty_like(b)
    x, xw = b[:, :, 0].copy(), cupy.empty((batch, n), dtype=dtype)
    calls = {
        "potrf": (lambda: gchol.potrf(work, True), lambda: cupy.copyto(work, a)),
        "potrs": (lambda: gchol.potrs(l, bw, True), lambda: cupy.copyto(bw, b)),
        "potrs_vector": (lambda: gchol.potrs(l, bw, True), lambda: cupy.copyto(bw, b)),
        "trsm": (lambda: gtri.trsm(l, bw, "left", True, "N", False, 1.0), lambda: cupy.copyto(bw, b)),
        "trtri": (lambda: gtri.trtri(work, True, False), lambda: cupy.copyto(work, l)),
        "potri": (lambda: gchol.potri(work, True), lambda: cupy.copyto(work, l)),
        "poti": (lambda: gchol.poti(work, True), lambda: cupy.copyto(work, a)),
        "lauum": (lambda: gtri.lauum(work, True), lambda: cupy.copyto(work, l)),
        "trsv": (lambda: gtrsv.trsv(l, xw, lower=True), lambda: cupy.copyto(xw, x)),
    }
    return calls[op]


def measure(op, n, batch, dtype, vendor):
    """Median ms of ``op`` with the small-batch vendor path forced on or off."""
    bound = 10**12 if vendor else 0
    return measure_with(op, n, batch, dtype, "vendor_below", lambda o, d, n: bound)


def measure_with(op, n, batch, dtype, rule, replacement):
    """Median ms of ``op`` while linalg/_cuda/triangular.py's routing function ``rule`` (e.g.
    "vendor_below", "one_launch_below") is ``replacement``; the original is restored."""
    import bench_cholesky as bc
    from linalg._cuda import triangular as gtri
    saved = getattr(gtri, rule)
    setattr(gtri, rule, replacement)
    try:
        call, reset = setup(op, n, batch, dtype)
        return bc.timeit(call, reset, reps=10)
    finally:
        setattr(gtri, rule, saved)


def crossover(points):
    """Batch where ours starts to win: geometric middle of the last vendor win and the first
    batch from which ours wins at every larger batch measured (None: the vendor always wins;
    0: ours always wins)."""
    first_ours = None
    for i in range(len(points) - 1, -1, -1):
        batch, ours, vend = points[i]
        if ours > vend:
            break
        first_ours = i
    if first_ours is None:
        return None
    if first_ours == 0:
        return 0
    return math.sqrt(points[first_ours - 1][0] * points[first_ours][0])


def rules(summary, max_batch_n=MAX_BATCH_N):
    """{op: {"vendor_below": {size class: batch * n bound, "*": the largest}}} from the
    (op, n, crossover batch) triples: 0 where ours always won, the largest batch * n measured
    where the vendor path always did."""
    out = {}
    for op, n, c in summary:
        bound = max_batch_n if c is None else int(round(c * n))
        out.setdefault(op, {"vendor_below": {}})["vendor_below"][str(n)] = bound
    for rule in out.values():
        rule["vendor_below"]["*"] = max(rule["vendor_below"].values())
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--ops", default=",".join(OPS))
    args = parser.parse_args(argv)
    dtype = numpy.dtype(args.dtype)
    rows, summary = [], []
    lines = [f"# small-batch crossovers (scripts/bench_crossover.py), {dtype.name}", "",
             "| op | n | batch | ours ms | vendor path ms | ours/vendor speed |",
             "|---|---|---|---|---|---|"]
    for op in args.ops.split(","):
        for n in SIZES:
            points = []
            for batch in batches(n, args.quick):
                ours = measure(op, n, batch, dtype, vendor=False)
                vend = measure(op, n, batch, dtype, vendor=True)
                points.append((batch, ours, vend))
                rows.append({"op": op, "dtype": dtype.name, "n": n, "batch": batch,
                             "ours_ms": round(ours, 4), "vendor_ms": round(vend, 4)})
                line = f"| {op} | {n} | {batch} | {ours:.4f} | {vend:.4f} | {vend / ours:.2f} |"
                print(line, flush=True)
                lines.append(line)
            c = crossover(points)
            summary.append((op, n, c))
    lines += ["", "| op | n | crossover batch | batch * n |", "|---|---|---|---|"]
    for op, n, c in summary:
        text = ("vendor at every batch measured", "-") if c is None else \
            (("ours at every batch measured", "0") if c == 0 else (f"{c:.0f}", f"{c * n:.0f}"))
        lines.append(f"| {op} | {n} | {text[0]} | {text[1]} |")
    print("\n".join(lines[-len(summary) - 3:]))
    suggested = rules(summary)
    print(json.dumps(suggested))
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "crossover.md").write_text("\n".join(lines) + "\n")
        (args.output / "crossover_rules.json").write_text(json.dumps(suggested, indent=1) + "\n")
        with open(args.output / "crossover.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
