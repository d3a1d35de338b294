"""linalg._decomp_cholesky: potrf, potrs, posv, potri, poti and the SciPy tier.

Inputs are Hermitian positive definite with eigenvalues in [1, 10] (helpers.random_spd); the
unreferenced triangle is filled with NaN so reading it would show. Checks are LAPACK's scaled
residuals against the input matrix; numpy.linalg / scipy.linalg only as independent references.
"""
import itertools

import numpy
import pytest

import linalg
from . import helpers as h

LOWERS = (True, False)
CASES = h.cycle_sizes(list(itertools.product(LOWERS, h.DTYPES)) * 3)


def _spd(n, batch, dtype, seed=0):
    return h.random_spd(h.rng(seed + 31 * n + batch), batch, n, dtype)


class TestPotrf:
    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    def test_residual(self, lower, dtype, n, batch):
        a = _spd(n, batch, dtype)
        garbage = h.with_garbage(a, lower)
        g0 = garbage.copy()
        f = linalg.potrf(garbage, lower)
        numpy.testing.assert_array_equal(garbage, g0)
        assert f.shape == a.shape and f.dtype == dtype
        other = numpy.triu(f, 1) if lower else numpy.tril(f, -1)
        assert not other.any()
        rebuilt = f @ h.ct(f) if lower else h.ct(f) @ f
        assert h.scaled_residual(a - rebuilt, h.fro(a), n, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("dtype", h.DTYPES)
    @pytest.mark.parametrize("n", h.SIZES)
    def test_every_size(self, n, dtype):
        a = _spd(n, 3, dtype)
        f = linalg.potrf(a)
        assert h.scaled_residual(a - f @ h.ct(f), h.fro(a), n, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("n", h.SLOW_SIZES)
    def test_large(self, n):
        a = _spd(n, 1, numpy.float64)
        f = linalg.potrf(a, lower=False)
        assert h.scaled_residual(a - h.ct(f) @ f, h.fro(a), n, numpy.float64) < h.THRESHOLD

    @pytest.mark.parametrize("lower", LOWERS)
    def test_not_spd_in_middle(self, lower):
        a = _spd(6, 7, numpy.float64)
        clean = linalg.potrf(a, lower)
        bad = a.copy()
        bad[3, 4, 4] = -50.0                          # leading minor of order 5 fails
        bad[5, 0, 0] = numpy.nan
        f, info = linalg.potrf(bad, lower, return_info=True)
        assert info.tolist() == [0, 0, 0, 5, 0, 1, 0] and info.dtype == numpy.int32
        good = [0, 1, 2, 4, 6]
        numpy.testing.assert_allclose(f[good], clean[good], rtol=1e-14, atol=1e-14)
        pattern = r"potrf: leading minor not positive definite for batch items \[3, 5\] \(info=\[5, 1\]\)"
        with pytest.raises(linalg.LinAlgError, match=pattern) as exc:
            linalg.potrf(bad, lower)
        assert isinstance(exc.value, numpy.linalg.LinAlgError)
        numpy.testing.assert_array_equal(exc.value.indices, [3, 5])
        numpy.testing.assert_allclose(exc.value.result[good], clean[good], rtol=1e-14, atol=1e-14)

    @pytest.mark.parametrize("lower", LOWERS)
    def test_non_finite_alone_is_reported(self, lower):
        """A NaN or Inf in the triangle read, with every other matrix of the batch fine (the
        stacked LAPACK call then raises nothing): reported by index, the neighbours untouched."""
        a = _spd(6, 5, numpy.float64)
        clean = linalg.potrf(a, lower)
        good = [0, 2, 3, 4]
        for place, value in (((2, 2), numpy.nan), (((4, 1) if lower else (1, 4)), numpy.nan),
                             ((5, 5), numpy.inf)):
            bad = a.copy()
            bad[1][place] = value
            f, info = linalg.potrf(bad, lower, return_info=True)
            assert numpy.flatnonzero(info).tolist() == [1], (place, value)
            numpy.testing.assert_array_equal(f[good], clean[good])
            for op in (linalg.posv, linalg.poti):
                args = (bad, numpy.ones((5, 6))) if op is linalg.posv else (bad,)
                assert numpy.flatnonzero(op(*args, lower, return_info=True)[1]).tolist() == [1]

    def test_many_failures_and_indefinite_info(self):
        gen = h.rng(1)
        a = _spd(5, 40, numpy.complex128)
        d = numpy.diag([1.0, 2.0, -1.0, 3.0, 4.0])      # indefinite: fails at order 3
        bad = gen.uniform(size=40) < 0.5
        a[bad] = d
        _, info = linalg.potrf(a, return_info=True)
        numpy.testing.assert_array_equal(info, numpy.where(bad, 3, 0))

    @pytest.mark.parametrize("lower", LOWERS)
    def test_indefinite_with_positive_diagonal(self, lower):
        # Positive diagonal, indefinite: only LAPACK itself finds these (bisection path).
        a = _spd(3, 37, numpy.float64)
        bad = [0, 5, 6, 36]
        a[bad] = [[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
        a[20] = [[4.0, 0.0, 3.0], [0.0, 1.0, 0.0], [3.0, 0.0, 2.0]]    # fails at order 3
        clean = linalg.potrf(_spd(3, 37, numpy.float64), lower)
        f, info = linalg.potrf(a, lower, return_info=True)
        expected = numpy.zeros(37, int)
        expected[bad], expected[20] = 2, 3
        numpy.testing.assert_array_equal(info, expected)
        good = numpy.flatnonzero(expected == 0)
        numpy.testing.assert_allclose(f[good], clean[good], rtol=1e-14, atol=1e-14)

    def test_inf_input(self):
        a = _spd(4, 3, numpy.float32)
        a[0, 3, 1] = numpy.inf
        _, info = linalg.potrf(a, return_info=True)
        assert info[0] > 0 and info[1:].tolist() == [0, 0]

    def test_overwrite_a(self):
        a = _spd(5, 2, numpy.float64)
        a0 = a.copy()
        f = linalg.potrf(a, overwrite_a=True)
        assert h.scaled_residual(a0 - f @ h.ct(f), h.fro(a0), 5, numpy.float64) < h.THRESHOLD


def _rhs(dtype, batch, n, i, vector):
    shape = (batch, n) if vector else (batch, n, 1 + i % 4)
    return h.random_matrix(h.rng(i + n), shape, dtype)


class TestPotrs:
    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    @pytest.mark.parametrize("vector", [False, True])
    def test_residual(self, lower, dtype, n, batch, vector):
        a = _spd(n, batch, dtype)
        f = numpy.linalg.cholesky(a) if n else a
        if not lower:
            f = h.ct(f)
        b = _rhs(dtype, batch, n, CASES.index((lower, dtype, n, batch)), vector)
        b0 = b.copy()
        x = linalg.potrs(h.with_garbage(f, lower), b, lower)
        numpy.testing.assert_array_equal(b, b0)
        assert x.shape == b.shape and x.dtype == dtype
        if vector:
            x, b = x[:, :, None], b[:, :, None]
        assert h.solve_residual(a, x, b, dtype) < h.THRESHOLD

    def test_bad_factor_in_middle(self):
        f = numpy.linalg.cholesky(_spd(4, 3, numpy.float64))
        b = numpy.ones((3, 4))
        clean = linalg.potrs(f, b)
        f[1, 2, 2] = 0
        x, info = linalg.potrs(f, b, return_info=True)
        assert info.tolist() == [0, 3, 0]
        numpy.testing.assert_allclose(x[[0, 2]], clean[[0, 2]], rtol=1e-14)
        with pytest.raises(linalg.LinAlgError, match=r"potrs: .*\[1\]"):
            linalg.potrs(f, b)

    def test_overwrite_b(self):
        a = _spd(6, 2, numpy.float64)
        b = numpy.ones((2, 6, 3))
        x = linalg.potrs(numpy.linalg.cholesky(a), b, overwrite_b=True)
        assert numpy.shares_memory(x, b)
        assert h.solve_residual(a, x, numpy.ones((2, 6, 3)), numpy.float64) < h.THRESHOLD


class TestPosv:
    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    @pytest.mark.parametrize("vector", [False, True])
    def test_residual(self, lower, dtype, n, batch, vector):
        a = _spd(n, batch, dtype, seed=1)
        garbage = h.with_garbage(a, lower)
        g0 = garbage.copy()
        b = _rhs(dtype, batch, n, CASES.index((lower, dtype, n, batch)), vector)
        x = linalg.posv(garbage, b, lower)
        numpy.testing.assert_array_equal(garbage, g0)
        assert x.shape == b.shape and x.dtype == dtype
        if vector:
            x, b = x[:, :, None], b[:, :, None]
        assert h.solve_residual(a, x, b, dtype) < h.THRESHOLD

    def test_not_spd_in_middle(self):
        a = _spd(5, 4, numpy.complex64)
        b = h.random_matrix(h.rng(), (4, 5, 2), numpy.complex64)
        clean = linalg.posv(a, b)
        a[2] = -numpy.eye(5)
        x, info = linalg.posv(a, b, return_info=True)
        assert info.tolist() == [0, 0, 1, 0]
        numpy.testing.assert_allclose(x[[0, 1, 3]], clean[[0, 1, 3]], rtol=1e-5)
        with pytest.raises(linalg.LinAlgError, match=r"posv: .*\[2\]"):
            linalg.posv(a, b)


    @pytest.mark.parametrize("lower, dtype", [(True, numpy.float64), (False, numpy.complex128)])
    def test_not_spd_across_chunks(self, lower, dtype):
        """POSV with one vector a matrix and POTI factor chunk by chunk: failures in several
        chunks of the batch (and a NaN) are reported by index, the other matrices' results
        unchanged (POSV) or right (POTI)."""
        batch, bad = 20000, [3, 9000, 19999]
        a = _spd(4, batch, dtype, seed=2)
        b = h.random_matrix(h.rng(7), (batch, 4), dtype)
        clean = linalg.posv(a, b, lower)
        a[bad[:2]] = -numpy.eye(4)
        a[bad[2], 1, 1] = numpy.nan
        x, info = linalg.posv(a, b, lower, return_info=True)
        assert numpy.flatnonzero(info).tolist() == bad and info[bad].tolist() == [1, 1, 2]
        keep = numpy.setdiff1d(numpy.arange(batch), bad)
        numpy.testing.assert_allclose(x[keep], clean[keep], rtol=1e-12)
        with pytest.raises(linalg.LinAlgError, match=r"posv: .*\[3, 9000, 19999\]"):
            linalg.posv(a, b, lower)
        inv, info = linalg.poti(a, lower, return_info=True)        # factored chunk by chunk too
        assert numpy.flatnonzero(info).tolist() == bad and info[bad].tolist() == [1, 1, 2]
        eye = numpy.eye(4)
        assert numpy.abs(inv[keep[::97]] @ a[keep[::97]] - eye).max() < 1e-10


class TestPotriPoti:
    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    def test_potri_residual(self, lower, dtype, n, batch):
        a = _spd(n, batch, dtype, seed=2)
        f = numpy.linalg.cholesky(a) if n else a
        if not lower:
            f = h.ct(f)
        inv = linalg.potri(h.with_garbage(f, lower), lower)
        assert inv.shape == a.shape and inv.dtype == dtype
        numpy.testing.assert_array_equal(inv, h.ct(inv))
        assert h.inverse_residual(a, inv, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    def test_poti_residual(self, lower, dtype, n, batch):
        a = _spd(n, batch, dtype, seed=3)
        garbage = h.with_garbage(a, lower)
        inv = linalg.poti(garbage, lower)
        assert inv.shape == a.shape and inv.dtype == dtype
        numpy.testing.assert_array_equal(inv, h.ct(inv))
        assert h.inverse_residual(a, inv, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("n", h.SLOW_SIZES)
    def test_poti_large(self, n):
        a = _spd(n, 1, numpy.float32)
        assert h.inverse_residual(a, linalg.poti(a), numpy.float32) < h.THRESHOLD

    def test_poti_not_spd_in_middle(self):
        a = _spd(7, 5, numpy.float64)
        clean = linalg.poti(a)
        a[1, 6, 6] = 0.0                            # the order-7 minor is no longer definite?
        a[1, 6, :6] = 10.0
        a[1, :6, 6] = 10.0
        inv, info = linalg.poti(a, return_info=True)
        assert info.tolist() == [0, 7, 0, 0, 0]
        numpy.testing.assert_allclose(inv[[0, 2, 3, 4]], clean[[0, 2, 3, 4]], rtol=1e-13)
        with pytest.raises(linalg.LinAlgError, match=r"poti: leading minor .*\[1\].*info=\[7\]"):
            linalg.poti(a)

    def test_potri_singular_factor(self):
        f = numpy.linalg.cholesky(_spd(3, 2, numpy.float64))
        f[0, 1, 1] = numpy.nan
        _, info = linalg.potri(f, return_info=True)
        assert info.tolist() == [2, 0]


class TestScipyTier:
    @pytest.mark.parametrize("lower", LOWERS)
    @pytest.mark.parametrize("dtype", h.DTYPES)
    def test_cholesky_matches_scipy(self, lower, dtype):
        sla = pytest.importorskip("scipy.linalg")
        a = _spd(5, 1, dtype)[0]
        tol = 1e-4 if dtype in (numpy.float32, numpy.complex64) else 1e-12
        numpy.testing.assert_allclose(linalg.cholesky(a, lower=lower), sla.cholesky(a, lower=lower),
                                      rtol=tol, atol=tol)
        c, low = linalg.cho_factor(a, lower=lower)
        assert low is lower
        b = h.random_matrix(h.rng(), (5, 2), dtype)
        ref = sla.cho_solve(sla.cho_factor(a, lower=lower), b)
        numpy.testing.assert_allclose(linalg.cho_solve((c, low), b), ref, rtol=tol, atol=tol)
        numpy.testing.assert_allclose(linalg.inv(a, lower=lower),
                                      sla.inv(a, assume_a="pos", lower=lower), rtol=tol, atol=tol)

    def test_defaults_read_upper(self):
        a = h.with_garbage(_spd(4, 1, numpy.float64)[0], lower=False)
        u = linalg.cholesky(a, check_finite=False)
        numpy.testing.assert_allclose(u, numpy.triu(u))
        assert numpy.isfinite(linalg.inv(a, check_finite=False)).all()

    def test_batches_and_broadcasting(self):
        a = _spd(4, 6, numpy.float64).reshape(2, 3, 4, 4)
        u = linalg.cholesky(a)
        assert u.shape == (2, 3, 4, 4)
        numpy.testing.assert_allclose(h.ct(u) @ u, a, atol=1e-12)
        cf = linalg.cho_factor(a, lower=True)
        b = h.rng().standard_normal((2, 3, 4, 2))
        x = linalg.cho_solve(cf, b)
        numpy.testing.assert_allclose(a @ x, b, atol=1e-12)
        v = h.rng().standard_normal(4)               # one vector for all matrices
        y = linalg.cho_solve(cf, v)
        assert y.shape == (2, 3, 4)
        numpy.testing.assert_allclose(numpy.einsum("...ij,...j->...i", a, y),
                                      numpy.broadcast_to(v, (2, 3, 4)), atol=1e-12)
        ainv = linalg.inv(a)
        assert ainv.shape == a.shape
        numpy.testing.assert_allclose(a @ ainv, numpy.broadcast_to(numpy.eye(4), a.shape), atol=1e-12)

    def test_errors(self):
        a = _spd(3, 2, numpy.float64)
        with pytest.raises(ValueError, match="assume_a"):
            linalg.inv(a, assume_a="gen")
        with pytest.raises(ValueError, match="a: expected square"):
            linalg.cholesky(numpy.ones((3, 4)))
        with pytest.raises(ValueError, match="a: expected a"):
            linalg.cholesky(numpy.ones(3))
        with pytest.raises(ValueError, match="infs or NaNs"):
            bad = a.copy()
            bad[0, 0, 0] = numpy.nan
            linalg.cholesky(bad)
        with pytest.raises(ValueError, match="b: incompatible dimensions"):
            linalg.cho_solve((a, False), numpy.ones(4))
        with pytest.raises(TypeError, match="c_and_lower"):
            linalg.cho_solve(a, numpy.ones(3))
        with pytest.raises(TypeError, match="lower"):
            linalg.cholesky(a, lower="U")
        with pytest.raises(linalg.LinAlgError, match=r"\[1\]"):
            linalg.cholesky(numpy.stack([numpy.eye(3), -numpy.eye(3)]))
        with pytest.raises(linalg.LinAlgError):
            linalg.inv(-numpy.eye(2))
        x = linalg.cholesky([[4.0, 2.0], [2.0, 5.0]], lower=True)   # array_like
        numpy.testing.assert_allclose(x, [[2, 0], [1, 2]])

    def test_check_finite_false_and_empty(self):
        assert linalg.cholesky(numpy.eye(2), check_finite=False).shape == (2, 2)
        assert linalg.cholesky(numpy.zeros((0, 3, 3))).shape == (0, 3, 3)
        assert linalg.inv(numpy.zeros((2, 0, 0))).shape == (2, 0, 0)
        assert linalg.cho_solve((numpy.zeros((0, 2, 2)), True), numpy.zeros(2)).shape == (0, 2)


class TestArgumentErrors:
    A = numpy.eye(3)[None].repeat(2, 0)

    @pytest.mark.parametrize("call, exc, pattern", [
        (lambda A: linalg.potrf(A[0]), ValueError, r"^a: expected a \(batch, rows, cols\)"),
        (lambda A: linalg.potrf(A[:, :2]), ValueError, r"^a: expected square"),
        (lambda A: linalg.potrf(A, lower="U"), TypeError, r"^lower: expected True or False"),
        (lambda A: linalg.potrf(A.astype(numpy.float16)), TypeError, r"^a: unsupported dtype float16"),
        (lambda A: linalg.potrf(A.astype(object)), TypeError, r"^a: unsupported dtype object"),
        (lambda A: linalg.potrs(A, numpy.ones((2, 4))), ValueError, r"^b: expected 3 rows"),
        (lambda A: linalg.potrs(A, numpy.ones((2, 4, 1))), ValueError, r"^b: expected 3 rows"),
        (lambda A: linalg.potrs(A, numpy.ones((3, 3))), ValueError, r"batch counts differ"),
        (lambda A: linalg.potrs(A, numpy.ones(3)), ValueError, r"^b: expected"),
        (lambda A: linalg.potrs(A[:, :, :2], numpy.ones((2, 3))), ValueError, r"^l: expected square"),
        (lambda A: linalg.potrs(A, numpy.ones((2, 3), numpy.float16)), TypeError, r"^b: unsupported"),
        (lambda A: linalg.posv(A, numpy.ones((2, 3, 1, 1))), ValueError, r"^b: expected"),
        (lambda A: linalg.posv(A, numpy.ones((2, 3)), lower=0), TypeError, r"^lower"),
        (lambda A: linalg.potri(A[0]), ValueError, r"^l: expected"),
        (lambda A: linalg.poti(A[:, :1]), ValueError, r"^a: expected square"),
        (lambda A: linalg.poti("a"), TypeError, r"^a: expected a NumPy/CuPy array"),
    ])
    def test_raises_naming_argument(self, call, exc, pattern):
        with pytest.raises(exc, match=pattern):
            call(self.A)


class TestEmpty:
    @pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
    def test_zero_batch_and_zero_size(self, dtype):
        for batch, n in ((0, 4), (3, 0)):
            a = numpy.zeros((batch, n, n), dtype)
            f, info = linalg.potrf(a, return_info=True)
            assert f.shape == a.shape and f.dtype == dtype and info.shape == (batch,) and not info.any()
            assert linalg.potrs(a, numpy.zeros((batch, n), dtype)).shape == (batch, n)
            assert linalg.posv(a, numpy.zeros((batch, n, 2), dtype)).shape == (batch, n, 2)
            assert linalg.potri(a).shape == a.shape
            assert linalg.poti(a).dtype == dtype
