"""All linalg GPU benchmarks in one run: our kernels vs the vendor (cuBLAS/cuSOLVER/PyTorch).

    python scripts/bench_linalg.py [--quick] [--output DIR]

Runs scripts/bench_cholesky.py (TRSM, TRMM, SYRK and the Cholesky family),
scripts/bench_blas.py (GEMV, GEMM incl. the hydro shapes, TRSV, GEBRD) and
scripts/bench_small_batch.py (batch counts 1-100) one after the other, each in its own process (so one failure does not lose the other's table), writing their Markdown tables
and CSVs under --output. Plot the CSVs with scripts/plot_bench.py.
"""
import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FAMILIES = ("bench_cholesky.py", "bench_blas.py", "bench_small_batch.py")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", type=Path, default=Path("out/bench_linalg"))
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds allowed to each family's script (default: no limit)")
    args = parser.parse_args(argv)
    failed = []
    for script in FAMILIES:
        command = [sys.executable, str(HERE / script), "--output", str(args.output)] + (["--quick"] if args.quick else [])
        print("$", " ".join(command), flush=True)
        try:
            if subprocess.run(command, timeout=args.timeout).returncode != 0:
                failed.append(script)
        except subprocess.TimeoutExpired:
            print(f"{script}: stopped after {args.timeout:.0f} s", flush=True)
            failed.append(script)
    if failed:
        sys.exit(f"benchmarks failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
