"""CPU triangular BLAS/LAPACK on strided (batch, n, n) batches: trsm, trmm, trtri, lauum.

Strategy (vectorized over the batch, never a loop per matrix):

* The diagonal blocks (order <= NB) of every matrix are inverted at once by an element-wise
  substitution loop over the NB columns (all blocks of all matrices stacked into one batch).
* Everything else is NumPy's stacked matmul (BLAS 3 per matrix, looped in C): a blocked
  right-looking substitution for TRSM, LAPACK's blocked TRTRI for the inverse.

Explicit inverses are used only for the small diagonal blocks, as in MAGMA's batched TRSM, so
the error grows with the condition number of an NB x NB diagonal block, not of the whole matrix.
Upper-triangular problems are mapped to lower ones by transposition (a view), never by copying
code paths. The module also serves ``linalg._cpu.cholesky`` and ``linalg._cpu.trsv``.
"""
import numpy

__all__ = ["trsm", "trmm", "trtri", "lauum"]

NB = 8          # diagonal block order: small enough that its explicit inverse is accurate
SUBSTITUTION_MAX_RHS = 2    # up to this many right-hand sides, plain substitution is cheaper

# Operands the functions of this module never write into (the public layer need not copy them).
READS_ONLY = {"trsm": ("a",), "trmm": ("a", "b"), "trtri": ("a",), "lauum": ("a",)}


def ct(x):
    """Conjugate transpose of each matrix (a view for real dtypes)."""
    x = numpy.swapaxes(x, -1, -2)
    return numpy.conj(x) if numpy.iscomplexobj(x) else x


def diag_info(a, unit_diagonal=False):
    """LAPACK info of a triangular batch: first zero or non-finite diagonal element (1-based)."""
    info = numpy.zeros(a.shape[0], dtype=numpy.int32)
    if unit_diagonal or a.shape[1] == 0:
        return info
    d = numpy.diagonal(a, axis1=1, axis2=2)
    if d.all() and numpy.isfinite(d).all():       # the common case: two reductions
        return info
    bad = (d == 0) | ~numpy.isfinite(d)
    any_bad = bad.any(axis=1)
    info[any_bad] = numpy.argmax(bad[any_bad], axis=1) + 1
    return info


def _small_lower_inverse(t, unit_diagonal):
    """Inverse of each lower-triangular (g, s, s) matrix by element-wise substitution (s small).

    Only the lower triangle of ``t`` is read; the result is lower triangular.
    """
    g, s, _ = t.shape
    x = numpy.zeros_like(t)
    idx = numpy.arange(s)
    if unit_diagonal:
        x[:, idx, idx] = 1
    else:
        x[:, idx, idx] = 1 / t[:, idx, idx]
    # Row i of X: X[i, :i] = -T[i, i]^-1 * T[i, :i] @ X[:i, :i]  (X[:i, :i] already final)
    for i in range(1, s):
        row = numpy.einsum("gk,gkj->gj", t[:, i, :i], x[:, :i, :i])
        x[:, i, :i] = -row * x[:, i, i, None] if not unit_diagonal else -row
    return x


def diag_block_inverses(t, nb=NB, unit_diagonal=False):
    """Inverses of the diagonal blocks of each lower-triangular (batch, n, n) matrix.

    Returns a list of (batch, s, s) arrays, block k covering rows/cols [k*nb, k*nb + s).
    All full blocks of all matrices are inverted in one stacked call.
    """
    batch, n, _ = t.shape
    full = n // nb
    out = []
    if full:
        blocks = numpy.stack([t[:, k * nb:(k + 1) * nb, k * nb:(k + 1) * nb] for k in range(full)], axis=1)
        inv = _small_lower_inverse(blocks.reshape(batch * full, nb, nb), unit_diagonal)
        inv = inv.reshape(batch, full, nb, nb)
        out = [inv[:, k] for k in range(full)]
    if n % nb:
        out.append(_small_lower_inverse(t[:, full * nb:, full * nb:], unit_diagonal))
    return out


