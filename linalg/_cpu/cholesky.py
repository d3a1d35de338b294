"""CPU Cholesky family on strided (batch, n, n) batches: potrf, potrs, posv, potri, poti.

Strategy: NumPy's stacked LAPACK for the factorization (numpy.linalg.cholesky loops over the
batch in C and reads only the lower triangle, LAPACK potrf('L')), with failed matrices isolated
so one bad matrix never spoils the batch; the solves and inverses are the blocked, batch-
vectorized triangular kernels of ``linalg._cpu.triangular`` (stacked matmul + small inverted
diagonal blocks), run over cache-sized chunks of the batch. Batches with enough work are split
among a few threads (``linalg._cpu.blas.split_batch``), the factorization included. POSV with
one vector and POTI factor chunk by chunk (:func:`_chunk_factor`) and solve or invert each chunk
at once, while its factor is in cache; a NaN reaching a factor is a failure too
(:func:`_flag_non_finite`: OpenBLAS's pivot test lets it through).

Right-hand sides always arrive as (batch, n, nrhs): the public layer passes vectors as one column.
One right-hand side takes :func:`_solve_vector`: both substitutions of a chunk of the batch
back to back while its factor is in cache, by rows (dot products), with no transposed copy.
"""
import numpy

from .blas import split_batch, threads_pay
from .triangular import (as_lower_problem, ct, diag_info, dot_lower_solve,
                         dot_lower_transposed_solve, gram, inverse_chunked, lower_inverse,
                         over_chunks, solve_chunked, vector_chunk, vector_plans, with_identity)

__all__ = ["potrf", "potrs", "posv", "potri", "poti"]

# Operands the functions of this module never write into (the public layer need not copy them).
READS_ONLY = {"potrf": ("a",), "potrs": ("l",), "posv": ("a",), "potri": ("l",), "poti": ("a",)}


def potrf(a, lower=True):
    """Cholesky factor of each matrix; returns (factor, info) as docs/design.md states.

    Only the ``lower`` (else upper) triangle is read: for upper, A = U^H U and the lower triangle
    of A^H = conj(A^T) holds the same numbers, so U = chol(A^H)^H.
    """
    src = a if lower else ct(a)
    info = numpy.zeros(a.shape[0], dtype=numpy.int32)
    factor = _stacked_factor(src, info)
    if not lower:
        factor = ct(factor)
    return numpy.ascontiguousarray(factor), info


