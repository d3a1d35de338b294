"""The CPU one-vector POTRS / POSV (linalg/_cpu/cholesky.py _solve_vector): both substitutions of
a chunk of the batch back to back, by rows (triangular.dot_lower_solve and
dot_lower_transposed_solve). Chunks are made tiny here so that small batches cross their
boundaries; checks are LAPACK's scaled residuals (helpers.THRESHOLD)."""
import numpy
import pytest

import linalg
from linalg._cpu import triangular as cpu_tri

from . import helpers as h

SIZES = (1, 2, 7, 16, 17, 33, 100)
BATCHES = (0, 1, 3, 13)          # 13: chunks of 5, 5 and 3 under small_chunks
REAL = (numpy.float32, numpy.float64)


@pytest.fixture
def small_chunks(monkeypatch):
    """Five matrices a chunk, one thread or several alike."""
    monkeypatch.setattr(cpu_tri, "VECTOR_CHUNK_STEPS", (5, 5))
    monkeypatch.setattr(cpu_tri, "VECTOR_CHUNK_THREADED", 5)


def _factor(n, batch, dtype, lower, seed):
    """(A, its Cholesky factor with NaN in the other triangle)."""
    a = h.random_spd(h.rng(seed), batch, n, dtype)
    f = numpy.linalg.cholesky(a) if n and batch else a.copy()
    return a, h.with_garbage(f if lower else h.ct(f), lower)


@pytest.mark.parametrize("dtype", h.DTYPES)
@pytest.mark.parametrize("lower", (True, False))
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("batch", BATCHES)
def test_potrs_vector_residual(small_chunks, batch, n, lower, dtype):
    a, f = _factor(n, batch, dtype, lower, seed=n + 7 * batch)
    b = h.random_matrix(h.rng(n), (batch, n), dtype)
    b0, f0 = b.copy(), f.copy()
    x = linalg.potrs(f, b, lower)
    column = linalg.potrs(f, b[:, :, None], lower)
    numpy.testing.assert_array_equal(b, b0)
    numpy.testing.assert_array_equal(f, f0)
    assert x.shape == b.shape and x.dtype == dtype
    numpy.testing.assert_array_equal(column[:, :, 0], x)
    assert h.solve_residual(a, x[:, :, None], b[:, :, None], dtype) < h.THRESHOLD


@pytest.mark.parametrize("dtype", h.DTYPES)
@pytest.mark.parametrize("lower", (True, False))
@pytest.mark.parametrize("n", (2, 17, 33))
def test_posv_vector_residual(small_chunks, n, lower, dtype):
    a = h.random_spd(h.rng(3 * n), 13, n, dtype)
    b = h.random_matrix(h.rng(n), (13, n, 1), dtype)
    x = linalg.posv(h.with_garbage(a, lower), b, lower)
    assert h.solve_residual(a, x, b, dtype) < h.THRESHOLD


@pytest.mark.parametrize("lower", (True, False))
@pytest.mark.parametrize("value", (0.0, numpy.nan, numpy.inf))
def test_bad_factor_diagonal_reported_neighbours_solved(small_chunks, lower, value):
    """Bad diagonals at both ends and inside chunks: info by batch index, the others solved as
    if alone (bit for bit: every matrix goes through the same calls)."""
    a, f = _factor(9, 13, numpy.float64, lower, seed=5)
    b = h.random_matrix(h.rng(1), (13, 9), numpy.float64)
    clean = linalg.potrs(f, b, lower)
    bad = {0: 3, 6: 9, 12: 1}                   # batch index -> 1-based column
    for k, j in bad.items():
        f[k, j - 1, j - 1] = value
    x, info = linalg.potrs(f, b, lower, return_info=True)
    assert info.tolist() == [bad.get(k, 0) for k in range(13)]
    good = [k for k in range(13) if k not in bad]
    numpy.testing.assert_array_equal(x[good], clean[good])
    with pytest.raises(linalg.LinAlgError, match=r"potrs: .*\[0, 6, 12\]"):
        linalg.potrs(f, b, lower)


@pytest.mark.parametrize("dtype", (numpy.float32, numpy.complex128))
def test_posv_vector_not_spd_reported_neighbours_solved(small_chunks, dtype):
    a = h.random_spd(h.rng(2), 13, 6, dtype)
    b = h.random_matrix(h.rng(3), (13, 6), dtype)
    clean = linalg.posv(a, b)
    a[7] = -numpy.eye(6)
    x, info = linalg.posv(a, b, return_info=True)
    assert info.tolist() == [0] * 7 + [1] + [0] * 5
    good = numpy.arange(13) != 7
    numpy.testing.assert_array_equal(x[good], clean[good])


def _triangular_case(n, dtype, strided):
    """(t, x): a lower triangular batch of 4 (a transposed view of a C-order upper one when
    ``strided``, NaN above the diagonal) and right-hand sides."""
    gen = h.rng(11 * n)
    t = h.random_triangular(gen, 4, n, dtype, lower=not strided)
    t = h.with_garbage(t, not strided)
    if strided:
        t = numpy.swapaxes(t, 1, 2)
    return t, h.random_matrix(gen, (4, n), dtype)


@pytest.mark.parametrize("dtype", REAL + (numpy.complex128,))
@pytest.mark.parametrize("n", (1, 2, 7, 17, 33))
@pytest.mark.parametrize("nb", (1, 3, 8, 16, 64))
@pytest.mark.parametrize("right_looking", (False, True))
@pytest.mark.parametrize("strided", (False, True))
@pytest.mark.parametrize("transposed", (False, True))
def test_dot_substitutions(transposed, strided, right_looking, nb, n, dtype):
    """Every block order and coupling of the two substitutions, whichever the plan picks."""
    t, x = _triangular_case(n, dtype, strided)
    solve = cpu_tri.dot_lower_transposed_solve if transposed else cpu_tri.dot_lower_solve
    y = x.copy()
    diag = numpy.diagonal(t, axis1=1, axis2=2).copy()
    solve(t, y, diag, numpy.empty(4, dtype), nb, right_looking)
    m = numpy.tril(numpy.nan_to_num(t, nan=0.0))
    if transposed:
        m = numpy.swapaxes(m, 1, 2)               # T^T, not conjugated
    assert h.solve_residual(m, y[:, :, None], x[:, :, None], dtype) < h.THRESHOLD
