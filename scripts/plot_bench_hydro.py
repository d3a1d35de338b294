#!/usr/bin/env python
"""Plot scripts/bench_hydro.py results: zone-cycles/s against zones per path, and each stage's
share of the time.

    python scripts/plot_bench_hydro.py RESULT.csv [RESULT.csv ...] --png bench_hydro.png

Rows of every CSV are drawn together (e.g. one run with --reference and one at a larger mesh),
one line per (backend, path).
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STAGES = ("corner_force", "quadrature_update", "pcg", "energy_update", "dt_reduction", "other")


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", type=Path)
    parser.add_argument("--png", type=Path, default=Path("bench_hydro.png"))
    parser.add_argument("--title", default="3-D Sedov Q2-Q1, RK4")
    args = parser.parse_args(argv)
    rows = read_rows(args.csv)
    series = {}
    for r in rows:
        series.setdefault((r["backend"], r.get("path", "-")), []).append(r)
    fig, (rate, shares) = plt.subplots(1, 2, figsize=(11, 4.2))
    for (backend, path), rs in sorted(series.items()):
        rs = sorted(rs, key=lambda r: int(r["zones"]))
        label = backend if path == "-" else f"{backend} {path}"
        rate.loglog([int(r["zones"]) for r in rs], [float(r["zone_cycles_per_s"]) for r in rs],
                    "o-", label=label)
    rate.set_xlabel("zones")
    rate.set_ylabel("zone-cycles / s")
    rate.set_title(args.title)
    rate.grid(True, which="both", alpha=0.3)
    rate.legend()
    labels, bottoms = [], None
    bars = sorted(rows, key=lambda r: (r["backend"], r.get("path", "-"), int(r["zones"])))
    for r in bars:
        labels.append(f"{r.get('path', r['backend'])}\n{int(r['zones'])}")
    bottoms = [0.0] * len(bars)
    for stage in STAGES:
        values = [100 * float(r[f"share_{stage}"]) for r in bars]
        shares.bar(range(len(bars)), values, bottom=bottoms, label=stage)
        bottoms = [b + v for b, v in zip(bottoms, values)]
    shares.set_xticks(range(len(bars)), labels, fontsize=7)
    shares.set_ylabel("% of the wall time")
    shares.set_title("stages (device synchronized at their ends)")
    shares.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
