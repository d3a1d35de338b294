"""CPU GEMM and GEMV on strided batches: NumPy's stacked matmul/einsum, vectorized over the batch.

NumPy's stacked ``matmul`` calls the BLAS once per matrix from a C loop. A batch with enough
work is split among a few Python threads (:func:`split_batch`; NumPy releases the GIL in those
loops) and the BLAS is pinned to one thread meanwhile (:func:`blas_single_thread`, through
``threadpoolctl`` when it is installed), so that the threads, not the BLAS's pool waking for
every matrix, share the cores. A smaller batch runs in the calling thread, the BLAS pinned too
if its matrices are big enough for it to thread each call; a few big matrices keep its threading
(and tiny calls skip the pinning, which costs ~15 us).
"""
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor, wait

import numpy

__all__ = ["gemm", "gemv", "op", "blas_single_thread", "split_batch", "threads_pay"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"gemm": ("a", "b"), "gemv": ("a", "x")}

try:  # a dependency (pyproject.toml); without it (a source checkout) the BLAS keeps its threads
    import threadpoolctl
except ImportError:  # pragma: no cover - depends on the environment
    threadpoolctl = None

_CONTROLLER = None
_POOL = None
# Below this many scalar multiply-adds a batch runs on one thread: thread hand-off costs more.
_PARALLEL_MIN_WORK = 1 << 25
# The BLAS threads one call from about this many multiply-adds (OpenBLAS: m n k >= 4 x 65536):
# for a batch of such calls, waking its thread pool for every matrix costs more than it gains
# (2-core development machine, busy: 15 stacked 128 x 128 products 10.1 ms with OpenBLAS's two
# threads, 1.8 ms with one).
_BLAS_THREADS_FROM = 1 << 18
THREADS_ENV = "LINALG_CPU_THREADS"


def _workers():
    """Threads for :func:`split_batch`: $LINALG_CPU_THREADS if set (1: the calling thread only,
    e.g. one MPI rank a core), else the cores this process may use, at most 8."""
    setting = os.environ.get(THREADS_ENV)
    if setting:
        try:
            return max(1, int(setting))
        except ValueError:
            raise ValueError(f"{THREADS_ENV}: expected a positive integer, got {setting!r}") from None
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


def threads_pay(batch, work_per_matrix):
    """Whether :func:`split_batch` would use threads for this batch (``work_per_matrix``: about
    the scalar multiply-adds of one matrix)."""
    workers = _workers()
    return workers > 1 and batch >= 2 * workers and batch * work_per_matrix >= _PARALLEL_MIN_WORK


def split_batch(fn, batch, work_per_matrix):
    """Call ``fn(start, stop)`` over slices of ``range(batch)``, on several threads when it pays.

    ``fn`` must only touch its own slice of the batch (it writes disjoint output rows). It runs
    under the caller's NumPy error state (``numpy.errstate`` is per thread). Returns when every
    slice is done; the first exception a slice raised is then raised here. The BLAS runs on one
    thread while our threads run, and for many matrices big enough that it would thread each
    call; a few matrices keep its threading.
    """
    if threads_pay(batch, work_per_matrix):
        with blas_single_thread():          # our threads, not the BLAS's, share the cores
            _on_threads(fn, batch, _workers())
    elif batch >= 2 * _workers() and work_per_matrix >= _BLAS_THREADS_FROM:
        with blas_single_thread():
            fn(0, batch)
    else:
        fn(0, batch)


def _on_threads(fn, batch, workers):
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="linalg-cpu")
    errors = numpy.geterr()

    def under_caller_errstate(lo, hi):
        with numpy.errstate(**errors):
            fn(lo, hi)
    bounds = numpy.linspace(0, batch, workers + 1).astype(int)
    futures = [_POOL.submit(under_caller_errstate, int(lo), int(hi))
               for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    wait(futures)             # no slice may still be writing when an exception reaches the caller
    for f in futures:
        f.result()


def op(x, trans):
    """op(X) of each matrix of a (batch, r, c) array: X, X^T or X^H (a view where possible)."""
    if trans == "N":
        return x
    xt = numpy.swapaxes(x, 1, 2)
    return numpy.conj(xt) if trans == "C" and numpy.iscomplexobj(x) else xt


def gemm(a, b, c=None, transa="N", transb="N", alpha=1, beta=0):
    """C = alpha op(A) op(B) + beta C for each matrix; returns the (batch, m, n) result. B may
    hold one matrix (batch 1) for the whole batch.

    ``c`` is not read when ``beta == 0`` (BLAS semantics: NaN in C does not propagate); when
    given it receives the result.
    """
    opa, opb = op(a, transa), op(b, transb)
    batch, m, n = a.shape[0], opa.shape[1], opb.shape[2]
    out = c if c is not None else numpy.empty((batch, m, n), dtype=a.dtype)
    add = c is not None and beta != 0
    shared_b = b.shape[0] == 1          # one B for the whole batch (matmul broadcasts it)

    def run(lo, hi):
        blk = out[lo:hi]
        bb = opb if shared_b else opb[lo:hi]
        if add:
            if beta != 1:
                blk *= beta
            prod = numpy.matmul(opa[lo:hi], bb)
            if alpha != 1:
                prod *= alpha
            blk += prod
        else:
            numpy.matmul(opa[lo:hi], bb, out=blk)
            if alpha != 1:
                blk *= alpha

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
