"""Where syrk_tile (kernels/syrk.cu, 4 x 4 register blocks of C) beats the other SYRK paths:
backend medians (CUDA events, scripts/bench_cholesky.timeit) of linalg/_cuda/syrk.py's three
paths -- syrk_small (n <= 24), syrk_tile without and with a register cap of 128, and cuBLAS
GEMM + mirror -- and a dense cupy.matmul A A^T, C = A A^T with A (batch, n, n).

    python3 scripts/probe_syrk.py [--output DIR] [--dtype float64]

n = 8, 16, 24, 25, 32, 48, 64 at batch 10240 and 100000 (n <= 32), and batch 1 / 8 / 100;
writes probe_syrk_<dtype>.md and prints the TILE_RANGE / TILE_MAXREG that the batch-10240 rows
suggest (the n where the faster syrk_tile variant beats both other paths).
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = (8, 16, 24, 25, 32, 48, 64)
BATCHES = (10240, 100000, 1, 8, 100)


def paths(gsyrk, a, n):
    """{name: call} of the backend paths that serve order n (syrk_small only where it may)."""
    def forced(tile_range, maxreg=0):
        def call():
            saved = gsyrk.TILE_RANGE, gsyrk.TILE_MAXREG
            gsyrk.TILE_RANGE, gsyrk.TILE_MAXREG = tile_range, maxreg
            try:
                return gsyrk.syrk(a, None, True, "N", 1.0, 0.0)
            finally:
                gsyrk.TILE_RANGE, gsyrk.TILE_MAXREG = saved
        return call
    out = {"tile": forced((1, 64)), "tile maxreg 128": forced((1, 64), 128)}
    if n <= gsyrk.MAX_N:
        out["syrk_small"] = forced((0, 0))

    def gemm_path():
        return gsyrk._gemm_syrk(a, None, True, False, 1.0, 0.0, False)
    out["gemm + mirror"] = gemm_path
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--dtype", default="float64")
    args = parser.parse_args(argv)
    import cupy
    from bench_cholesky import timeit
    from linalg._cuda import syrk as gsyrk
    dtype = numpy.dtype(args.dtype)
    names = ("tile", "tile maxreg 128", "syrk_small", "gemm + mirror")
    lines = [f"# probe_syrk (scripts/probe_syrk.py), {dtype.name}, backend ms", "",
             "| n | batch | " + " | ".join(names) + " | dense matmul |",
             "|---|---|" + "---|" * (len(names) + 1)]
    wins = {}
    for n in SIZES:
        for batch in BATCHES:
            if batch == 100000 and n > 32:
                continue
            a = cupy.random.standard_normal((batch, n, n)).astype(dtype)
            ref = cupy.matmul(a, a.swapaxes(1, 2))
            times = {}
            for name, call in paths(gsyrk, a, n).items():
                err = float(cupy.abs(call() - ref).max() / cupy.abs(ref).max())
                assert err < 100 * numpy.finfo(dtype).eps * n, (name, n, err)
                times[name] = timeit(call)
            dense = timeit(lambda: cupy.matmul(a, a.swapaxes(1, 2)))
            cells = [f"{times[k]:.4f}" if k in times else "-" for k in names]
            lines.append(f"| {n} | {batch} | " + " | ".join(cells) + f" | {dense:.4f} |")
            print(lines[-1], flush=True)
            if batch == 10240:
                best_tile = min(("tile", "tile maxreg 128"), key=times.get)
                others = min(v for k, v in times.items() if not k.startswith("tile"))
                wins[n] = (times[best_tile] < others, best_tile)
    won = [n for n, (w, _) in wins.items() if w]
    lines += ["", f"syrk_tile faster than both other paths at batch 10240 for n = {won}"]
    caps = {wins[n][1] for n in won}
    lines.append(f"suggested: TILE_RANGE = ({min(won)}, {max(won)}), TILE_MAXREG = "
                 f"{128 if caps == {'tile maxreg 128'} else 0} (check the small batches too)"
                 if won else "suggested: TILE_RANGE = (0, 0)")
    print("\n".join(lines[-2:]))
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / f"probe_syrk_{dtype.name}.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
