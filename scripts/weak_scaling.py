"""Weak scaling of the hydro driver: fixed zones per rank, growing rank counts.

    python scripts/weak_scaling.py --ranks 1 2 4 8 [--zones-per-rank 4096] [--cycles 20]
        [--case cases/sedov3d.yaml] [--launcher "mpiexec -n {ranks}"] [--output out/weak_scaling]

For each rank count P the mesh is the case's box with about P * zones-per-rank zones (nx = ny = nz
rounded so the zones split evenly), run for a fixed number of cycles; the table reports zones per
rank, zone-cycles/s per rank and the weak-scaling efficiency against the smallest run. On a cluster,
use scripts/weak_scaling.slurm (it calls this script with an srun launcher).
"""
import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

import yaml


def mesh_size(ranks, zones_per_rank, dim):
    """Zones per axis giving about ranks * zones_per_rank zones."""
    return max(1, round((ranks * zones_per_rank) ** (1.0 / dim)))


def run(ranks, args, dim):
    nx = mesh_size(ranks, args.zones_per_rank, dim)
    out = args.output / f"ranks{ranks}"
    command = shlex.split(args.launcher.format(ranks=ranks)) + [
        sys.executable, "-m", "hydro.run", str(args.case), "--output", str(out),
        "--set", f"mesh.nx={nx}", "--set", "mesh.ny=null", "--set", "mesh.nz=null",
        "--set", "mesh.refine=0", "--set", f"time_step.max_steps={args.cycles}",
        "--set", "output.every=null", "--set", "output.every_cycles=null"]
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True)
    summary = json.loads((out / "summary.json").read_text())
    zones = nx ** dim
    return {"ranks": ranks, "zones": zones, "zones_per_rank": zones / ranks,
            "zone_cycles_per_s": summary["zone_cycles_per_second"], "backend": summary.get("backend")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--zones-per-rank", type=int, default=4096)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--case", type=Path, default=Path("cases/sedov3d.yaml"))
    parser.add_argument("--launcher", default="mpiexec -n {ranks}")
    parser.add_argument("--output", type=Path, default=Path("out/weak_scaling"))
    args = parser.parse_args(argv)
    dim = yaml.safe_load(args.case.read_text())["dim"]
    rows = [run(p, args, dim) for p in args.ranks]
    base = rows[0]["zone_cycles_per_s"] / rows[0]["ranks"]
    lines = ["| ranks | zones | zones/rank | zone-cycles/s | per rank | efficiency |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        per_rank = r["zone_cycles_per_s"] / r["ranks"]
        lines.append(f"| {r['ranks']} | {r['zones']} | {r['zones_per_rank']:.0f} | {r['zone_cycles_per_s']:.3g} "
                     f"| {per_rank:.3g} | {100 * per_rank / base:.0f} % |")
    text = "\n".join(lines)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "weak_scaling.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
