"""Where a GPU step of 3-D Sedov Q2-Q1 goes, piece by piece (CUDA events, median of repeats).

    python3 reports/gpu_20261129b/device/p_hydro_stages.py [nx ...]

Builds the bench's case (scripts/bench_hydro.py) at each nx, takes two steps, then times each
piece of one RK stage on the state reached: the quadrature points' fields (gathers and three
matmuls), the quadrature-point kernel, the corner-force kernel, the reference GEMM form, F . 1's
scatter, F^T v (gather and GEMV-T), the energy mass solve (GEMV), one velocity solve (block
PCG, iterations counted), and inside it one operator application and one row-dot check.
"""
import sys
import time

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels  # noqa: E402
from hydro.operators import gather_vector, scatter_add  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def timed(fn, reps=20):
    fn()
    cupy.cuda.runtime.deviceSynchronize()
    times = []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        h0 = time.perf_counter()
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append((cupy.cuda.get_elapsed_time(a, b), 1e3 * (time.perf_counter() - h0)))
    t = np.median(np.array(times), axis=0)
    return t[0], t[1]


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [16, 32]
    print("| nx | piece | GPU ms (events) | wall ms | note |")
    print("| --- | --- | --- | --- | --- |")
    for nx in sizes:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, S, qd = sim.op, sim.S, sim.qdata
        fields = op.point_fields(S)
        args = (cupy, *fields, qd, op.w, op.opts, sim.ref.order)
        stress = gpu_kernels.quadrature_physics(*args)[2]
        v = sim.layout.v(S)
        rows = []
        rows.append(("point_fields (gathers + 3 matmuls)", timed(lambda: op.point_fields(S)), ""))
        rows.append(("quadrature_physics kernel", timed(lambda: gpu_kernels.quadrature_physics(*args)), ""))
        rows.append(("dt.min() + host sync", timed(lambda: float(cupy.ones(1).min())), ""))
        rows.append(("corner_forces kernel (F, F.1)",
                     timed(lambda: gpu_kernels.corner_forces(cupy, stress, op.force.G, op.force.Bt)), ""))
        op.force.fused = False
        rows.append(("reference: A then linalg.gemm", timed(lambda: op.force.assemble(stress), 5), ""))
        op.force.fused = True
        op.force.assemble(stress)
        f1 = op.force.F1
        L = sim.layout
        Z, nd = op.dof_map.shape

        def scatter():
            idx = (cupy.arange(L.dim)[None, :, None] * L.n + op.dof_map[:, None, :])
            return scatter_add(cupy, idx, f1.reshape(Z, L.dim, nd), L.dim * L.n)
        rows.append(("F.1 scatter (bincount)", timed(scatter), ""))
        entries = gpu_kernels.dof_entries(cupy, op.dof_map, L.n)
        rows.append(("F.1 assemble_forces kernel", timed(lambda: gpu_kernels.assemble_forces(
            cupy, f1, entries, L.dim, L.n)), ""))
        rows.append(("gather_vector(v)", timed(lambda: gather_vector(v, op.dof_map)), ""))
        vz = gather_vector(v, op.dof_map)
        rows.append(("F^T v (linalg.gemv T)", timed(lambda: op.force.mult_transpose(vz)), ""))
        rhs = op.force.mult_transpose(vz)
        rows.append(("M_E^-1 (linalg.gemv)", timed(lambda: op.emass.solve(rhs)), ""))
        its0 = op.cg_iterations
        t = timed(lambda: op.solve_velocity(S), 5)
        its = (op.cg_iterations - its0) / 6
        rows.append(("solve_velocity (scatter + block PCG)", t, f"{its:.0f} iterations (all rows)"))
        free = op.free
        d = cupy.ones((L.dim, L.n))
        rows.append(("apply: free*M(d*free)+(1-free)*d", timed(lambda: free * op.kmass.mult(d * free) + (1.0 - free) * d), ""))
        rows.append(("kmass.matrix @ d.T (SpMM, k=dim)", timed(lambda: op.kmass.matrix @ d.T), f"nnz {op.kmass.matrix.nnz}"))
        rows.append(("kmass.matrix @ d[0] (SpMV)", timed(lambda: op.kmass.matrix @ d[0]), ""))
        rows.append(("dot_rows (reduction + copy)", timed(lambda: op.shared.dot_rows(d, d)), ""))
        for name, (g, w), note in rows:
            print(f"| {nx} | {name} | {g:.4f} | {w:.4f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
