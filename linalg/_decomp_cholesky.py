"""The Cholesky family: potrf, potrs, posv, potri, poti, and the SciPy-named tier.

Every function takes a strided (batch, n, n) array, a list/tuple of 2-D arrays, or a VBatch
(docs/design.md). Only the ``lower`` (or upper) triangle of the input is read.
"""
import math

from . import _dispatch
from ._batch import Operand, run_batched
from ._common import finish
from ._triangular import (as_array, broadcast_rhs, check_finite_array, check_rhs_rows,
                          check_square_stack, empty_like_operand, rhs_core_ndim)
from ._validate import check_bool, compute_dtype, square_shapes

__all__ = ["potrf", "potrs", "posv", "potri", "poti", "cholesky", "cho_factor", "cho_solve", "inv"]


def potrf(a, lower=True, *, overwrite_a=False, return_info=False):
    """Cholesky factorization of a batch of Hermitian positive definite matrices.

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        The matrices; only the triangle selected by ``lower`` is read.
    lower : bool
        True: compute L with A = L L^H; False: compute U with A = U^H U.
    overwrite_a : bool
        Allow the result to be written into ``a`` (strided form only).
    return_info : bool
        Return ``(factor, info)`` instead of raising; no device synchronization.

    Returns
    -------
    factor : same form, shape and dtype as ``a``
        L (or U) with the other triangle zero.
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the leading minor of order j is not positive definite.

    Raises
    ------
    LinAlgError
        A matrix is not positive definite (or holds NaN); names the batch indices.

    See Also
    --------
    scipy.linalg.cholesky, LAPACK ?potrf, cuSOLVER potrfBatched
    """
    lower = check_bool(lower, "lower")

    def compute(xp, a, **keep):
        factor, info = _dispatch.backend(xp, "cholesky").potrf(a, lower=lower, **keep)
        return (factor,), info

    (factor,), info, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a)],
        lambda shapes: square_shapes(shapes, "a"), compute, compute_dtype, _empty_like_input("a"),
        ("cholesky", "potrf"))
    return finish("potrf", factor, info, return_info)


def _empty_like_input(name):
    """empty_result for operations whose output has the shape of operand ``name``."""
    def empty(xp, dtype, batch, shapes):
        return (xp.zeros((batch,) + tuple(int(d) for d in shapes[name]), dtype=dtype),)
    return empty



def _rhs_operand_call(xp, op_name, is_vector, lower, factor, b, keep):
    """Backend ``op_name`` (potrs/posv) on (batch, n, nrhs) columns, vectors as one column;
    ``keep``: {} or {"keep": names} from the call plan (linalg/_batch.py run_batched)."""
    fn = getattr(_dispatch.backend(xp, "cholesky"), op_name)
    if not is_vector:
        x, info = fn(factor, b, lower=lower, **keep)
        return (x,), info
    # reshape, not b[:, :, None]: CuPy's indexing costs twice the host time (b is C-contiguous)
    x, info = fn(factor, b.reshape(b.shape + (1,)), lower=lower, **keep)
    return (x.reshape(x.shape[:2]),), info


def potrs(l, b, lower=True, *, overwrite_b=False, return_info=False):
    """Solve A X = B for Hermitian positive definite A given its Cholesky factor.

    Parameters
    ----------
    l : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        The factor from :func:`potrf` with the same ``lower``: L with A = L L^H, or U with
        A = U^H U. Only that triangle is read.
    b : (batch, n, nrhs) or (batch, n) array, list of (n_k, nrhs_k) or (n_k,) arrays, or VBatch
        Right-hand sides: matrices, or vectors (a 2-D strided array, 1-D list items, a VBatch of
        vectors), returned in the same shape.
    lower : bool
        Which factor ``l`` holds.
    overwrite_b : bool
        Allow the result to be written into ``b`` (strided form only).
    return_info : bool
        Return ``(x, info)`` instead of raising; no device synchronization.

    Returns
    -------
    x : same form, shape and dtype as ``b``
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the j-th diagonal element of the factor is zero or not finite.

    Raises
    ------
    LinAlgError
        A factor has a zero or non-finite diagonal element; names the batch indices.

    See Also
    --------
    scipy.linalg.cho_solve, LAPACK ?potrs, cuSOLVER potrsBatched
    """
    lower = check_bool(lower, "lower")
    is_vector = rhs_core_ndim(b) == 1

    def compute(xp, l, b, **keep):
        return _rhs_operand_call(xp, "potrs", is_vector, lower, l, b, keep)

    (x,), info, _ = run_batched(
        [Operand("l", l), Operand("b", b, core_ndim=1 if is_vector else 2, overwrite=overwrite_b)],
        lambda shapes: check_rhs_rows(shapes, "l", "b"), compute, compute_dtype,
        empty_like_operand("b"), ("cholesky", "potrs"))
    return finish("potrs", x, info, return_info)


