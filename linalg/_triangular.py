"""Triangular BLAS and LAPACK: trsm, trmm, trtri, lauum, trsv, and SciPy's solve_triangular.

Every primitive takes a strided (batch, n, n) array, a list/tuple of 2-D arrays, or a VBatch
(docs/design.md). Only the triangle selected by ``lower`` is read; with ``unit_diagonal=True``
the diagonal is not read either (taken as ones).
"""
import math

import numpy

from . import _dispatch
from ._batch import Operand, VBatch, run_batched
from ._common import finish
from ._validate import (check_bool, check_scalar, complex_compute_dtype, compute_dtype, first_bad,
                        side_word, square_shapes, trans_word)

__all__ = ["trsm", "trmm", "trtri", "lauum", "trsv", "solve_triangular"]


# ---------------------------------------------------------------------------------------------
# helpers shared with linalg._decomp_cholesky

def rhs_core_ndim(b):
    """1 if the right-hand side ``b`` is a batch of vectors, else 2 (matrices), from its form.

    Strided: (batch, n) vectors, (batch, n, nrhs) matrices; list/tuple: 1-D or 2-D items;
    VBatch: its ``is_vector`` flag.
    """
    if isinstance(b, VBatch):
        return 1 if b.is_vector else 2
    if isinstance(b, (list, tuple)):
        return 1 if len(b) and getattr(b[0], "ndim", None) == 1 else 2
    return 1 if getattr(b, "ndim", None) == 2 else 2


def check_rhs_rows(shapes, a_name, b_name, axis=0):
    """Per matrix: a square, and b's rows (``axis`` 0) or columns (axis 1) equal to a's order."""
    square_shapes(shapes, a_name)
    sa, sb = shapes[a_name], shapes[b_name]
    what = "rows" if axis == 0 or sb.shape[1] == 1 else "columns"
    first_bad(sb[:, min(axis, sb.shape[1] - 1)] != sa[:, 0], b_name,
              lambda k: f"expected {int(sa[k, 0])} {what} to match {a_name} of shape "
                        f"{tuple(int(v) for v in sa[k])}, got shape {tuple(int(v) for v in sb[k])}")


def scalar_dtype_policy(alpha):
    """compute_dtype, promoted to complex when the scalar ``alpha`` is complex."""
    if isinstance(alpha, (complex, numpy.complexfloating)):
        return complex_compute_dtype
    return compute_dtype



def empty_like_operand(name):
    """empty_result for operations whose one output has the shape of operand ``name``."""
    def empty(xp, dtype, batch, shapes):
        return (xp.zeros((batch,) + tuple(int(d) for d in shapes[name]), dtype=dtype),)
    return empty


# ---------------------------------------------------------------------------------------------
# primitives

def trsm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1, *,
         overwrite_b=False, return_info=False):
    """Triangular solve with many right-hand sides: op(A) X = alpha B or X op(A) = alpha B.

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        The triangular matrices; only the triangle selected by ``lower`` is read.
    b : (batch, n, m) array for side='left', (batch, m, n) for side='right', or a list / VBatch
        The right-hand sides, in the same batch form as ``a``.
    side : {'left', 'right'} (or 'L', 'R')
        'left': op(A) X = alpha B; 'right': X op(A) = alpha B.
    lower : bool
        True: A is lower triangular; False: upper.
    trans : {'N', 'T', 'C'} or {0, 1, 2}
        op(A) = A, A^T or A^H ('C' == 'T' for real dtypes).
    unit_diagonal : bool
        Assume ones on the diagonal (the diagonal is not read).
    alpha : number
        Scale of the right-hand side (a complex alpha makes real inputs compute in complex).
    overwrite_b : bool
        Allow the result to be written into ``b`` (strided form only).
    return_info : bool
        Return ``(x, info)`` instead of raising; no device synchronization.

    Returns
    -------
    x : same form, shape and dtype as ``b``
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the j-th diagonal element of A is zero or not finite.

    Raises
    ------
    LinAlgError
        A matrix is singular (zero or non-finite diagonal); names the batch indices.

    See Also
    --------
    scipy.linalg.solve_triangular, BLAS ?trsm, cuBLAS trsmBatched
    """
    side, trans = side_word(side), trans_word(trans)
    lower, unit_diagonal = check_bool(lower, "lower"), check_bool(unit_diagonal, "unit_diagonal")
    alpha = check_scalar(alpha, "alpha")
    policy = scalar_dtype_policy(alpha)

    def compute(xp, a, b, **keep):
        backend = _dispatch.backend(xp, "triangular")
        x, info = backend.trsm(a, b, side, lower, trans, unit_diagonal, alpha, **keep)
        return (x,), info

    (x,), info, _ = run_batched(
        [Operand("a", a), Operand("b", b, overwrite=overwrite_b)],
        lambda shapes: check_rhs_rows(shapes, "a", "b", 0 if side == "left" else 1),
        compute, policy, empty_like_operand("b"), ("triangular", "trsm"))
    return finish("trsm", x, info, return_info)


