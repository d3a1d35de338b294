"""TRTRI / POTRI / POTI with TRTRI (or the whole chain) as one chol_small<T, 64> launch at every
batch, or without the recursion's 64-leaves, against the default rules, through
scripts/bench_cholesky.py in this process (the probe behind linalg/_cuda/triangular.py
ONE_LAUNCH_FROM and ONE_LAUNCH_LEAVES).

    python3 scripts/probe_trtri_one_launch.py OUT 0|1|2|3 [bench_cholesky.py options]

1 raises ONE_LAUNCH_BELOW[("trtri", dtype)] to 10^9 first (float64 and float32), 2 that of
POTRI and POTI too (their whole chain as one launch), 3 turns ONE_LAUNCH_LEAVES off (the
recursion's leaves stop at LEAF), 0 keeps the rules; the remaining options go to
bench_cholesky.py (default: --ops trtri,potri --sizes 40,48,56,64 --batches 10240,100000
--dtypes float64 --fresh). Run the modes one after another in one device call and pair the CSVs
with `python3 scripts/ab_table.py OUT0/bench_cholesky.csv OUT1/bench_cholesky.csv`.
"""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
import linalg._cuda.triangular as tri  # noqa: E402


# mode -> the operations made one launch at every batch
ONE_LAUNCH_OPS = {"0": (), "1": ("trtri",), "2": ("trtri", "potri", "poti"), "3": ()}


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ONE_LAUNCH_OPS:
        sys.exit(__doc__)
    out, mode, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    tri.ONE_LAUNCH_LEAVES = mode != "3"
    for op in ONE_LAUNCH_OPS[mode]:
        for dtype in ("float64", "float32"):
            tri.ONE_LAUNCH_BELOW[(op, dtype)] = 10 ** 9
    rest = rest or ["--ops", "trtri,potri", "--sizes", "40,48,56,64", "--batches", "10240,100000",
                    "--dtypes", "float64", "--fresh"]
    sys.argv = ["bench_cholesky.py", *rest, "--output", out]
    runpy.run_path(str(ROOT / "scripts" / "bench_cholesky.py"), run_name="__main__")


if __name__ == "__main__":
    main()
