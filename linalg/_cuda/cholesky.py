"""GPU Cholesky family on strided batches: potrf, potrs, posv, potri, poti (docs/design.md).

float32/float64, n <= LEAF (32): one fused kernel launch per operation (kernels/potrf.cu
``chol_small`` for potrf/potri/poti; the fused two-solve potrs through triangular.solve_leaf),
several matrices per thread block, each matrix read and written once. n > LEAF: recursion
(A11 by recursion, A21 by our TRSM, A22 -= A21 A21^T by cuBLAS batched GEMM) down to those kernels;
small batches above n = 32: vendor calls (triangular.small_batch, linalg/_cuda/vendor.py);
potri's LAUUM as one dense cuBLAS product (linalg/_cuda/triangular.py). potrs with one vector and
n >= POTRS_WARP_FROM: both solves in one launch of kernels/trsv.cu ``trsv_warp``. Complex dtypes:
a column-by-column factorization vectorized over the batch (info without a host sync) and cuBLAS.

Every function returns (result, info) (docs/design.md): potrf/posv/poti info is potrf's (leading
minor not positive definite, NaN included); potrs/potri info is a zero or non-finite diagonal
entry of the given factor.
"""
import numpy

from . import triangular as tri
from . import trsv, vendor

__all__ = ["potrf", "potrs", "posv", "potri", "poti"]

COMPILE_CHECK = {}   # the kernels used here are listed by linalg/_cuda/triangular.py
# potrs with one vector: the fused lane-group TRSV kernel (potrs_width lanes a matrix) from
# this n (H100, float64, batch 10240: 0.043 ms at n = 12 against 0.049 for tri_vec, 0.104 against
# 0.228 at n = 32; at n <= 8 tri_vec wins: 0.031 against 0.038 ms at n = 8).
POTRS_WARP_FROM = 9


def potrs_width(n, itemsize):
    """Lanes per matrix of the fused one-vector POTRS, as measured on the H100 (batch 10240):
    8 up to n = 32 (1.2-1.3x 16 lanes), then 16 (float64: 1.2-1.4x 32 lanes up to n = 256;
    float32 up to n = 64, above which 32 lanes are 1.1-1.4x faster)."""
    if n <= 32:
        return 8
    return 32 if itemsize == 4 and n > 64 else 16


# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"potrs": ("l",)}


def _combine_info(info1, info2, n1):
    """info of [A11 first, then A22 at offset n1]: the first failure wins."""
    import cupy
    return cupy.where(info1 != 0, info1, cupy.where(info2 != 0, info2 + n1, 0)).astype(numpy.int32)


def potrf_lower_inplace(a):
    """Lower Cholesky factor over the view ``a`` (upper part zeroed); returns info. Real dtypes."""
    n = a.shape[1]
    if n <= tri.LEAF:
        return tri.chol_small(a, tri.CHOL_POTRF, True)
    n1 = tri.split(n)
    a11, a21, a22 = a[:, :n1, :n1], a[:, n1:, :n1], a[:, n1:, n1:]
    info1 = potrf_lower_inplace(a11)
    tri.trsm_inplace(a11, a21, True, True, True, False, 1.0)     # A21 := A21 L11^-T
    tri.gemm(a22, a21, a21.swapaxes(1, 2), alpha=-1.0, beta=1.0)   # A22 -= L21 L21^T
    info2 = potrf_lower_inplace(a22)
    a[:, :n1, n1:] = 0
    return _combine_info(info1, info2, n1)


def potrf(a, lower=True):
    """Cholesky factor of each matrix; returns (factor, info)."""
    if not tri.is_real(a.dtype):
        return _vendor_potrf(a, lower)
    if a.shape[1] <= tri.LEAF:
        return a, tri.chol_small(a, tri.CHOL_POTRF, lower)
    if tri.small_batch("potrf", a):
        return _cusolver_potrf(a, lower)
    work = tri.as_lower(a, lower)
    info = potrf_lower_inplace(work)
    return tri.from_lower(work, lower), info


