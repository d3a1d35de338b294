"""Householder bidiagonalization of batches (LAPACK ?gebrd) and the helper forming Q, B and P^H.

LAPACK conventions, on the same mathematical matrices (a[k, i, j] = A_k(i, j), row-major storage):
Q^H A P = B with Q = H(1) ... H(k), P = G(1) ... G(k) as products of elementary reflectors
H(i) = I - tauq_i v v^H and G(i) = I - taup_i u u^H, k = min(m, n).

* m >= n: B is upper bidiagonal (d on the diagonal, e on the superdiagonal). v(i) = 1 with
  v(i+1:m) stored in a[i+1:, i]; u(i+1) = 1 with conj(u(i+2:n)) stored in a[i, i+2:]; taup[n-1] = 0.
* m < n: B is lower bidiagonal (e on the subdiagonal). v(i+1) = 1 with v(i+2:m) stored in
  a[i+2:, i]; u(i) = 1 with conj(u(i+1:n)) stored in a[i, i+1:]; tauq[m-1] = 0.

(0-based indices.) The diagonal and the off-diagonal of B are also stored in ``a``, as LAPACK does.
For complex matrices d and e are real (LAPACK ?gebrd with complex types, zgebrd).
"""
from collections import namedtuple

import numpy

from . import _dispatch
from ._batch import Operand, run_batched
from ._validate import compute_dtype, first_bad

__all__ = ["gebrd", "gebrd_unpack", "GebrdResult"]


GebrdResult = namedtuple("GebrdResult", ["a", "d", "e", "tauq", "taup"])
GebrdResult.__doc__ = """The outputs of :func:`gebrd`, in LAPACK's meaning (each in the batch form of the input).

a : (batch, m, n)
    B on its diagonal and first super- (m >= n) or sub-diagonal (m < n); the Householder
    vectors of Q and P in the rest (see the module docstring).
d : (batch, k) real
    The diagonal of B, k = min(m, n).
e : (batch, k - 1) real
    The off-diagonal of B.
tauq, taup : (batch, k)
    Scalar factors of the reflectors of Q and of P.
"""


def gebrd(a, *, overwrite_a=False):
    """Reduce each (m, n) matrix of a batch to bidiagonal form: Q^H A P = B.

    Parameters
    ----------
    a : (batch, m, n) array, list of 2-D arrays, or VBatch
        The matrices (any m, n, also m < n).
    overwrite_a : bool
        Allow the reflectors to be written into ``a`` (strided form of the compute dtype only).

    Returns
    -------
    result : GebrdResult
        ``(a, d, e, tauq, taup)`` as LAPACK ?gebrd returns them (see :class:`GebrdResult`), each
        in the batch form of the input (arrays, lists, or VBatch of matrices / vectors). d and e
        are real; a, tauq and taup have the compute dtype.

    Raises
    ------
    ValueError
        ``a`` is not a batch of matrices.
    TypeError
        Unsupported dtype.

    See Also
    --------
    gebrd_unpack : forms Q, B and P^H.
    LAPACK dgebrd/zgebrd, numpy.linalg.svd

    Notes
    -----
    The reflectors are those of LAPACK's unblocked algorithm (?gebd2), which the blocked ?gebrd
    reproduces up to rounding. B has the singular values of A. Where a reflector's leading entry
    is within rounding of zero, the sign LAPACK gives beta (-sign(alpha)) is rounding's choice:
    that step and the later ones may then differ from LAPACK's in sign, still a valid reduction.
    On the GPU, matrices too large for a block's shared memory (float64 above ~167, float32
    above ~237 on an H100) run the blocked algorithm (panels and matrix products).

    Examples
    --------
    >>> import numpy, linalg
    >>> a = numpy.array([[[3.0, 0.0], [4.0, 0.0]]])
    >>> linalg.gebrd(a).d
    array([[-5.,  0.]])
    """
    def compute(xp, a):
        return tuple(_dispatch.backend(xp, "bidiag").gebrd(a)), None

    def empty(xp, dtype, batch, shapes):
        m, n = (int(s) for s in shapes["a"])
        k = min(m, n)
        real = numpy.empty(0, dtype).real.dtype
        return (xp.zeros((batch, m, n), dtype), xp.zeros((batch, k), real),
                xp.zeros((batch, max(k - 1, 0)), real), xp.zeros((batch, k), dtype),
                xp.zeros((batch, k), dtype))

    overwrite = bool(overwrite_a) and _is_strided(a) and compute_dtype(a=a) == a.dtype \
        and bool(a.flags.c_contiguous)
    outputs, _, _ = run_batched([Operand("a", a, overwrite=overwrite)], lambda shapes: None,
                                compute, compute_dtype, empty)
    return GebrdResult(*outputs)


