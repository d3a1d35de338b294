"""The force stage of a GPU step of 3-D Sedov Q2-Q1, piece by piece (CUDA events, median of 20).

    python3 reports/gpu_20261129c/device/p_forces.py [nx ...]

Builds the bench's case (scripts/bench_hydro.py) at each nx, takes two steps, then times the
pieces of one RK stage's forces on the state reached: F . 1 by partial assembly (force_rhs), its
assembly into the dofs (assemble_forces), F^T v by partial assembly (force_energy, from call 2
on gathering the velocity itself; call 1 timed gather_vector apart), and the reference GEMM form
(F by one linalg.gemm, then the two GEMVs) once for scale. With --ncu: one launch of each kernel
at the first nx, nothing timed (for Nsight Compute). Bytes: the stress read once, the kernel's
inputs and outputs once; against a device-to-device copy of 512 MB in the same run.
"""
import sys
import time

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels  # noqa: E402
from hydro.operators import gather_vector  # noqa: E402
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


def copy_rate():
    a = cupy.ones(64 * 2**20)
    b = cupy.empty_like(a)
    ms, _ = timed(lambda: b.__setitem__(Ellipsis, a))
    return 2 * a.nbytes / ms / 1e6     # GB/s


def main():
    sizes = [int(a) for a in sys.argv[1:] if a != "--ncu"] or [16, 32]
    bw = copy_rate() if "--ncu" not in sys.argv else 1.0
    print(f"device-to-device copy: {bw:.0f} GB/s\n")
    print("| nx | piece | GPU ms (events) | wall ms | GB/s | % copy |")
    print("| --- | --- | --- | --- | --- | --- |")
    for nx in sizes:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, S, L = sim.op, sim.S, sim.layout
        op.update_quadrature_data(S)
        force, stress = op.force, sim.qdata.stressJinvT
        tables = force.tables_1d
        v = cupy.ascontiguousarray(L.v(S))
        vz = gather_vector(v, op.dof_map)
        dofs = gpu_kernels.int32_dofs(cupy, op.dof_map)
        f1 = gpu_kernels.force_rhs(cupy, stress, *tables)
        entries = gpu_kernels.dof_entries(cupy, op.dof_map, L.n)
        e = gpu_kernels.force_energy(cupy, stress, v, dofs, *tables)
        if "--ncu" in sys.argv:
            cupy.cuda.runtime.deviceSynchronize()
            return
        rows = [
            ("force_rhs (F . 1)", lambda: gpu_kernels.force_rhs(cupy, stress, *tables),
             stress.nbytes + f1.nbytes),
            ("assemble_forces", lambda: gpu_kernels.assemble_forces(cupy, f1, entries, L.dim, L.n),
             f1.nbytes + L.dim * L.n * 8),
            ("force_energy (F^T v, gathering v)",
             lambda: gpu_kernels.force_energy(cupy, stress, v, dofs, *tables),
             stress.nbytes + vz.nbytes + dofs.nbytes + e.nbytes),
            ("stage total (mult_one + assemble + mult_transpose)",
             lambda: (gpu_kernels.assemble_forces(cupy, force.mult_one(), entries, L.dim, L.n),
                      force.mult_transpose(v)), 0),
        ]
        for name, fn, nbytes in rows:
            ms, wall = timed(fn)
            rate = f"{nbytes / ms / 1e6:.0f} | {100 * nbytes / ms / 1e6 / bw:.0f} %" if nbytes \
                else " | "
            print(f"| {nx} | {name} | {ms:.4f} | {wall:.4f} | {rate} |")
        dofs = L.dim * L.n + e.size
        ms, _ = timed(rows[-1][1])
        print(f"| {nx} | H1+L2 dofs {dofs}: {dofs / ms / 1e6:.2f} Gdof·stage/s (stage total) "
              "| | | | |")
        force.fused = False

        def gemm_form():
            force.assemble(stress)
            return force.mult_one(), force.mult_transpose(v)
        ms, wall = timed(gemm_form, 5)
        print(f"| {nx} | reference GEMM form (F, F . 1, F^T v) | {ms:.4f} | {wall:.4f} | | |")
        ref_f1, ref_e = gemm_form()
        force.fused = True
        err = max(float(abs(f1 - ref_f1).max() / abs(ref_f1).max()),
                  float(abs(e - ref_e).max() / abs(ref_e).max()))
        print(f"| {nx} | max relative difference to the GEMM form: {err:.2e} | | | | |")
        del sim, force, stress
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
