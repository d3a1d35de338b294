"""CPU TRSV on strided batches: a (batch, n, n) triangular, x (batch, n).

One vector a matrix, by rows: op(A) y = x is a forward substitution where op(A) is lower and a
backward one where it is upper, both on a lower view T of A (A itself, or A^T for an upper A;
no copy, no reversal), with dot products along T inside blocks and stacked GEMVs between them
(``triangular.dot_lower_solve`` / ``dot_lower_transposed_solve``, the one-vector POTRS's
substitutions), over cache-sized chunks of the batch shared among threads. Against the column
substitution (``triangular.lower_solve``) it replaced: `python3 scripts/bench_cpu.py --ops trsv`
(float64 lower N, batch 10000, median of 5; 2-core x86_64, two alternating runs of each tree,
2026-11-26), ms before / after: n = 8 2.8-4.5 / 2.0-2.1, n = 16 12-16 / 7-12, n = 32 35-44 / 25-26,
n = 64 62-78 / 40-56, n = 128 143-155 / 123-125; n = 4 equal (0.9-1.2).
"""
import numpy

from .triangular import (diag_info, dot_lower_solve, dot_lower_transposed_solve, over_chunks,
                         vector_chunk, vector_plans, with_identity)

__all__ = ["trsv"]

# Operands never written into (the public layer need not copy them).
READS_ONLY = {"trsv": ("a",)}


def trsv(a, x, lower=True, trans="N", unit_diagonal=False):
    """Solve op(A) y = x for each matrix; returns (y, info), ``x`` overwritten with y.

    a: (batch, n, n), only the ``lower`` (else upper) triangle read (and not its diagonal with
    ``unit_diagonal``); x: (batch, n), same dtype; trans "N", "T" or "C". info (int32, batch):
    LAPACK's, the first zero or non-finite diagonal entry (1-based); such a matrix is solved with
    the identity instead.
    """
    info = diag_info(a, unit_diagonal)
    t = with_identity(a, info)
    t = t if lower else numpy.swapaxes(t, 1, 2)           # lower view: L, or U^T
    forward = lower == (trans == "N")                      # op(A) lower: L, or (U^T)
    conj = trans == "C" and numpy.iscomplexobj(a)
    batch, n = x.shape
    plan = vector_plans(t)[0 if forward else 1]
    solve = dot_lower_solve if forward else dot_lower_transposed_solve

    def run(s):
        # op(A) = A^H = conj(A^T): solve A^T conj(y) = conj(x), the same pass on conjugates.
        xs = x[s]
        if conj:
            numpy.conjugate(xs, out=xs)
        diag = (numpy.ones((xs.shape[0], n), x.dtype) if unit_diagonal
                else numpy.diagonal(t[s], axis1=1, axis2=2).copy())
        solve(t[s], xs, diag, numpy.empty(xs.shape[0], x.dtype), *plan)
        if conj:
            numpy.conjugate(xs, out=xs)
    with numpy.errstate(all="ignore"):
        over_chunks(run, batch, n * n, a.itemsize, n * n, step=vector_chunk(batch, n, a.itemsize))
    return x, info