def gebrd_unpack(result):
    """Form Q, B and P^H of each matrix from :func:`gebrd`'s output, so that A = Q B P^H.

    Parameters
    ----------
    result : GebrdResult (or a tuple ``(a, d, e, tauq, taup)``)
        What :func:`gebrd` returned, in any batch form. B is read from ``result.a`` (where LAPACK
        also stores d and e), the reflectors from ``a``, ``tauq`` and ``taup``.

    Returns
    -------
    q : (batch, m, k)
        Orthonormal (unitary) columns.
    b : (batch, k, k)
        Upper (m >= n) or lower (m < n) bidiagonal, real values in the dtype of ``a``.
    pt : (batch, k, n)
        P^H (P^T for real dtypes): orthonormal rows.

    Each in the batch form of ``result.a``; k = min(m, n).

    Examples
    --------
    >>> import numpy, linalg
    >>> a = numpy.random.default_rng(0).standard_normal((2, 5, 3))
    >>> q, b, pt = linalg.gebrd_unpack(linalg.gebrd(a))
    >>> bool(numpy.allclose(q @ b @ pt, a))
    True
    """
    a, _, _, tauq, taup = result

    def check(shapes):
        k = shapes["a"].min(axis=1)
        for name in ("tauq", "taup"):
            got = shapes[name][:, 0]
            first_bad(got != k, name, lambda j: f"expected length min(m, n) = {int(k[j])} for a of shape "
                                                f"{tuple(int(v) for v in shapes['a'][j])}, got {int(got[j])}")

    def compute(xp, a, tauq, taup):
        return _unpack(xp, a, tauq, taup), None

    def empty(xp, dtype, batch, shapes):
        m, n = (int(s) for s in shapes["a"])
        k = min(m, n)
        return (xp.zeros((batch, m, k), dtype), xp.zeros((batch, k, k), dtype),
                xp.zeros((batch, k, n), dtype))

    ops = [Operand("a", a), Operand("tauq", tauq, core_ndim=1), Operand("taup", taup, core_ndim=1)]
    outputs, _, _ = run_batched(ops, check, compute, compute_dtype, empty)
    return outputs


def _is_strided(value):
    return hasattr(value, "ndim") and hasattr(value, "dtype") and hasattr(value, "flags")


def _unpack(xp, a, tauq, taup):
    """(q, b, pt) from strided gebrd output; array-module generic (NumPy or CuPy)."""
    batch, m, n = a.shape
    k = min(m, n)
    upper = m >= n
    idx = xp.arange(k)
    b = xp.zeros((batch, k, k), a.dtype)
    b[:, idx, idx] = a[:, idx, idx].real
    if k > 1:
        off = a[:, idx[:-1], idx[1:]] if upper else a[:, idx[1:], idx[:-1]]
        rows, cols = (idx[:-1], idx[1:]) if upper else (idx[1:], idx[:-1])
        b[:, rows, cols] = off.real
    # Q = H(1) ... H(nq) I[:, :k]: column j of `a` holds v below its unit entry at row j + shift
    shift_q = 0 if upper else 1
    q = _accumulate(xp, xp.swapaxes(a, 1, 2), tauq, m, k, shift_q, conj=False)
    # P I[:, :k] with G(j)'s vector u = conj(stored row j), unit entry at column j + shift_p
    shift_p = 1 if upper else 0
    p = _accumulate(xp, a, taup, n, k, shift_p, conj=True)
    pt = xp.conj(xp.swapaxes(p, 1, 2)) if xp.iscomplexobj(p) else xp.swapaxes(p, 1, 2)
    return q, b, xp.ascontiguousarray(pt)


def _accumulate(xp, vectors, tau, size, k, shift, conj):
    """R_1 ... R_k applied to I[:, :k] (size x k), R_j = I - tau_j w w^H, backward accumulation.

    ``vectors[:, j, :]`` holds w_j's entries after its unit entry at position j + shift
    (conjugated first when ``conj``).
    """
    batch = vectors.shape[0]
    out = xp.zeros((batch, size, k), vectors.dtype)
    out[:, xp.arange(k), xp.arange(k)] = 1
    for j in range(k - 1, -1, -1):
        start = j + shift
        if start >= size:
            continue
        w = xp.empty((batch, size - start), vectors.dtype)
        w[:, 0] = 1
        w[:, 1:] = vectors[:, j, start + 1:size]
        if conj and xp.iscomplexobj(w):
            w = xp.conj(w)
        block = out[:, start:, :]
        row = xp.einsum("bi,bij->bj", xp.conj(w) if xp.iscomplexobj(w) else w, block)   # w^H R
        block -= tau[:, j, None, None] * w[:, :, None] * row[:, None, :]
    return out
