"""The partial-assembly kernels of a 3-D Sedov Q2-Q1 GPU stage, each timed alone (CUDA events,
median of 30), for an A/B of two trees run one after the other in one device call.

    python3 reports/gpu_20261129d/device/p_kernels.py [nx ...]

After two steps at each nx: force_rhs (F . 1), force_energy (F^T v), and the mass product
(mass_zone then pcg_gather_apply, through PartialAssemblyMass.applier) on the dim velocity
components; each result's checksum, so that the two trees' outputs can be compared too.
"""
import sys

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels as gk  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def timed(fn, reps=30):
    fn()
    cupy.cuda.runtime.deviceSynchronize()
    times = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(cupy.cuda.get_elapsed_time(a, b))
    return float(np.median(times))


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [32]
    print("| nx | kernel | GPU ms | checksum |")
    print("| --- | --- | --- | --- |")
    for nx in sizes:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, S, L = sim.op, sim.S, sim.layout
        op.update_quadrature_data(S)
        stress, tables = sim.qdata.stressJinvT, op.force.tables_1d
        v = cupy.ascontiguousarray(L.v(S))
        dofs = gk.int32_dofs(cupy, op.dof_map)
        mass = gk.PartialAssemblyMass(cupy, L.dim, sim.ref.h1_B1, op.mass_w, dofs,
                                      op.kernel_entries(), L.n)
        apply, blocks = mass.applier(L.dim, cupy.ones((L.n, L.dim)))
        d = cupy.ascontiguousarray(v.T)
        z, partial = cupy.empty_like(d), cupy.empty((blocks, L.dim))
        rows = [("force_rhs", lambda: gk.force_rhs(cupy, stress, *tables)),
                ("force_energy", lambda: gk.force_energy(cupy, stress, v, dofs, *tables)),
                ("mass product", lambda: apply(d, z, partial) or z)]
        for name, fn in rows:
            out = fn()
            print(f"| {nx} | {name} | {timed(fn):.4f} | {float(cupy.abs(out).sum()):.12e} |",
                  flush=True)


if __name__ == "__main__":
    main()
