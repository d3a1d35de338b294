"""CPU GEMM and GEMV on strided batches: NumPy's stacked matmul/einsum, vectorized over the batch.

NumPy's stacked ``matmul`` calls the BLAS once per matrix from a C loop; with a multithreaded
OpenBLAS every one of those small calls wakes the thread pool, which makes a batch of 32 x 32
products about 10x slower than single-threaded calls. :func:`blas_single_thread` therefore pins
the BLAS to one thread around our stacked calls (through ``threadpoolctl`` when it is installed;
without it the BLAS keeps its own setting), and :func:`split_batch` runs independent slices of the
batch on a few Python threads instead (NumPy releases the GIL), so every core still works.
"""
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor

import numpy

__all__ = ["gemm", "gemv", "op", "blas_single_thread", "split_batch"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"gemm": ("a", "b"), "gemv": ("a", "x")}

try:  # optional: without it the BLAS keeps its own threading
    import threadpoolctl
except ImportError:  # pragma: no cover - depends on the environment
    threadpoolctl = None

_CONTROLLER = None
_POOL = None
# Below this many scalar multiply-adds a batch runs on one thread: thread hand-off costs more.
_PARALLEL_MIN_WORK = 1 << 25


def _workers():
    """Threads for :func:`split_batch`: the cores this process may use, at most 8."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(8, cores))


@contextlib.contextmanager
def blas_single_thread():
    """Limit the BLAS to one thread inside the block (no-op without threadpoolctl)."""
    global _CONTROLLER
    if threadpoolctl is None:
        yield
        return
    if _CONTROLLER is None:
        _CONTROLLER = threadpoolctl.ThreadpoolController()
    with _CONTROLLER.limit(limits=1, user_api="blas"):
        yield


def split_batch(fn, batch, work_per_matrix):
    """Call ``fn(start, stop)`` over slices of ``range(batch)``, on several threads when it pays.

    ``fn`` must only touch its own slice of the batch (it writes disjoint output rows).
    """
    global _POOL
    workers = _workers()
    if workers == 1 or batch < 2 * workers or batch * work_per_matrix < _PARALLEL_MIN_WORK:
        fn(0, batch)
        return
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="linalg-cpu")
    bounds = numpy.linspace(0, batch, workers + 1).astype(int)
    futures = [_POOL.submit(fn, int(lo), int(hi)) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    for f in futures:
        f.result()


def op(x, trans):
    """op(X) of each matrix of a (batch, r, c) array: X, X^T or X^H (a view where possible)."""
    if trans == "N":
        return x
    xt = numpy.swapaxes(x, 1, 2)
    return numpy.conj(xt) if trans == "C" and numpy.iscomplexobj(x) else xt


def gemm(a, b, c=None, transa="N", transb="N", alpha=1, beta=0):
    """C = alpha op(A) op(B) + beta C for each matrix; returns the (batch, m, n) result.

    ``c`` is not read when ``beta == 0`` (BLAS semantics: NaN in C does not propagate); when
    given it receives the result.
    """
    opa, opb = op(a, transa), op(b, transb)
    batch, m, n = a.shape[0], opa.shape[1], opb.shape[2]
    out = c if c is not None else numpy.empty((batch, m, n), dtype=a.dtype)
    add = c is not None and beta != 0

    def run(lo, hi):
        blk = out[lo:hi]
        if add:
            if beta != 1:
                blk *= beta
            prod = numpy.matmul(opa[lo:hi], opb[lo:hi])
            if alpha != 1:
                prod *= alpha
            blk += prod
        else:
            numpy.matmul(opa[lo:hi], opb[lo:hi], out=blk)
            if alpha != 1:
                blk *= alpha

    with blas_single_thread():
        split_batch(run, batch, m * n * opa.shape[2])
    return out


def gemv(a, x, y=None, trans="N", alpha=1, beta=0):
    """y = alpha op(A) x + beta y for each matrix/vector pair; returns the (batch, len(y)) result.

    ``y`` is not read when ``beta == 0``; when given it receives the result.
    """
    complex_conj = trans == "C" and numpy.iscomplexobj(a)
    spec = "bij,bj->bi" if trans == "N" else "bji,bj->bi"
    batch, rows = a.shape[0], a.shape[1] if trans == "N" else a.shape[2]
    out = y if y is not None else numpy.empty((batch, rows), dtype=a.dtype)
    add = y is not None and beta != 0

    def run(lo, hi):
        xs = numpy.conj(x[lo:hi]) if complex_conj else x[lo:hi]
        prod = numpy.einsum(spec, a[lo:hi], xs)
        if complex_conj:            # A^H x = conj(A^T conj(x)): conjugate vectors, not A
            numpy.conjugate(prod, out=prod)
        if alpha != 1:
            prod *= alpha
        blk = out[lo:hi]
        if add:
            if beta != 1:
                blk *= beta
            blk += prod
        else:
            blk[...] = prod

    split_batch(run, batch, a.shape[1] * a.shape[2])
    return out
