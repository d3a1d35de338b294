"""One iteration of mass_pcg, piece by piece, on 3-D Sedov Q2-Q1 (CUDA events, median).

    python3 reports/gpu_20261129b/device/p_pcg.py [nx ...]

Times the three kernels (the CSR product at 4, 8, 16 and 32 lanes a row), the host's read of
the partial sums, a whole iteration's host work, and mass_pcg on the stage's right-hand side.
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
        op = sim.op
        M, free = op.kmass.matrix, op.free
        k, n = free.shape
        c = gk._compile()
        free_t = cupy.ascontiguousarray(free.T)            # the kernels' layout, (n, k)
        d = cupy.asarray(np.random.default_rng(0).standard_normal((n, k))) * free_t
        z = cupy.empty_like(d)
        partial = cupy.empty((gk.PCG_MAX_BLOCKS, k))
        rows = []
        for lanes in (4, 8, 16, 32):
            blocks = max(1, min(-(-n // (gk.PCG_THREADS // lanes)), gk.PCG_MAX_BLOCKS))
            kern = c.kernel("hydro", f"pcg_apply<{k}, {lanes}>", "pppppppi")
            t = timed(lambda: kern(blocks, gk.PCG_THREADS, (M.indptr, M.indices, M.data, free_t,
                                                             d, z, partial, n)))
            mark = " (chosen)" if lanes == gk.lanes_per_row(M.nnz, n) else ""
            rows.append((f"pcg_apply lanes {lanes}{mark}", t, f"nnz {M.nnz}, bytes {M.nnz * 12 / 1e6:.0f} MB"))
        vb = max(1, min(-(-n // gk.PCG_THREADS), gk.PCG_MAX_BLOCKS))
        x, r = cupy.zeros_like(d), d.copy()
        diag = op.kmass.diag
        state = cupy.ones(3 * k)
        istate = cupy.zeros(3 * k + 1, dtype=cupy.int32)      # every component stopped
        partial.fill(1.0)
        upartial = cupy.ones_like(partial)
        if hasattr(gk, "PCG_POLL"):                           # device-resident scalars
            upd = c.kernel("hydro", f"pcg_update<{k}>", "pppppppppiii")
            rows.append(("pcg_update", timed(lambda: upd(vb, gk.PCG_THREADS, (
                x, r, z, d, diag, partial, upartial, state, istate, gk.PCG_MAX_BLOCKS, 1, n))), ""))
            dirk = c.kernel("hydro", f"pcg_direction<{k}>", "pppppiii")
            rows.append(("pcg_direction", timed(lambda: dirk(vb, gk.PCG_THREADS, (
                d, z, upartial, state, istate, vb, 1, n))), ""))
        else:
            upd = c.kernel("hydro", f"pcg_update<{k}>", "ppppppiddd")
            rows.append(("pcg_update", timed(lambda: upd(vb, gk.PCG_THREADS, (
                x, r, z, d, diag, partial, n, 0.0, 0.0, 0.0))), ""))
            dirk = c.kernel("hydro", f"pcg_direction<{k}>", "ppiddd")
            rows.append(("pcg_direction", timed(lambda: dirk(vb, gk.PCG_THREADS, (
                d, z, n, 0.5, 0.5, 0.5))), ""))
        rows.append(("partial sums to host (pageable)", timed(lambda: partial[:vb].get().sum(axis=0)), ""))
        rhs = cupy.asarray(np.random.default_rng(1).standard_normal((k, n))) * free
        out = {}

        def solve():
            out["it"] = gk.mass_pcg(cupy, M, free, rhs, diag, 1e-8, 300)[1]
        t = timed(solve, 5)
        rows.append(("mass_pcg (cg_tol 1e-8)", t, f"iterations {list(out['it'])}, "
                     f"{t[1] / max(out['it']):.3f} ms an iteration"))
        for name, (g, w), note in rows:
            print(f"| {nx} | {name} | {g:.4f} | {w:.4f} | {note} |", flush=True)


if __name__ == "__main__":
    main()