def posv(a, b, lower=True, *, overwrite_a=False, overwrite_b=False, return_info=False):
    """Solve A X = B for Hermitian positive definite A (Cholesky factorization, then solve).

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        Only the triangle selected by ``lower`` is read.
    b : (batch, n, nrhs) or (batch, n) array, list of (n_k, nrhs_k) or (n_k,) arrays, or VBatch
        Right-hand sides: matrices or vectors, returned in the same shape.
    lower : bool
        Factor the lower (A = L L^H) or the upper (A = U^H U) triangle.
    overwrite_a : bool
        Allow ``a`` to be used as workspace (strided form only).
    overwrite_b : bool
        Allow the result to be written into ``b`` (strided form only).
    return_info : bool
        Return ``(x, info)`` instead of raising; no device synchronization.

    Returns
    -------
    x : same form, shape and dtype as ``b``
        The solution only: unlike LAPACK ?posv, the factor is not returned (call :func:`potrf`
        and :func:`potrs` to keep it).
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the leading minor of order j is not positive definite.

    Raises
    ------
    LinAlgError
        A matrix is not positive definite (or holds NaN); names the batch indices.

    See Also
    --------
    scipy.linalg.solve (assume_a='pos'), LAPACK ?posv
    """
    lower = check_bool(lower, "lower")
    is_vector = rhs_core_ndim(b) == 1

    def compute(xp, a, b, **keep):
        return _rhs_operand_call(xp, "posv", is_vector, lower, a, b, keep)

    (x,), info, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a),
         Operand("b", b, core_ndim=1 if is_vector else 2, overwrite=overwrite_b)],
        lambda shapes: check_rhs_rows(shapes, "a", "b"), compute, compute_dtype,
        empty_like_operand("b"), ("cholesky", "posv"))
    return finish("posv", x, info, return_info)


def potri(l, lower=True, *, overwrite_l=False, return_info=False):
    """Inverse of Hermitian positive definite A from its Cholesky factor.

    Parameters
    ----------
    l : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        The factor from :func:`potrf` with the same ``lower``; only that triangle is read.
    lower : bool
        True: A = L L^H; False: A = U^H U.
    overwrite_l : bool
        Allow ``l`` to be used as workspace (strided form only).
    return_info : bool
        Return ``(inverse, info)`` instead of raising; no device synchronization.

    Returns
    -------
    inverse : same form, shape and dtype as ``l``
        A^-1, full Hermitian (both triangles, real diagonal), unlike LAPACK's one triangle.
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the j-th diagonal element of the factor is zero or not finite.

    Raises
    ------
    LinAlgError
        A factor is singular; names the batch indices.

    See Also
    --------
    LAPACK ?potri, poti
    """
    lower = check_bool(lower, "lower")

    def compute(xp, l, **keep):
        inverse, info = _dispatch.backend(xp, "cholesky").potri(l, lower=lower, **keep)
        return (inverse,), info

    (inverse,), info, _ = run_batched(
        [Operand("l", l, overwrite=overwrite_l)],
        lambda shapes: square_shapes(shapes, "l"),
        compute, compute_dtype, _empty_like_input("l"), ("cholesky", "potri"))
    return finish("potri", inverse, info, return_info)


def poti(a, lower=True, *, overwrite_a=False, return_info=False):
    """Inverse of Hermitian positive definite matrices (Cholesky factorization and inversion fused).

    Parameters
    ----------
    a : (batch, n, n) array, list of (n_k, n_k) arrays, or VBatch
        Only the triangle selected by ``lower`` is read.
    lower : bool
    overwrite_a : bool
        Allow ``a`` to be used as workspace (strided form only).
    return_info : bool
        Return ``(inverse, info)`` instead of raising; no device synchronization.

    Returns
    -------
    inverse : same form, shape and dtype as ``a``
        A^-1, full Hermitian (both triangles, real diagonal).
    info : int32 (batch,), only with ``return_info``
        0, or j > 0 if the leading minor of order j is not positive definite.

    Raises
    ------
    LinAlgError
        A matrix is not positive definite (or holds NaN); names the batch indices.

    See Also
    --------
    inv, potrf, potri
    """
    lower = check_bool(lower, "lower")

    def compute(xp, a, **keep):
        inverse, info = _dispatch.backend(xp, "cholesky").poti(a, lower=lower, **keep)
        return (inverse,), info

    (inverse,), info, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a)],
        lambda shapes: square_shapes(shapes, "a"),
        compute, compute_dtype, _empty_like_input("a"), ("cholesky", "poti"))
    return finish("poti", inverse, info, return_info)


# ---------------------------------------------------------------------------------------------
# SciPy tier: scipy.linalg's names, signatures and defaults, on (..., M, M) batches