def lower_solve(t, b, unit_diagonal=False, inverses=None, nb=NB):
    """X with T X = B for lower-triangular T (batch, n, n) (lower triangle read), B (batch, n, m).

    Few right-hand sides (m <= SUBSTITUTION_MAX_RHS): column-oriented substitution, element-wise
    over the batch. Otherwise blocked left-looking substitution, X_k = inv(T_kk) (B_k - T_k,<k X_<k),
    so every product has a long inner dimension and a small output; ``inverses`` are the
    diagonal-block inverses (:func:`diag_block_inverses`), computed here if not given.
    ``b`` (possibly a view) is overwritten with X.
    """
    n = t.shape[1]
    if b.shape[2] <= SUBSTITUTION_MAX_RHS:
        for j in range(n):
            if not unit_diagonal:
                b[:, j] /= t[:, j, j, None]
            if j + 1 < n:
                b[:, j + 1:] -= t[:, j + 1:, j, None] * b[:, j, None, :]
        return b
    if inverses is None:
        inverses = diag_block_inverses(t, nb, unit_diagonal)
    for k, tinv in enumerate(inverses):
        lo, hi = k * nb, min((k + 1) * nb, n)
        if lo:
            b[:, lo:hi] -= t[:, lo:hi, :lo] @ b[:, :lo]
        b[:, lo:hi] = tinv @ b[:, lo:hi]
    return b


def as_lower_problem(a, side="left", lower=True, trans="N"):
    """op(A) X = B (left) or X op(A) = B (right) as T Y = C with T lower triangular.

    Returns ``(t, rhs)``: t a view of ``a`` (a conjugated copy for 'C' on complex) and
    ``rhs(b)`` the view of ``b`` holding C and receiving Y. Right side: X op(A) = B <=>
    op(A)^T X^T = B^T; upper T: reverse rows and columns (J T J is lower, J the reversal).
    """
    t, t_lower = _op(a, lower, trans)
    transpose = side == "right"
    if transpose:
        t, t_lower = numpy.swapaxes(t, 1, 2), not t_lower
    if not t_lower:
        t = t[:, ::-1, ::-1]

    def rhs(b):
        r = numpy.swapaxes(b, 1, 2) if transpose else b
        return r if t_lower else r[:, ::-1]
    return t, rhs


CHUNK_BYTES = 1 << 21      # working set of one chunk of the batch: stays in the L2/L3 cache


def chunks(batch, matrix_elements, itemsize):
    """Slices of the batch whose working set (about CHUNK_BYTES) stays in cache."""
    step = max(16, CHUNK_BYTES // max(1, matrix_elements * itemsize))
    return [slice(s, min(s + step, batch)) for s in range(0, batch, step)]


def _op(a, lower, trans):
    """(op(A), lower-ness of op(A)) as a view (a conjugated copy for 'C' on complex)."""
    if trans == "N":
        return a, lower
    t = numpy.swapaxes(a, 1, 2)
    if trans == "C" and numpy.iscomplexobj(a):
        t = numpy.conj(t)
    return t, not lower


def with_identity(a, info):
    """``a`` with the matrices of nonzero ``info`` replaced by the identity (a copy if any)."""
    if not info.any():
        return a
    a = a.copy()
    a[info > 0] = numpy.eye(a.shape[1], dtype=a.dtype)
    return a


def solve_in_place(a, b, side="left", lower=True, trans="N", unit_diagonal=False):
    """op(A) X = B or X op(A) = B for one chunk, X written into ``b``; no info, no checks."""
    t, rhs = as_lower_problem(a, side, lower, trans)
    lower_solve(t, rhs(b), unit_diagonal)
    return b


def solve_chunked(t, rhs, b, unit_diagonal=False, alpha=1):
    """T Y = alpha C (:func:`as_lower_problem`) over cache-sized chunks of the batch, into ``b``.

    The diagonal-block inverses of all matrices are computed in one stacked call first.
    """
    n = t.shape[1]
    m = b.shape[1] * b.shape[2] // n
    inverses = diag_block_inverses(t, NB, unit_diagonal) if m > SUBSTITUTION_MAX_RHS else None
    for s in chunks(t.shape[0], n * (n + m), t.itemsize):
        if alpha != 1:
            b[s] *= alpha
        lower_solve(t[s], rhs(b[s]), unit_diagonal, None if inverses is None else [x[s] for x in inverses])
    return b


def trsm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1):
    """Solve op(A) X = alpha B (left) or X op(A) = alpha B (right); returns (X, info).

    ``a`` is only read; ``b`` is overwritten with X. Matrices with a zero or non-finite diagonal
    element are solved with the identity instead (their info says so).
    """
    info = diag_info(a, unit_diagonal)
    if alpha == 0:
        b[...] = 0
        return b, info
    t, rhs = as_lower_problem(with_identity(a, info), side, lower, trans)
    with numpy.errstate(all="ignore"):
        solve_chunked(t, rhs, b, unit_diagonal, alpha)
    return b, info


