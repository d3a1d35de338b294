"""linalg.gemm, gemv, syrk (linalg/_blas.py) against a float64/complex128 NumPy reference.

Scaled residuals as in the reference BLAS tests: ||C - C_ref|| / (k (|alpha| ||A|| ||B|| +
|beta| ||C||) eps) < 30, for every transpose word, alpha/beta, dtype and batch form.
"""
import numpy
import pytest

import linalg
from .helpers import DTYPES, SIZES, THRESHOLD, eps, fro, random_matrix, rng, to_numpy

HYDRO = ((18, 4), (32, 9), (81, 8), (192, 27))
SCALARS = ((1, 0), (-0.5, 0), (1, 1), (2.0, -1.5))


def wide(x):
    """The float64/complex128 copy the reference is computed in."""
    x = numpy.asarray(x)
    return x.astype(numpy.complex128 if numpy.iscomplexobj(x) else numpy.float64)


def ref_op(x, trans):
    x = wide(x)
    if trans == "N":
        return x
    xt = numpy.swapaxes(x, -1, -2)
    return numpy.conj(xt) if trans == "C" else xt


def gemm_residual(out, a, b, c, transa, transb, alpha, beta, dtype):
    opa, opb = ref_op(a, transa), ref_op(b, transb)
    expected = alpha * (opa @ opb)
    scale = abs(alpha) * fro(opa) * fro(opb)
    if c is not None and beta != 0:
        expected = expected + beta * wide(c)
        scale = scale + abs(beta) * fro(c)
    k = opa.shape[-1]
    r = fro(wide(out) - expected) / (max(k, 1) * numpy.maximum(scale, numpy.finfo(float).tiny) * eps(dtype))
    return float(r.max(initial=0.0))


def sym_from(c, lower):
    t = numpy.tril(c) if lower else numpy.triu(c)
    d = numpy.tril(numpy.triu(c))
    return t + numpy.swapaxes(t, -1, -2) - d


def gemm_shapes():
    """(m, n, k): squares of awkward sizes, rectangles, and the hydro tall-skinny shapes."""
    shapes = [(s, s, s) for s in SIZES]
    shapes += [(3, 5, 2), (17, 1, 33), (1, 16, 7), (100, 3, 31), (2, 33, 1)]
    for r, c in HYDRO:
        shapes += [(r, c, c), (r, r, c), (c, c, r)]
    return shapes


