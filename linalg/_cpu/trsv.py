"""CPU TRSV on strided batches: a (batch, n, n) triangular, x (batch, n).

The blocked substitution of ``linalg._cpu.triangular`` with one right-hand side: inverted
NB x NB diagonal blocks and left-looking stacked GEMV updates, vectorized over the batch.
"""
from .triangular import trsm

__all__ = ["trsv"]

# Operands never written into (the public layer need not copy them).
READS_ONLY = {"trsv": ("a",)}


def trsv(a, x, lower=True, trans="N", unit_diagonal=False):
    """Solve op(A) y = x for each matrix; returns (y, info), ``x`` overwritten."""
    y, info = trsm(a, x[:, :, None], "left", lower, trans, unit_diagonal)
    return y[:, :, 0], info
