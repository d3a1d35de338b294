"""CPU Cholesky family on strided (batch, n, n) batches.

Strategy: NumPy's stacked LAPACK where it exists and is fast (numpy.linalg.cholesky loops over
the batch in C), with failed matrices detected and isolated so one bad matrix never spoils the
batch; our own column-vectorized code where NumPy has no batched routine.
"""
import numpy

__all__ = ["potrf"]


def _lower_hermitian(a, lower):
    """The matrices with the referenced triangle mirrored (so LAPACK's other triangle is unread)."""
    tri = numpy.tril(a) if lower else numpy.triu(a)
    diag = numpy.einsum("kii->ki", a).real
    full = tri + numpy.conj(numpy.swapaxes(tri, 1, 2))
    idx = numpy.arange(a.shape[1])
    full[:, idx, idx] = diag
    return full


def potrf(a, lower=True):
    """Cholesky factor of each matrix; returns (factor, info) as docs/design.md states."""
    full = _lower_hermitian(a, lower)
    info = numpy.zeros(a.shape[0], dtype=numpy.int32)
    try:
        factor = numpy.linalg.cholesky(full)
    except numpy.linalg.LinAlgError:
        factor = numpy.zeros_like(full)
        good = _find_failures(full, info)
        if good.any():
            factor[good] = numpy.linalg.cholesky(full[good])
    if not lower:
        factor = numpy.conj(numpy.swapaxes(factor, 1, 2))
    return numpy.ascontiguousarray(factor), info


def _find_failures(full, info):
    """Set info (LAPACK meaning) for the matrices that are not positive definite.

    A right-looking factorization vectorized over the batch: column j of every matrix at once.
    Returns the mask of matrices that succeeded.
    """
    work = full.copy()
    n = work.shape[1]
    failed = numpy.zeros(work.shape[0], dtype=bool)
    for j in range(n):
        d = work[:, j, j].real
        newly = ~failed & ~(d > 0)          # NaN fails this test too, as in LAPACK
        info[newly] = j + 1
        failed |= newly
        pivot = numpy.sqrt(numpy.where(failed, 1.0, d))
        col = work[:, j + 1:, j] / pivot[:, None]
        work[:, j + 1:, j + 1:] -= col[:, :, None] * numpy.conj(col[:, None, :])
        work[:, j + 1:, j] = col
    return ~failed
