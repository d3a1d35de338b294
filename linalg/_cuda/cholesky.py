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


def potrf_lower_inplace(a):
    """Lower Cholesky factor over the view ``a`` (upper part zeroed); returns info. Real dtypes."""
    n = a.shape[1]
    if n <= tri.LEAF:
        return tri.chol_small(a, tri.CHOL_POTRF, True)
    n1 = tri.split(n)
    a11, a21, a22 = a[:, :n1, :n1], a[:, n1:, :n1], a[:, n1:, n1:]
    info = potrf_lower_inplace(a11)
    tri.trsm_inplace(a11, a21, True, True, True, False, 1.0)     # A21 := A21 L11^-T
    tri.gemm(a22, a21, a21.swapaxes(1, 2), alpha=-1.0, beta=1.0)   # A22 -= L21 L21^T
    info = tri.info_merge(info, potrf_lower_inplace(a22), n1)
    # Zeros block by block: whole rows of a rectangle, the fastest way measured to write them
    # (H100, n = 64, batch 10240: 0.06 ms, against 0.15 for one pass over the strict triangle,
    # whose row ends are partial sectors).
    a[:, :n1, n1:] = 0
    return info


def potrf_upper_inplace(a):
    """Upper Cholesky factor U (A = U^T U) over the view ``a`` (lower part zeroed); returns
    info. The mirror of potrf_lower_inplace on the upper blocks, with a left-side TRSM (the
    faster side of our leaves). Real dtypes."""
    n = a.shape[1]
    if n <= tri.LEAF:
        return tri.chol_small(a, tri.CHOL_POTRF, False)
    n1 = tri.split(n)
    a11, a12, a22 = a[:, :n1, :n1], a[:, :n1, n1:], a[:, n1:, n1:]
    info = potrf_upper_inplace(a11)
    tri.trsm_inplace(a11, a12, False, False, True, False, 1.0)    # A12 := U11^-T A12
    tri.gemm(a22, a12.swapaxes(1, 2), a12, alpha=-1.0, beta=1.0)  # A22 -= U12^T U12
    info = tri.info_merge(info, potrf_upper_inplace(a22), n1)
    a[:, n1:, :n1] = 0
    return info


def potrs_inplace(l, b, lower):
    """Solve A X = B over ``b`` (batch, n, nrhs) from the Cholesky factor ``l`` (L L^T or U^T U),
    recursively: the diagonal blocks' forward and backward solves meet in the middle block, whose
    two solves are one leaf launch (the fused POTRS) whatever n. Real dtypes."""
    n = l.shape[1]
    if n <= tri.LEAF:
        tri.solve_leaf(l, b, tri.TRI_POTRS | (tri.TRI_LOWER if lower else 0))
        return
    n1 = tri.split(n)
    l11, l22, b1, b2 = l[:, :n1, :n1], l[:, n1:, n1:], b[:, :n1], b[:, n1:]
    # lower: T = L21, op(T11) = L11 then L11^T; upper: T = U12^T, op(T11) = U11^T then U11.
    t21 = l[:, n1:, :n1] if lower else l[:, :n1, n1:].swapaxes(1, 2)
    tri.trsm_inplace(l11, b1, False, lower, not lower, False, 1.0)    # Y1 = T11^-1 B1
    tri.gemm(b2, t21, b1, alpha=-1.0, beta=1.0)                       # B2 -= T21 Y1
    potrs_inplace(l22, b2, lower)                                     # X2 = A22^-1 B2
    tri.gemm(b1, t21.swapaxes(1, 2), b2, alpha=-1.0, beta=1.0)        # Y1 -= T21^T X2
    tri.trsm_inplace(l11, b1, False, lower, lower, False, 1.0)        # X1 = T11^-T Y1


def potrf(a, lower=True):
    """Cholesky factor of each matrix; returns (factor, info)."""
    if not tri.is_real(a.dtype):
        return _vendor_potrf(a, lower)
    if a.shape[1] <= tri.LEAF:
        return a, tri.chol_small(a, tri.CHOL_POTRF, lower)
    if tri.small_batch("potrf", a):
        return _cusolver_potrf(a, lower)
    return a, potrf_lower_inplace(a) if lower else potrf_upper_inplace(a)


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
    potrs_inplace(l, b, lower)
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
    return tri.lauum(inv, lower, zeroed=True), info


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
