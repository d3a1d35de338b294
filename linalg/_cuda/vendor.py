"""Direct cuBLAS/cuSOLVER calls on row-major strided batches of real matrices: the vendor pieces
of our GPU paths (the small-batch paths of linalg/_cuda/triangular.py and cholesky.py, TRSV's
vendor classes). No copies and no CuPy temporaries: one library call each, in place.

Row-major data read column-major is its transpose (docs/design.md): a row-major (rows, cols)
matrix with leading dimension ld is the column-major (cols, rows) matrix with the same ld, so a
row-major lower triangle is a column-major upper one and the side of a solve flips. A batch of one
matrix takes the non-batched routine (cuSOLVER potrf is blocked: n = 512 float64 on the H100,
0.25 ms against 0.70 for potrfBatched with one matrix); the batched routines take device arrays of
matrix addresses, cached per (device, base address, stride, count) since their content depends on
nothing else.

Every function needs unit column stride (``x.strides[2] == itemsize``, or one column).
"""
import functools
import threading

import numpy

from .._dispatch import cupy_module
from ._compile import current_device, info_array

__all__ = ["gemm", "trsm", "potrf", "potrs", "pointers"]


def _ld(x):
    """Leading dimension (elements) of the row-major matrices of the 3-D view ``x``."""
    if x.shape[2] > 1 and x.strides[2] != x.itemsize:
        raise ValueError("vendor calls need unit column stride")
    return max(1, x.strides[1] // x.itemsize, x.shape[2])


def gemm(c, a, b, alpha=1.0, beta=0.0):
    """c := alpha a @ b + beta c on 3-D views (cuBLAS gemmStridedBatched, no temporaries).

    ``c`` needs unit column stride; ``a`` and ``b`` unit column stride or be transposed views
    (unit row stride). Row-major c = a b is column-major c^T = b^T a^T (docs/design.md).
    """
    cublas, handle = _blas()
    item = c.itemsize

    def operand(x):      # (pointer, ld, batch stride, op giving x^T from the column-major view)
        if x.strides[2] == item or x.shape[2] == 1:
            return x.data.ptr, x.strides[1] // item, x.strides[0] // item, cublas.CUBLAS_OP_N
        return x.data.ptr, x.strides[2] // item, x.strides[0] // item, cublas.CUBLAS_OP_T
    pb, ldb, sb, opb = operand(b)
    pa, lda, sa, opa = operand(a)
    if opb == cublas.CUBLAS_OP_N and b.shape[1] == 1:
        ldb = max(ldb, b.shape[2])
    if opa == cublas.CUBLAS_OP_N and a.shape[1] == 1:
        lda = max(lda, a.shape[2])
    m, n, k = c.shape[2], c.shape[1], a.shape[2]
    fn = cublas.dgemmStridedBatched if c.dtype == numpy.float64 else cublas.sgemmStridedBatched
    scalars, address = _host_scalars(c.dtype)
    with _SCALARS_LOCK:
        scalars[0], scalars[1] = alpha, beta
        fn(handle, opb, opa, m, n, k, address, pb, max(1, ldb), sb,
           pa, max(1, lda), sa, address + item, c.data.ptr, max(1, c.strides[1] // item),
           c.strides[0] // item, c.shape[0])


@functools.lru_cache(maxsize=None)
def _modules():
    """(cupy, cupy.cuda.device, cuBLAS bindings), imported once (imports inside a call that
    takes ~30 us cost a few us each time)."""
    cupy = cupy_module()
    from cupy.cuda import device
    from cupy_backends.cuda.libs import cublas
    return cupy, device, cublas


# alpha and beta for cuBLAS in host pointer mode, which reads them before the call returns:
# one buffer per dtype, written under the lock (a NumPy array made per call and its .ctypes
# address cost several us of a small call's host time).
_SCALARS_LOCK = threading.Lock()
_SCALARS = {}


def _host_scalars(dtype):
    """(float buffer of 2 of ``dtype``, its address)."""
    entry = _SCALARS.get(dtype)
    if entry is None:
        buffer = numpy.zeros(2, dtype=dtype)
        entry = _SCALARS[dtype] = (buffer, buffer.ctypes.data)
    return entry


def pointers(x):
    """Device array (uintp, batch) of the addresses of the matrices of the 3-D view ``x``."""
    return _pointers(current_device(), x.data.ptr, x.strides[0], x.shape[0])


@functools.lru_cache(maxsize=1024)
def _pointers(device_id, base, step, batch):
    cupy = cupy_module()
    host = numpy.arange(batch, dtype=numpy.int64) * step + base
    return cupy.asarray(host.view(numpy.uint64).astype(numpy.uintp))


def _blas():
    """(cuBLAS bindings, the current device's handle) with the handle bound to the current
    stream and in host pointer mode."""
    cupy, device, cublas = _modules()
    handle = device.get_cublas_handle()
    cublas.setStream(handle, cupy.cuda.get_current_stream().ptr)
    cublas.setPointerMode(handle, cublas.CUBLAS_POINTER_MODE_HOST)
    return cublas, handle


def trsm(a, b, right, lower, trans, unit, alpha=1.0):
    """op(A) X = alpha B (left) or X op(A) = alpha B (right), X over ``b`` in place; ``trans``
    bool (transpose). a (batch, n, n), b (batch, n, nrhs) (left) or (batch, nrhs, n) (right)."""
    cublas, handle = _blas()
    batch = b.shape[0]
    if batch == 0 or b.size == 0:
        return b
    # Left solve op(A) X = B is, column-major, X^T op(A)^T = B^T: a right-side solve with the
    # column-major view A^T of the same memory (and op(A)^T = op(A^T) keeps the transpose flag).
    side = cublas.CUBLAS_SIDE_LEFT if right else cublas.CUBLAS_SIDE_RIGHT
    uplo = cublas.CUBLAS_FILL_MODE_UPPER if lower else cublas.CUBLAS_FILL_MODE_LOWER
    op = cublas.CUBLAS_OP_T if trans else cublas.CUBLAS_OP_N
    diag = cublas.CUBLAS_DIAG_UNIT if unit else cublas.CUBLAS_DIAG_NON_UNIT
    m, n = b.shape[2], b.shape[1]          # column-major B^T is (cols, rows)
    ldb = _ld(b)
    if not right and b.shape[2] == 1 and b.strides[1] == b.itemsize:
        # One contiguous vector is also a column-major column: solve op(A) x = b as a left-side
        # solve with the column-major view A^T (op(A) = op'(A^T), the transpose flag flipped).
        # cuBLAS's right-side solve of a single row is slow (H100, n = 512, one matrix: 0.28 ms
        # against 0.06 for the left side).
        side = cublas.CUBLAS_SIDE_LEFT
        op = cublas.CUBLAS_OP_N if trans else cublas.CUBLAS_OP_T
        m, n, ldb = b.shape[1], 1, b.shape[1]
    double = b.dtype == numpy.float64
    scalars, address = _host_scalars(b.dtype)
    with _SCALARS_LOCK:
        scalars[0] = alpha
        if batch == 1:
            fn = cublas.dtrsm if double else cublas.strsm
            fn(handle, side, uplo, op, diag, m, n, address, a.data.ptr, _ld(a), b.data.ptr, ldb)
        else:
            fn = cublas.dtrsmBatched if double else cublas.strsmBatched
            fn(handle, side, uplo, op, diag, m, n, address, pointers(a).data.ptr, _ld(a),
               pointers(b).data.ptr, ldb, batch)
    return b


def _solver():
    from cupy.cuda import device
    from cupy_backends.cuda.libs import cusolver
    return cusolver, device.get_cusolver_handle()


def potrf(a, lower):
    """Cholesky factor in place over the referenced triangle of ``a`` (batch, n, n) (the other
    triangle is left as it was); returns cuSOLVER's info (int32, batch): j > 0 where the leading
    minor of order j is not positive definite (NaN is not reported)."""
    cupy = cupy_module()
    from cupy_backends.cuda.libs import cublas
    cusolver, handle = _solver()
    batch, n = a.shape[0], a.shape[1]
    info = cupy.zeros(batch, dtype=numpy.int32) if batch == 0 else info_array(batch)
    if batch == 0:
        return info
    uplo = cublas.CUBLAS_FILL_MODE_UPPER if lower else cublas.CUBLAS_FILL_MODE_LOWER
    double = a.dtype == numpy.float64
    lda = _ld(a)
    if batch == 1:
        size = _potrf_work_size(current_device(), double, uplo, n, lda, a.data.ptr)
        work = cupy.empty(max(1, size), dtype=a.dtype)
        (cusolver.dpotrf if double else cusolver.spotrf)(
            handle, uplo, n, a.data.ptr, lda, work.data.ptr, size, info.data.ptr)
    else:
        (cusolver.dpotrfBatched if double else cusolver.spotrfBatched)(
            handle, uplo, n, pointers(a).data.ptr, lda, info.data.ptr, batch)
    return info


_WORK_SIZES = {}


def _potrf_work_size(device_id, double, uplo, n, lda, address):
    """cuSOLVER potrf's workspace (elements) for one matrix; it depends on the shape only, so it
    is asked once per (device, dtype, fill, n, lda) (the query costs host time on every call)."""
    key = (device_id, double, uplo, n, lda)
    size = _WORK_SIZES.get(key)
    if size is None:
        cusolver, handle = _solver()
        size = _WORK_SIZES[key] = (cusolver.dpotrf_bufferSize if double else
                                   cusolver.spotrf_bufferSize)(handle, uplo, n, address, lda)
    return size


def potrs(l, b, lower):
    """Solve A X = B in place on ``b`` (batch, n, nrhs) from the Cholesky factor ``l`` of A
    (L L^T or U^T U): two cuBLAS triangular solves."""
    # lower: L y = b, L^T x = y; upper: U^T y = b, U x = y.
    trsm(l, b, False, lower, not lower, False)
    trsm(l, b, False, lower, lower, False)
    return b
