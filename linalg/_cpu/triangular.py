"""CPU triangular BLAS/LAPACK on strided (batch, n, n) batches: trsm, trmm, trtri, lauum.

Strategy (vectorized over the batch, never a loop per matrix), run over cache-sized chunks of
the batch (CHUNK_BYTES) so that the several passes of each step hit the cache, the chunks shared
among a few threads when the batch holds enough work (:func:`over_chunks`):

* Every problem is first mapped to a lower-triangular one by views (:func:`as_lower_problem`):
  X op(A) = B is op(A)^T X^T = B^T, and an upper T is the reversal J T J of a lower one.
* Few right-hand sides (m <= SUBSTITUTION_MAX_RHS): column substitution, element-wise over the
  batch. TRSV and POTRS / POSV with one vector use the row-oriented (dot product) substitutions
  :func:`dot_lower_solve` and :func:`dot_lower_transposed_solve` (``linalg._cpu.trsv``,
  ``linalg._cpu.cholesky``).
* Otherwise blocked: the NB x NB diagonal blocks of all matrices of a chunk are inverted at once
  by an element-wise substitution loop, and everything else is NumPy's stacked matmul (BLAS 3 per
  matrix, looped in C): left-looking block substitution for TRSM, LAPACK's blocked TRTRI.

Explicit inverses are used only for the small diagonal blocks, as in MAGMA's batched TRSM, so
the error grows with the condition number of an NB x NB diagonal block, not of the whole matrix.
The module also serves ``linalg._cpu.cholesky`` and ``linalg._cpu.trsv``.
"""
import numpy

from .blas import split_batch, threads_pay

__all__ = ["trsm", "trmm", "trtri", "lauum"]

NB = 8          # diagonal block order: small enough that its explicit inverse is accurate
SUBSTITUTION_MAX_RHS = 2    # up to this many right-hand sides, plain substitution is cheaper
NB_SUBSTITUTION = 16        # block order of that substitution (stacked GEMV between blocks)

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
    """Inverse of each lower-triangular (..., s, s) matrix by element-wise substitution (s small).

    Only the lower triangle of ``t`` (any strides) is read; the result is lower triangular.
    """
    s = t.shape[-1]
    x = numpy.zeros(t.shape, t.dtype)
    idx = numpy.arange(s)
    x[..., idx, idx] = 1 if unit_diagonal else 1 / t[..., idx, idx]
    # Row i of X: X[i, :i] = -T[i, i]^-1 * T[i, :i] @ X[:i, :i]  (X[:i, :i] already final)
    for i in range(1, s):
        row = numpy.einsum("...k,...kj->...j", t[..., i, :i], x[..., :i, :i])
        if unit_diagonal:
            numpy.negative(row, out=x[..., i, :i])
        else:
            numpy.multiply(row, -x[..., i, i, None], out=x[..., i, :i])
    return x


def diag_block_inverses(t, nb=NB, unit_diagonal=False):
    """Inverses of the diagonal blocks of each lower-triangular (batch, n, n) matrix.

    Returns a list of (batch, s, s) arrays, block k covering rows/cols [k*nb, k*nb + s).
    All full blocks of all matrices are gathered into one contiguous stack (measured faster than
    working on a strided view of them) and inverted at once.
    """
    batch, n, _ = t.shape
    full = n // nb
    out = []
    if full:
        blocks = numpy.stack([t[:, k * nb:(k + 1) * nb, k * nb:(k + 1) * nb] for k in range(full)],
                             axis=1)
        inv = _small_lower_inverse(blocks, unit_diagonal)
        out = [inv[:, k] for k in range(full)]
    if n % nb:
        out.append(_small_lower_inverse(t[:, full * nb:, full * nb:], unit_diagonal))
    return out