def trmm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1, *,
         overwrite_b=False):
    """Triangular matrix product: B := alpha op(A) B (left) or alpha B op(A) (right).

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        The triangular matrices; only the triangle selected by ``lower`` is read.
    b : (batch, n, m) array for side='left', (batch, m, n) for side='right', or a list / VBatch
    side : {'left', 'right'} (or 'L', 'R')
    lower : bool
        True: A is lower triangular; False: upper.
    trans : {'N', 'T', 'C'} or {0, 1, 2}
        op(A) = A, A^T or A^H.
    unit_diagonal : bool
        Assume ones on the diagonal (the diagonal is not read).
    alpha : number
    overwrite_b : bool
        Allow ``b`` to be used as workspace (strided form only); use the returned value.

    Returns
    -------
    product : same form, shape and dtype as ``b``

    See Also
    --------
    BLAS ?trmm, cuBLAS trmm
    """
    side, trans = side_word(side), trans_word(trans)
    lower, unit_diagonal = check_bool(lower, "lower"), check_bool(unit_diagonal, "unit_diagonal")
    alpha = check_scalar(alpha, "alpha")
    policy = scalar_dtype_policy(alpha)

    def compute(xp, a, b, **keep):
        backend = _dispatch.backend(xp, "triangular")
        return (backend.trmm(a, b, side, lower, trans, unit_diagonal, alpha, **keep),), None

    (out,), _, _ = run_batched(
        [Operand("a", a), Operand("b", b, overwrite=overwrite_b)],
        lambda shapes: check_rhs_rows(shapes, "a", "b", 0 if side == "left" else 1),
        compute, policy, empty_like_operand("b"), ("triangular", "trmm"))
    return out


def trtri(a, lower=True, unit_diagonal=False, *, overwrite_a=False, return_info=False):
    """Inverse of a batch of triangular matrices.

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        Only the triangle selected by ``lower`` is read (and not the diagonal if
        ``unit_diagonal``).
    lower : bool
    unit_diagonal : bool
        Assume ones on the diagonal; the inverse then has a unit diagonal too.
    overwrite_a : bool
        Allow ``a`` to be used as workspace (strided form only); use the returned value.
    return_info : bool
        Return ``(inverse, info)`` instead of raising; no device synchronization.

    Returns
    -------
    inverse : same form, shape and dtype as ``a``
        Triangular, the other triangle zero.
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the j-th diagonal element is zero or not finite.

    Raises
    ------
    LinAlgError
        A matrix is singular; names the batch indices.

    See Also
    --------
    scipy.linalg.lapack.dtrtri, LAPACK ?trtri
    """
    lower, unit_diagonal = check_bool(lower, "lower"), check_bool(unit_diagonal, "unit_diagonal")

    def compute(xp, a, **keep):
        inverse, info = _dispatch.backend(xp, "triangular").trtri(a, lower, unit_diagonal, **keep)
        return (inverse,), info

    (inverse,), info, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a)],
        lambda shapes: square_shapes(shapes, "a"),
        compute, compute_dtype, empty_like_operand("a"), ("triangular", "trtri"))
    return finish("trtri", inverse, info, return_info)


def lauum(a, lower=True, *, overwrite_a=False):
    """Product of a triangular matrix with its conjugate transpose: L^H L or U U^H.

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        Only the triangle selected by ``lower`` is read.
    lower : bool
        True: L^H L from the lower triangle; False: U U^H from the upper triangle.
    overwrite_a : bool
        Allow ``a`` to be used as workspace (strided form only); use the returned value.

    Returns
    -------
    product : same form, shape and dtype as ``a``
        Full Hermitian (symmetric for real dtypes): both triangles filled, real diagonal.

    Notes
    -----
    LAPACK's ?lauum returns only one triangle; here the computed triangle is mirrored
    (conjugated) into the other. With L the inverse of a Cholesky factor, ``lauum`` gives the
    inverse of the factored matrix (what ``potri`` does).

    See Also
    --------
    LAPACK ?lauum, potri
    """
    lower = check_bool(lower, "lower")

    def compute(xp, a, **keep):
        return (_dispatch.backend(xp, "triangular").lauum(a, lower, **keep),), None

    (out,), _, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a)],
        lambda shapes: square_shapes(shapes, "a"),
        compute, compute_dtype, empty_like_operand("a"), ("triangular", "lauum"))
    return out


def trsv(a, x, lower=True, trans="N", unit_diagonal=False, *, overwrite_x=False, return_info=False):
    """Triangular solve with one right-hand side per matrix: op(A) y = x.

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        Only the triangle selected by ``lower`` is read.
    x : (batch, n) array, list of (n_k,) arrays, or VBatch of vectors
    lower : bool
    trans : {'N', 'T', 'C'} or {0, 1, 2}
    unit_diagonal : bool
    overwrite_x : bool
        Allow the result to be written into ``x`` (strided form only).
    return_info : bool
        Return ``(y, info)`` instead of raising; no device synchronization.

    Returns
    -------
    y : same form, shape and dtype as ``x``
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the j-th diagonal element is zero or not finite.

    Raises
    ------
    LinAlgError
        A matrix is singular; names the batch indices.

    See Also
    --------
    BLAS ?trsv, trsm
    """
    trans = trans_word(trans)
    lower, unit_diagonal = check_bool(lower, "lower"), check_bool(unit_diagonal, "unit_diagonal")

    def compute(xp, a, x, **keep):
        y, info = _dispatch.backend(xp, "trsv").trsv(a, x, lower, trans, unit_diagonal, **keep)
        return (y,), info

    (y,), info, _ = run_batched(
        [Operand("a", a), Operand("x", x, core_ndim=1, overwrite=overwrite_x)],
        lambda shapes: check_rhs_rows(shapes, "a", "x"), compute, compute_dtype,
        empty_like_operand("x"), ("trsv", "trsv"))
    return finish("trsv", y, info, return_info)


