"""The README's headline table from the benchmark CSVs: speedup of the public API over the best
vendor path, float64 (or --dtype), batch 10 240, one row per operation, one column per n.

    python3 scripts/bench_table.py reports/<run>/bench_cholesky.csv reports/<run>/bench_blas.csv

Cholesky-family rows come from bench_cholesky.csv (column n); GEMV-N, GEMM-NN and TRSV from the
square rows of bench_blas.csv, GEBRD against torch svdvals. A cell is "vendor" where the public
call dispatches to the vendor (bench_blas "dispatch"), "-" where the row was not measured.
"""
import argparse
import csv
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


def cell(row):
    if row is None:
        return "-"
    if row.get("dispatch") == "vendor":
        return "vendor"
    try:
        ratio = float(row["speedup"])
    except (KeyError, ValueError):
        return "-"
    return f"{ratio:.2g}x" if ratio < 10 else f"{ratio:.0f}x"


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cholesky_csv")
    ap.add_argument("blas_csv", nargs="+",
                    help="bench_blas CSVs; a row of a later file replaces the same cell of an earlier one")
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--batch", type=int, default=10240)
    args = ap.parse_args(argv)
    blas_rows = [row for path in args.blas_csv for row in read(path)]
    print(table(read(args.cholesky_csv), blas_rows, args.dtype, args.batch))


if __name__ == "__main__":
    main()
