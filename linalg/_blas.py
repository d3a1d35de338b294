"""BLAS products on batches: gemm, gemv, syrk.

Every function takes strided arrays, lists/tuples of 2-D arrays (1-D for vectors) or VBatch, with
all operands in the same form (docs/design.md). None of them can fail numerically: no ``info``.
"""
import numpy

from . import _dispatch
from ._batch import Operand, VBatch, run_batched
from ._validate import (check_bool, check_scalar, complex_compute_dtype, compute_dtype, first_bad,
                        trans_word)

__all__ = ["gemm", "gemv", "syrk"]


def gemm(a, b, c=None, transa="N", transb="N", alpha=1, beta=0, *, overwrite_c=False):
    """General matrix product of each pair of a batch: C = alpha op(A) op(B) + beta C.

    Parameters
    ----------
    a : (batch, ra, ca) array, list of 2-D arrays, or VBatch
        op(A) is (m, k): A itself for ``transa='N'``, its transpose ('T') or conjugate transpose ('C').
    b : same form as ``a``
        op(B) is (k, n). As an array, also (1, rb, cb): one B for every matrix of ``a``
        (broadcast, as NumPy's matmul does; not copied per matrix).
    c : same form as ``a``, optional
        (m, n) matrices added with weight ``beta``; required when ``beta != 0``, not read when
        ``beta == 0``.
    transa, transb : {'N', 'T', 'C'} or {0, 1, 2}
        op applied to A and B ('C' equals 'T' for real dtypes).
    alpha, beta : number
        Scalars; a complex scalar with real operands computes in the complex dtype.
    overwrite_c : bool
        Allow the result to be written into ``c`` (strided form of the compute dtype only).

    Returns
    -------
    c : (batch, m, n) array, list, or VBatch (same form as ``a``)
        The products, in the promoted dtype of the operands.

    Raises
    ------
    ValueError
        Inner dimensions differ, ``c`` has the wrong shape, ``beta != 0`` without ``c``, or a bad
        ``transa``/``transb`` word.
    TypeError
        Unsupported dtype or a non-numeric ``alpha``/``beta``.

    See Also
    --------
    numpy.matmul, scipy.linalg.blas.dgemm, cuBLAS gemmStridedBatched

    Examples
    --------
    >>> import numpy, linalg
    >>> a = numpy.arange(8.0).reshape(2, 2, 2)
    >>> linalg.gemm(a, a, transb='T')[1]
    array([[41., 59.],
           [59., 85.]])
    """
    transa, transb = trans_word(transa, "transa"), trans_word(transb, "transb")
    alpha, beta = check_scalar(alpha, "alpha"), check_scalar(beta, "beta")
    _require_c(c, beta, "c")
    policy = _policy(alpha, beta)
    k_axis_a, k_axis_b = (1 if transa == "N" else 0), (0 if transb == "N" else 1)
    if c is not None and beta != 0:   # BLAS: k = 0 gives beta C, so pad k = 0 with zeros
        a, b = _pad_empty(a, k_axis_a, 2), _pad_empty(b, k_axis_b, 2)

    def check(shapes):
        opa, opb = _op_shape(shapes["a"], transa), _op_shape(shapes["b"], transb)
        first_bad(opa[:, 1] != opb[:, 0], "b", lambda k: (
            f"op(b) must have as many rows as op(a) has columns: op(a) is {_dims(opa[k])} "
            f"(transa={transa!r}), op(b) is {_dims(opb[k])} (transb={transb!r})"))
        _check_out(shapes, "c", numpy.stack([opa[:, 0], opb[:, 1]], axis=1))

    def compute(xp, a, b, c=None):
        out = _dispatch.backend(xp, "blas").gemm(a, b, c, transa=transa, transb=transb,
                                                 alpha=_cast(alpha, a), beta=_cast(beta, a))
        return (out,), None

    def empty(xp, dtype, batch, shapes):
        m = _op_shape(shapes["a"][None], transa)[0, 0]
        n = _op_shape(shapes["b"][None], transb)[0, 1]
        return (xp.zeros((batch, int(m), int(n)), dtype=dtype),)

    ops = [Operand("a", a), Operand("b", b, broadcast=True),
           Operand("c", c, overwrite=overwrite_c, optional=True)]
    (out,), _, _ = run_batched(ops, check, compute, policy, empty, ("blas", "gemm"))
    return out


