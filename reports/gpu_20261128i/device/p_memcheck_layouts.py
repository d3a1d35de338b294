"""Probe (call 13, under compute-sanitizer memcheck): the layout draw's cases of at most 3
matrices and n <= 130 (padded rows, spaced matrices, matrices by columns, pointer lists,
in-place calls; every operation) in one process, so that the sanitizer sees every launch on
views whose neighbours hold NaN. Prints each case's outcome and a summary."""
import sys
from pathlib import Path

import cupy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from tests.linalg import test_sweep as sweep  # noqa: E402


def main():
    cases = [c for c in sweep.GPU_LAYOUT_CASES if c.batch <= 3 and c.n <= 130]
    bad = 0
    for case in cases:
        try:
            sweep.run_case(cupy, case)
            status = "ok"
        except Exception as exc:                        # noqa: BLE001 (a probe: record it)
            bad += 1
            status = f"{type(exc).__name__}: {str(exc)[:200]}"
        print(sweep._case_id(case), status, flush=True)
    print(f"{len(cases)} cases, {bad} not ok", flush=True)


if __name__ == "__main__":
    main()
