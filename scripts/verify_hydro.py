"""Validation studies of hydro against exact solutions (issue 5 item 7), printed as Markdown.

    python scripts/verify_hydro.py --quick     # the CI sizes of tests/hydro/test_validation.py
    python scripts/verify_hydro.py --full      # one refinement more per study (slow on a CPU)

The measurements are those of tests/hydro/test_validation.py (imported from there, one
definition of each metric). Writes the Markdown to stdout and, with --out FILE, to FILE.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from tests.hydro.test_validation import (observed_rates, run, shock_radius, sod_l1_error,  # noqa: E402
                                         taylor_green_l2_error)
from hydro.exact import Sedov, noh  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="CI sizes (default)")
    g.add_argument("--full", action="store_true", help="one refinement more")
    ap.add_argument("--out", help="also write the Markdown here")
    ap.add_argument("--skip", default="", help="comma list of studies to skip: sod,sedov2d,sedov3d,tg,noh")
    a = ap.parse_args(argv)
    full, skip = a.full, set(filter(None, a.skip.split(",")))
    md = []
    out = lambda line="": (print(line, flush=True), md.append(line))
    if "sod" not in skip:
        ns = (32, 64, 128, 256) + ((512,) if full else ())
        errs = []
        for n in ns:
            errs.append(sod_l1_error(run({"problem": "sod", "dim": 1, "mesh": {"nx": n}, "order": 2,
                                          "final_time": 0.2, "integrator": "rk2avg"}), 0.2))
        r = [float("nan")] + list(observed_rates(ns, errs))
        out("### Sod 1-D (Q2-Q1, RK2-avg, t = 0.2): L1 error of zone density\n")
        out("| zones | L1 error | rate |\n| --- | --- | --- |")
        for n, e, q in zip(ns, errs, r):
            out(f"| {n} | {e:.4e} | {q:.2f} |")
        out()
    for dim, key in ((2, "sedov2d"), (3, "sedov3d")):
        if key in skip:
            continue
        ns = ((8, 16, 32) if full else (8, 16)) if dim == 2 else ((6, 8) if full else (6,))
        out(f"### Sedov {dim}-D (Q2-Q1, RK2-avg, cg_tol 1e-14, t = 0.3)\n")
        out("| zones/axis | cycles | R measured | R exact | rel. diff | rel. energy change | wall s |")
        out("| --- | --- | --- | --- | --- | --- | --- |")
        for n in ns:
            t0 = time.time()
            s = run({"problem": "sedov", "dim": dim, "mesh": {"nx": n}, "order": 2, "final_time": 0.3,
                     "integrator": "rk2avg", "solver": {"cg_tol": 1e-14, "cg_max_iter": 1000}})
            f = s.output_fields()
            R, _ = shock_radius(f["zone_center"], f["zone_density"], sectors=6 if dim == 2 else 3)
            Rx = float(Sedov(1.4, dim, 1.0).shock_radius(0.3))
            dE = (s.energies()["total"] - s.energy_initial["total"]) / s.energy_initial["total"]
            out(f"| {n} | {s.cycle} | {R:.4f} | {Rx:.4f} | {R / Rx - 1:+.3f} | {dE:.1e} | {time.time() - t0:.0f} |")
        out()
    if "tg" not in skip:
        out("### Taylor-Green 2-D (RK4, t = 0.1): velocity L2 error\n")
        out("| k | zones/axis | L2 error | rate |\n| --- | --- | --- | --- |")
        for k, ns in ((1, (8, 16, 32, 64)), (2, (8, 16, 32) + ((64,) if full else ())),
                      (3, (4, 8, 16) + ((32,) if full else ()))):
            errs = [taylor_green_l2_error(run({"problem": "taylor_green", "dim": 2, "mesh": {"nx": n},
                                               "order": k, "final_time": 0.1, "integrator": "rk4",
                                               "solver": {"cg_tol": 1e-12}})) for n in ns]
            r = [float("nan")] + list(observed_rates(ns, errs))
            for n, e, q in zip(ns, errs, r):
                out(f"| {k} | {n} | {e:.4e} | {q:.2f} |")
        out()
    if "noh" not in skip:
        t = 0.6
        out("### Noh 2-D (gamma 5/3, RK2-avg, t = 0.6): median density, r in [0.4, 0.8] x shock radius\n")
        out("| mesh | order | cycles | wall s | zones in annulus | median density | rel. to exact |")
        out("| --- | --- | --- | --- | --- | --- | --- |")
        quick = ((16, 3),)
        for n, k in (((12, 3), (16, 2), (16, 3), (20, 2), (24, 2)) if full else quick):
            start = time.perf_counter()
            sim = run({"problem": "noh", "dim": 2, "mesh": {"nx": n}, "order": k, "final_time": t,
                       "integrator": "rk2avg"})
            wall = time.perf_counter() - start
            f = sim.output_fields()
            r = np.linalg.norm(f["zone_center"], axis=1)
            ring = (r > 0.4 * t / 3) & (r < 0.8 * t / 3)
            med = float(np.median(f["zone_density"][ring]))
            ex = float(noh(np.array([0.2 * t]), t)[0][0])
            out(f"| {n}x{n} | Q{k}-Q{k - 1} | {sim.cycle} | {wall:.0f} | {int(ring.sum())} | {med:.2f} | "
                f"{100 * (med / ex - 1):+.1f} % |")
        out()
    if a.out:
        with open(a.out, "w") as fh:
            fh.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