def _substitution(t, x, unit_diagonal):
    """Column substitution for lower T, in blocks of NB_SUBSTITUTION (stacked GEMV between them).

    ``x`` is (batch, n) for one right-hand side (kept 2-D so that NumPy's inner loops run along
    the rows, not over a length-1 axis) or (batch, n, m).
    """
    n = t.shape[1]
    vector = x.ndim == 2
    for lo in range(0, n, NB_SUBSTITUTION):
        hi = min(lo + NB_SUBSTITUTION, n)
        if lo:
            x[:, lo:hi] -= (t[:, lo:hi, :lo] @ x[:, :lo, None])[:, :, 0] if vector else \
                t[:, lo:hi, :lo] @ x[:, :lo]
        for j in range(lo, hi):
            if not unit_diagonal:
                x[:, j] /= t[:, j, j, None] if not vector else t[:, j, j]
            if j + 1 < hi:
                if vector:
                    x[:, j + 1:hi] -= t[:, j + 1:hi, j] * x[:, j, None]
                else:
                    x[:, j + 1:hi] -= t[:, j + 1:hi, j, None] * x[:, j, None, :]


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
        _substitution(t, b[:, :, 0] if b.shape[2] == 1 else b, unit_diagonal)
        return b
    if inverses is None:
        inverses = diag_block_inverses(t, nb, unit_diagonal)
    for k, tinv in enumerate(inverses):
        lo, hi = k * nb, min((k + 1) * nb, n)
        if lo:
            b[:, lo:hi] -= t[:, lo:hi, :lo] @ b[:, :lo]
        b[:, lo:hi] = tinv @ b[:, lo:hi]
    return b


def _dot(u, v, out):
    """out[b] = sum_k u[b, k] v[b, k] (no conjugation) for (batch, k) views, any strides.

    einsum runs one inner loop a matrix, where the column form's multiply and subtract are two
    NumPy calls of one inner loop each: at k = 16, about 20-25 against 60-70 ns a matrix (2-core
    x86_64, float64, 1024 matrices, 2026-11-26).
    """
    return numpy.einsum("bk,bk->b", u, v, out=out)


def _finish_row(x, i, dots, diag):
    """x[:, i] = (x[:, i] - dots) / diag[:, i]; ``dots`` (batch,) is overwritten."""
    numpy.subtract(x[:, i], dots, out=dots)
    numpy.divide(dots, diag[:, i], out=x[:, i])


def dot_lower_solve(t, x, diag, scratch, nb, right_looking):
    """Solve T y = x for lower-triangular T, one vector a matrix, by rows; ``x`` becomes y.

    t: (batch, n, n), any strides, lower triangle read; x: (batch, n) view, overwritten; diag:
    (batch, n) the diagonal of t; scratch: (batch,) of x's dtype. Returns None (x is the result).
    No conjugation anywhere.
    Inside a block of ``nb`` rows, y_i = (x_i - T[i, lo:i] y[lo:i]) / T_ii, one dot product a
    row. The coupling between blocks is one stacked GEMV a block: left-looking, x[lo:hi] -=
    T[lo:hi, :lo] y[:lo] before the block, reads the block's rows of T (contiguous when t is
    C-order); right-looking, x[hi:] -= T[hi:, lo:hi] y[lo:hi] after it, reads a column strip
    (contiguous when t is the transpose of a C-order matrix).
    """
    n = t.shape[1]
    for lo in range(0, n, nb):
        hi = min(lo + nb, n)
        if lo and not right_looking:
            x[:, lo:hi] -= numpy.matmul(t[:, lo:hi, :lo], x[:, :lo, None])[:, :, 0]
        numpy.divide(x[:, lo], diag[:, lo], out=x[:, lo])
        for i in range(lo + 1, hi):
            _finish_row(x, i, _dot(t[:, i, lo:i], x[:, lo:i], scratch), diag)
        if hi < n and right_looking:
            x[:, hi:] -= numpy.matmul(t[:, hi:, lo:hi], x[:, lo:hi, None])[:, :, 0]


