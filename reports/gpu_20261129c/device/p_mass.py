"""The velocity solve's mass operator on 3-D Sedov Q2-Q1, piece by piece (CUDA events, median).

    python3 reports/gpu_20261129c/device/p_mass.py [nx ...]

At each nx after one step: the partial-assembly product (mass_zone, pcg_gather_apply, both),
cupyx's CSR product of the assembled matrix for scale (the reference's), their difference, and
mass_pcg on a stage's right-hand side (iterations, ms a solve and an iteration). Bytes of the
product: weights, dof map, the zone results written and read, the entries, d and z.
"""
import sys
import time

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels as gk  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def timed(fn, reps=30):
    fn()
    cupy.cuda.runtime.deviceSynchronize()
    g, w = [], []
    for _ in range(reps):
        a, b = cupy.cuda.Event(), cupy.cuda.Event()
        h0 = time.perf_counter()
        a.record()
        fn()
        b.record()
        b.synchronize()
        g.append(cupy.cuda.get_elapsed_time(a, b))
        w.append(1e3 * (time.perf_counter() - h0))
    return np.median(g), np.median(w)


def main():
    print("| nx | piece | GPU ms | wall ms | note |")
    print("| --- | --- | --- | --- | --- |")
    for nx in [int(a) for a in sys.argv[1:]] or [32]:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        sim.step()
        op, L = sim.op, sim.layout
        M, free = op.kmass.matrix, op.free
        k, n = free.shape
        mass = gk.PartialAssemblyMass(cupy, L.dim, sim.ref.h1_B1, op.mass_w, op.dof_map, n)
        free_t = cupy.ascontiguousarray(free.T)
        d = cupy.asarray(np.random.default_rng(0).standard_normal((n, k))) * free_t
        z = cupy.empty_like(d)
        partial = cupy.empty((gk.PCG_MAX_BLOCKS, k))
        apply, blocks = mass.applier(k, free_t)
        Z, nd = mass.dofs.shape
        nbytes = (mass.weights.nbytes + mass.dofs.nbytes + 2 * Z * nd * k * 8
                  + mass.entries[1].nbytes + mass.entries[0].nbytes + 3 * d.nbytes)
        t = timed(lambda: apply(d, z, partial))
        rows = [("partial-assembly product (mass_zone + pcg_gather_apply)", t,
                 f"{nbytes / 1e6:.0f} MB, {nbytes / t[0] / 1e6:.0f} GB/s")]
        zb = mass.zones_per_block(k)
        zone = gk._compile().kernel("hydro", f"mass_zone<{L.dim}, {mass.B1.shape[1]}, "
                                    f"{mass.B1.shape[0]}, {zb}, {k}>", "pppppq")
        yz = cupy.empty((Z * nd, k))
        rows.append(("mass_zone alone", timed(lambda: zone(gk._compile().grid_1d(Z, zb),
                                                           gk.FORCE_THREADS,
                                                           (d, mass.dofs, mass.weights, mass.B1,
                                                            yz, Z))), ""))
        dT = cupy.ascontiguousarray(d.T)
        rows.append(("cupyx CSR product M d (k rows)", timed(lambda: M @ dT.T),
                     f"nnz {M.nnz}, {M.nnz * 12 / 1e6:.0f} MB of matrix"))
        apply(d, z, partial)
        want = free_t * (M @ d) + (1 - free_t) * d
        err = float(abs(z - want).max() / abs(want).max())
        rows.append(("max relative difference PA vs CSR", (0.0, 0.0), f"{err:.2e}"))
        rhs = cupy.asarray(np.random.default_rng(1).standard_normal((k, n))) * free
        o = op.opts
        its = []

        def solve():
            its.append(gk.mass_pcg(cupy, mass, free, rhs, op.kmass.diag, o["cg_tol"],
                                   o["cg_max_iter"])[1])
        t = timed(solve, 10)
        it = int(its[-1].max())
        rows.append(("mass_pcg solve", t, f"iterations {its[-1].tolist()}, "
                     f"{t[0] / it:.4f} ms an iteration"))
        for name, (g, w), note in rows:
            print(f"| {nx} | {name} | {g:.4f} | {w:.4f} | {note} |")
        del sim, mass
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
