"""The CPU backends' batch threads (linalg/_cpu/blas.py split_batch, triangular.over_chunks):
every matrix computed once, errors and the caller's NumPy error state carried over, and results
identical to the one-thread run (each matrix goes through the same calls either way)."""
import contextlib
import threading
import time

import numpy
import pytest

import linalg
from linalg._cpu import blas as cpu_blas
from linalg._cpu import triangular as cpu_tri

from . import helpers as h


def force_threads(monkeypatch):
    """Three workers and no minimum work: every call takes the threaded path."""
    monkeypatch.setattr(cpu_blas, "_workers", lambda: 3)
    monkeypatch.setattr(cpu_blas, "_PARALLEL_MIN_WORK", 0)
    monkeypatch.setattr(cpu_tri, "CHUNK_BYTES", 1)          # many chunks a slice, too
    monkeypatch.setattr(cpu_tri, "SUBSTITUTION_CHUNK", 4)   # (the substitution's as well)
    monkeypatch.setattr(cpu_tri, "VECTOR_CHUNK_STEPS", (4, 4))      # (and the one-vector solves')
    monkeypatch.setattr(cpu_tri, "VECTOR_CHUNK_THREADED", 4)


@pytest.fixture
def threads(monkeypatch):
    force_threads(monkeypatch)


def test_split_batch_visits_every_index_once_on_worker_threads(threads):
    seen, names = numpy.zeros(100, int), set()

    def fn(lo, hi):
        seen[lo:hi] += 1
        names.add(threading.current_thread().name)
    cpu_blas.split_batch(fn, 100, 1)
    assert (seen == 1).all()
    assert all(name.startswith("linalg-cpu") for name in names)


def test_split_batch_raises_after_every_slice_finished(threads):
    done = []

    def fn(lo, hi):
        if lo == 0:
            raise RuntimeError("slice 0 failed")
        time.sleep(0.05)
        done.append(lo)
    with pytest.raises(RuntimeError, match="slice 0 failed"):
        cpu_blas.split_batch(fn, 99, 1)
    assert sorted(done) == [33, 66]


def test_split_batch_runs_under_the_callers_error_state(threads):
    def fn(lo, hi):
        numpy.ones(hi - lo) / numpy.zeros(hi - lo)
    with numpy.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            cpu_blas.split_batch(fn, 30, 1)


@pytest.mark.parametrize("batch, work, workers, pinned", [
    (100, 1 << 20, 3, True),      # threads
    (100, 1 << 18, 1, True),      # one thread, but the BLAS would thread every call
    (100, 1 << 10, 1, False),     # tiny calls: pinning would cost more than the call
    (2, 1 << 24, 3, False),       # two big matrices keep the BLAS's threads
])
def test_blas_pinned_to_one_thread_where_it_would_thread_many_calls(monkeypatch, batch, work,
                                                                    workers, pinned):
    entered = []
    monkeypatch.setattr(cpu_blas, "_workers", lambda: workers)
    monkeypatch.setattr(cpu_blas, "blas_single_thread",
                        lambda: (entered.append(1), contextlib.nullcontext())[1])
    cpu_blas.split_batch(lambda lo, hi: None, batch, work)
    assert bool(entered) == pinned


@pytest.mark.parametrize("setting, expected", [("1", 1), ("5", 5), ("0", 1)])
def test_thread_count_from_the_environment(monkeypatch, setting, expected):
    monkeypatch.setenv(cpu_blas.THREADS_ENV, setting)
    assert cpu_blas._workers() == expected


def test_bad_thread_count_names_the_variable(monkeypatch):
    monkeypatch.setenv(cpu_blas.THREADS_ENV, "many")
    with pytest.raises(ValueError, match="LINALG_CPU_THREADS: expected a positive integer"):
        cpu_blas._workers()


def _inputs(n, batch=40):
    gen = h.rng(7)
    spd = h.random_spd(gen, batch, n, numpy.float64)
    tri = h.random_triangular(gen, batch, n, numpy.float64)
    b = gen.standard_normal((batch, n, 5))
    return spd, tri, b, gen.standard_normal((batch, n))


CALLS = {
    "potrf": lambda spd, tri, b, v: linalg.potrf(spd, return_info=True),
    "potrf upper": lambda spd, tri, b, v: linalg.potrf(spd, lower=False, return_info=True),
    "potrs": lambda spd, tri, b, v: linalg.potrs(tri, b, return_info=True),
    "potrs vector": lambda spd, tri, b, v: linalg.potrs(tri, v, return_info=True),
    "posv": lambda spd, tri, b, v: linalg.posv(spd, b, return_info=True),
    "posv vector upper": lambda spd, tri, b, v: linalg.posv(spd, v, lower=False,
                                                            return_info=True),
    "potri": lambda spd, tri, b, v: linalg.potri(tri, return_info=True),
    "poti": lambda spd, tri, b, v: linalg.poti(spd, return_info=True),
    "trsm right T": lambda spd, tri, b, v: linalg.trsm(tri, b.swapaxes(1, 2), side="right",
                                                       trans="T", return_info=True),
    "trmm": lambda spd, tri, b, v: linalg.trmm(tri, b, alpha=2.0),
    "trtri upper": lambda spd, tri, b, v: linalg.trtri(tri.swapaxes(1, 2), lower=False,
                                                       return_info=True),
    "lauum": lambda spd, tri, b, v: linalg.lauum(tri),
    "trsv": lambda spd, tri, b, v: linalg.trsv(tri, v, return_info=True),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("n", [3, 17])
def test_threaded_results_equal_the_one_thread_results(monkeypatch, name, n):
    inputs = _inputs(n)
    serial = CALLS[name](*inputs)
    force_threads(monkeypatch)
    threaded = CALLS[name](*inputs)
    for x, y in zip(serial if isinstance(serial, tuple) else (serial,),
                    threaded if isinstance(threaded, tuple) else (threaded,)):
        numpy.testing.assert_array_equal(x, y)


def test_threaded_potrf_reports_the_failing_matrix_and_factors_the_others(threads):
    spd, _, _, _ = _inputs(9)
    spd[21, 4, 4] = -1.0
    factor, info = linalg.potrf(spd, return_info=True)
    assert numpy.flatnonzero(info).tolist() == [21] and info[21] == 5
    good = numpy.arange(len(spd)) != 21
    l, a = factor[good], spd[good]
    assert h.scaled_residual(a - l @ l.swapaxes(1, 2), h.fro(a), 9, numpy.float64) < 30
