"""Launchers of the hydro driver's own GPU kernels (kernels/hydro.cu), float64 CuPy arrays.

The array-module code in hydro/lagrangian.py and hydro/operators.py is the reference (and the CPU
path); on the GPU these kernels replace two of its stages:
- ``quadrature_physics``: the quadrature-point update (geometry, EOS, viscosity, stress, CFL
  step) in one pass over the points, where the reference runs batched 3 x 3 eigen- and
  singular-value solvers and tens of elementwise passes;
- ``corner_forces``: F_z = A_z B^T without storing A_z (the reference materializes A, about nine
  times the stress's bytes, then calls linalg.gemm), with F . 1 beside it.
They compile through linalg's kernel cache (linalg._cuda._compile) on first use.
"""
from __future__ import annotations

import functools

THREADS = 128


@functools.lru_cache(maxsize=None)
def _compile():
    from linalg._cuda import _compile
    return _compile


def _grid(items):
    return _compile().grid_1d(items, THREADS)


def quadrature_physics(xp, Jg, Vg, e_q, qd, w, opts, order):
    """hydro.lagrangian.quadrature_physics in one kernel (same arguments and results).

    Jg, Vg (dim, Z, dim*NQ), e_q (Z, NQ), qd.rho0DetJ0w (Z, NQ), qd.gamma (Z,), qd.Jac0inv (Z, NQ,
    dim, dim), w (NQ,): float64 device arrays. Returns rho, p (Z, NQ), stressJinvT (Z, NQ, dim,
    dim), dt (Z, NQ), new arrays.
    """
    dim, Z = Jg.shape[0], Jg.shape[1]
    NQ = w.shape[0]
    viscosity = bool(opts["viscosity"])
    args = [xp.ascontiguousarray(a, dtype=xp.float64)
            for a in (Jg, Vg if viscosity else Jg, e_q, qd.rho0DetJ0w, w, qd.gamma, qd.Jac0inv)]
    rho = xp.empty((Z, NQ))
    p = xp.empty((Z, NQ))
    dt = xp.empty((Z, NQ))
    stress = xp.empty((Z, NQ, dim, dim))
    launch = _compile().kernel("hydro", f"quadrature_physics<{dim}>", "p" * 11 + "qiii" + "d" * 5)
    launch(_grid(Z * NQ), THREADS,
           (*args, rho, p, stress, dt, Z, NQ, int(viscosity), int(bool(opts["vorticity"])),
            float(qd.h0), float(opts["q1"]), float(opts["q2"]), float(opts["cfl"]),
            float(order)))
    return rho, p, stress, dt


def columns_per_thread(ne):
    """Columns of F a thread accumulates: all NE up to 16 (and F . 1 in the same kernel), else 16
    (27 and 64 columns of 3-D Q3 / Q4 would cost 54-128 registers of accumulators a thread)."""
    return ne if ne <= 16 else 16


def corner_forces(xp, stressJinvT, G, Bt):
    """F (Z, dim*ND, NE) and F . 1 (Z, dim*ND) from stressJinvT (Z, NQ, dim, dim), the reference
    gradients G (dim, NQ, ND) and the L2 basis Bt (NQ, NE); float64 device arrays."""
    Z, NQ, dim, _ = stressJinvT.shape
    ND, NE = G.shape[2], Bt.shape[1]
    nj = columns_per_thread(NE)
    F = xp.empty((Z, dim * ND, NE))
    F1 = xp.empty((Z, dim * ND))
    launch = _compile().kernel("hydro", f"corner_forces<{dim}, {nj}>", "ppppp" + "qiii")
    items = Z * dim * ND * (-(-NE // nj))
    launch(_grid(items), THREADS,
           (xp.ascontiguousarray(stressJinvT), xp.ascontiguousarray(G), xp.ascontiguousarray(Bt),
            F, F1, Z, NQ, ND, NE))
    if nj < NE:
        F1 = F.sum(axis=2)
    return F, F1
