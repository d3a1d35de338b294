"""The README's headline table from the benchmark CSVs: speedup of the public API over the best
vendor path, float64 (or --dtype), batch 10 240, one row per operation, one column per n.

    python3 scripts/bench_table.py reports/<run>/bench_cholesky.csv reports/<run>/bench_blas.csv
    python3 scripts/bench_table.py ... --targets     # the cells short of the issues' targets
    python3 scripts/bench_table.py OLD/bench_cholesky.csv ... --update NEW/bench_cholesky.csv
                                                     # cells of a later, partial run replace OLD's

Cholesky-family rows come from bench_cholesky.csv (column n); GEMV-N, GEMM-NN and TRSV from the
square rows of bench_blas.csv, GEBRD against torch svdvals. A cell is "vendor" where the public
call dispatches to the vendor (bench_blas "dispatch"), "-" where the row was not measured.
With --targets: every measured cell (n <= 256) that misses the speedup or bandwidth target of
issues 3 and 4 (TARGETS), one line each, with what the same run measured around it in brackets
(the kernel's share of the call; the same op and n at the largest batch measured); then the
hydro-shape rows of bench_blas that miss issue 4's targets for them (:func:`hydro_misses`).
"""
import argparse
import csv
import math
import re

SIZES = (4, 8, 16, 32, 64, 128, 256)
CHOLESKY = (("potrf", "potrf"), ("potrs1", "potrs (1 rhs)"), ("posvn", "posv (n rhs)"),
            ("potrsn", "potrs (n rhs)"), ("trsm", "trsm"), ("trmm", "trmm"), ("syrk", "syrk"),
            ("trtri", "trtri"), ("lauum", "lauum"), ("potri", "potri"), ("poti", "poti"))
BLAS = (("trsv_LN", "trsv (1 rhs)"), ("gemv_N", "gemv N"), ("gemm_NN", "gemm NN"),
        ("gebrd", "gebrd vs svdvals"))


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def updated(rows, newer):
    """``rows`` with each (op, dtype, n, batch) cell that ``newer`` (bench_cholesky rows of a later
    run) measured replaced by the newer row, in the order of ``rows``; newer cells not in
    ``rows`` appended."""
    key = lambda r: (r["op"], r["dtype"], r["n"], r["batch"])  # noqa: E731
    fresh = {key(r): r for r in newer}
    out = [fresh.pop(key(r), r) for r in rows]
    return out + list(fresh.values())


def latest_blas_rows(runs):
    """The rows of several bench_blas runs (lists of rows, oldest first), each (op, dtype, shape,
    batch) cell once: the latest run's row, in the order the cells first appear."""
    key = lambda r: (r["op"], r["dtype"], r["shape"], r["batch"])  # noqa: E731
    cells = {}
    for rows in runs:
        for r in rows:
            cells[key(r)] = r
    return list(cells.values())


def cell(row):
    if row is None:
        return "-"
    if row.get("dispatch") == "vendor":
        return "vendor"
    try:
        ratio = float(row["speedup"])
    except (KeyError, ValueError):
        return "-"
    # Two significant digits, cut rather than rounded: a cell never reads more than was measured
    # (9.98x is 9.9x, not the 10x a target asks for). The 1e-9 keeps 2.3 * 10 = 22.999... from
    # cutting to 2.2 (the CSV's decimals are what was measured).
    digits = 0 if ratio >= 10 else 1
    cut = math.floor(ratio * 10 ** digits + 1e-9) / 10 ** digits
    return f"{cut:.{digits}f}x".replace(".0x", "x")


def square_n(shape):
    """n of a bench_blas square shape ('32', '32x32', '32^3'), None for other shapes."""
    dims = [int(d) for d in re.findall(r"\d+", shape.replace("^3", ""))]
    return dims[0] if dims and all(d == dims[0] for d in dims) else None


def table(cholesky_rows, blas_rows, dtype, batch):
    lines = ["| op | " + " | ".join(f"n={n}" for n in SIZES) + " |",
             "| --- |" + " --- |" * len(SIZES)]
    by_op = {}
    for r in cholesky_rows:
        if r["dtype"] == dtype and int(r["batch"]) == batch:
            by_op[(r["op"], int(r["n"]))] = r
    for r in blas_rows:
        n = square_n(r["shape"])
        if r["dtype"] == dtype and int(r["batch"]) == batch and n is not None:
            by_op[(r["op"], n)] = r
    for key, label in CHOLESKY + BLAS:
        lines.append(f"| {label} | " + " | ".join(cell(by_op.get((key, n))) for n in SIZES) + " |")
    return "\n".join(lines)


