"""Two bench_cholesky.py CSVs of the same cells side by side (scripts/ab_kernels.sh: the kernels
before and after a change, timed in one device call): backend ms before and after, their ratio
(> 1: the change is faster), the speedup over the vendor and the % of the copy bandwidth of both.

    python3 scripts/ab_table.py BEFORE.csv AFTER.csv

Cells missing from one side are listed after the table.
"""
import argparse
import csv

KEY = ("op", "dtype", "n", "batch")


def read(path):
    with open(path, newline="") as f:
        return {tuple(r[k] for k in KEY): r for r in csv.DictReader(f)}


def table(before, after):
    """Markdown lines: one row per cell measured on both sides, in the order of ``before``."""
    lines = ["| op | dtype | n | batch | before ms | after ms | before / after | speedup before "
             "| after | % bw before | after |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key, b in before.items():
        a = after.get(key)
        if a is None:
            continue
        ratio = float(b["backend_ms"]) / float(a["backend_ms"])
        lines.append(f"| {' | '.join(key)} | {b['backend_ms']} | {a['backend_ms']} | {ratio:.2f} | "
                     f"{b['speedup']} | {a['speedup']} | {b['pct_bw']} | {a['pct_bw']} |")
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
