"""Plot benchmark CSVs (scripts/bench_cholesky.py, bench_blas.py) as one figure per family.

    python scripts/plot_bench.py reports/<date>/bench_cholesky.csv reports/<date>/bench_blas.csv [--output DIR]

Each figure has one panel per operation: speedup over the vendor (bars, left axis, 1 = parity) and
the percentage of the copy bandwidth reached (dots, right axis), per size, float64 and float32.
"""
import argparse
import csv
import math
from collections import defaultdict
from pathlib import Path

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def panel(ax, rows, op):
    sizes = list(dict.fromkeys(r.get("n") or r.get("shape") for r in rows))
    width = 0.8 / 2
    twin = ax.twinx()
    for k, dtype in enumerate(("float64", "float32")):
        by_size = {(r.get("n") or r.get("shape")): r for r in rows if r["dtype"] == dtype}
        xs = [i + (k - 0.5) * width for i in range(len(sizes))]
        speed = [number(by_size[s]["speedup"]) if s in by_size else math.nan for s in sizes]
        pct = [number(by_size[s].get("pct_bw") or by_size[s].get("pct_copy")) if s in by_size else math.nan for s in sizes]
        ax.bar(xs, speed, width, label=f"speedup {dtype}", color=("tab:blue", "tab:orange")[k])
        twin.plot(xs, pct, "o", color=("navy", "darkred")[k], label=f"% copy BW {dtype}")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(range(len(sizes)), sizes, rotation=45, fontsize=7)
    ax.set_title(op, fontsize=9)
    ax.set_ylabel("x vendor", fontsize=8)
    twin.set_ylabel("% copy bandwidth", fontsize=8)
    twin.set_ylim(0, 110)


def plot_family(path, output):
    rows = read_rows(path)
    by_op = defaultdict(list)
    for r in rows:
        by_op[r["op"]].append(r)
    ops = list(by_op)
    cols = 3
    rows_n = math.ceil(len(ops) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(5 * cols, 3.2 * rows_n), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        panel(ax, by_op[op], op)
    for ax in list(axes.flat)[len(ops):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7, loc="upper left")
    fig.suptitle(f"{Path(path).stem}: ours vs vendor (bars) and % of copy bandwidth (dots)")
    fig.tight_layout()
    target = output / f"{Path(path).stem}.png"
    fig.savefig(target, dpi=110)
    print("wrote", target)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", type=Path)
    parser.add_argument("--output", type=Path, default=None, help="default: the CSV's folder")
    args = parser.parse_args(argv)
    for path in args.csv:
        out = args.output or path.parent
        out.mkdir(parents=True, exist_ok=True)
        plot_family(path, out)


if __name__ == "__main__":
    main()
