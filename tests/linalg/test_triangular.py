"""linalg._triangular: trsm, trmm, trtri, lauum, trsv and the SciPy-named solve_triangular.

References are explicit formulas evaluated with NumPy (op(A) X, triangles, products) and
LAPACK's scaled residuals (helpers.THRESHOLD); scipy.linalg only for the SciPy-tier parity checks.
"""
import itertools

import numpy
import pytest

import linalg
from . import helpers as h

SIDES, LOWERS, TRANS, UNITS = ("left", "right"), (True, False), ("N", "T", "C"), (False, True)
VARIANTS = list(itertools.product(SIDES, LOWERS, TRANS, UNITS))            # 24
ALPHAS = (1, 2.5, -0.75)


def _tri(gen, batch, n, dtype, lower, unit):
    return h.random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)


def _alpha(i, dtype):
    alpha = ALPHAS[i % len(ALPHAS)]
    if numpy.iscomplexobj(numpy.empty(0, dtype)) and i % 2:
        alpha = alpha * (0.6 - 0.8j)
    return alpha


TRSM_CASES = h.cycle_sizes([v + (dt,) for v, dt in itertools.product(VARIANTS, h.DTYPES)])


class TestTrsm:
    @pytest.mark.parametrize("side, lower, trans, unit, dtype, n, batch", TRSM_CASES)
    def test_residual(self, side, lower, trans, unit, dtype, n, batch):
        gen = h.rng(n * 7 + batch)
        i = TRSM_CASES.index((side, lower, trans, unit, dtype, n, batch))
        alpha, m = _alpha(i, dtype), 1 + (n * 3 + i) % 5
        a = _tri(gen, batch, n, dtype, lower, unit)
        garbage = h.with_garbage(a, lower)
        if unit:
            garbage[:, numpy.arange(n), numpy.arange(n)] = numpy.nan    # diagonal not read either
        b = h.random_matrix(gen, (batch, n, m) if side == "left" else (batch, m, n), dtype)
        a0, b0 = garbage.copy(), b.copy()
        x = linalg.trsm(garbage, b, side, lower, trans, unit, alpha)
        assert x.shape == b.shape and x.dtype == dtype
        numpy.testing.assert_array_equal(b, b0)
        numpy.testing.assert_array_equal(garbage, a0)
        opa = h.op_of(h.triangle_of(a, lower, unit), trans)
        if side == "left":
            assert h.solve_residual(opa, x, alpha * b, dtype) < h.THRESHOLD
        else:   # X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T
            assert h.solve_residual(numpy.swapaxes(opa, 1, 2), numpy.swapaxes(x, 1, 2),
                                    alpha * numpy.swapaxes(b, 1, 2), dtype) < h.THRESHOLD

    @pytest.mark.parametrize("dtype", h.DTYPES)
    @pytest.mark.parametrize("n", h.SIZES)
    def test_every_size(self, n, dtype):
        gen = h.rng(n)
        a = _tri(gen, 3, n, dtype, n % 2 == 0, False)
        b = h.random_matrix(gen, (3, n, n), dtype)
        x = linalg.trsm(a, b, lower=n % 2 == 0, trans="C")
        assert h.solve_residual(h.ct(a), x, b, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("n", h.SLOW_SIZES)
    def test_large(self, n):
        gen = h.rng(n)
        a = _tri(gen, 1, n, numpy.float64, True, False)
        b = h.random_matrix(gen, (1, n, 4), numpy.float64)
        assert h.solve_residual(a, linalg.trsm(a, b), b, numpy.float64) < h.THRESHOLD

    def test_ill_conditioned_substitution(self):
        # Random unit-free triangular matrices are badly conditioned; the residual stays small.
        gen = h.rng(3)
        a = numpy.tril(gen.standard_normal((20, 40, 40))) + 0.1 * numpy.eye(40)
        b = gen.standard_normal((20, 40, 3))
        x = linalg.trsm(a, b)
        assert h.solve_residual(a, x, b, numpy.float64) < h.THRESHOLD

    def test_complex_alpha_promotes_real_input(self):
        gen = h.rng(1)
        a = _tri(gen, 2, 4, numpy.float64, True, False)
        b = gen.standard_normal((2, 4, 2))
        x = linalg.trsm(a, b, alpha=2j)
        assert x.dtype == numpy.complex128
        numpy.testing.assert_allclose(a @ x, 2j * b, atol=1e-13)

    def test_alpha_zero_gives_zero(self):
        a = _tri(h.rng(), 2, 3, numpy.float64, True, False)
        assert not linalg.trsm(a, numpy.ones((2, 3, 2)), alpha=0).any()

    def test_integer_input_computes_in_float64(self):
        a = numpy.array([[[2, 0], [1, 1]]])
        x = linalg.trsm(a, numpy.array([[[2], [3]]]))
        assert x.dtype == numpy.float64
        numpy.testing.assert_allclose(x[0, :, 0], [1, 2])

    def test_overwrite_b_writes_in_place(self):
        gen = h.rng(2)
        a = _tri(gen, 3, 5, numpy.float64, True, False)
        b = gen.standard_normal((3, 5, 2))
        x = linalg.trsm(a, b, overwrite_b=True)
        assert numpy.shares_memory(x, b)
        assert h.solve_residual(a, x, h.triangle_of(a, True) @ x, numpy.float64) < h.THRESHOLD

    def test_overwrite_b_with_conversion_or_strides(self):
        gen = h.rng(13)
        a = _tri(gen, 3, 5, numpy.float64, True, False)
        b_int = numpy.arange(30).reshape(3, 5, 2)
        x = linalg.trsm(a, b_int, overwrite_b=True)          # int -> float64: a converted copy
        assert x.dtype == numpy.float64 and not numpy.shares_memory(x, b_int)
        numpy.testing.assert_allclose(a @ x, b_int, atol=1e-12)
        b_t = numpy.swapaxes(gen.standard_normal((3, 2, 5)), 1, 2)   # not C-contiguous
        b0 = b_t.copy()
        x = linalg.trsm(a, b_t, overwrite_b=True)
        numpy.testing.assert_allclose(a @ x, b0, atol=1e-12)
        a_strided = numpy.swapaxes(numpy.ascontiguousarray(numpy.swapaxes(a, 1, 2)), 1, 2)
        assert not a_strided.flags.c_contiguous                # same values, other memory order
        numpy.testing.assert_array_equal(linalg.trsm(a_strided, b0), linalg.trsm(a, b0))

    @pytest.mark.parametrize("unit", UNITS)
    def test_singular_in_middle(self, unit):
        gen = h.rng(4)
        a = _tri(gen, 5, 6, numpy.float64, False, False)
        b = gen.standard_normal((5, 6, 2))
        clean = linalg.trsm(a, b, lower=False)
        bad = a.copy()
        bad[2, 3, 3] = 0
        bad[4, 0, 0] = numpy.nan
        if unit:
            x, info = linalg.trsm(bad, b, lower=False, unit_diagonal=True, return_info=True)
            assert not info.any()
            return
        x, info = linalg.trsm(bad, b, lower=False, return_info=True)
        assert info.tolist() == [0, 0, 4, 0, 1] and info.dtype == numpy.int32
        numpy.testing.assert_allclose(x[[0, 1, 3]], clean[[0, 1, 3]], rtol=1e-14, atol=1e-14)
        pattern = r"trsm: .*batch items \[2, 4\].*info=\[4, 1\]"
        with pytest.raises(linalg.LinAlgError, match=pattern) as exc:
            linalg.trsm(bad, b, lower=False)
        assert exc.value.info.tolist() == [0, 0, 4, 0, 1]
        numpy.testing.assert_allclose(exc.value.result[[0, 1, 3]], clean[[0, 1, 3]], rtol=1e-14)

    def test_nan_rhs_propagates_without_info(self):
        a = _tri(h.rng(), 2, 3, numpy.float64, True, False)
        b = numpy.ones((2, 3, 1))
        b[1, 0, 0] = numpy.nan
        x, info = linalg.trsm(a, b, return_info=True)
        assert not info.any() and numpy.isnan(x[1]).all() and numpy.isfinite(x[0]).all()


class TestTrmm:
    CASES = h.cycle_sizes([v + (dt,) for v, dt in itertools.product(VARIANTS, h.DTYPES)][::2]
                          + [v + (dt,) for v, dt in itertools.product(VARIANTS, h.DTYPES)][1::2])

    @pytest.mark.parametrize("side, lower, trans, unit, dtype, n, batch", CASES)
    def test_against_formula(self, side, lower, trans, unit, dtype, n, batch):
        gen = h.rng(n + 11 * batch)
        i = self.CASES.index((side, lower, trans, unit, dtype, n, batch))
        alpha, m = _alpha(i, dtype), 1 + i % 4
        a = h.random_matrix(gen, (batch, n, n), dtype)
        b = h.random_matrix(gen, (batch, n, m) if side == "left" else (batch, m, n), dtype)
        garbage = h.with_garbage(a, lower)
        if unit:
            garbage[:, numpy.arange(n), numpy.arange(n)] = numpy.nan
        b0 = b.copy()
        out = linalg.trmm(garbage, b, side, lower, trans, unit, alpha)
        numpy.testing.assert_array_equal(b, b0)
        opa = h.op_of(h.triangle_of(a, lower, unit), trans)
        ref = alpha * (opa @ b if side == "left" else b @ opa)
        assert out.shape == b.shape and out.dtype == dtype
        scale = h.fro(opa) * h.fro(b) * abs(alpha)
        assert h.scaled_residual(out - ref, scale, n, dtype) < h.THRESHOLD


class TestTrtri:
    CASES = h.cycle_sizes(list(itertools.product(LOWERS, UNITS, h.DTYPES)) * 2)

    @pytest.mark.parametrize("lower, unit, dtype, n, batch", CASES)
    def test_residual(self, lower, unit, dtype, n, batch):
        gen = h.rng(n + batch)
        a = _tri(gen, batch, n, dtype, lower, unit)
        garbage = h.with_garbage(a, lower)
        if unit:
            garbage[:, numpy.arange(n), numpy.arange(n)] = numpy.nan
        inv = linalg.trtri(garbage, lower, unit)
        assert inv.shape == a.shape and inv.dtype == dtype
        other = numpy.triu(inv, 1) if lower else numpy.tril(inv, -1)
        assert not other.any()
        if unit and n:
            numpy.testing.assert_array_equal(numpy.diagonal(inv, axis1=1, axis2=2), 1)
        assert h.inverse_residual(h.triangle_of(a, lower, unit), inv, dtype) < h.THRESHOLD

    @pytest.mark.parametrize("n", h.SLOW_SIZES)
    def test_large(self, n):
        a = _tri(h.rng(n), 1, n, numpy.complex128, False, False)
        assert h.inverse_residual(a, linalg.trtri(a, lower=False), numpy.complex128) < h.THRESHOLD

    def test_singular_in_middle(self):
        a = _tri(h.rng(5), 4, 9, numpy.float32, True, False)
        clean = linalg.trtri(a)
        bad = a.copy()
        bad[1, 8, 8] = 0
        inv, info = linalg.trtri(bad, return_info=True)
        assert info.tolist() == [0, 9, 0, 0]
        numpy.testing.assert_allclose(inv[[0, 2, 3]], clean[[0, 2, 3]], rtol=1e-6)
        with pytest.raises(linalg.LinAlgError, match=r"trtri: .*\[1\].*info=\[9\]"):
            linalg.trtri(bad)

    def test_overwrite_a(self):
        a = _tri(h.rng(6), 2, 4, numpy.float64, True, False)
        a0 = a.copy()
        inv = linalg.trtri(a, overwrite_a=True)
        assert h.inverse_residual(a0, inv, numpy.float64) < h.THRESHOLD


class TestLauum:
    CASES = h.cycle_sizes(list(itertools.product(LOWERS, h.DTYPES)) * 3)

    @pytest.mark.parametrize("lower, dtype, n, batch", CASES)
    def test_against_formula(self, lower, dtype, n, batch):
        gen = h.rng(n + 3 * batch)
        a = h.random_matrix(gen, (batch, n, n), dtype)
        a0 = a.copy()
        out = linalg.lauum(h.with_garbage(a, lower), lower)
        t = h.triangle_of(a, lower)
        ref = h.ct(t) @ t if lower else t @ h.ct(t)
        assert out.shape == a.shape and out.dtype == dtype
        numpy.testing.assert_array_equal(out, h.ct(out))       # exactly Hermitian
        assert h.scaled_residual(out - ref, h.fro(t) ** 2, n, dtype) < h.THRESHOLD
        numpy.testing.assert_array_equal(a, a0)


class TestTrsv:
    CASES = h.cycle_sizes(list(itertools.product(LOWERS, TRANS, UNITS, h.DTYPES)))

    @pytest.mark.parametrize("lower, trans, unit, dtype, n, batch", CASES)
    def test_residual(self, lower, trans, unit, dtype, n, batch):
        gen = h.rng(n * 5 + batch)
        a = _tri(gen, batch, n, dtype, lower, unit)
        x = h.random_matrix(gen, (batch, n), dtype)
        x0 = x.copy()
        y = linalg.trsv(h.with_garbage(a, lower), x, lower, trans, unit)
        numpy.testing.assert_array_equal(x, x0)
        assert y.shape == x.shape and y.dtype == dtype
        opa = h.op_of(h.triangle_of(a, lower, unit), trans)
        assert h.solve_residual(opa, y[:, :, None], x[:, :, None], dtype) < h.THRESHOLD

    def test_singular_and_overwrite(self):
        gen = h.rng(8)
        a = _tri(gen, 3, 5, numpy.complex64, True, False)
        a[1, 2, 2] = numpy.inf
        x = h.random_matrix(gen, (3, 5), numpy.complex64)
        y, info = linalg.trsv(a, x, return_info=True, overwrite_x=True)
        assert info.tolist() == [0, 3, 0] and numpy.shares_memory(x, y)
        with pytest.raises(linalg.LinAlgError, match=r"trsv: .*\[1\]"):
            linalg.trsv(a, x)


class TestSolveTriangular:
    @pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
    @pytest.mark.parametrize("lower", LOWERS)
    @pytest.mark.parametrize("dtype", h.DTYPES)
    def test_matches_scipy_single_matrix(self, trans, lower, dtype):
        sla = pytest.importorskip("scipy.linalg")
        gen = h.rng(9)
        a = _tri(gen, 1, 6, dtype, lower, False)[0]
        b = h.random_matrix(gen, (6, 2), dtype)
        x = linalg.solve_triangular(a, b, trans=trans, lower=lower)
        ref = sla.solve_triangular(a, b, trans=trans, lower=lower)
        tol = 1e-4 if dtype in (numpy.float32, numpy.complex64) else 1e-11
        numpy.testing.assert_allclose(x, ref, rtol=tol)
        assert x.dtype == ref.dtype

    def test_defaults_upper_and_vector(self):
        sla = pytest.importorskip("scipy.linalg")
        gen = h.rng(10)
        a = h.random_matrix(gen, (5, 5), numpy.float64) + 5 * numpy.eye(5)
        b = gen.standard_normal(5)
        x = linalg.solve_triangular(a, b, unit_diagonal=True)
        numpy.testing.assert_allclose(x, sla.solve_triangular(a, b, unit_diagonal=True), rtol=1e-12)
        assert x.shape == (5,)

    def test_batches_and_broadcasting(self):
        gen = h.rng(11)
        a = _tri(gen, 6, 4, numpy.float64, False, False).reshape(2, 3, 4, 4)
        b = gen.standard_normal((2, 3, 4, 2))
        x = linalg.solve_triangular(a, b)
        assert x.shape == (2, 3, 4, 2)
        residual = h.solve_residual(a.reshape(6, 4, 4), x.reshape(6, 4, 2), b.reshape(6, 4, 2), numpy.float64)
        assert residual < h.THRESHOLD
        v = gen.standard_normal(4)                       # one vector for every matrix
        y = linalg.solve_triangular(a, v)
        assert y.shape == (2, 3, 4)
        numpy.testing.assert_allclose(numpy.einsum("...ij,...j->...i", a, y),
                                      numpy.broadcast_to(v, (2, 3, 4)), atol=1e-12)
        c = gen.standard_normal((4, 1))                  # one matrix right-hand side, broadcast
        assert linalg.solve_triangular(a, c).shape == (2, 3, 4, 1)

    def test_overwrite_b_and_inputs_kept(self):
        gen = h.rng(12)
        a = _tri(gen, 3, 4, numpy.float64, False, False)
        b = gen.standard_normal((3, 4, 2))
        b0 = b.copy()
        linalg.solve_triangular(a, b)
        numpy.testing.assert_array_equal(b, b0)
        x = linalg.solve_triangular(a, b, overwrite_b=True)
        assert h.solve_residual(a, x, b0, numpy.float64) < h.THRESHOLD
        linalg.solve_triangular(a, gen.standard_normal((4, 2)), overwrite_b=True)  # broadcast: no write

    def test_errors(self):
        a = numpy.triu(numpy.ones((2, 3, 3)))
        with pytest.raises(ValueError, match="a: expected square"):
            linalg.solve_triangular(numpy.ones((3, 4)), numpy.ones(3))
        with pytest.raises(ValueError, match="b: incompatible dimensions"):
            linalg.solve_triangular(a, numpy.ones((2, 4, 1)))
        with pytest.raises(ValueError, match="b: batch shape"):
            linalg.solve_triangular(a, numpy.ones((5, 3, 1)))
        with pytest.raises(ValueError, match="a: expected a \\(\\.\\.\\., M, M\\)"):
            linalg.solve_triangular(numpy.ones(3), numpy.ones(3))
        with pytest.raises(ValueError, match="infs or NaNs"):
            linalg.solve_triangular(a, numpy.full((2, 3), numpy.nan))
        with pytest.raises(ValueError, match="trans"):
            linalg.solve_triangular(a, numpy.ones(3), trans=3)
        with pytest.raises(linalg.LinAlgError, match=r"\[1\]"):
            s = a.copy()
            s[1, 2, 2] = 0
            linalg.solve_triangular(s, numpy.ones(3))
        x = linalg.solve_triangular([[2.0, 1.0], [0.0, 1.0]], [3.0, 1.0])   # array_like
        numpy.testing.assert_allclose(x, [1.0, 1.0])


class TestArgumentErrors:
    A = numpy.eye(3)[None].repeat(2, 0)
    B = numpy.ones((2, 3, 2))

    @pytest.mark.parametrize("call, exc, pattern", [
        (lambda A, B: linalg.trsm(A[0], B), ValueError,
         r"^a: expected a \(batch, rows, cols\).*a\[None\]"),
        (lambda A, B: linalg.trsm(A, B[0]), ValueError, r"^b: expected"),
        (lambda A, B: linalg.trsm(A, B[:, :2]), ValueError, r"^b: expected 3 rows"),
        (lambda A, B: linalg.trsm(A, B, side="right"), ValueError, r"^b: expected 3 columns"),
        (lambda A, B: linalg.trsm(A, B[:1]), ValueError, r"batch counts differ"),
        (lambda A, B: linalg.trsm(A[:, :, :2], B), ValueError, r"^a: expected square"),
        (lambda A, B: linalg.trsm(A, B, side="up"), ValueError, r"^side: expected"),
        (lambda A, B: linalg.trsm(A, B, trans="X"), ValueError, r"^trans: expected"),
        (lambda A, B: linalg.trsm(A, B, lower="U"), TypeError, r"^lower: expected True or False"),
        (lambda A, B: linalg.trsm(A, B, unit_diagonal=1), TypeError, r"^unit_diagonal"),
        (lambda A, B: linalg.trsm(A, B, alpha=numpy.ones(2)), TypeError, r"^alpha: expected a number"),
        (lambda A, B: linalg.trsm(A.astype(numpy.float16), B), TypeError,
         r"^a: unsupported dtype float16"),
        (lambda A, B: linalg.trsm(A, B.astype(object)), TypeError, r"^b: unsupported dtype object"),
        (lambda A, B: linalg.trsm(list(A), B), TypeError, r"^b: batch form"),
        (lambda A, B: linalg.trsm("a", B), TypeError, r"^a: expected a NumPy/CuPy array"),
        (lambda A, B: linalg.trmm(A, B, trans=5), ValueError, r"^trans: expected"),
        (lambda A, B: linalg.trmm(A, B[:, :, :1], side="R"), ValueError, r"^b: expected 3 columns"),
        (lambda A, B: linalg.trtri(A[:, :2]), ValueError, r"^a: expected square"),
        (lambda A, B: linalg.trtri(A, lower="L"), TypeError, r"^lower"),
        (lambda A, B: linalg.trtri(A.astype(numpy.float16)), TypeError, r"^a: unsupported"),
        (lambda A, B: linalg.lauum(A[0]), ValueError, r"^a: expected"),
        (lambda A, B: linalg.lauum(A, lower=None), TypeError, r"^lower"),
        (lambda A, B: linalg.trsv(A, B), ValueError, r"^x: expected a \(batch, n\)"),
        (lambda A, B: linalg.trsv(A, B[:, :2, 0]), ValueError, r"^x: expected 3 rows"),
        (lambda A, B: linalg.trsv(A, B[:, :, 0], trans="H"), ValueError, r"^trans"),
    ])
    def test_raises_naming_argument(self, call, exc, pattern):
        with pytest.raises(exc, match=pattern):
            call(self.A, self.B)


class TestEmpty:
    @pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
    def test_zero_batch_and_zero_size(self, dtype):
        for batch, n in ((0, 3), (2, 0)):
            a = numpy.zeros((batch, n, n), dtype)
            b = numpy.zeros((batch, n, 2), dtype)
            x, info = linalg.trsm(a, b, return_info=True)
            assert x.shape == b.shape and x.dtype == dtype and info.shape == (batch,)
            assert linalg.trmm(a, b).shape == b.shape
            assert linalg.trtri(a).shape == a.shape
            assert linalg.lauum(a).dtype == dtype
            assert linalg.trsv(a, b[:, :, 0]).shape == (batch, n)
            assert linalg.solve_triangular(a, b).shape == b.shape
        assert linalg.trsm(numpy.ones((2, 3, 3)), numpy.ones((2, 3, 0))).shape == (2, 3, 0)
