"""The one-launch triangle kernels at NT = 5-6 (device probe): n = 129..192 (cholesky.TRIANGLE_MAX)
on kernels/potrf.cu chol_tensor, chol_tensor_trtri and chol_tensor_inverse (one block an SM,
384 threads) against the committed paths, through the backend calls (linalg._cuda.cholesky.potrf,
potri, poti, linalg._cuda.triangular.trtri; in place, lower; the operand reset before each call,
ms between CUDA events: bench_cholesky.timeit), the settings alternated over --rounds
(bench_cholesky.alternate), and the largest difference of the results over the largest entry.

    python3 scripts/probe_triangle_192.py [--sizes 160,192] [--batches 1000,10240]
                                          [--ops potrf,trtri,potri,poti] [--rounds 2]

Settings: "base" the committed rules; "trtri" TRTRI on chol_tensor_trtri up to 192 (a whole
matrix, POTRI's / POTI's TRTRI, the recursion's blocks); "fused" also POTRI / POTI on
chol_tensor_inverse up to 192 (POTI at every batch) and POTRF on chol_tensor up to 192 (ahead of
chol_left); "two_step" (poti only) POTRF on chol_tensor then POTRI on chol_tensor_inverse.
One markdown row per (op, n, batch): each setting's ms (medians of the rounds), base / setting,
% of the copy bandwidth (the matrix read and written once) of the fastest, diff.
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

NAMES = ("TENSOR_TRTRI_RANGE", "TENSOR_INVERSE_RANGE", "TENSOR_INVERSE_BELOW", "TENSOR_RANGE",
         "LEFT_RULES")
SETTINGS = {"potrf": ("base", "fused"), "trtri": ("base", "trtri"),
            "potri": ("base", "trtri", "fused"), "poti": ("base", "trtri", "fused", "two_step")}


def apply(setting, committed):
    """Set the rules of ``setting`` (committed: the module's rules as imported)."""
    rules = {name: dict(value) for name, value in committed.items()}
    last = gchol.TRIANGLE_MAX
    if setting != "base":
        rules["TENSOR_TRTRI_RANGE"]["float64"] = (65, last)
    if setting in ("fused", "two_step"):
        for op in ("potri", "poti"):
            rules["TENSOR_INVERSE_RANGE"][(op, "float64")] = (33, last)
        if setting == "fused":
            rules["TENSOR_INVERSE_BELOW"] = {}
        else:
            rules["TENSOR_INVERSE_BELOW"] = {("poti", "float64"): (33, last, 1)}
        rules["TENSOR_RANGE"]["float64"] = (33, last)
        rules["LEFT_RULES"]["float64"] = left_rows_above(committed["LEFT_RULES"]["float64"],
                                                         last)
    for name, value in rules.items():
        setattr(gchol, name, value)


def left_rows_above(rows, last):
    """chol_left's rows (first n, last n, first batch) without n = TENSOR_MAX + 1 .. last."""
    kept = []
    for first, end, batch in rows:
        if first > gchol.TENSOR_MAX:
            first = max(first, last + 1)
        if first <= end:
            kept.append((first, end, batch))
    return tuple(kept)


def operands(op, batch, n):
    """(the operand the call overwrites, its original, the call)."""
    a = spd_batch(batch, n, numpy.float64)
    if op == "potrf":
        return a, a.copy(), lambda w: gchol.potrf(w, True)
    if op == "poti":
        return a, a.copy(), lambda w: gchol.poti(w, True)
    l, _ = gchol.potrf(a, True)
    if op == "potri":
        return l, l.copy(), lambda w: gchol.potri(w, True)
    return l, l.copy(), lambda w: gtri.trtri(w, True, False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="160,192")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--ops", default="potrf,trtri,potri,poti")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    committed = {name: getattr(gchol, name) for name in NAMES}
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth:.0f} GB/s\n")
    print("| op | n | batch | ms by setting | base / setting | % bw best | diff |")
    print("|---|---|---|---|---|---|---|")
    try:
        for n in (int(v) for v in args.sizes.split(",")):
            for batch in (int(v) for v in args.batches.split(",")):
                for op in args.ops.split(","):
                    work, original, fn = operands(op, batch, n)
                    settings = SETTINGS[op]
                    times, _, diff = alternate(
                        lambda: fn(work), lambda: cupy.copyto(work, original),
                        lambda out: out[0], settings, lambda s: apply(s, committed), args.rounds)
                    ms = {s: statistics.median(times[s]) for s in settings}
                    best = min(ms.values())
                    pct = 2 * batch * n * n * 8 / (best * 1e-3) / 1e9 / bandwidth * 100
                    print(f"| {op} | {n} | {batch} | "
                          + ", ".join(f"{s} {ms[s]:.3f}" for s in settings) + " | "
                          + ", ".join(f"{ms['base'] / ms[s]:.2f}" for s in settings[1:])
                          + f" | {pct:.0f} | {diff:.1e} |", flush=True)
                    del work, original
                    cupy.get_default_memory_pool().free_all_blocks()
    finally:
        apply("base", committed)


if __name__ == "__main__":
    main()
