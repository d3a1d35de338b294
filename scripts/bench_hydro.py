"""Throughput of the hydro driver: 3-D Sedov, Q2-Q1, a fixed number of cycles per zone count.

    python scripts/bench_hydro.py [--zones 8 16 24] [--cycles 20] [--backends cpu gpu] [--output DIR] [--quick]
                                  [--reference]

Reports, per backend and mesh: zone-cycles/s, the Laghos force rate (H1 + L2 dofs x RK stages per
second of corner-force time, the figure Laghos prints as its "Forces" rate, reference/hydro-method.md
§3), quadrature-point updates per second, and each stage's share of the wall time (on the GPU
the device is synchronized at stage boundaries, so each stage's time is its own). On the GPU the
quadrature-point update, the corner forces (partial assembly) and the velocity's PCG run as
kernels/hydro.cu ("fused" path); --reference also runs the array-module code they replace
("reference" path: CuPy kernels, linalg.gemm, the CSR mass matrix). On the GPU each path first
runs the smallest mesh once unmeasured. Writes bench_hydro.md (and .csv) to --output with the
date and device. Imports the hydro package of this repository (not an installed copy).
"""
import argparse
import csv
import datetime
import platform
import sys
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hydro.config import load_case  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402

STAGES = ("corner_force", "quadrature_update", "pcg", "energy_update", "dt_reduction", "other")
RK_STAGES = {"rk4": 4, "rk2avg": 2}


def case(nx, cycles, integrator):
    """Sedov 3-D on [0,1]^3 with nx^3 zones, run for `cycles` steps (final time far away)."""
    return load_case({"problem": "sedov", "dim": 3, "mesh": {"nx": nx}, "order": 2,
                      "final_time": 1.0, "integrator": integrator, "backend": "cpu",
                      "time_step": {"max_steps": cycles}, "verbose": False,
                      "output": {"dir": "out/bench_hydro"}})


def array_module(backend):
    if backend == "cpu":
        return numpy
    import cupy
    return cupy


def synchronize(xp):
    if xp is not numpy:
        xp.cuda.runtime.deviceSynchronize()


def run_one(nx, cycles, backend, integrator, path="fused"):
    """Run one mesh on one backend ("fused" or "reference" path on the GPU); a result row."""
    xp = array_module(backend)
    cfg = case(nx, cycles + 2, integrator)
    sim = Simulation(cfg, xp=xp)
    if backend == "gpu":
        sim.op.sync_timers = True
        sim.op.fused = sim.op.force.fused = path == "fused"
    for _ in range(2):                      # warm-up: kernel compilation, caches, allocations
        sim.step()
    synchronize(xp)
    before = dict(sim.timers)
    start, steps, stages_done = time.perf_counter(), 0, 0
    while steps < cycles and not sim.done():
        info = sim.step()
        steps += 1
        stages_done += RK_STAGES[integrator] * (1 + info.rejected)
    synchronize(xp)
    wall = time.perf_counter() - start
    spent = {k: sim.timers.get(k, 0.0) - before.get(k, 0.0) for k in STAGES}
    zones = nx ** 3
    h1 = 3 * (2 * nx + 1) ** 3              # vector Q2 dofs
    l2 = 8 * zones                          # Q1 dofs
    quad_points = 64 * zones                # 4^3 Gauss points per zone for Q2-Q1
    row = {"backend": backend, "path": path if backend == "gpu" else "-", "zones": zones,
           "h1_dofs": h1, "l2_dofs": l2, "cycles": steps,
           "wall_s": wall, "zone_cycles_per_s": zones * steps / wall,
           "force_gdof_stage_per_s": (h1 + l2) * stages_done / max(spent["corner_force"], 1e-30) / 1e9,
           "quad_gpoint_stage_per_s": quad_points * stages_done / max(spent["quadrature_update"], 1e-30) / 1e9}
    row.update({f"share_{k}": spent[k] / wall for k in STAGES})
    return row


def device_name(backends):
    if "gpu" in backends:
        import cupy
        return cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    return platform.processor() or platform.machine()


def table(rows):
    head = ("| backend | path | zones | H1+L2 dofs | cycles | zone-cycles/s | force Gdof·stage/s "
            "| quad Gpt·stage/s | " + " | ".join(STAGES) + " |")
    lines = [head, "|" + " --- |" * (8 + len(STAGES))]
    for r in rows:
        shares = " | ".join(f"{100 * r['share_' + k]:.0f} %" for k in STAGES)
        lines.append(f"| {r['backend']} | {r['path']} | {r['zones']} "
                     f"| {r['h1_dofs'] + r['l2_dofs']} | {r['cycles']} "
                     f"| {r['zone_cycles_per_s']:.3g} | {r['force_gdof_stage_per_s']:.3g} "
                     f"| {r['quad_gpoint_stage_per_s']:.3g} | {shares} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zones", type=int, nargs="+", help="zones per axis (nx); default 8 16 24 32")
    parser.add_argument("--cycles", type=int, default=10)
    parser.add_argument("--backends", nargs="+", default=None, help="cpu and/or gpu (default: gpu if present, and cpu)")
    parser.add_argument("--integrator", default="rk4", choices=sorted(RK_STAGES))
    parser.add_argument("--cpu-max-nx", type=int, default=16, help="largest nx run on the CPU backend")
    parser.add_argument("--output", type=Path, default=Path("out/bench_hydro"))
    parser.add_argument("--quick", action="store_true", help="small meshes and few cycles")
    parser.add_argument("--reference", action="store_true",
                        help="on the GPU also run the array-module path the hydro kernels replace")
    args = parser.parse_args(argv)
    backends = args.backends or (["gpu", "cpu"] if _gpu_present() else ["cpu"])
    sizes = args.zones or ([4, 8] if args.quick else [8, 16, 24, 32])
    cycles = 3 if args.quick else args.cycles
    rows = []
    for backend in backends:
        paths = ["fused", "reference"] if backend == "gpu" and args.reference else ["fused"]
        for path in paths:
            if backend == "gpu":     # unmeasured: module loads, allocator, clocks
                run_one(min(sizes), 1, backend, args.integrator, path)
            for nx in sizes:
                if backend == "cpu" and nx > args.cpu_max_nx:
                    continue
                rows.append(run_one(nx, cycles, backend, args.integrator, path))
                print(f"{backend} {rows[-1]['path']} nx={nx}: "
                      f"{rows[-1]['zone_cycles_per_s']:.3g} zone-cycles/s", flush=True)
    text = (f"# hydro benchmark: 3-D Sedov Q2-Q1 ({args.integrator})\n\n"
            f"date {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}, device {device_name(backends)}, "
            f"command `python scripts/bench_hydro.py {' '.join(sys.argv[1:] if argv is None else argv)}`\n\n{table(rows)}\n")
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "bench_hydro.md").write_text(text)
    with open(args.output / "bench_hydro.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(text)


def _gpu_present():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


if __name__ == "__main__":
    main()
