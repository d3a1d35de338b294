"""Where trsv_staged (kernels/trsv.cu: one warp a matrix, the triangle copied to shared memory
first) beats trsv_warp (the tuned lane groups): backend medians (CUDA events,
scripts/bench_cholesky.timeit) of linalg/_cuda/trsv.py's two kernels, lower N and upper T, and
torch.linalg.solve_triangular for scale.

    python3 scripts/probe_trsv_staged.py [--output DIR] [--sizes 25,27,28]

n = 4, 8, 16, 24, 32 (or --sizes); batch 1000, 10240, 100000; float64 and float32; trsv_staged at 4
and 8 warps a block; then the one-vector POTRS (fused trsv_warp against trsv_staged with both
solves from one staged factor). Writes probe_trsv_staged.md and prints the STAGED_RANGE /
STAGED_WARPS / STAGED_POTRS_RANGE that the batch-10240 rows suggest (per dtype, the n where staged
beats trsv_warp in every variant).
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = (4, 8, 16, 24, 32)
BATCHES = (1000, 10240, 100000)
VARIANTS = ((True, "N"), (False, "T"))
WARPS = (4, 8)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--sizes", default=None,
                        help="comma-separated n (default 4,8,16,24,32; at most STAGED_MAX)")
    args = parser.parse_args(argv)
    sizes = tuple(int(n) for n in args.sizes.split(",")) if args.sizes else SIZES
    import cupy
    import torch
    from bench_cholesky import timeit
    from linalg._cuda import trsv as gtrsv
    lines = ["# probe_trsv_staged (scripts/probe_trsv_staged.py), backend ms", "",
             "| dtype | variant | n | batch | trsv_warp | " +
             " | ".join(f"staged {w} warps" for w in WARPS) + " | torch |",
             "|---|---|---|---|---|" + "---|" * (len(WARPS) + 1)]
    wins = {}
    for dtype in (numpy.float64, numpy.float32):
        for lower, trans in VARIANTS:
            for n in sizes:
                for batch in BATCHES:
                    gen = cupy.random.default_rng(n)
                    a = gen.standard_normal((batch, n, n), dtype=numpy.float64) / n
                    a[:, numpy.arange(n), numpy.arange(n)] = 2.0
                    a = a.astype(dtype)
                    x0 = gen.standard_normal((batch, n), dtype=numpy.float64).astype(dtype)
                    x = cupy.empty_like(x0)
                    reset = lambda: cupy.copyto(x, x0)     # noqa: E731

                    def solve(warps):                        # through trsv(): the tuned plan
                        gtrsv.STAGED_RANGE = gtrsv.STAGED_EVERY_N if warps else {}
                        gtrsv.STAGED_WARPS = warps or gtrsv.STAGED_WARPS
                        return lambda: gtrsv.trsv(a, x, lower, trans)
                    reset()
                    solve(0)()
                    ref = x.copy()
                    times = [timeit(solve(0), reset)]
                    for w in WARPS:
                        reset()
                        solve(w)()
                        err = float(cupy.abs(x - ref).max() / cupy.abs(ref).max())
                        assert err < 1e3 * numpy.finfo(dtype).eps, (dtype, n, batch, w, err)
                        times.append(timeit(solve(w), reset))
                    gtrsv.STAGED_RANGE = {}
                    ta = torch.as_tensor(a, device="cuda")
                    tb = torch.as_tensor(x0, device="cuda")[..., None]
                    op = ta if trans == "N" else ta.transpose(1, 2)
                    times.append(timeit(lambda: torch.linalg.solve_triangular(
                        op, tb, upper=(lower == (trans == "T")))))
                    name = numpy.dtype(dtype).name
                    lines.append(f"| {name} | {'L' if lower else 'U'}{trans} | {n} | {batch} | " +
                                 " | ".join(f"{v:.4f}" for v in times) + " |")
                    print(lines[-1], flush=True)
                    if batch == 10240:
                        best = min(range(len(WARPS)), key=lambda i: times[1 + i])
                        wins.setdefault((name, n), []).append((times[1 + best] < times[0],
                                                               WARPS[best]))
    potrs_lines, potrs_won = potrs_rows(timeit, sizes)
    lines += potrs_lines
    won = won_sizes({key: [w for w, _ in r] for key, r in wins.items()})
    lines += ["", "trsv_staged faster than trsv_warp at batch 10240 in every variant, by dtype: "
                  f"n = {won}"]
    warps = {w for (name, n), r in wins.items() if n in won[name] for _, w in r}
    lines.append(f"suggested: STAGED_RANGE = {span(won)}, STAGED_WARPS = "
                 f"{max(warps) if len(warps) == 1 else 'mixed: ' + str(sorted(warps))}")
    lines.append(f"suggested: STAGED_POTRS_RANGE = {span(potrs_won)} (POTRS won at n = {potrs_won})")
    print("\n".join(lines[-3:]))
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "probe_trsv_staged.md").write_text("\n".join(lines) + "\n")


def won_sizes(wins):
    """{dtype name: sorted n whose every entry of wins[(name, n)] (a list of bools) is True}."""
    names = sorted({name for name, _ in wins})
    return {name: sorted(n for (d, n), r in wins.items() if d == name and all(r)) for name in names}


def span(won):
    """{dtype name: (first, last n)} of won_sizes' lists ((0, 0): none); a gap inside a span
    is for the reader of the table to weigh."""
    return {name: (ns[0], ns[-1]) if ns else (0, 0) for name, ns in won.items()}


def potrs_rows(timeit, sizes):
    """Markdown rows of the one-vector POTRS (backend cholesky.potrs) by its default path and by
    trsv_staged, lower and upper, both dtypes, batch 10240 and 100000; and the n where staged
    won in all of them at batch 10240, by dtype (won_sizes)."""
    import cupy
    from linalg._cuda import cholesky as gchol, trsv as gtrsv
    lines = ["", "| dtype | lower | n | batch | default path (tri_vec to 8, fused trsv_warp) | "
             "trsv_staged |", "|---|---|---|---|---|---|"]
    wins = {}
    for dtype in (numpy.float64, numpy.float32):
        for lower in (True, False):
            for n in sizes:
                for batch in (10240, 100000):
                    gen = cupy.random.default_rng(n + 1)
                    x = gen.standard_normal((batch, n, n), dtype=numpy.float64)
                    spd = (x @ x.swapaxes(1, 2) / n + 2 * cupy.eye(n)).astype(dtype)
                    f, _ = gchol.potrf(spd, lower)
                    b0 = gen.standard_normal((batch, n, 1), dtype=numpy.float64).astype(dtype)
                    b = cupy.empty_like(b0)
                    reset = lambda: cupy.copyto(b, b0)          # noqa: E731
                    times = []
                    for bounds in ({}, gtrsv.STAGED_EVERY_N):
                        gtrsv.STAGED_POTRS_RANGE = bounds
                        times.append(timeit(lambda: gchol.potrs(f, b, lower), reset))
                    gtrsv.STAGED_POTRS_RANGE = {}
                    lines.append(f"| {numpy.dtype(dtype).name} | {lower} | {n} | {batch} | "
                                 f"{times[0]:.4f} | {times[1]:.4f} |")
                    print(lines[-1], flush=True)
                    if batch == 10240:
                        wins.setdefault((numpy.dtype(dtype).name, n), []).append(
                            times[1] < times[0])
    return lines, won_sizes(wins)


if __name__ == "__main__":
    main()