def _stack(a, name, check_finite):
    """(a3, batch_shape): the (..., M, M) input as a (batch, M, M) array after SciPy's checks."""
    a = as_array(a, name)
    check_square_stack(a, name)
    check_finite_array(a, name, check_finite)
    m = a.shape[-1]
    return a.reshape((math.prod(a.shape[:-2]), m, m)), a.shape


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factor of Hermitian positive definite matrices, as scipy.linalg.cholesky.

    Parameters
    ----------
    a : (..., M, M) array_like
        Only the triangle selected by ``lower`` is read.
    lower : bool
        Default False: return U with A = U^H U (SciPy's default).
    overwrite_a : bool
    check_finite : bool
        Raise ValueError if ``a`` holds inf or NaN.

    Returns
    -------
    c : (..., M, M) array
        The factor, other triangle zero.

    Raises
    ------
    LinAlgError
        A matrix is not positive definite; names the flat batch indices.

    See Also
    --------
    scipy.linalg.cholesky, potrf
    """
    a3, shape = _stack(a, "a", check_finite)
    return potrf(a3, check_bool(lower, "lower"), overwrite_a=overwrite_a).reshape(shape)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """Cholesky factorization for :func:`cho_solve`, as scipy.linalg.cho_factor.

    Parameters
    ----------
    a : (..., M, M) array_like
        Only the triangle selected by ``lower`` is read.
    lower : bool
        Default False (upper factor), as in SciPy.
    overwrite_a : bool
    check_finite : bool

    Returns
    -------
    (c, lower) : ((..., M, M) array, bool)
        The factor (other triangle zero, where SciPy leaves arbitrary data) and the flag.

    Raises
    ------
    LinAlgError
        A matrix is not positive definite; names the flat batch indices.

    See Also
    --------
    scipy.linalg.cho_factor, potrf
    """
    lower = check_bool(lower, "lower")
    return cholesky(a, lower, overwrite_a, check_finite), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve A x = b given the factorization from :func:`cho_factor`, as scipy.linalg.cho_solve.

    Parameters
    ----------
    c_and_lower : tuple (c, lower)
        ``c``: (..., M, M) factor; ``lower``: which triangle of ``c`` holds it.
    b : (..., M) or (..., M, K) array_like
        A vector if ``b.ndim == 1``, otherwise matrices (SciPy's rule); batch dimensions
        broadcast against those of ``c``.
    overwrite_b : bool
    check_finite : bool

    Returns
    -------
    x : array of the broadcast batch shape and ``b``'s core shape

    Raises
    ------
    LinAlgError
        A factor has a zero or non-finite diagonal element.

    See Also
    --------
    scipy.linalg.cho_solve, potrs
    """
    if not isinstance(c_and_lower, (tuple, list)) or len(c_and_lower) != 2:
        raise TypeError("c_and_lower: expected a (c, lower) tuple as returned by cho_factor, "
                        f"got {type(c_and_lower).__name__}")
    c, lower = c_and_lower
    lower = check_bool(lower, "lower")
    c, b = as_array(c, "c"), as_array(b, "b")
    check_square_stack(c, "c")
    check_finite_array(c, "c", check_finite)
    check_finite_array(b, "b", check_finite)
    c3, b3, shape, b_own = broadcast_rhs(c, b, "c", "b")
    return potrs(c3, b3, lower, overwrite_b=overwrite_b and b_own).reshape(shape)


def inv(a, overwrite_a=False, check_finite=True, *, assume_a="pos", lower=False):
    """Inverse of Hermitian positive definite matrices, with scipy.linalg.inv's signature.

    Only symmetric/Hermitian positive definite matrices are supported: this is SciPy's
    ``inv(a, assume_a='pos')`` (the default here), computed by :func:`poti`.

    Parameters
    ----------
    a : (..., M, M) array_like
        Only the triangle selected by ``lower`` is read (upper by default, as in SciPy).
    overwrite_a : bool
    check_finite : bool
        Raise ValueError if ``a`` holds inf or NaN.
    assume_a : {'pos', None}
        'pos' (or None, meaning the default); any other structure raises ValueError.
    lower : bool
        Read the lower (True) or upper (False) triangle.

    Returns
    -------
    ainv : (..., M, M) array, full Hermitian

    Raises
    ------
    LinAlgError
        A matrix is not positive definite; names the flat batch indices.
    ValueError
        ``assume_a`` other than 'pos'; non-square ``a``.

    See Also
    --------
    scipy.linalg.inv, poti
    """
    if assume_a not in ("pos", None):
        raise ValueError(f"assume_a: only 'pos' (symmetric/Hermitian positive definite) is "
                         f"supported, got {assume_a!r}")
    a3, shape = _stack(a, "a", check_finite)
    return poti(a3, check_bool(lower, "lower"), overwrite_a=overwrite_a).reshape(shape)