# (op, first n, last n) -> (minimum speedup over the vendor, minimum % of the copy bandwidth or
# None); issue 3 (Cholesky family, triangular BLAS: batch 10 240) and issue 4 (TRSV, square
# GEMV / GEMM, GEBRD against torch svdvals). TRMM and SYRK: faster than the dense product.
TARGETS = {
    ("potrf", 2, 15): (4, None), ("potrf", 16, 32): (4, 60), ("potrf", 64, 64): (2.5, 60),
    ("potrf", 65, 255): (2.5, None), ("potrf", 256, 256): (2.5, 35),
    **{(op, lo, hi): t for op in ("potrs1", "potrsn", "posvn")
       for lo, hi, t in ((2, 15, (3, None)), (16, 32, (3, 60)), (64, 128, (2, 60)),
                         (129, 256, (2, None)))},
    ("trsm", 2, 32): (3, 50), ("trsm", 64, 256): (2, 50),
    ("trmm", 2, 256): (1, None), ("syrk", 2, 256): (1, None),
    **{(op, lo, hi): t for op in ("trtri", "lauum", "potri", "poti")
       for lo, hi, t in ((2, 32, (4, 40)), (64, 256, (3, 40)))},
    ("trsv_LN", 2, 31): (3, None), ("trsv_LN", 32, 256): (3, 60),
    ("gemv_N", 2, 32): (1.5, None), ("gemv_N", 64, 256): (0.95, 85),
    ("gemv_T", 2, 32): (1.5, None), ("gemv_T", 64, 256): (0.95, 85),
    ("gemm_NN", 2, 16): (1.5, None), ("gemm_NN", 32, 256): (0.95, None),
    ("gebrd", 2, 64): (10, None),
}


def target_of(op, n):
    for (name, lo, hi), target in TARGETS.items():
        if name == op and lo <= n <= hi:
            return target
    return None


def evidence(row, larger, larger_pct):
    """What the same run measured around a missed cell, as text ('' if nothing): the kernel's
    share of the call (bench_blas kernel_ms) where it is under half of it, and the cell at the
    largest batch measured for it (its speedup, bandwidth and how the time grew with the batch):
    where 10x the matrices take a few times the time, fixed per-call costs dominate the cell."""
    notes = []
    try:
        kernel, ours = float(row.get("kernel_ms") or "nan"), float(row["ours_ms"])
    except (KeyError, ValueError):
        kernel = ours = float("nan")
    if kernel < 0.5 * ours:
        notes.append(f"the kernel is {kernel:.4g} of the call's {ours:.4g} ms")
    if larger is not None:
        growth = int(larger["batch"]) / int(row["batch"])
        text = f"batch {int(larger['batch']):,}".replace(",", " ") + f": {float(larger['speedup']):.2f}x"
        if larger_pct not in (None, ""):
            text += f", {float(larger_pct):.0f} % of the copy bandwidth"
        try:
            scale = float(larger["ours_ms"]) / float(row["ours_ms"])
            text += f" ({growth:.3g}x the matrices in {scale:.2g}x the time)"
        except (KeyError, ValueError, ZeroDivisionError):
            pass
        notes.append(text)
    return "; ".join(notes)