# ---------------------------------------------------------------------------------------------
# SciPy tier

def as_array(value, name):
    """An ndarray (NumPy or CuPy) from an array or array_like (SciPy accepts nested lists)."""
    if hasattr(value, "ndim") and hasattr(value, "dtype") and hasattr(value, "shape"):
        return value
    try:
        return numpy.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected an array_like, got {type(value).__name__}") from exc


def check_square_stack(a, name):
    """(..., M, M) with ndim >= 2."""
    if a.ndim < 2:
        raise ValueError(f"{name}: expected a (..., M, M) array, got shape {a.shape}")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected square matrices, got shape {a.shape}")


def check_finite_array(a, name, check_finite):
    """SciPy's check_finite (a device sync for CuPy arrays)."""
    if check_finite and a.dtype.kind in "fc" and not bool(_dispatch.array_module(a).isfinite(a).all()):
        raise ValueError(f"{name}: array must not contain infs or NaNs")


def broadcast_rhs(a, b, a_name, b_name):
    """SciPy's batching rule for (a: (..., M, M), b: (..., M) or (..., M, K)).

    b is a matrix if b.ndim >= 2 (core (M, K)), else a vector; batch shapes broadcast.
    Returns (a3, b3, out_shape, b_own): a3 (batch, M, M) and b3 (batch, M, K) arrays (vectors
    as K = 1), b_own False when b3 is a broadcast view of b (which must then not be overwritten).
    """
    xp = _dispatch.array_module(a)
    is_vector = b.ndim == 1
    if b.ndim == 0:
        raise ValueError(f"{b_name}: expected a (..., M) or (..., M, K) array, got a scalar")
    core = b.shape[-1:] if is_vector else b.shape[-2:]
    if core[0] != a.shape[-1]:
        raise ValueError(f"{b_name}: incompatible dimensions: {a_name} has shape {a.shape}, "
                         f"{b_name} has shape {b.shape} (expected {a.shape[-1]} rows)")
    try:
        batch_shape = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-len(core)])
    except ValueError as exc:
        raise ValueError(f"{b_name}: batch shape {b.shape[:-len(core)]} does not broadcast with "
                         f"{a_name}'s {a.shape[:-2]}") from exc
    m = a.shape[-1]
    if a.shape[:-2] != batch_shape:
        a = xp.broadcast_to(a, batch_shape + (m, m))
    b_own = b.shape[:-len(core)] == batch_shape
    if not b_own:                   # a read-only broadcast view: never overwritten
        b = xp.broadcast_to(b, batch_shape + core)
    batch = math.prod(batch_shape)
    a3 = a.reshape((batch, m, m))
    b3 = b.reshape((batch, m, 1 if is_vector else core[1]))
    return a3, b3, batch_shape + core, b_own


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """Solve op(a) x = b for triangular ``a``: SciPy's signature and defaults, on batches.

    Parameters
    ----------
    a : (..., M, M) array_like
        Triangular matrices; only the triangle selected by ``lower`` is read.
    b : (..., M) or (..., M, K) array_like
        Right-hand sides: a vector if ``b.ndim == 1``, otherwise matrices (SciPy's rule);
        batch dimensions broadcast against those of ``a``.
    trans : {0, 1, 2, 'N', 'T', 'C'}
        op(a) = a, a^T, a^H.
    lower : bool
        Default False (upper triangular), as in SciPy.
    unit_diagonal : bool
    overwrite_b : bool
        Allow ``b`` to be used as workspace.
    check_finite : bool
        Raise ValueError if ``a`` or ``b`` holds inf or NaN.

    Returns
    -------
    x : (broadcast batch..., M) or (..., M, K) array

    Raises
    ------
    LinAlgError
        A matrix is singular (zero or non-finite diagonal); names the flat batch indices.

    See Also
    --------
    scipy.linalg.solve_triangular, trsm
    """
    trans = trans_word(trans)
    lower, unit_diagonal = check_bool(lower, "lower"), check_bool(unit_diagonal, "unit_diagonal")
    a, b = as_array(a, "a"), as_array(b, "b")
    check_square_stack(a, "a")
    check_finite_array(a, "a", check_finite)
    check_finite_array(b, "b", check_finite)
    a3, b3, shape, b_own = broadcast_rhs(a, b, "a", "b")
    x = trsm(a3, b3, "left", lower, trans, unit_diagonal, overwrite_b=overwrite_b and b_own)
    return x.reshape(shape)
