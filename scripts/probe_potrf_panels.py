"""Where the time of the left-looking panel POTRF goes (linalg/_cuda/cholesky.py potrf_panels),
and how kernels/potrf.cu chol_panel does under register caps (its occupancy is bound by
registers and shared memory).

    python3 scripts/probe_potrf_panels.py [--output DIR] [--sizes 64,128,256] [--batch 10240]

For each dtype and n: the whole factorization (backend median, CUDA events; checked against
cupy.linalg.cholesky) with chol_panel compiled free and at 128 and 96 registers, and, as the
launcher has it, each step's median time (the GEMMs with the finished panels and the chol_panel
launches, events around each call) with the bytes each step moves and its rate. Writes
probe_potrf_panels.md.
"""
import argparse
import statistics
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

CAPS = (0, 128, 96)


def panel_config_with(original, options):
    """A stand-in for cholesky._panel_config (``original``) compiling chol_panel with NVRTC
    ``options``."""
    return lambda device_id, dtype, batch: original(device_id, dtype, batch, options)


def step_times(cupy, cholesky, a, a0, reps=7):
    """Median ms of each step of potrf_panels (in call order: ('gemm' | 'panel', j0))."""
    events = []
    gemm, panel = cholesky.tri.gemm, cholesky.chol_panel

    def timed(kind, fn):
        def wrapper(*args, **kwargs):
            start, end = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            out = fn(*args, **kwargs)
            end.record()
            j0 = args[1] if kind == "panel" else None
            events.append((kind, j0, start, end))
            return out
        return wrapper
    runs = []
    try:
        cholesky.tri.gemm = timed("gemm", gemm)
        cholesky.chol_panel = timed("panel", panel)
        for _ in range(reps):
            cupy.copyto(a, a0)
            events.clear()
            cholesky.potrf_panels(a, True)
            cupy.cuda.Device().synchronize()
            runs.append([(k, j, cupy.cuda.get_elapsed_time(s, e)) for k, j, s, e in events])
    finally:
        cholesky.tri.gemm, cholesky.chol_panel = gemm, panel
    steps = []
    for i, (kind, j0, _) in enumerate(runs[0]):
        steps.append((kind, j0, statistics.median(r[i][2] for r in runs[1:])))
    # gemm's j0 is the next panel's
    for i, (kind, j0, t) in enumerate(steps):
        if kind == "gemm":
            steps[i] = (kind, steps[i + 1][1], t)
    return steps


def step_bytes(kind, n, j0, itemsize, w=32):
    """Bytes a step moves once: GEMM reads L(j0:, :j0), L(panel, :j0) and reads/writes the panel
    rows j0:; chol_panel reads and writes the panel rows j0: and writes the zeros right of its
    diagonal block."""
    rows = n - j0
    if kind == "gemm":
        return itemsize * (rows * j0 + w * j0 + 2 * rows * w)
    return itemsize * (2 * rows * w + w * (rows - w))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--sizes", default="64,128,256")
    parser.add_argument("--batch", type=int, default=10240)
    args = parser.parse_args(argv)
    sizes = tuple(int(v) for v in args.sizes.split(","))
    import cupy
    from bench_cholesky import copy_bandwidth, spd_batch, timeit
    from linalg._cuda import cholesky
    bw = copy_bandwidth()
    lines = ["# probe_potrf_panels (scripts/probe_potrf_panels.py)", "",
             f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, batch {args.batch}, "
             f"copy bandwidth {bw:.0f} GB/s; backend ms (median, CUDA events)", "",
             "| dtype | n | " + " | ".join(f"regs {cap or 'free'}" for cap in CAPS) +
             " | max rel. diff | registers |", "|---|---|" + "---|" * (len(CAPS) + 2)]
    breakdown = []
    original = cholesky._panel_config
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            a0 = spd_batch(args.batch, n, dtype)
            a = cupy.empty_like(a0)
            times, results, regs = [], [], []
            for cap in CAPS:
                options = (f"--maxrregcount={cap}",) if cap else ()
                cholesky._panel_config = panel_config_with(original, options)
                try:
                    fn = lambda: cholesky.potrf_panels(a, True)     # noqa: E731
                    times.append(timeit(fn, lambda: cupy.copyto(a, a0)))
                    cupy.copyto(a, a0)
                    fn()
                    results.append(cupy.tril(a).copy())
                    launcher = cholesky._panel_config(0, a.dtype, args.batch)[0]
                    regs.append(str(launcher.function.num_regs))
                finally:
                    cholesky._panel_config = original
            ref = cupy.linalg.cholesky(a0)
            diff = max(float(cupy.abs(r - ref).max() / cupy.abs(ref).max()) for r in results)
            assert diff < 1e3 * numpy.finfo(dtype).eps, (dtype, n, diff)
            name = numpy.dtype(dtype).name
            lines.append(f"| {name} | {n} | " + " | ".join(f"{t:.4f}" for t in times) +
                         f" | {diff:.1e} | {' / '.join(regs)} |")
            steps = step_times(cupy, cholesky, a, a0)
            item = numpy.dtype(dtype).itemsize
            total = {"gemm": 0.0, "panel": 0.0}
            for kind, j0, t in steps:
                total[kind] += t
                gbs = step_bytes(kind, n, j0, item) * args.batch / t / 1e6
                breakdown.append(f"| {name} | {n} | {kind} | {j0} | {t:.4f} | {gbs:.0f} | "
                                 f"{100 * gbs / bw:.0f} |")
            breakdown.append(f"| {name} | {n} | all GEMMs / all panels | | "
                             f"{total['gemm']:.4f} / {total['panel']:.4f} | | |")
    lines += ["", "## Steps (the launcher's chol_panel)", "",
              "| dtype | n | step | j0 | ms | GB/s | % copy |", "|---|---|---|---|---|---|---|"]
    lines += breakdown
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "probe_potrf_panels.md").write_text(text)


if __name__ == "__main__":
    main()