def potrs(l, b, lower=True):
    """Solve A X = B given the Cholesky factor of A (L L^T or U^T U); returns (X, info), X may
    be ``b``; info: the first zero or non-finite diagonal entry of the factor."""
    if not tri.is_real(l.dtype):
        return _vendor_potrs(l, b, lower), tri._diag_info(l, False)
    if tri.small_batch("potrs_vector" if b.shape[2] == 1 else "potrs", l):
        info = tri._diag_info(l, False)
        return vendor.potrs(l, b, lower), info
    if b.shape[2] == 1 and POTRS_WARP_FROM <= l.shape[1] <= trsv.MAX_N_KERNEL:
        # One vector: both solves in one launch of the warp TRSV kernel (the factor streamed
        # once per solve, coalesced).
        return b, trsv.launch_warp(l, b[:, :, 0], lower, 0 if lower else 1, False, True,
                                   width=potrs_width(l.shape[1], l.itemsize))
    if l.shape[1] <= tri.LEAF:
        return b, tri.solve_leaf(l, b, tri.TRI_POTRS | (tri.TRI_LOWER if lower else 0))
    info = tri._diag_info(l, False)
    # lower: L y = b, L^T x = y; upper: U^T y = b, U x = y.
    tri.trsm_inplace(l, b, False, lower, not lower, False, 1.0)
    tri.trsm_inplace(l, b, False, lower, lower, False, 1.0)
    return b, info


def posv(a, b, lower=True):
    """Factor and solve; returns (X, info) with potrf's info."""
    factor, info = potrf(a, lower)
    x, _ = potrs(factor, b, lower)
    return x, info


def potri(l, lower=True):
    """Inverse of A from its Cholesky factor, full symmetric; returns (inverse, info) where info
    is trtri's (a zero or non-finite diagonal entry of the factor)."""
    if not tri.is_real(l.dtype):
        inv, info = tri._vendor_trtri(l, lower, False)
        return tri.lauum(inv, lower), info
    if l.shape[1] <= tri.LEAF:
        return l, tri.chol_small(l, tri.CHOL_TRTRI | tri.CHOL_LAUUM, lower)
    if tri.small_batch("potri", l):
        # A^-1 = the solution of A X = I by the two vendor solves, its lower triangle mirrored
        # (exactly symmetric, as the recursion's result).
        info = tri._diag_info(l, False)
        inv = vendor.potrs(l, tri.identity(l.shape[0], l.shape[1], l.dtype), lower)
        return tri.mirror(inv), info
    inv, info = tri.trtri(l, lower)
    return tri.lauum(inv, lower), info


def poti(a, lower=True):
    """Inverse of symmetric positive definite matrices (potrf + potri fused); (inverse, info)."""
    if tri.is_real(a.dtype) and a.shape[1] <= tri.LEAF:
        return a, tri.chol_small(a, tri.CHOL_POTRF | tri.CHOL_TRTRI | tri.CHOL_LAUUM, lower)
    factor, info = potrf(a, lower)
    inv, _ = potri(factor, lower)
    return inv, info


# --------------------------------------------------------------------------- vendor

def _cusolver_potrf(a, lower):
    """cuSOLVER potrf in place on a real (batch, n, n) batch (small batches, see
    triangular.small_batch), the other triangle zeroed. info: cuSOLVER's (the leading minor that
    is not positive definite), else the first non-finite diagonal entry of the factor -- LAPACK's
    index for NaN input, which cuSOLVER does not report."""
    import cupy
    if a.strides[2] != a.itemsize:
        a = cupy.ascontiguousarray(a)
    info = vendor.potrf(a, lower)
    tri.triangle_fix(a, lower, zero=True)
    return a, tri._diag_info(a, False, prior=info)


# --------------------------------------------------------------------------- vendor (complex)

def _vendor_potrf(a, lower):
    """Right-looking factorization vectorized over the batch (column by column); info without a
    host sync: the first non-positive (or NaN) pivot of each matrix."""
    import cupy
    n = a.shape[1]
    work = tri.hermitize(cupy.tril(a) if lower else cupy.conj(cupy.triu(a).swapaxes(1, 2)))
    info = cupy.zeros(a.shape[0], dtype=numpy.int32)
    failed = cupy.zeros(a.shape[0], dtype=bool)
    for j in range(n):
        d = work[:, j, j].real
        newly = ~failed & ~(d > 0)
        info = cupy.where(newly, j + 1, info).astype(numpy.int32)
        failed |= newly
        piv = cupy.sqrt(cupy.where(failed, 1.0, d)).astype(work.dtype)
        col = work[:, j + 1:, j] / piv[:, None]
        work[:, j + 1:, j + 1:] -= col[:, :, None] * cupy.conj(col[:, None, :])
        work[:, j + 1:, j] = col
        work[:, j, j] = piv
    factor = cupy.tril(work)
    if not lower:
        factor = cupy.conj(factor.swapaxes(1, 2))
    return cupy.ascontiguousarray(factor), info


def _vendor_potrs(l, b, lower):
    x, _ = tri._vendor_trsm(l, b, False, lower, "N" if lower else "C", False, 1)
    x, _ = tri._vendor_trsm(l, x, False, lower, "C" if lower else "N", False, 1)
    return x