def dot_lower_transposed_solve(t, x, diag, scratch, nb, right_looking):
    """Solve T^T y = x for lower-triangular T (no conjugation), one vector a matrix; ``x``
    becomes y. Arguments and return as :func:`dot_lower_solve`.

    Blocks of ``nb`` rows from the bottom; inside one, y_i = (x_i - T[i+1:hi, i] y[i+1:hi]) / T_ii,
    a dot product with a short column of T. Coupling: right-looking, x[:lo] -= T[lo:hi, :lo]^T
    y[lo:hi] after the block, reads the block's rows of T; left-looking, x[lo:hi] -=
    T[hi:, lo:hi]^T y[hi:] before it, a column strip.
    """
    n = t.shape[1]
    for lo in reversed(range(0, n, nb)):
        hi = min(lo + nb, n)
        if hi < n and not right_looking:
            x[:, lo:hi] -= numpy.matmul(numpy.swapaxes(t[:, hi:, lo:hi], 1, 2),
                                        x[:, hi:, None])[:, :, 0]
        numpy.divide(x[:, hi - 1], diag[:, hi - 1], out=x[:, hi - 1])
        for i in range(hi - 2, lo - 1, -1):
            _finish_row(x, i, _dot(t[:, i + 1:hi, i], x[:, i + 1:hi], scratch), diag)
        if lo and right_looking:
            x[:, :lo] -= numpy.matmul(numpy.swapaxes(t[:, lo:hi, :lo], 1, 2),
                                      x[:, lo:hi, None])[:, :, 0]


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
# Substitution is bound by NumPy call overhead: larger chunks, past the cache. 2-core x86_64,
# batch 10000, POTRS / TRSV with one vector, ms, 256 -> 1024 matrices a chunk: n = 32 93-99 /
# 46-48 -> 78-79 / 39-41, n = 64 233-258 / 120-125 -> 116-130 / 64-69, n = 16 equal; batch 2000,
# n = 128 101-107 / 41-44 -> 93 / 35-37 (two alternating runs each, 2026-11-26).
SUBSTITUTION_CHUNK = 1024


