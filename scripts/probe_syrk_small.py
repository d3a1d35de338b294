"""Where syrk_small (kernels/syrk.cu: one launch, op(A) in shared memory, a thread an entry)
beats the GEMM + mirror path above its large-batch bound MAX_N = 24: backend medians (CUDA
events, scripts/bench_cholesky.timeit) of linalg/_cuda/syrk.py with syrk_small forced and with
the default path, and cupy.matmul(A, A^T) (the dense product, the benchmarks' vendor).

    python3 scripts/probe_syrk_small.py [--output DIR]

n = 32, 48, 64 (k = n, C not read); batch 1 .. 10 240; float64 and float32. Writes
probe_syrk_small.md and prints the SMALL_BATCH_BELOW that the rows suggest: per dtype, the
smallest batch from which the default path is as fast as syrk_small at some n (so that below it
syrk_small wins at every n).
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = (32, 48, 64)
BATCHES = (1, 8, 32, 100, 300, 1000, 3000, 10240)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    import cupy
    from bench_cholesky import timeit
    from linalg._cuda import syrk as gsyrk
    lines = ["# probe_syrk_small (scripts/probe_syrk_small.py), backend ms", "",
             "| dtype | n | batch | default (GEMM + mirror) | syrk_small | cupy.matmul |",
             "|---|---|---|---|---|---|"]
    suggested = {}
    for dtype in (numpy.float64, numpy.float32):
        first_loss = None
        for batch in BATCHES:
            for n in SIZES:
                a = cupy.random.default_rng(n).standard_normal((batch, n, n)).astype(dtype)

                def run(forced):
                    saved = gsyrk.MAX_N
                    gsyrk.MAX_N = gsyrk.SMALL_BATCH_MAX_N if forced else saved
                    try:
                        return gsyrk.syrk(a, None, True, "N", 1.0, 0.0)
                    finally:
                        gsyrk.MAX_N = saved
                ref, got = run(False), run(True)
                err = float(cupy.abs(got - ref).max() / cupy.abs(ref).max())
                assert err < 1e2 * n * numpy.finfo(dtype).eps, (dtype, n, batch, err)
                times = [timeit(lambda: run(False)), timeit(lambda: run(True)),
                         timeit(lambda: cupy.matmul(a, a.swapaxes(1, 2)))]
                name = numpy.dtype(dtype).name
                lines.append(f"| {name} | {n} | {batch} | " + " | ".join(f"{t:.4f}" for t in times)
                             + " |")
                print(lines[-1], flush=True)
                if times[1] >= times[0] and first_loss is None:
                    first_loss = batch
        suggested[numpy.dtype(dtype).name] = first_loss if first_loss is not None else BATCHES[-1] + 1
    lines += ["", f"suggested: SMALL_BATCH_BELOW = {suggested}"]
    print(lines[-1])
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "probe_syrk_small.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
