"""The GPU PCG's vector kernels with and without FLAT (a thread an interleaved entry, coalesced
8-byte accesses, against a thread a dof's K entries), 3-D Sedov Q2-Q1 (CUDA events, median).

    python3 reports/gpu_20261129d/device/p_flat.py [nx ...]

At each nx after two steps, on a stage's right-hand side: mass_pcg's solve (ms an iteration)
and pcg_update / pcg_direction launched alone, PCG_FLAT = True then False; the solutions of the
two are compared.
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
    print("| nx | piece | GPU ms | note |")
    print("| --- | --- | --- | --- |")
    for nx in [int(a) for a in sys.argv[1:]] or [32, 48]:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, L = sim.op, sim.layout
        op.update_quadrature_data(sim.S)
        rhs = gk.assemble_forces(cupy, op.force.mult_one(), op.kernel_entries(), L.dim, L.n)
        free, diag, tol = op.free, op.kmass.diag, op.opts["cg_tol"]
        mass = op.partial_assembly_mass()
        args = (free, rhs * free, diag, tol, 300)
        solutions = []
        for flat in (True, False, True, False):
            gk.PCG_FLAT = flat
            x, its = gk.mass_pcg(cupy, mass, *args)
            solutions.append(x)
            ms = timed(lambda: gk.mass_pcg(cupy, mass, *args), 10)
            cg = gk._BlockPCG(cupy, mass, free, rhs * free, diag, None)
            cg.start(cupy.asnumpy((cg.d * cg.r).sum(axis=0)), tol)
            cg.apply(cg.d, cg.z, cg.apply_partial)
            upd = timed(lambda: cg.update(cg.apply_partial, cg.apply_blocks, 1))
            dirn = timed(lambda: cg.direction(cg.update_partial, cg.vector_blocks, 1))
            print(f"| {nx} | FLAT = {flat} | {ms / its.max():.4f} | mass_pcg {ms:.3f} ms, "
                  f"iterations {list(its)}; pcg_update {upd:.4f}, pcg_direction {dirn:.4f} ms, "
                  f"{cg.vector_blocks} blocks |", flush=True)
        gk.PCG_FLAT = True
        diff = float(cupy.abs(solutions[0] - solutions[1]).max() / cupy.abs(solutions[1]).max())
        print(f"| {nx} | solutions, FLAT against not | {diff:.2e} | max relative difference |")


if __name__ == "__main__":
    main()