def triangle(a, lower, unit_diagonal=False):
    """Copy of the referenced triangle (other triangle zero, unit diagonal set if asked)."""
    t = numpy.tril(a) if lower else numpy.triu(a)
    if unit_diagonal:
        idx = numpy.arange(a.shape[1])
        t[:, idx, idx] = 1
    return t


def trmm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1):
    """B := alpha op(A) B (left) or alpha B op(A) (right); no failure mode."""
    out = numpy.empty_like(b)
    n, m = b.shape[1], b.shape[2]
    for s in chunks(a.shape[0], n * (n + 2 * m), a.itemsize):
        t, _ = _op(triangle(a[s], lower, unit_diagonal), lower, trans)
        numpy.matmul(t, b[s], out=out[s]) if side == "left" else numpy.matmul(b[s], t, out=out[s])
    if alpha != 1:
        out *= alpha
    return out


def lower_inverse(t, unit_diagonal=False, inverses=None, nb=NB):
    """Inverse of each lower-triangular matrix (lower triangle read): LAPACK's blocked TRTRI.

    ``inverses``: the diagonal-block inverses if already computed.
    """
    n = t.shape[1]
    if inverses is None:
        inverses = diag_block_inverses(t, nb, unit_diagonal)
    x = numpy.zeros(t.shape, t.dtype)
    for k in range(len(inverses) - 1, -1, -1):
        lo, hi = k * nb, min((k + 1) * nb, n)
        x[:, lo:hi, lo:hi] = inverses[k]
        if hi < n:   # X[hi:, lo:hi] = -X[hi:, hi:] T[hi:, lo:hi] inv(T_kk)
            x[:, hi:, lo:hi] = -(x[:, hi:, hi:] @ (t[:, hi:, lo:hi] @ inverses[k]))
    return x


def inverse_chunked(t, unit_diagonal=False, finish=None):
    """Blocked inverse of each lower-triangular ``t`` over cache-sized chunks of the batch.

    ``finish(s, x)`` receives each chunk's inverse (else the inverses are returned stacked).
    """
    inverses = diag_block_inverses(t, NB, unit_diagonal)
    out = None
    if finish is None:
        out = numpy.empty(t.shape, t.dtype)
        finish = out.__setitem__
    for s in chunks(t.shape[0], 3 * t.shape[1] ** 2, t.itemsize):
        finish(s, lower_inverse(t[s], unit_diagonal, [x[s] for x in inverses]))
    return out


def trtri(a, lower=True, unit_diagonal=False):
    """Inverse of each triangular matrix (other triangle zero); returns (inverse, info)."""
    info = diag_info(a, unit_diagonal)
    a = with_identity(a, info)
    with numpy.errstate(all="ignore"):
        if lower:
            return inverse_chunked(a, unit_diagonal), info
        out = numpy.empty_like(a)     # inv(U) = inv(U^T)^T, U^T lower
        inverse_chunked(numpy.swapaxes(a, 1, 2), unit_diagonal,
                        lambda s, x: out[s].__setitem__(Ellipsis, numpy.swapaxes(x, 1, 2)))
    return out, info


def hermitian_from(x, lower, out=None):
    """Mirror the computed triangle of each matrix into the other one (conjugated), real diagonal."""
    tri = numpy.tril(x, -1) if lower else numpy.triu(x, 1)
    out = numpy.add(tri, ct(tri), out=out)
    idx = numpy.arange(x.shape[1])
    out[:, idx, idx] = x[:, idx, idx].real
    return out


def lauum(a, lower=True):
    """L^H L (lower) or U U^H (upper) from the referenced triangle, returned full Hermitian."""
    out = numpy.empty_like(a)
    for s in chunks(a.shape[0], 3 * a.shape[1] ** 2, a.itemsize):
        t = triangle(a[s], lower)
        hermitian_from(ct(t) @ t if lower else t @ ct(t), lower, out=out[s])
    return out