class TestGemm:
    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("transa", ["N", "T", "C"])
    @pytest.mark.parametrize("transb", ["N", "T", "C"])
    def test_residual_all_variants(self, dtype, transa, transb):
        gen = rng()
        for idx, (m, n, k) in enumerate(gemm_shapes()):
            alpha, beta = SCALARS[idx % len(SCALARS)]
            batch = 3 if max(m, n, k) > 40 else (1000 if idx % 7 == 0 and max(m, n, k) <= 8 else 3)
            a = random_matrix(gen, (batch,) + ((m, k) if transa == "N" else (k, m)), dtype)
            b = random_matrix(gen, (batch,) + ((k, n) if transb == "N" else (n, k)), dtype)
            c = random_matrix(gen, (batch, m, n), dtype) if beta != 0 or idx % 2 else None
            a0, b0, c0 = a.copy(), b.copy(), None if c is None else c.copy()
            out = linalg.gemm(a, b, c, transa=transa, transb=transb, alpha=alpha, beta=beta)
            assert out.dtype == dtype and out.shape == (batch, m, n)
            r = gemm_residual(out, a, b, c, transa, transb, alpha, beta, dtype)
            assert r < THRESHOLD, (m, n, k, alpha, beta, r)
            assert numpy.array_equal(a, a0) and numpy.array_equal(b, b0)
            assert c is None or numpy.array_equal(c, c0)

    @pytest.mark.parametrize("dtype", DTYPES)
    def test_complex_scalars_and_numeric_trans_words(self, dtype):
        gen = rng(1)
        a, b, c = (random_matrix(gen, (4, 5, 5), dtype) for _ in range(3))
        out = linalg.gemm(a, b, c, transa=1, transb=2, alpha=0.5 - 2j, beta=1j)
        assert out.dtype == numpy.result_type(dtype, numpy.complex64)
        assert gemm_residual(out, a, b, c, "T", "C", 0.5 - 2j, 1j, dtype) < THRESHOLD
        out = linalg.gemm(a, b, alpha=numpy.complex128(3))   # zero imaginary part: dtype kept
        assert out.dtype == dtype

    def test_beta_zero_does_not_read_c(self):
        a = numpy.ones((2, 3, 3))
        c = numpy.full((2, 3, 3), numpy.nan)
        assert numpy.array_equal(linalg.gemm(a, a, c, beta=0), numpy.full((2, 3, 3), 3.0))

    def test_overwrite_c(self):
        gen = rng(2)
        a, b, c = (random_matrix(gen, (5, 4, 4), numpy.float64) for _ in range(3))
        expected = a @ b + 2 * c
        out = linalg.gemm(a, b, c, beta=2, overwrite_c=True)
        numpy.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)
        numpy.testing.assert_allclose(c, expected, rtol=1e-13, atol=1e-13)   # result lives in c
        c32 = c.astype(numpy.float32)        # different compute dtype: c is left alone
        before = c32.copy()
        linalg.gemm(a, b, c32, beta=1, overwrite_c=True)
        assert numpy.array_equal(c32, before)

    def test_dtype_policy(self):
        a = numpy.arange(8).reshape(2, 2, 2)
        assert linalg.gemm(a, a).dtype == numpy.float64
        assert linalg.gemm(a.astype(numpy.float32), a.astype(numpy.float64)).dtype == numpy.float64
        assert linalg.gemm(a.astype(numpy.float32), a.astype(numpy.complex64)).dtype == numpy.complex64
        with pytest.raises(TypeError, match="a: unsupported dtype float16"):
            linalg.gemm(a.astype(numpy.float16), a)

    def test_empty(self):
        for a_shape, b_shape, out_shape in [((0, 3, 4), (0, 4, 2), (0, 3, 2)), ((2, 0, 4), (2, 4, 3), (2, 0, 3)),
                                            ((2, 3, 4), (2, 4, 0), (2, 3, 0)), ((2, 3, 0), (2, 0, 5), (2, 3, 5))]:
            out = linalg.gemm(numpy.ones(a_shape, numpy.float32), numpy.ones(b_shape, numpy.float32))
            assert out.shape == out_shape and out.dtype == numpy.float32 and not out.any()
        c = numpy.arange(30.0).reshape(2, 3, 5)   # k = 0 with beta: C = beta C (BLAS)
        assert numpy.array_equal(linalg.gemm(numpy.ones((2, 3, 0)), numpy.ones((2, 0, 5)), c, beta=2), 2 * c)
        out = linalg.gemm([numpy.ones((2, 0)), numpy.ones((1, 1))], [numpy.ones((0, 3)), numpy.ones((1, 1))],
                          [numpy.ones((2, 3)), numpy.ones((1, 1))], beta=3)
        assert numpy.array_equal(out[0], numpy.full((2, 3), 3.0)) and numpy.array_equal(out[1], [[4.0]])
        assert linalg.gemm([], []) == []

    @pytest.mark.parametrize("transb", ["N", "T"])
    def test_one_b_for_a_batch_of_a(self, transb):
        """b of one matrix (1, rb, cb) serves every matrix of a, as NumPy's matmul broadcasts
        it; with c and beta, and for an empty batch."""
        g = numpy.random.default_rng(3)
        a = g.standard_normal((5, 4, 3))
        b = g.standard_normal((1, 2, 3) if transb == "T" else (1, 3, 2))
        c = g.standard_normal((5, 4, 2))
        ref = a @ (b[0].T if transb == "T" else b[0])
        numpy.testing.assert_allclose(linalg.gemm(a, b, transb=transb), ref, rtol=1e-13)
        out = linalg.gemm(a, b, c, transb=transb, alpha=-2.0, beta=0.5)
        numpy.testing.assert_allclose(out, -2.0 * ref + 0.5 * c, rtol=1e-13)
        empty = linalg.gemm(a[:0], b, transb=transb)
        assert empty.shape == (0, 4, 2)
        with pytest.raises(ValueError, match=r"op\(b\) must have as many rows"):
            linalg.gemm(a, b, transb="N" if transb == "T" else "T")

    def test_argument_errors(self):
        a = numpy.ones((2, 3, 4))
        with pytest.raises(ValueError, match="b: op\\(b\\) must have as many rows"):
            linalg.gemm(a, numpy.ones((2, 3, 4)))
        with pytest.raises(ValueError, match="c: expected shape \\(3, 5\\), got \\(5, 3\\)"):
            linalg.gemm(a, numpy.ones((2, 4, 5)), numpy.ones((2, 5, 3)), beta=1)
        with pytest.raises(ValueError, match="c: beta=2 needs c"):
            linalg.gemm(a, numpy.ones((2, 4, 5)), beta=2)
        with pytest.raises(ValueError, match="transa: expected 'N', 'T', 'C'"):
            linalg.gemm(a, a, transa="X")
        with pytest.raises(ValueError, match="transb"):
            linalg.gemm(a, a, transb=3)
        with pytest.raises(ValueError, match="a: expected a \\(batch, rows, cols\\) array"):
            linalg.gemm(numpy.ones((3, 4)), numpy.ones((4, 3)))
        with pytest.raises(ValueError, match=r"batch counts differ.*b may also hold one matrix"):
            linalg.gemm(a, numpy.ones((3, 4, 2)))
        with pytest.raises(ValueError, match=r"batch counts differ.*only as a \(1, rows, cols\)"):
            linalg.gemm(list(a), [numpy.ones((4, 2))])
        with pytest.raises(ValueError, match="batch counts differ"):      # a is never broadcast
            linalg.gemm(a[:1], numpy.ones((2, 4, 2)))
        with pytest.raises(TypeError, match="alpha: expected a number"):
            linalg.gemm(a, numpy.ones((2, 4, 2)), alpha="1")
        with pytest.raises(TypeError, match="b: batch form"):
            linalg.gemm(a, list(numpy.ones((2, 4, 2))))
        with pytest.raises(ValueError, match="batch item 1"):
            linalg.gemm([numpy.ones((2, 2)), numpy.ones((2, 3))], [numpy.ones((2, 2)), numpy.ones((2, 3))])


