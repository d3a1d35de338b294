"""CPU SYRK on strided batches: one stacked product, then the computed triangle mirrored.

C = alpha A A^T + beta C (trans='N', A is (batch, n, k)) or alpha A^T A + beta C (trans='T',
A is (batch, k, n)); symmetric, not Hermitian, for complex dtypes, as in BLAS. Only the ``lower``
(or upper) triangle of C is read; the result is returned full (docs/design.md, "Which triangle").
"""
import numpy

from .blas import split_batch

__all__ = ["syrk", "mirror"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"syrk": ("a",)}

_CHUNK_BYTES = 1 << 20


def mirror(c, lower):
    """Copy the ``lower`` (or upper) triangle of each matrix onto the other one, in place."""
    n = c.shape[-1]
    if n <= 8:                 # few entries: an index copy is cheapest
        i, j = numpy.tril_indices(n, -1)
        if lower:
            c[:, j, i] = c[:, i, j]
        else:
            c[:, i, j] = c[:, j, i]
        return c
    other = numpy.triu(numpy.ones((n, n), bool), 1) if lower else numpy.tril(numpy.ones((n, n), bool), -1)
    numpy.copyto(c, numpy.swapaxes(c, 1, 2), where=other)   # NumPy buffers the overlapping read
    return c


def syrk(a, c=None, lower=True, trans="N", alpha=1, beta=0):
    """Symmetric rank-k update of each matrix; returns the full symmetric (batch, n, n) result.

    ``c`` is not read when ``beta == 0``; when given it receives the result. ``trans`` is 'N' or
    'T' ('C' is accepted as 'T' for real dtypes by the public layer).
    """
    at = numpy.swapaxes(a, 1, 2)
    left, right = (a, at) if trans == "N" else (at, a)
    batch, n, k = a.shape[0], left.shape[1], left.shape[2]
    add = c is not None and beta != 0
    out = c if c is not None else numpy.empty((batch, n, n), dtype=a.dtype)
    step = max(1, _CHUNK_BYTES // (n * max(n, k) * a.itemsize))

    def run(lo, hi):
        # cache-sized chunks: the transposed copy, the product and the mirror work on hot data
        for s in range(lo, hi, step):
            t = min(s + step, hi)
            blk = out[s:t]
            if add:
                mirror(blk, lower)         # the other triangle of the input is never read
                if beta != 1:
                    blk *= beta
                prod = numpy.matmul(left[s:t], numpy.ascontiguousarray(right[s:t]))
                if alpha != 1:
                    prod *= alpha
                blk += prod
            else:
                numpy.matmul(left[s:t], numpy.ascontiguousarray(right[s:t]), out=blk)
                if alpha != 1:
                    blk *= alpha
            mirror(blk, lower)

    split_batch(run, batch, n * n * k)
    return out
