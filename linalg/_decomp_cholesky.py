"""The Cholesky family: potrf, potrs, posv, potri, poti, and the SciPy-named tier.

Every function takes a strided (batch, n, n) array, a list/tuple of 2-D arrays, or a VBatch
(docs/design.md). Only the ``lower`` (or upper) triangle of the input is read.
"""
from . import _dispatch
from ._batch import Operand, run_batched
from ._common import finish
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

    def compute(xp, a):
        factor, info = _dispatch.backend(xp, "cholesky").potrf(a, lower=lower)
        return (factor,), info

    (factor,), info, _ = run_batched(
        [Operand("a", a, overwrite=overwrite_a)],
        lambda shapes: square_shapes(shapes, "a"), compute, compute_dtype, _empty_like_input("a"))
    return finish("potrf", factor, info, return_info)


def _empty_like_input(name):
    """empty_result for operations whose output has the shape of operand ``name``."""
    def empty(xp, dtype, batch, shapes):
        return (xp.zeros((batch,) + tuple(int(d) for d in shapes[name]), dtype=dtype),)
    return empty


def potrs(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("potrs is being implemented")


def posv(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("posv is being implemented")


def potri(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("potri is being implemented")


def poti(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("poti is being implemented")


def cholesky(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("cholesky is being implemented")


def cho_factor(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("cho_factor is being implemented")


def cho_solve(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("cho_solve is being implemented")


def inv(*args, **kwargs):  # placeholder, being written
    raise NotImplementedError("inv is being implemented")