class TestGemv:
    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("trans", ["N", "T", "C"])
    def test_residual_all_variants(self, dtype, trans):
        gen = rng(3)
        shapes = [(s, s) for s in SIZES] + list(HYDRO) + [c[::-1] for c in HYDRO] + [(1, 17), (33, 2)]
        for idx, (m, n) in enumerate(shapes):
            alpha, beta = SCALARS[idx % len(SCALARS)]
            batch = 1000 if max(m, n) <= 3 else (1 if idx % 5 == 0 else 3)
            a = random_matrix(gen, (batch, m, n), dtype)
            lx, ly = (n, m) if trans == "N" else (m, n)
            x = random_matrix(gen, (batch, lx), dtype)
            y = random_matrix(gen, (batch, ly), dtype) if beta != 0 or idx % 2 else None
            y0 = None if y is None else y.copy()
            out = linalg.gemv(a, x, y, trans=trans, alpha=alpha, beta=beta)
            assert out.dtype == dtype and out.shape == (batch, ly)
            r = gemm_residual(out[:, :, None], a, x[:, :, None], None if y is None else y[:, :, None],
                              trans, "N", alpha, beta, dtype)
            assert r < THRESHOLD, (m, n, alpha, beta, r)
            assert y is None or numpy.array_equal(y, y0)

    def test_overwrite_and_beta_zero(self):
        a = numpy.ones((3, 2, 4))
        y = numpy.full((3, 2), numpy.nan)
        out = linalg.gemv(a, numpy.ones((3, 4)), y, overwrite_y=True)
        assert numpy.array_equal(out, numpy.full((3, 2), 4.0)) and numpy.array_equal(y, out)

    def test_empty(self):
        assert linalg.gemv(numpy.ones((0, 3, 2)), numpy.ones((0, 2))).shape == (0, 3)
        assert linalg.gemv(numpy.ones((2, 0, 2)), numpy.ones((2, 2))).shape == (2, 0)
        y = numpy.arange(6.0).reshape(2, 3)
        assert numpy.array_equal(linalg.gemv(numpy.ones((2, 3, 0)), numpy.ones((2, 0)), y, beta=-1), -y)
        out = linalg.gemv(numpy.ones((2, 0, 3)), numpy.ones((2, 0)), trans="T")
        assert out.shape == (2, 3) and not out.any()

    def test_argument_errors(self):
        a = numpy.ones((2, 3, 4))
        with pytest.raises(ValueError, match="x: expected length 4 .*got 3"):
            linalg.gemv(a, numpy.ones((2, 3)))
        with pytest.raises(ValueError, match="y: expected length 4"):
            linalg.gemv(a, numpy.ones((2, 3)), numpy.ones((2, 3)), trans="T", beta=1)
        with pytest.raises(ValueError, match="y: beta=1 needs y"):
            linalg.gemv(a, numpy.ones((2, 4)), beta=1)
        with pytest.raises(ValueError, match="x: expected a \\(batch, n\\) array"):
            linalg.gemv(a, numpy.ones((2, 4, 1)))
        with pytest.raises(ValueError, match="trans: expected"):
            linalg.gemv(a, numpy.ones((2, 4)), trans="conj")
        with pytest.raises(TypeError, match="x: unsupported dtype"):
            linalg.gemv(a, numpy.ones((2, 4), numpy.float16))