def gemv(a, x, y=None, trans="N", alpha=1, beta=0, *, overwrite_y=False):
    """Matrix-vector product of each pair of a batch: y = alpha op(A) x + beta y.

    Parameters
    ----------
    a : (batch, m, n) array, list of 2-D arrays, or VBatch
        The matrices.
    x : (batch, n) array (``trans='N'``) or (batch, m) ('T', 'C'); list of 1-D arrays; VBatch of vectors
        Same form as ``a``.
    y : (batch, m) ('N') or (batch, n) ('T', 'C'), same form as ``x``, optional
        Added with weight ``beta``; required when ``beta != 0``, not read when ``beta == 0``.
    trans : {'N', 'T', 'C'} or {0, 1, 2}
        op(A) = A, A^T or A^H ('C' equals 'T' for real dtypes).
    alpha, beta : number
        Scalars; a complex scalar with real operands computes in the complex dtype.
    overwrite_y : bool
        Allow the result to be written into ``y`` (strided form of the compute dtype only).

    Returns
    -------
    y : (batch, len) array, list of 1-D arrays, or VBatch of vectors (same form as ``x``)

    Raises
    ------
    ValueError
        ``x`` or ``y`` has the wrong length, ``beta != 0`` without ``y``, or a bad ``trans`` word.
    TypeError
        Unsupported dtype or a non-numeric ``alpha``/``beta``.

    See Also
    --------
    scipy.linalg.blas.dgemv, cuBLAS gemvStridedBatched

    Examples
    --------
    >>> import numpy, linalg
    >>> linalg.gemv(numpy.eye(2)[None] * 3, numpy.array([[1.0, 2.0]]))
    array([[3., 6.]])
    """
    trans = trans_word(trans, "trans")
    alpha, beta = check_scalar(alpha, "alpha"), check_scalar(beta, "beta")
    _require_c(y, beta, "y")
    policy = _policy(alpha, beta)
    if y is not None and beta != 0:
        a, x = _pad_empty(a, 1 if trans == "N" else 0, 2), _pad_empty(x, 0, 1)

    def check(shapes):
        opa = _op_shape(shapes["a"], trans)
        xs = shapes["x"][:, 0]
        first_bad(xs != opa[:, 1], "x", lambda k: (
            f"expected length {int(opa[k, 1])} (op(a) is {_dims(opa[k])} with trans={trans!r}), got {int(xs[k])}"))
        if "y" in shapes:
            ys = shapes["y"][:, 0]
            first_bad(ys != opa[:, 0], "y", lambda k: (
                f"expected length {int(opa[k, 0])} (op(a) is {_dims(opa[k])} with trans={trans!r}), got {int(ys[k])}"))

    def compute(xp, a, x, y=None):
        out = _dispatch.backend(xp, "blas").gemv(a, x, y, trans=trans, alpha=_cast(alpha, a),
                                                 beta=_cast(beta, a))
        return (out,), None

    def empty(xp, dtype, batch, shapes):
        return (xp.zeros((batch, int(_op_shape(shapes["a"][None], trans)[0, 0])), dtype=dtype),)

    ops = [Operand("a", a), Operand("x", x, core_ndim=1),
           Operand("y", y, core_ndim=1, overwrite=overwrite_y, optional=True)]
    (out,), _, _ = run_batched(ops, check, compute, policy, empty, ("blas", "gemv"))
    return out


def syrk(a, c=None, lower=True, trans="N", alpha=1, beta=0, *, overwrite_c=False):
    """Symmetric rank-k update of each matrix: C = alpha A A^T + beta C, or alpha A^T A + beta C.

    Parameters
    ----------
    a : (batch, n, k) array for ``trans='N'``, (batch, k, n) for 'T'; list of 2-D arrays; VBatch
        The factors.
    c : (batch, n, n), same form as ``a``, optional
        Symmetric matrices added with weight ``beta``; only the triangle selected by ``lower`` is
        read. Required when ``beta != 0``, not read when ``beta == 0``.
    lower : bool
        Which triangle of ``c`` is referenced and computed.
    trans : {'N', 'T'} or {0, 1}; 'C' (2) only for real dtypes, where it equals 'T'
        'N': C = alpha A A^T + beta C; 'T': C = alpha A^T A + beta C. Plain transpose, also for
        complex dtypes (symmetric, not Hermitian, as BLAS ?syrk).
    alpha, beta : number
        Scalars; a complex scalar with real operands computes in the complex dtype.
    overwrite_c : bool
        Allow the result to be written into ``c`` (strided form of the compute dtype only).

    Returns
    -------
    c : (batch, n, n) array, list, or VBatch (same form as ``a``)
        The full symmetric result: the computed triangle mirrored (plain transpose) onto the other.

    Raises
    ------
    ValueError
        ``c`` is not (n, n), ``beta != 0`` without ``c``, a bad ``trans`` word, or ``trans='C'``
        with complex operands (use a Hermitian product, e.g. gemm with transb='C').
    TypeError
        Unsupported dtype, a non-bool ``lower``, or a non-numeric ``alpha``/``beta``.

    See Also
    --------
    scipy.linalg.blas.dsyrk, cuBLAS syrk

    Examples
    --------
    >>> import numpy, linalg
    >>> linalg.syrk(numpy.array([[[1.0, 2.0], [3.0, 4.0]]]))
    array([[[ 5., 11.],
            [11., 25.]]])
    """
    lower = check_bool(lower, "lower")
    trans = trans_word(trans, "trans")
    alpha, beta = check_scalar(alpha, "alpha"), check_scalar(beta, "beta")
    _require_c(c, beta, "c")
    base_policy = _policy(alpha, beta)

    def policy(**dtypes):
        dtype = base_policy(**dtypes)
        if trans == "C" and dtype.kind == "c":
            raise ValueError("trans: 'C' is not defined for complex syrk (symmetric, not Hermitian, "
                             "as BLAS ?syrk); use 'N' or 'T', or gemm with transb='C' for A A^H")
        return dtype

    eff = "N" if trans == "N" else "T"
    if c is not None and beta != 0:
        a = _pad_empty(a, 1 if eff == "N" else 0, 2)

    def check(shapes):
        n = shapes["a"][:, 0] if eff == "N" else shapes["a"][:, 1]
        _check_out(shapes, "c", numpy.stack([n, n], axis=1))

    def compute(xp, a, c=None):
        out = _dispatch.backend(xp, "syrk").syrk(a, c, lower=lower, trans=eff,
                                                 alpha=_cast(alpha, a), beta=_cast(beta, a))
        return (out,), None

    def empty(xp, dtype, batch, shapes):
        n = int(shapes["a"][0] if eff == "N" else shapes["a"][1])
        return (xp.zeros((batch, n, n), dtype=dtype),)

    ops = [Operand("a", a), Operand("c", c, overwrite=overwrite_c, optional=True)]
    (out,), _, _ = run_batched(ops, check, compute, policy, empty, ("syrk", "syrk"))
    return out


