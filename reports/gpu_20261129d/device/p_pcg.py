"""The GPU PCG of a 3-D Sedov Q2-Q1 velocity solve, kernel by kernel (CUDA events, median of 30).

    python3 reports/gpu_20261129d/device/p_pcg.py [nx ...]

At each nx after two steps, on a stage's right-hand side: mass_pcg's solve (ms an iteration)
and each of its kernels launched alone (mass_zone + pcg_gather_apply, pcg_update,
pcg_direction; the vectors' values do not matter for the time) with U = 4, 2, 1 dofs a thread
at a time in pcg_update / pcg_direction (call 5 ran U = 1 only; call 2 also mass_pcg with
PCG_MAX_BLOCKS = 528, 264, 132), and the MPI ranks' paths on one rank with a communicator that
claims two ranks and has no neighbours (the host's and GPU's share of an MPI iteration without
any exchange): the reference pcg with the CSR product (the path before mass_pcg_ranks) and
mass_pcg_ranks.
"""
import sys

import cupy
import numpy as np

sys.path.insert(0, "scripts")
from bench_hydro import case  # noqa: E402

from hydro import gpu_kernels as gk  # noqa: E402
from hydro.operators import pcg  # noqa: E402
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


UNROLLS = (4, 2, 1)  # pcg_update / pcg_direction's U; the first is the tree's


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [32, 48]
    print("| nx | piece | GPU ms | note |")
    print("| --- | --- | --- | --- |")
    for nx in sizes:
        sim = Simulation(case(nx, 10, "rk4"), xp=cupy)
        for _ in range(2):
            sim.step()
        op, L = sim.op, sim.layout
        op.update_quadrature_data(sim.S)
        rhs = gk.assemble_forces(cupy, op.force.mult_one(), op.kernel_entries(), L.dim, L.n)
        free, diag, tol = op.free, op.kmass.diag, op.opts["cg_tol"]
        mass = op.partial_assembly_mass()
        k, n = L.dim, L.n
        c = gk._compile()
        apply, apply_blocks = mass.applier(k, cupy.ascontiguousarray(free.T))
        for unroll in UNROLLS:
            gk.PCG_UNROLL = unroll
            _, its = gk.mass_pcg(cupy, mass, free, rhs * free, diag, tol, 300)
            ms = timed(lambda: gk.mass_pcg(cupy, mass, free, rhs * free, diag, tol, 300), 10)
            print(f"| {nx} | mass_pcg, U = {unroll} | {ms:.4f} | iterations {list(its)}, "
                  f"{ms / its.max():.4f} ms an iteration |", flush=True)
            update = c.kernel("hydro", f"pcg_update<{k}, false, {unroll}>", "pppppppppp" + "iii")
            direction = c.kernel("hydro", f"pcg_direction<{k}, {unroll}>", "pppppiii")
            vb = max(1, min(-(-n // (gk.PCG_THREADS * unroll)), gk.PCG_MAX_BLOCKS))
            x = cupy.zeros((n, k))
            r = cupy.ascontiguousarray((rhs * free).T)
            z = r / diag[:, None]
            d = z.copy()
            nom = (d * r).sum(axis=0).get()
            state = cupy.asarray(np.concatenate([nom * 1e-16, nom, nom]))
            istate = cupy.asarray(np.concatenate([[1] * k, [1] * k, [0] * k, [1]])
                                  .astype(np.int32))
            ap = cupy.zeros((gk.PCG_MAX_BLOCKS, k))
            up = cupy.zeros((gk.PCG_MAX_BLOCKS, k))
            apply(d, z, ap)
            rows = [("pcg_gather_apply + mass_zone", lambda: apply(d, z, ap)),
                    ("pcg_update", lambda: update(vb, gk.PCG_THREADS,
                                                  (x, r, z, d, diag, diag, ap, up, state, istate,
                                                   apply_blocks, 1, n))),
                    ("pcg_direction", lambda: direction(vb, gk.PCG_THREADS,
                                                        (d, z, up, state, istate, vb, 1, n)))]
            for name, fn in rows[int(unroll != UNROLLS[0]):]:
                print(f"| {nx} | {name}, U = {unroll} | {timed(fn):.4f} | {vb} vector blocks |",
                      flush=True)
        gk.PCG_UNROLL = UNROLLS[0]
        # the MPI ranks' paths on one rank: a communicator that claims two ranks, no neighbours
        op.shared.comm.size = 2
        args = (free, rhs * free, diag, tol, 300)

        def reference():            # the session's starting tree: the reference pcg, CSR product
            def apply(dd):
                return free * op.kmass.mult(dd * free) + (1.0 - free) * dd
            return pcg(apply, rhs * free, diag, op.shared.dot_rows, tol, 300, cupy)
        for name, fn in (("reference pcg, CSR product (MPI path before)", reference),
                         ("mass_pcg_ranks (MPI path now)",
                          lambda: gk.mass_pcg_ranks(cupy, mass, *args, op.shared))):
            _, its = fn()
            ms = timed(fn, 5)
            print(f"| {nx} | {name}, no exchange | {ms:.4f} | iterations {list(its)}, "
                  f"{ms / its.max():.4f} ms an iteration |", flush=True)
        op.shared.comm.size = 1


if __name__ == "__main__":
    main()