class TestSyrk:
    @pytest.mark.parametrize("dtype", DTYPES)
    @pytest.mark.parametrize("trans", ["N", "T"])
    @pytest.mark.parametrize("lower", [True, False])
    def test_residual_all_variants(self, dtype, trans, lower):
        gen = rng(4)
        shapes = [(s, s) for s in SIZES] + list(HYDRO) + [c[::-1] for c in HYDRO] + [(1, 7), (16, 1)]
        for idx, (n, k) in enumerate(shapes):
            alpha, beta = SCALARS[idx % len(SCALARS)]
            batch = 1000 if n <= 3 else 3
            a = random_matrix(gen, (batch,) + ((n, k) if trans == "N" else (k, n)), dtype)
            c = None
            if beta != 0 or idx % 2:
                c = random_matrix(gen, (batch, n, n), dtype)
                other = numpy.triu(numpy.ones((n, n), bool), 1) if lower else numpy.tril(numpy.ones((n, n), bool), -1)
                c[:, other] = numpy.nan                      # the other triangle is never read
            c0 = None if c is None else c.copy()
            out = linalg.syrk(a, c, lower=lower, trans=trans, alpha=alpha, beta=beta)
            assert out.dtype == dtype and out.shape == (batch, n, n)
            assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2))   # full, symmetric (not Hermitian)
            cs = None if c is None else sym_from(numpy.nan_to_num(c), lower)
            r = gemm_residual(out, a, a, cs, trans, "T" if trans == "N" else "N", alpha, beta, dtype)
            assert r < THRESHOLD, (n, k, alpha, beta, r)
            assert c is None or numpy.array_equal(c, c0, equal_nan=True)

    def test_trans_c(self):
        a = rng(5).standard_normal((3, 4, 2))
        numpy.testing.assert_array_equal(linalg.syrk(a, trans="C"), linalg.syrk(a, trans="T"))
        with pytest.raises(ValueError, match="trans: 'C' is not defined for complex syrk"):
            linalg.syrk(a.astype(numpy.complex64), trans="C")

    def test_overwrite_c(self):
        gen = rng(6)
        a = gen.standard_normal((4, 3, 2))
        c = numpy.tril(gen.standard_normal((4, 3, 3)))
        expected = a @ numpy.swapaxes(a, 1, 2) + sym_from(c, True)
        out = linalg.syrk(a, c, beta=1, overwrite_c=True)
        numpy.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)
        assert numpy.shares_memory(out, c)

    def test_empty(self):
        assert linalg.syrk(numpy.ones((0, 3, 2))).shape == (0, 3, 3)
        assert linalg.syrk(numpy.ones((2, 0, 2))).shape == (2, 0, 0)
        c = numpy.tril(numpy.arange(18.0).reshape(2, 3, 3))
        assert numpy.array_equal(linalg.syrk(numpy.ones((2, 3, 0)), c, beta=2), 2 * sym_from(c, True))

    def test_argument_errors(self):
        a = numpy.ones((2, 3, 4))
        with pytest.raises(ValueError, match="c: expected shape \\(3, 3\\), got \\(4, 4\\)"):
            linalg.syrk(a, numpy.ones((2, 4, 4)), beta=1)
        with pytest.raises(ValueError, match="c: beta=0.5 needs c"):
            linalg.syrk(a, beta=0.5)
        with pytest.raises(TypeError, match="lower: expected True or False"):
            linalg.syrk(a, lower="L")
        with pytest.raises(ValueError, match="trans: expected"):
            linalg.syrk(a, trans="H")
        with pytest.raises(TypeError, match="beta: expected a number"):
            linalg.syrk(a, numpy.ones((2, 3, 3)), beta=None)


# ---- the three batch forms, batch counts 0, 1, 3, 1000 ----