def chunks(batch, matrix_elements, itemsize, min_step=16, step=None):
    """Slices of the batch whose working set (about CHUNK_BYTES) stays in cache, or of ``step``
    matrices where the caller sized them."""
    step = step or max(min_step, CHUNK_BYTES // max(1, matrix_elements * itemsize))
    return [slice(s, min(s + step, batch)) for s in range(0, batch, step)]


def over_chunks(run, batch, matrix_elements, itemsize, work_per_matrix, min_step=16, step=None):
    """``run(s)`` for every cache-sized slice ``s`` of the batch (:func:`chunks`; ``step``: its
    matrices a slice instead); the slices are shared among a few threads when the batch holds
    enough work (``blas.split_batch``). ``run`` must only write its own slice."""
    def part(lo, hi):
        for s in chunks(hi - lo, matrix_elements, itemsize, min_step, step):
            run(slice(lo + s.start, lo + s.stop))
    split_batch(part, batch, work_per_matrix)


# Matrices a chunk of the one-vector solves (POTRS / POSV: linalg._cpu.cholesky._solve_vector;
# TRSV: linalg._cpu.trsv). One thread: about VECTOR_CHUNK_BYTES of triangle, so that POTRS's
# backward pass finds it in the cache its forward pass filled, within VECTOR_CHUNK_STEPS (with
# fewer matrices NumPy's per-call cost, ~1-3 us a call and 3 calls a row, takes over). Threads
# (split_batch): at least VECTOR_CHUNK_THREADED, as the Python part of every call holds the GIL
# and the other thread waits. 2-core x86_64, float64, batch 10000, POTRS ms by matrices a chunk
# (in-process alternation, 2026-11-26): one thread, n = 32 256: 45.7, 512: 43.8, 1024: 51.2,
# 2048: 55.0; threads, n = 64 256: 186, 1024: 107, 2048: 98; n = 128 256: 402, 1024: 248,
# 2048: 227.
VECTOR_CHUNK_BYTES = 1 << 22
VECTOR_CHUNK_STEPS = (256, 8192)
VECTOR_CHUNK_THREADED = 2048


def vector_chunk(batch, n, itemsize):
    """Returns the number of matrices in one chunk of a one-vector solve (int)."""
    lo, hi = VECTOR_CHUNK_STEPS
    step = min(hi, max(lo, VECTOR_CHUNK_BYTES // max(1, n * n * itemsize)))
    return max(step, VECTOR_CHUNK_THREADED) if threads_pay(batch, n * n) else step


# (block order, right-looking) of a forward (dot_lower_solve) and of a backward
# (dot_lower_transposed_solve) one-vector substitution, by whether the lower view T has unit
# stride along its rows. A C-order L has contiguous rows: the forward pass's dot products run
# along them (long blocks) and the backward's along short strided columns (short blocks, so that
# the stacked GEMVs carry most of it), each GEMV reading rows of L. T = U^T (a view of a C-order U)
# is the mirror image: contiguous columns. 2-core x86_64, float64, batch 10000, POTRS ms, L's plan
# / the mirror one (in-process alternation, 2026-11-26): n = 64 lower 108 / 122, upper 117 / 89;
# n = 128 upper 372 / 275; n = 16 and 32 equal within the noise.
VECTOR_PLANS = {True: ((16, False), (8, True)), False: ((8, True), (16, False))}


def vector_plans(t):
    """((nb, right_looking) forward, (nb, right_looking) backward) for the lower view ``t``."""
    return VECTOR_PLANS[t.strides[2] == t.itemsize]


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


def solve_chunked(t, rhs, b, unit_diagonal=False, alpha=1):
    """T Y = alpha C (:func:`as_lower_problem`) over cache-sized chunks of the batch, into ``b``.

    Everything, the diagonal-block inverses included, is computed chunk by chunk (measured
    faster than one stacked inversion of all blocks: the chunk stays in cache).
    """
    n = t.shape[1]
    m = b.shape[1] * b.shape[2] // n
    min_step = SUBSTITUTION_CHUNK if m <= SUBSTITUTION_MAX_RHS else 16

    def run(s):
        if alpha != 1:
            b[s] *= alpha
        lower_solve(t[s], rhs(b[s]), unit_diagonal)
    over_chunks(run, t.shape[0], n * (n + m), t.itemsize, n * n * m, min_step)
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

    def run(s):
        t, _ = _op(triangle(a[s], lower, unit_diagonal), lower, trans)
        if side == "left":
            numpy.matmul(t, b[s], out=out[s])
        else:
            numpy.matmul(b[s], t, out=out[s])
        if alpha != 1:
            out[s] *= alpha
    over_chunks(run, a.shape[0], n * (n + 2 * m), a.itemsize, n * n * m)
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
    out = None
    if finish is None:
        out = numpy.empty(t.shape, t.dtype)
        finish = out.__setitem__
    n = t.shape[1]
    over_chunks(lambda s: finish(s, lower_inverse(t[s], unit_diagonal)), t.shape[0], 3 * n * n,
                t.itemsize, n ** 3 // 3 + 1)
    return out


def trtri(a, lower=True, unit_diagonal=False):
    """Inverse of each triangular matrix (other triangle zero); returns (inverse, info)."""
    info = diag_info(a, unit_diagonal)
    a = with_identity(a, info)
    with numpy.errstate(all="ignore"):
        if lower:
            return inverse_chunked(a, unit_diagonal), info
        out = numpy.empty_like(a)     # inv(U) = inv(U^T)^T, U^T lower

        def finish(s, x):
            out[s] = numpy.swapaxes(x, 1, 2)
        inverse_chunked(numpy.swapaxes(a, 1, 2), unit_diagonal, finish)
    return out, info


def hermitian_from(x, lower, out=None):
    """Mirror the computed triangle of each matrix into the other one (conjugated), real diagonal."""
    tri = numpy.tril(x, -1) if lower else numpy.triu(x, 1)
    out = numpy.add(tri, ct(tri), out=out)
    idx = numpy.arange(x.shape[1])
    out[:, idx, idx] = x[:, idx, idx].real
    return out


def gram(t, lower, out):
    """L^H L (lower) or U U^H (upper) of triangular ``t`` into ``out``, exactly Hermitian.

    Real dtypes: NumPy's matmul of a matrix with its own transpose is a SYRK that fills both
    triangles, so the result is exactly symmetric; complex: the computed lower triangle is
    mirrored (conjugated).
    """
    if not numpy.iscomplexobj(t):
        return numpy.matmul(numpy.swapaxes(t, 1, 2), t, out=out) if lower else \
            numpy.matmul(t, numpy.swapaxes(t, 1, 2), out=out)
    return hermitian_from(ct(t) @ t if lower else t @ ct(t), True, out=out)


def lauum(a, lower=True):
    """L^H L (lower) or U U^H (upper) from the referenced triangle, returned full Hermitian."""
    out = numpy.empty_like(a)
    n = a.shape[1]
    over_chunks(lambda s: gram(triangle(a[s], lower), lower, out[s]), a.shape[0], 3 * n * n,
                a.itemsize, n ** 3)
    return out
