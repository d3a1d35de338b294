#!/usr/bin/env python
"""Plot a hydro run: the density of a 2-D run and a profile against the exact solution.

    python scripts/plot_hydro.py out/sedov2d                 # last output of the run
    python scripts/plot_hydro.py out/sedov2d/fields_00003.h5 --png sedov.png

* 2-D runs: density on the linear sub-cells of the (moved) high-order mesh, drawn as polygons.
* Profiles: zone-average density against radius (Sedov, Noh) or x (Sod, 1-D and tubes), with
  the exact solution of hydro.exact drawn over it (Sedov self-similar, Noh, Sod Riemann).
The case (problem, dim, gamma, parameters) is read from the file's stored config.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from hydro import exact  # noqa: E402
from hydro.io import read_fields  # noqa: E402


def pick_file(path):
    """A fields file, or the newest fields_*.h5 of an output directory."""
    if os.path.isdir(path):
        files = sorted(glob.glob(os.path.join(path, "fields_*.h5")))
        if not files:
            raise SystemExit(f"error: no fields_*.h5 in {path}")
        return files[-1]
    return path


def exact_profile(cfg, t, coord):
    """(label, density at coord) of the exact solution, or None where there is none."""
    problem, dim = cfg["problem"], cfg["dim"]
    params = cfg.get("parameters") or {}
    if problem == "sedov" and t > 0:
        sol = exact.Sedov(cfg["gamma"], nu=dim, energy=float(params.get("blast_energy", 1.0)))
        return f"Sedov (R = {sol.shock_radius(t):.4f})", sol(coord, t)[0]
    if problem == "noh":
        return "Noh", exact.noh(coord, t, gamma=cfg["gamma"], nu=dim)[0]
    if problem == "sod":
        return "Riemann", exact.sod(coord, t, gamma=cfg["gamma"], right=exact.SOD_LAGHOS_RIGHT)[0]
    return None


def profile_coordinate(cfg, centers):
    """Radius for blasts/implosions (from the origin), x for the tube and 1-D runs."""
    if cfg["problem"] in ("sedov", "noh") and cfg["dim"] > 1:
        return "r", np.linalg.norm(centers, axis=1)
    return "x", centers[:, 0]


def draw_density(ax, f):
    pts = f["points"][:, :2]
    polys = PolyCollection(pts[f["cells"]], array=f["cell_density"], cmap="viridis",
                           edgecolors="face", linewidths=0.1)
    ax.add_collection(polys)
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.set_title(f"density, t = {f['time']:.4g} (cycle {f['cycle']})")
    plt.colorbar(polys, ax=ax)


def draw_profile(ax, f, cfg):
    name, coord = profile_coordinate(cfg, f["zone_center"])
    ax.plot(coord, f["zone_density"], ".", ms=3, label="zone average")
    fine = np.linspace(0.0 if name == "r" else coord.min(), coord.max(), 2000)   # resolves the shock
    ref = exact_profile(cfg, f["time"], fine)
    if ref is not None:
        ax.plot(fine, ref[1], "-", lw=1.2, label=f"exact: {ref[0]}")
    ax.set_xlabel(name)
    ax.set_ylabel("density")
    ax.legend()
    ax.set_title(f"{cfg['problem']} {cfg['dim']}-D, t = {f['time']:.4g}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("path", help="output directory or fields_*.h5 file")
    p.add_argument("--png", help="image to write (default: <dir>/<problem>_t<time>.png)")
    args = p.parse_args(argv)
    path = pick_file(args.path)
    f = read_fields(path)
    cfg = yaml.safe_load(f["config_yaml"])
    two_d = cfg["dim"] == 2
    fig, axes = plt.subplots(1, 2 if two_d else 1, figsize=(12 if two_d else 6, 5))
    axes = np.atleast_1d(axes)
    if two_d:
        draw_density(axes[0], f)
    draw_profile(axes[-1], f, cfg)
    fig.tight_layout()
    png = args.png or os.path.join(os.path.dirname(path), f"{cfg['problem']}_t{f['time']:.4g}.png")
    fig.savefig(png, dpi=120)
    print(png)
    return png


if __name__ == "__main__":
    main()