def _variable_batch(gen, count, dtype, make):
    sizes = [(1 + (7 * i) % 9, 1 + (5 * i) % 6, 1 + (3 * i) % 7) for i in range(count)]
    return [make(gen, m, n, k, dtype) for m, n, k in sizes]


def _gemm_case(gen, m, n, k, dtype):
    return random_matrix(gen, (k, m), dtype), random_matrix(gen, (n, k), dtype), random_matrix(gen, (m, n), dtype)


def _gemv_case(gen, m, n, k, dtype):
    return random_matrix(gen, (m, n), dtype), random_matrix(gen, (m,), dtype), random_matrix(gen, (n,), dtype)


def _syrk_case(gen, m, n, k, dtype):
    return random_matrix(gen, (m, k), dtype), random_matrix(gen, (m, m), dtype)


CASES = {
    "gemm": (_gemm_case, lambda a, b, c: linalg.gemm(a, b, c, transa="T", transb="C", alpha=0.5, beta=-1.0),
             lambda a, b, c: 0.5 * ref_op(a, "T") @ ref_op(b, "C") - wide(c)),
    "gemv": (_gemv_case, lambda a, x, y: linalg.gemv(a, x, y, trans="C", alpha=2.0, beta=0.5),
             lambda a, x, y: 2.0 * ref_op(a, "C") @ wide(x) + 0.5 * wide(y)),
    "syrk": (_syrk_case, lambda a, c: linalg.syrk(a, c, lower=False, alpha=-1.0, beta=2.0),
             lambda a, c: -wide(a) @ wide(a).T + 2 * sym_from(wide(c), False)),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.complex128])
@pytest.mark.parametrize("count", [0, 1, 3, 1000])
def test_batch_forms(name, dtype, count):
    """Strided, list of equal shapes, list of different shapes and VBatch agree with the reference."""
    make, call, ref = CASES[name]
    gen = rng(7)
    tol = 50 * eps(dtype) * 10
    equal = [make(gen, 4, 3, 5, dtype) for _ in range(count)]
    operands = list(zip(*equal)) if count else [[] for _ in range(len(make(gen, 1, 1, 1, dtype)))]
    strided = call(*[numpy.array(op).reshape((count,) + (equal[0][i].shape if count else (0,) * op_ndim(name, i)))
                     for i, op in enumerate(operands)])
    listed = call(*[list(op) for op in operands])
    assert isinstance(listed, list) and len(listed) == count
    for k in range(count):
        expected = ref(*equal[k])
        assert numpy.allclose(strided[k], expected, rtol=tol, atol=tol * fro(expected[None])[0])
        assert numpy.array_equal(listed[k], strided[k])
    varied = _variable_batch(gen, count, dtype, make)
    vops = list(zip(*varied)) if count else operands
    out_list = call(*[list(op) for op in vops])
    packed = call(*[linalg.VBatch.from_list(op) if count else linalg.VBatch(numpy.zeros(0, dtype), [], [],
                                                                             is_vector=op_ndim(name, i) == 1)
                    for i, op in enumerate(vops)])
    assert isinstance(packed, linalg.VBatch) and len(packed) == count
    for k in range(count):
        expected = ref(*varied[k])
        assert out_list[k].dtype == dtype
        assert numpy.allclose(out_list[k], expected, rtol=tol, atol=tol * max(fro(expected[None])[0], 1))
        assert numpy.array_equal(to_numpy(packed[k]), out_list[k])


def op_ndim(name, i):
    return 1 if name == "gemv" and i > 0 else 2



def test_aliased_output_and_inputs():
    """overwrite_c with c being a (or overlapping it): a is still read as it was on entry."""
    gen = rng(8)
    a = gen.standard_normal((3, 4, 4))
    expected = a @ a + 2 * a
    out = linalg.gemm(a, a, a, beta=2, overwrite_c=True)
    numpy.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-13)
    s = numpy.tril(gen.standard_normal((3, 4, 4)))
    expected = s @ s.transpose(0, 2, 1) + sym_from(s, True)
    numpy.testing.assert_allclose(linalg.syrk(s, s, beta=1, overwrite_c=True), expected, rtol=1e-13, atol=1e-13)
    v = gen.standard_normal((3, 4))
    m = gen.standard_normal((3, 4, 4))
    expected = numpy.einsum("bij,bj->bi", m, v) - v
    numpy.testing.assert_allclose(linalg.gemv(m, v, v, beta=-1, overwrite_y=True), expected, rtol=1e-13, atol=1e-13)
