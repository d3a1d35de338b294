"""The MPI ranks' velocity solve on one rank, without any exchange (CUDA events, median of 5).

    python3 reports/gpu_20261129d/device/p_ranks.py [nx ...]

At each nx after two steps, on a stage's right-hand side, with a communicator that claims two
ranks and has no neighbours: the reference pcg with the CSR product (the MPI path at the
session's start), gpu_kernels.mass_pcg_ranks (the tree's), and mass_pcg (one GPU) for scale;
ms a solve and an iteration.
"""
import sys

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels as gk  # noqa: E402
from hydro.operators import pcg  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def timed(fn, reps=5):
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
    print("| nx | solve | ms | note |")
    print("| --- | --- | --- | --- |")
    for nx in [int(a) for a in sys.argv[1:]] or [32]:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, L = sim.op, sim.layout
        op.update_quadrature_data(sim.S)
        rhs = gk.assemble_forces(cupy, op.force.mult_one(), op.kernel_entries(), L.dim, L.n)
        free, diag, tol = op.free, op.kmass.diag, op.opts["cg_tol"]
        mass = op.partial_assembly_mass()
        args = (free, rhs * free, diag, tol, 300)

        def reference():
            def apply(dd):
                return free * op.kmass.mult(dd * free) + (1.0 - free) * dd
            return pcg(apply, rhs * free, diag, op.shared.dot_rows, tol, 300, cupy)
        rows = (("mass_pcg (one GPU)", lambda: gk.mass_pcg(cupy, mass, *args)),
                ("reference pcg, CSR product (MPI path at the start)", reference),
                ("mass_pcg_ranks", lambda: gk.mass_pcg_ranks(cupy, mass, *args, op.shared)))
        op.shared.comm.size = 2
        for name, fn in rows:
            _, its = fn()
            ms = timed(fn)
            print(f"| {nx} | {name} | {ms:.4f} | iterations {list(its)}, "
                  f"{ms / its.max():.4f} ms an iteration |", flush=True)
        op.shared.comm.size = 1


if __name__ == "__main__":
    main()