def _stacked_factor(src, info):
    """:func:`_factor` of the whole batch; of slices of it on a few threads when the batch holds
    enough work (``blas.split_batch``: the LAPACK loop releases the GIL)."""
    n = src.shape[1]
    if not threads_pay(src.shape[0], n ** 3 // 3 + 1):
        return _factor(src, info)
    factor = numpy.empty(src.shape, src.dtype)

    def run(lo, hi):
        factor[lo:hi] = _factor(src[lo:hi], info[lo:hi])
    split_batch(run, src.shape[0], n ** 3 // 3 + 1)
    return factor


def _factor(src, info):
    """Lower Cholesky factor of each matrix of ``src`` (its lower triangle read) by NumPy's
    stacked LAPACK, in the calling thread; the matrices that fail (or reach a non-finite factor)
    set ``info`` (a view of theirs) and get a zero factor."""
    try:
        factor = numpy.linalg.cholesky(src)
    except numpy.linalg.LinAlgError:
        return _isolated_cholesky(src, info)
    _flag_non_finite(src, factor, info)
    return factor


def _flag_non_finite(src, factor, info):
    """Set ``info`` (and zero the factor) of the matrices whose factor came out of LAPACK
    non-finite without an error: OpenBLAS's potrf tests a pivot by ``ajj <= 0``, which NaN
    passes, so a NaN in the triangle read reached the result silently (it was reported only when
    another matrix of the batch failed). A non-finite entry reaches every later pivot, so the
    diagonal tells; the info is :func:`_failing_column`'s, as for the isolated failures."""
    d = numpy.diagonal(factor, axis1=1, axis2=2)
    finite = numpy.isfinite(d)
    if finite.all():
        return
    bad = numpy.flatnonzero(~finite.all(axis=1))
    info[bad] = _failing_column(numpy.array(src[bad]))
    factor[bad] = 0


def _isolated_cholesky(src, info):
    """Factor the matrices that LAPACK can factor; set ``info`` for the others (factor zero).

    Certain failures (non-positive or non-finite diagonal, non-finite lower triangle) are screened
    first; the remaining ones are found by bisection over the stacked call (O(failures x log batch)
    calls). Their info is the failing column of a batch-vectorized right-looking factorization.
    """
    batch, n = src.shape[0], src.shape[1]
    diag = numpy.diagonal(src, axis1=1, axis2=2).real
    lower_finite = numpy.isfinite(numpy.tril(src)).reshape(batch, -1).all(axis=1)
    failed = ~((diag > 0).all(axis=1) & lower_finite)
    work = numpy.array(src)
    work[failed] = numpy.eye(n, dtype=src.dtype)
    factor = numpy.empty_like(work)
    _bisect(work, factor, failed, 0, batch)
    factor[failed] = 0
    bad = numpy.flatnonzero(failed)
    info[bad] = _failing_column(numpy.array(src[bad]))
    return factor


def _bisect(work, factor, failed, lo, hi):
    try:
        factor[lo:hi] = numpy.linalg.cholesky(work[lo:hi])
    except numpy.linalg.LinAlgError:
        if hi - lo == 1:
            failed[lo] = True
            return
        mid = (lo + hi) // 2
        _bisect(work, factor, failed, lo, mid)
        _bisect(work, factor, failed, mid, hi)


def _failing_column(work):
    """1-based first column whose pivot is not positive (NaN fails too), vectorized over the batch.

    Reads the lower triangle. A matrix that LAPACK rejected but this recomputation accepts
    (rounding at the edge of definiteness) is reported at its smallest pivot.
    """
    batch, n = work.shape[0], work.shape[1]
    info = numpy.zeros(batch, dtype=numpy.int32)
    smallest = numpy.full(batch, numpy.inf)
    where_smallest = numpy.full(batch, n, dtype=numpy.int32)
    failed = numpy.zeros(batch, dtype=bool)
    with numpy.errstate(all="ignore"):
        for j in range(n):
            d = work[:, j, j].real
            newly = ~failed & ~(d > 0)
            info[newly] = j + 1
            failed |= newly
            better = d < smallest
            smallest[better], where_smallest[better] = d[better], j + 1
            pivot = numpy.sqrt(numpy.where(failed, 1.0, d))
            col = work[:, j + 1:, j] / pivot[:, None]
            work[:, j + 1:, j + 1:] -= col[:, :, None] * numpy.conj(col[:, None, :])
            work[:, j + 1:, j] = col
    info[~failed] = where_smallest[~failed]
    return info


def _solve_with_factor(factor, b, lower, info=None):
    """X with A X = B, A = L L^H (lower) or U^H U (upper); ``b`` overwritten.

    With ``info`` None, it is computed from the factor's diagonal (potrs); matrices whose info is
    nonzero are solved with the identity (their result is not used).
    """
    if info is None:
        info = diag_info(factor)
    factor = with_identity(factor, info)
    first, second = ("N", "C") if lower else ("C", "N")
    with numpy.errstate(all="ignore"):
        if b.shape[2] == 1:
            _solve_vector(factor, b[:, :, 0], lower)
            return b, info
        for trans in (first, second):
            t, rhs = as_lower_problem(factor, "left", lower, trans)
            solve_chunked(t, rhs, b)
    return b, info


def _solve_vector(factor, x, lower):
    """x := A^-1 x for A = L L^H (lower) or U^H U (upper), one vector a matrix, in place.

    factor: (batch, n, n), the ``lower`` triangle read; x: (batch, n) view of the right-hand
    sides, same dtype. Returns None. Each chunk of the batch runs its forward and backward
    substitution back to back (:func:`_solve_vector_chunk`); chunks are shared among threads as
    ``over_chunks`` decides.
    """
    batch, n = x.shape
    t = factor if lower else numpy.swapaxes(factor, 1, 2)    # lower: L, or U^T as a view
    over_chunks(lambda s: _solve_vector_chunk(t[s], x[s], lower), batch, n * n, factor.itemsize,
                n * n, step=vector_chunk(batch, n, factor.itemsize))


def _solve_vector_chunk(t, x, lower):
    """One chunk of :func:`_solve_vector`, in place (returns None); t: L, or U^T (lower views,
    (chunk, n, n)), x: (chunk, n).

    Neither pass conjugates t. Lower: L y = x, then L^T conj(z) = conj(y) (z = L^-H y). Upper,
    with t = U^T: conj(A) = t t^H, so A z = x is t t^H conj(z) = conj(x), whose forward pass runs
    on conj(x) and whose backward pass then leaves z itself. Real dtypes skip the conjugations.
    """
    diag = numpy.diagonal(t, axis1=1, axis2=2).copy()   # every row of both passes reads it
    scratch = numpy.empty(x.shape[0], x.dtype)
    conj = numpy.iscomplexobj(x)
    (nb_fwd, right_fwd), (nb_back, right_back) = vector_plans(t)
    if conj and not lower:
        numpy.conjugate(x, out=x)
    dot_lower_solve(t, x, diag, scratch, nb_fwd, right_fwd)
    if conj:
        numpy.conjugate(x, out=x)
    dot_lower_transposed_solve(t, x, diag, scratch, nb_back, right_back)
    if conj and lower:
        numpy.conjugate(x, out=x)


def potrs(l, b, lower=True):
    """Solve A X = B from the Cholesky factor ``l``; returns (X, info) (info: bad factor diagonal)."""
    return _solve_with_factor(l, b, lower)


def posv(a, b, lower=True):
    """Factor and solve; returns (X, info) with potrf's info. One vector a matrix:
    :func:`_posv_vector`."""
    if b.shape[2] == 1:
        return _posv_vector(a, b, lower)
    factor, info = potrf(a, lower)
    return _solve_with_factor(factor, b, lower, info)


def _posv_vector(a, b, lower):
    """posv with one right-hand side a matrix, ``b`` (batch, n, 1) overwritten; returns (b, info).

    Each chunk of the batch is factored and at once solved (:func:`_solve_vector_chunk`) while
    its factor is in cache, where factoring the whole batch first wrote the factor out and read
    it back (both forms solve with the lower factor of :func:`_chunk_factor`).
    """
    batch, n = a.shape[0], a.shape[1]
    info = numpy.zeros(batch, dtype=numpy.int32)
    x = b[:, :, 0]

    def run(s):
        factor = _chunk_factor(a[s] if lower else ct(a[s]), info[s])
        with numpy.errstate(all="ignore"):
            _solve_vector_chunk(factor, x[s], True)
    over_chunks(run, batch, n * n, a.itemsize, n ** 3 // 3 + n * n + 1,
                step=vector_chunk(batch, n, a.itemsize))
    return b, info


def _chunk_factor(src, info):
    """:func:`_factor` of a chunk of the batch with the failed matrices replaced by the identity,
    so that what follows runs on every matrix (their results are not used). For the upper form
    ``src`` is A^H, whose lower triangle holds U^H: A = L L^H with L = U^H."""
    return with_identity(_factor(src, info), info)


def _inverse_from_factor(factor, lower, info=None):
    """A^-1 = L^-H L^-1 (lower) or U^-1 U^-H (upper), returned full Hermitian, chunked.

    ``info`` as in :func:`_solve_with_factor`.
    """
    if info is None:
        info = diag_info(factor)
    factor = with_identity(factor, info)
    out = numpy.empty_like(factor)

    def finish(s, linv):
        gram(linv, True, out[s])
    with numpy.errstate(all="ignore"):          # U^-1 = (L^-1)^H with L = U^H
        inverse_chunked(factor if lower else ct(factor), finish=finish)
    return out, info


def potri(l, lower=True):
    """Inverse of A = L L^H (or U^H U) from the factor; returns (A^-1 full Hermitian, info)."""
    return _inverse_from_factor(l, lower)


def poti(a, lower=True):
    """Inverse of each Hermitian positive definite matrix (factor + invert); returns (inv, info).

    Each chunk of the batch is factored (:func:`_chunk_factor`) and at once inverted, A^-1 =
    L^-H L^-1, while its factor is in cache (factoring the whole batch first wrote the factor out
    and read it back)."""
    batch, n = a.shape[0], a.shape[1]
    info = numpy.zeros(batch, dtype=numpy.int32)
    out = numpy.empty_like(a)

    def run(s):
        factor = _chunk_factor(a[s] if lower else ct(a[s]), info[s])
        with numpy.errstate(all="ignore"):
            gram(lower_inverse(factor), True, out[s])
    over_chunks(run, batch, 3 * n * n, a.itemsize, n ** 3 // 3 + 1)
    return out, info
