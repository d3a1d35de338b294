#!/usr/bin/env python3
"""Pick, from a tune_blas.py run on the H200 (its tune_log.txt and tuned_blas.json), the classes
whose best beat what the H200 ran before -- the H100's entry (the family fallback), its kernel
parameters timed in the same run, or cuBLAS where the H100's table picks it -- by at least
--gain, and write them into linalg/tuning/nvidia_h200.json (classes the file already holds are
kept). Prints every class's comparison.

    python3 reports/gpu_20261128j/device/pick_h200_entries.py reports/gpu_20261128j/call4 [--dry]
"""
import argparse
import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from linalg import _tuning      # noqa: E402

H100 = "NVIDIA H100 80GB HBM3"
H200 = "NVIDIA H200"
DECISIONS = {"use_vendor", "vendor", "reason", "vendor_from", "policy"}


def params_of(entry):
    """Kernel parameters as the tuner logs them (no register cap: 0)."""
    p = {k: v for k, v in entry.items() if k not in DECISIONS}
    p.setdefault("maxreg", 0)
    return p


def h100_params(op, dtype, cls):
    """The H100's parameters for the class, GEMV-N's automatic tx resolved as
    blas._gemv_kernel_plan does (min(32, the power of two >= n / vec))."""
    p = params_of(_tuning.lookup(op, dtype, cls, gpu=H100))
    if p.get("tx") == 0:
        n, tx = int(cls.split("x")[1]), 1
        while tx < -(-n // p["vec"]):
            tx *= 2
        p["tx"] = min(32, tx)
    return p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run", help="folder holding tune/tune_log.txt and tune/tuned_blas.json")
    ap.add_argument("--gain", type=float, default=1.05)
    ap.add_argument("--dry", action="store_true")
    args = ap.parse_args()
    run = Path(args.run)
    times = {}
    for line in (run / "tune" / "tune_log.txt").read_text().splitlines():
        m = re.match(r"(\S+) (\S+) (\S+) (\{.*\}): ([0-9.]+) ms", line)
        if m:
            op, dtype, cls, p, ms = m.groups()
            times.setdefault((op, dtype, cls), []).append((ast.literal_eval(p), float(ms)))
    tuned = json.loads((run / "tune" / "tuned_blas.json").read_text())[H200]
    path = _tuning.TUNING_DIR / "nvidia_h200.json"
    table = json.loads(path.read_text())
    own = table[H200]
    for (op, dtype, cls), timed in times.items():
        old = h100_params(op, dtype, cls)
        old_vendor = _tuning.use_vendor(op, dtype, cls, gpu=H100)[0]
        same = [ms for p, ms in timed if params_of(p) == old] or \
            [ms for p, ms in timed if all(params_of(p).get(k) == v for k, v in old.items())]
        best = dict(tuned[op][dtype][cls])
        vendor_ms = float(re.search(r"vs ([0-9.]+) ms\)", best["reason"]).group(1))
        if not same and not old_vendor:
            print(f"{op} {dtype} {cls}: the H100's parameters {old} were not timed")
            continue
        before = vendor_ms if old_vendor else min(same)
        after = vendor_ms if best["use_vendor"] else min(ms for _, ms in timed)
        pick = before / after >= args.gain and cls not in own.get(op, {}).get(dtype, {})
        print(f"{op} {dtype} {cls}: {before:.4f} -> {after:.4f} ms ({before / after:.2f}x)"
              f"{'  picked' if pick else ''}")
        if pick and not args.dry:
            what = "cuBLAS" if old_vendor else "its kernel parameters"
            best["reason"] += (f"; the H100's entry ({what}) {before:.4f} ms in the same run "
                               f"(GPU time; {run.as_posix()})")
            own.setdefault(op, {}).setdefault(dtype, {})[cls] = best
    if not args.dry:
        path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
