"""Probe (calls 6 and 7): can test_sweep_busy_stream_gpu fail? Runs its cases in one process as the test
does, then again with cupy.cuda.get_current_stream replaced by the legacy default stream for
linalg's own launchers and library handles (the Launchers are made after the patch: they take
the function when first built; CuPy's own kernels still follow the caller's stream), and
prints how many cases failed each way and the first messages. Call 6: the test held the stream
before drawing the inputs (25 of 112 failed patched); call 7: it holds each call's operands
(sweep._hold; 23 failed); call 8: the saved operands kept through the call (29 failed); call
9: memory for the call's arrays reserved in the pool before the hold (29 failed); call 10: each
case run once before (sweep.run_busy: its modules loaded; 104 failed); call 12: call 9's reserve
dropped again. Prints every failure."""
import sys
from pathlib import Path

import cupy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from tests.linalg import test_sweep as sweep  # noqa: E402


def run_all(label):
    spin = cupy.RawKernel(sweep._SPIN, "spin")
    failed = []
    for case in sweep.BUSY_CASES:
        try:
            sweep.run_busy(cupy, case, spin)
        except Exception as exc:                        # noqa: BLE001 (a probe: record it)
            failed.append(f"{sweep._case_id(case)}: {type(exc).__name__}: {str(exc)[:160]}")
        cupy.cuda.Device().synchronize()
        cupy.get_default_memory_pool().free_all_blocks()
    print(f"{label}: {len(failed)} of {len(sweep.BUSY_CASES)} cases failed", flush=True)
    for line in failed:
        print("   ", line, flush=True)


if __name__ == "__main__":
    which = sys.argv[1]
    if which == "patched":
        null = cupy.cuda.Stream.null
        cupy.cuda.get_current_stream = lambda *args: null
    run_all(which)
