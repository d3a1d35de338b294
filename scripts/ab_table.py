"""Two bench_cholesky.py CSVs of the same cells side by side (scripts/ab_kernels.sh: the code
before and after a change, timed in one device call): backend ms before and after, their ratio
(> 1: the change is faster), the speedup over the vendor and the % of the copy bandwidth of both;
where both CSVs hold ``fresh_ms`` values (bench_cholesky.py --fresh: the copy-free default call),
also the fresh ms before and after and their ratio.

    python3 scripts/ab_table.py BEFORE.csv AFTER.csv

bench_blas.py CSVs work too: cells keyed by shape instead of n, its kernel_ms (the kernel alone,
forced) in place of backend_ms and pct_copy in place of pct_bw. Cells missing from one side are
listed after the table.
"""
import argparse
import csv

KEY = ("op", "dtype", "n", "batch")
# bench_blas.py's names for KEY's n, backend_ms and pct_bw
BLAS_NAMES = {"n": "shape", "backend_ms": "kernel_ms", "pct_bw": "pct_copy"}


def _normal(row):
    """A bench_blas.py row under bench_cholesky.py's column names (other rows unchanged)."""
    if "n" in row or "shape" not in row:
        return row
    return {**row, **{ours: row.get(blas, "") for ours, blas in BLAS_NAMES.items()}}


def read(path):
    with open(path, newline="") as f:
        rows = (_normal(r) for r in csv.DictReader(f))
        return {tuple(r[k] for k in KEY): r for r in rows}


def _ms(row, col):
    """float of row[col], None where absent, empty or NaN."""
    try:
        value = float(row.get(col) or "nan")
    except ValueError:
        return None
    return None if value != value else value


def _ratio(before, after):
    return f"{before / after:.2f}" if before is not None and after else "-"


def table(before, after):
    """Markdown lines: one row per cell measured on both sides, in the order of ``before``; the
    fresh_ms columns only where some cell has a fresh_ms value on both sides."""
    pairs = [(key, b, after[key]) for key, b in before.items() if key in after]
    fresh = any(_ms(b, "fresh_ms") is not None and _ms(a, "fresh_ms") is not None
                for _, b, a in pairs)
    key_name = "shape" if pairs and all("shape" in b for _, b, _ in pairs) else "n"   # bench_blas
    head = (f"| op | dtype | {key_name} | batch | before ms | after ms | before / after "
            "| speedup before | after | % bw before | after |")
    rule = "|---|---|---|---|---|---|---|---|---|---|---|"
    if fresh:
        head += " fresh ms before | after | before / after |"
        rule += "---|---|---|"
    lines = [head, rule]
    for key, b, a in pairs:
        ratio = _ratio(_ms(b, "backend_ms"), _ms(a, "backend_ms"))
        line = (f"| {' | '.join(key)} | {b['backend_ms']} | {a['backend_ms']} | {ratio} | "
                f"{b['speedup']} | {a['speedup']} | {b['pct_bw']} | {a['pct_bw']} |")
        if fresh:
            fb, fa = _ms(b, "fresh_ms"), _ms(a, "fresh_ms")
            line += (f" {b['fresh_ms'] if fb is not None else '-'} | "
                     f"{a['fresh_ms'] if fa is not None else '-'} | {_ratio(fb, fa)} |")
        lines.append(line)
    for side, rows, other in (("before", before, after), ("after", after, before)):
        missing = [" ".join(k) for k in rows if k not in other]
        if missing:
            lines.append(f"\nonly {side}: " + ", ".join(missing))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args(argv)
    print("\n".join(table(read(args.before), read(args.after))))


if __name__ == "__main__":
    main()