# ---- helpers shared by the three products ----

def _require_c(c, beta, name):
    if c is None and beta != 0:
        raise ValueError(f"{name}: beta={beta!r} needs {name} (the term beta*{name}); "
                         f"pass {name} or beta=0")


def _policy(alpha, beta):
    """compute_dtype of the operands, promoted to complex when a scalar is complex."""
    if _is_complex(alpha) or _is_complex(beta):
        return complex_compute_dtype
    return compute_dtype


def _is_complex(scalar):
    """A complex scalar with a nonzero imaginary part."""
    return isinstance(scalar, (complex, numpy.complexfloating)) and scalar.imag != 0


def _dims(shape):
    """A per-matrix shape as plain ints, for messages."""
    return tuple(int(v) for v in shape)


def _cast(scalar, like):
    """A scalar as the backend expects it: real for real dtypes (its imaginary part is 0 there)."""
    if isinstance(scalar, (complex, numpy.complexfloating)) and like.dtype.kind == "f":
        return scalar.real
    return scalar


def _op_shape(shapes, trans):
    """Per-matrix (rows, cols) of op(X) from the (batch, 2) shapes of X."""
    return shapes if trans == "N" else shapes[:, ::-1]


def _check_out(shapes, name, expected):
    if name in shapes:
        got = shapes[name]
        first_bad((got != expected).any(axis=1), name,
                  lambda k: f"expected shape {_dims(expected[k])}, got {_dims(got[k])}")


def _pad_empty(value, axis, core_ndim):
    """Matrices (or vectors) whose dimension ``axis`` is 0 padded to 1 with zeros.

    BLAS defines C = beta C when the inner dimension k is 0; padding k to 1 with zeros lets the
    one computation path produce exactly that. Other values are returned unchanged.
    """
    if isinstance(value, VBatch):
        return _pad_vbatch(value, axis)
    if isinstance(value, (list, tuple)):
        return [_pad_one(item, axis) if getattr(item, "ndim", None) == core_ndim
                and item.shape[axis] == 0 else item for item in value]
    if getattr(value, "ndim", None) == core_ndim + 1 and value.shape[axis + 1] == 0:
        xp = _dispatch.array_module(value)
        shape = list(value.shape)
        shape[axis + 1] = 1
        return xp.zeros(shape, dtype=value.dtype)
    return value


def _pad_one(item, axis):
    shape = list(item.shape)
    shape[axis] = 1
    return _dispatch.array_module(item).zeros(shape, dtype=item.dtype)


def _pad_vbatch(vb, axis):
    dims = vb.rows if axis == 0 else vb.cols
    bad = dims == 0
    if not bad.any():
        return vb
    rows, cols = vb.rows.copy(), vb.cols.copy()
    (rows if axis == 0 else cols)[bad] = 1
    xp = _dispatch.array_module(vb.data)
    padded = VBatch(xp.zeros(int((rows * cols).sum()), dtype=vb.dtype), rows, cols, is_vector=vb.is_vector)
    sizes = vb.rows * vb.cols                # the matrices being copied keep their sizes
    start = numpy.repeat(numpy.cumsum(sizes) - sizes, sizes)
    within = numpy.arange(int(sizes.sum())) - start
    src = numpy.repeat(vb.offsets, sizes) + within
    dst = numpy.repeat(padded.offsets, sizes) + within
    if src.size:
        padded.data[xp.asarray(dst)] = vb.data[xp.asarray(src)]
    return padded