def misses(cholesky_rows, blas_rows, dtype, batch):
    """Markdown list items 'op n = ..: what missed (target) [evidence]', one per cell short of a
    target (a missed speedup with the share of the copy bandwidth that reaching it would take);
    the evidence (see :func:`evidence`) comes from the same CSVs."""
    lines = []
    rows = [(r["op"], int(r["n"]), r, r.get("pct_bw")) for r in cholesky_rows]
    rows += [(r["op"], square_n(r["shape"]), r, r.get("pct_copy")) for r in blas_rows]
    largest = {}                     # (op, n, dtype) -> (row, pct) at the largest batch > batch
    for op, n, r, pct in rows:
        key = (op, n, r["dtype"])
        if n is not None and int(r["batch"]) > batch and (
                key not in largest or int(r["batch"]) > int(largest[key][0]["batch"])):
            largest[key] = (r, pct)
    for op, n, r, pct in rows:
        if n is None or r["dtype"] != dtype or int(r["batch"]) != batch:
            continue
        target = target_of(op, n)
        if target is None or r.get("dispatch") == "vendor" and op == "gemm_NN":
            continue
        try:
            speedup = float(r["speedup"])
        except ValueError:
            continue
        missed = []
        if speedup < target[0]:
            # The target's time is vendor / target: the bandwidth it needs scales by target /
            # speedup (over 100 %: out of reach of a kernel that moves the cell's bytes once).
            need = (f", which needs {float(pct) * target[0] / speedup:.0f} % of the copy "
                    "bandwidth" if pct not in (None, "") and speedup > 0 else "")
            missed.append(f"{speedup:.2f}x the vendor (target {target[0]}x{need})")
        if target[1] is not None and pct not in (None, "") and float(pct) < target[1]:
            missed.append(f"{float(pct):.0f} % of the copy bandwidth (target {target[1]} %)")
        if missed:
            larger, larger_pct = largest.get((op, n, dtype), (None, None))
            note = evidence(r, larger, larger_pct)
            lines.append(f"- {op} n = {n}: " + "; ".join(missed) + (f" [{note}]" if note else ""))
    return lines


# Issue 4's targets for the hydro shapes (bench_blas's non-square GEMV rows and its gemm_AzBt
# rows, the corner force A_z B^T): GEMV N and T at batch >= 40 960 >= 80 % of the copy
# bandwidth; the GEMM at batch >= 10 240 >= 2x the vendor or >= 80 % of the copy bandwidth (the
# roofline that binds these memory-bound products). bench_blas runs the GEMV shapes at 40 960
# and 262 144 matrices (fewer where an operand would pass 4 GiB) and at 10 240: the rows above
# 10 240 are the 40 960 series.
HYDRO_PCT = 80
HYDRO_GEMM_SPEEDUP = 2
HYDRO_GEMV_ABOVE = 10240
HYDRO_GEMM_FROM = 10240


def hydro_misses(blas_rows, dtype):
    """Markdown list items, one per hydro-shape row of ``dtype`` short of issue 4's target, with
    the kernel's share of the call where it is under half (:func:`evidence`)."""
    lines = []
    for r in blas_rows:
        op, batch = r["op"], int(r["batch"])
        gemv = op in ("gemv_N", "gemv_T") and square_n(r["shape"]) is None \
            and batch > HYDRO_GEMV_ABOVE
        gemm = op == "gemm_AzBt" and batch >= HYDRO_GEMM_FROM
        if r["dtype"] != dtype or not (gemv or gemm):
            continue
        speedup, pct = float(r["speedup"]), float(r["pct_copy"])
        if pct >= HYDRO_PCT or (gemm and speedup >= HYDRO_GEMM_SPEEDUP):
            continue
        target = (f"{HYDRO_GEMM_SPEEDUP}x the vendor or {HYDRO_PCT} %" if gemm
                  else f"{HYDRO_PCT} %")
        note = evidence(r, None, None)
        lines.append(f"- {op} {r['shape']} batch {batch}: {speedup:.2f}x the vendor, {pct:.1f} % "
                     f"of the copy bandwidth (target {target})" + (f" [{note}]" if note else ""))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cholesky_csv")
    ap.add_argument("blas_csv", nargs="+",
                    help="bench_blas CSVs; a row of a later file replaces the same cell of an earlier one")
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--batch", type=int, default=10240)
    ap.add_argument("--targets", action="store_true", help="list the cells short of a target")
    ap.add_argument("--update", action="append", default=[], metavar="CSV",
                    help="bench_cholesky CSV of a later run whose cells replace the same cells of "
                         "cholesky_csv (repeatable, in order)")
    args = ap.parse_args(argv)
    blas_rows = latest_blas_rows([read(path) for path in args.blas_csv])
    cholesky_rows = read(args.cholesky_csv)
    for path in args.update:
        cholesky_rows = updated(cholesky_rows, read(path))
    if args.targets:
        print("\n".join(misses(cholesky_rows, blas_rows, args.dtype, args.batch)
                        + hydro_misses(blas_rows, args.dtype)))
    else:
        print(table(cholesky_rows, blas_rows, args.dtype, args.batch))


if __name__ == "__main__":
    main()
