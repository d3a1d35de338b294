"""Zones a block (ZB) and components a pass (CB) of the partial-assembly kernels, 3-D Q2-Q1 at
32^3 zones (CUDA events, median of 20), each variant's result checked against the reference.

    python3 reports/gpu_20261129c/device/p_blocking.py [nx]

force_rhs / force_energy<3, 3, 4, 2, ZB, CB> for (ZB, CB) in (1, 3), (2, 3), (4, 3), (2, 1),
(4, 1), (8, 1) against the GEMM form; mass_zone<3, 3, 4, ZB, 3> for ZB in 1, 2, 4, 8 against
the CSR product. The launchers' choice today: (2, 3) and 8.
"""
import sys

import cupy
import cupyx
import numpy as np

sys.path.insert(0, "scripts")
sys.path.insert(0, "reports/gpu_20261129c/device")
from bench_hydro import case  # noqa: E402
from p_forces import timed  # noqa: E402

from hydro import gpu_kernels as gk  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def main():
    nx = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
    for _ in range(2):
        sim.step()
    op, S, L = sim.op, sim.S, sim.layout
    op.update_quadrature_data(S)
    force, stress = op.force, cupy.ascontiguousarray(sim.qdata.stressJinvT)
    Z = stress.shape[0]
    tables = force.tables_1d
    v = cupy.ascontiguousarray(L.v(S))
    dofs = gk.int32_dofs(cupy, op.dof_map)
    force.fused = False
    force.assemble(stress)
    want_f1 = force.mult_one()
    want_e = force.mult_transpose(v)
    force.fused = True
    c = gk._compile()
    print("| nx | kernel | ZB | CB | GPU ms | max rel. diff |")
    print("| --- | --- | --- | --- | --- | --- |")
    for zb, cb in ((1, 3), (2, 3), (4, 3), (2, 1), (4, 1), (8, 1)):
        f1 = cupy.empty_like(want_f1)
        e = cupy.empty_like(want_e)
        rhs = c.kernel("hydro", f"force_rhs<3, 3, 4, 2, {zb}, {cb}>", "pppppq")
        energy = c.kernel("hydro", f"force_energy<3, 3, 4, 2, {zb}, {cb}>", "pppippppq")
        grid = c.grid_1d(Z, zb)
        t1 = timed(lambda: rhs(grid, gk.FORCE_THREADS, (stress, *tables, f1, Z)))[0]
        t2 = timed(lambda: energy(grid, gk.FORCE_THREADS,
                                  (stress, v, dofs, L.n, *tables, e, Z)))[0]
        d1 = float(abs(f1 - want_f1).max() / abs(want_f1).max())
        d2 = float(abs(e - want_e).max() / abs(want_e).max())
        print(f"| {nx} | force_rhs | {zb} | {cb} | {t1:.4f} | {d1:.1e} |")
        print(f"| {nx} | force_energy | {zb} | {cb} | {t2:.4f} | {d2:.1e} |")
    mass = gk.PartialAssemblyMass(cupy, 3, sim.ref.h1_B1, op.mass_w, op.dof_map, L.n)
    k, n = op.free.shape
    d = cupy.asarray(np.random.default_rng(0).standard_normal((n, k)))
    nd = mass.dofs.shape[1]
    want = op.kmass.matrix @ d
    for zb in (1, 2, 4, 8):
        zone = c.kernel("hydro", f"mass_zone<3, 3, 4, {zb}, 3>", "pppppq")
        yz = cupy.empty((Z * nd, k))
        grid = c.grid_1d(Z, zb)
        t = timed(lambda: zone(grid, gk.FORCE_THREADS, (d, mass.dofs, mass.weights, mass.B1, yz,
                                                        Z)))[0]
        got = cupy.zeros((n, k))
        cupyx.scatter_add(got, mass.dofs.ravel(), yz)
        diff = float(abs(got - want).max() / abs(want).max())
        print(f"| {nx} | mass_zone | {zb} | - | {t:.4f} | {diff:.1e} |")


if __name__ == "__main__":
    main()
