"""linalg.gebrd and gebrd_unpack (linalg/_bidiag.py).

Checked three ways: LAPACK's scaled residuals (||A - Q B P^H|| / (n ||A|| eps) < 30 and
||I - Q^H Q|| / (n eps) < 30, same for P), the singular values of B against numpy.linalg.svd of A,
and d, e, tauq, taup and the reflectors against LAPACK ?gebrd itself (through SciPy's cython_lapack).
"""
import numpy
import pytest

import linalg
from .helpers import DTYPES, SIZES, THRESHOLD, ct, eps, fro, lapack_gebrd, random_matrix, rng, to_numpy

HYDRO = ((18, 4), (32, 9), (81, 8), (192, 27))


def shapes():
    """(m, n): squares of awkward sizes, rectangles both ways, the hydro tall-skinny shapes."""
    out = [(s, s) for s in SIZES]
    out += [(5, 3), (3, 5), (1, 7), (7, 1), (33, 17), (17, 33), (100, 31), (2, 100)]
    out += list(HYDRO) + [s[::-1] for s in HYDRO]
    return out


def check_factorization(a, result, dtype):
    """Residual, orthogonality and singular values of one strided batch; returns the worst ratios."""
    a = numpy.asarray(a)
    batch, m, n = a.shape
    k = min(m, n)
    q, b, pt = (to_numpy(x) for x in linalg.gebrd_unpack(result))
    assert q.shape == (batch, m, k) and b.shape == (batch, k, k) and pt.shape == (batch, k, n)
    wide = numpy.complex128 if numpy.iscomplexobj(a) else numpy.float64
    qw, bw, pw, aw = (x.astype(wide) for x in (q, b, pt, a))
    size = max(m, n)
    residual = fro(aw - qw @ bw @ pw) / (size * numpy.maximum(fro(aw), numpy.finfo(float).tiny) * eps(dtype))
    orth_q = fro(numpy.eye(k) - ct(qw) @ qw) / (size * eps(dtype))
    orth_p = fro(numpy.eye(k) - pw @ ct(pw)) / (size * eps(dtype))
    # B is bidiagonal with the d / e of the result, upper for m >= n and lower otherwise
    d, e = to_numpy(result.d), to_numpy(result.e)
    assert d.dtype == numpy.empty(0, dtype).real.dtype and e.shape == (batch, max(k - 1, 0))
    expected_b = numpy.zeros((batch, k, k))
    idx = numpy.arange(k)
    expected_b[:, idx, idx] = d
    if m >= n:
        expected_b[:, idx[:-1], idx[1:]] = e
    else:
        expected_b[:, idx[1:], idx[:-1]] = e
    assert numpy.array_equal(b, expected_b.astype(b.dtype))
    sv_a = numpy.linalg.svd(aw, compute_uv=False)
    sv_b = numpy.linalg.svd(bw, compute_uv=False)
    sv = numpy.abs(sv_a - sv_b).max(axis=1) / (size * numpy.maximum(sv_a[:, 0], numpy.finfo(float).tiny) * eps(dtype))
    return max(float(x.max(initial=0.0)) for x in (residual, orth_q, orth_p, sv))


def assert_matches_lapack(a, result, dtype, factor, others=()):
    """Each matrix of ``result`` (linalg.gebrd of ``a``) entry by entry against LAPACK ?gebrd of
    it, run in double precision for single-precision dtypes: within LAPACK's scaled tolerance, or
    ``factor`` times the distance of LAPACK in the working precision, or of each result in
    ``others`` (other factorizations of ``a``), from that reference."""
    wide = {numpy.float32: numpy.float64, numpy.complex64: numpy.complex128}.get(dtype)
    m, n = a.shape[1:]
    for j in range(a.shape[0]):
        same = lapack_gebrd(a[j])
        ref = same if wide is None else lapack_gebrd(a[j].astype(wide))
        norm_a = float(fro(a[j][None])[0])
        for i, name in enumerate(result._fields):
            theirs = ref[i]
            err = numpy.abs(result[i][j] - theirs).max(initial=0.0)
            size = norm_a if name in ("a", "d", "e") else 1.0
            allowed = max([max(m, n) * eps(dtype) * THRESHOLD * max(size, 1.0),
                           factor * numpy.abs(same[i] - theirs).max(initial=0.0)] +
                          [factor * numpy.abs(o[i][j] - theirs).max(initial=0.0) for o in others])
            assert err <= allowed, (name, m, n, j, err, allowed)


class TestGebrd:
    @pytest.mark.parametrize("dtype", DTYPES)
    def test_residuals_and_singular_values(self, dtype):
        gen = rng()
        for m, n in shapes():
            for batch in ((1, 3, 1000) if max(m, n) <= 7 else (3,)):
                a = random_matrix(gen, (batch, m, n), dtype)
                a0 = a.copy()
                result = linalg.gebrd(a)
                assert isinstance(result, linalg.GebrdResult)
                assert result.a.dtype == dtype and result.a.shape == (batch, m, n)
                assert result.tauq.dtype == dtype and result.tauq.shape == (batch, min(m, n))
                ratio = check_factorization(a, result, dtype)
                assert ratio < THRESHOLD, (m, n, batch, ratio)
                assert numpy.array_equal(a, a0)

    @pytest.mark.parametrize("dtype", DTYPES)
    def test_matches_lapack(self, dtype):
        """Same reflectors, d, e, tauq, taup as LAPACK ?gebrd (same algorithm, up to rounding).

        These are forward errors: the last reflectors of a matrix are computed from small
        trailing rows and columns and are as ill-conditioned as those are. In single precision
        the reference is LAPACK run in double precision on the same input, and an entry may be
        off by the fixed tolerance or by up to 4x LAPACK's own single-precision error there,
        whichever is larger (complex64 33 x 17, the last taup: LAPACK's 6.0e-5, ours 8.5e-5,
        with OpenBLAS 0.3.30 / NumPy 2.4)."""
        gen = rng(1)
        for m, n in [(1, 1), (2, 2), (3, 3), (5, 3), (3, 5), (7, 1), (1, 7), (16, 16), (33, 17),
                     (17, 33), (81, 8), (27, 192), (100, 100)]:
            a = random_matrix(gen, (3, m, n), dtype)
            assert_matches_lapack(a, linalg.gebrd(a), dtype, factor=4)

    def test_conventions(self):
        """LAPACK's conventions spelled out on small cases: taup[n-1] = 0 (m >= n), tauq[m-1] = 0 (m < n)."""
        gen = rng(2)
        tall = linalg.gebrd(gen.standard_normal((2, 5, 3)))
        assert numpy.all(tall.taup[:, -1] == 0) and numpy.all(tall.tauq != 0)
        assert numpy.array_equal(tall.d, numpy.diagonal(tall.a, axis1=1, axis2=2))
        assert numpy.array_equal(tall.e, numpy.diagonal(tall.a, 1, axis1=1, axis2=2))
        flat = linalg.gebrd(gen.standard_normal((2, 3, 5)))
        assert numpy.all(flat.tauq[:, -1] == 0) and numpy.all(flat.taup != 0)
        assert numpy.array_equal(flat.e, numpy.diagonal(flat.a, -1, axis1=1, axis2=2))
        c = linalg.gebrd(random_matrix(gen, (2, 4, 4), numpy.complex64))
        assert c.d.dtype == numpy.float32 and c.e.dtype == numpy.float32 and c.taup.dtype == numpy.complex64
        zero = linalg.gebrd(numpy.zeros((1, 3, 3)))       # nothing to annihilate: H = I, tau = 0
        assert not zero.tauq.any() and not zero.taup.any() and not zero.d.any()

    def test_overwrite_a(self):
        a = rng(3).standard_normal((4, 6, 4))
        expected = linalg.gebrd(a)
        result = linalg.gebrd(a, overwrite_a=True)
        assert numpy.array_equal(result.a, expected.a) and numpy.shares_memory(result.a, a)

    def test_dtypes(self):
        ints = linalg.gebrd(numpy.arange(12).reshape(1, 4, 3))
        assert ints.a.dtype == numpy.float64 and ints.d.dtype == numpy.float64
        with pytest.raises(TypeError, match="a: unsupported dtype float16"):
            linalg.gebrd(numpy.ones((1, 2, 2), numpy.float16))

    def test_extreme_scaling(self):
        """Norms are computed without overflow or underflow (as LAPACK's ?nrm2): scaling A by a
        power of two scales d and e exactly as much and leaves the reflectors alone."""
        gen = rng(4)
        a = gen.standard_normal((3, 6, 4))
        unit = linalg.gebrd(a)
        for scale in (2.0 ** -530, 2.0 ** 530):
            result = linalg.gebrd(a * scale)
            for name in ("d", "e"):
                numpy.testing.assert_allclose(getattr(result, name) / scale, getattr(unit, name), rtol=1e-13)
            for name in ("tauq", "taup"):
                numpy.testing.assert_allclose(getattr(result, name), getattr(unit, name), rtol=1e-13, atol=1e-15)

    def test_empty(self):
        for shape in [(0, 3, 2), (2, 0, 3), (2, 3, 0), (0, 0, 0)]:
            result = linalg.gebrd(numpy.ones(shape, numpy.float32))
            k = min(shape[1:])
            assert result.a.shape == shape and result.d.shape == (shape[0], k)
            assert result.e.shape == (shape[0], max(k - 1, 0)) and result.taup.shape == (shape[0], k)
            assert result.a.dtype == numpy.float32 and result.d.dtype == numpy.float32
            q, b, pt = linalg.gebrd_unpack(result)
            assert q.shape == (shape[0], shape[1], k) and pt.shape == (shape[0], k, shape[2])
        assert linalg.gebrd([]) == linalg.GebrdResult([], [], [], [], [])

    def test_argument_errors(self):
        with pytest.raises(ValueError, match="a: expected a \\(batch, rows, cols\\) array"):
            linalg.gebrd(numpy.ones((3, 3)))
        with pytest.raises(TypeError, match="a: expected a NumPy/CuPy array"):
            linalg.gebrd("matrix")
        result = linalg.gebrd(numpy.ones((2, 4, 3)))
        with pytest.raises(ValueError, match="tauq: expected length min\\(m, n\\) = 3"):
            linalg.gebrd_unpack(result._replace(tauq=result.tauq[:, :2]))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_cpu_blocked_path(dtype, monkeypatch):
    """The CPU's blocked path (linalg/_cpu/bidiag.py: ?labrd panels and trailing GEMMs), with
    small panels so that every matrix runs several of them and the unblocked tail, over several
    chunks of the batch, tall, wide and from a non-contiguous view: LAPACK's residuals
    (backward errors, check_factorization), and the same factors as LAPACK ?gebrd in double
    precision, entry by entry, within test_matches_lapack's tolerance or 16x the forward error
    of the unblocked path or of LAPACK in the working precision. The last entries are forward
    errors of small trailing blocks that the two paths reach by different roundings: in the
    9 x 9 matrix 1 here (condition 20) the blocked path is 1.0e-12 off in its last two columns
    (float64; unblocked 3.4e-13) and 3.6e-4 (float32; unblocked 3.6e-5, LAPACK's own float32
    8.8e-5); a wrong update is off by the order of ||A||."""
    from linalg._cpu import bidiag
    gen = rng(6)
    cases = []
    for m, n in [(9, 9), (23, 17), (17, 23), (40, 40), (31, 12)]:
        base = random_matrix(gen, (5, m + 2, n + 3), dtype)
        cases.append(base[:, 1:m + 1, 2:n + 2])                     # not contiguous
    unblocked = [linalg.gebrd(a) for a in cases]
    monkeypatch.setattr(bidiag, "BLOCKED_FROM", 9)
    monkeypatch.setattr(bidiag, "BLOCK", 4)
    monkeypatch.setattr(bidiag, "UNBLOCKED_TAIL", 5)
    monkeypatch.setattr(bidiag, "_MIN_CHUNK", 2)
    monkeypatch.setattr(bidiag, "_BLOCKED_CHUNK_BYTES", 1)       # chunks of _MIN_CHUNK matrices
    for a, plain in zip(cases, unblocked):
        a0 = a.copy()
        result = linalg.gebrd(a)
        assert numpy.array_equal(a, a0)
        assert check_factorization(a0, result, dtype) < THRESHOLD, a.shape
        assert_matches_lapack(a0, result, dtype, factor=16, others=(plain,))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64, numpy.complex128])
@pytest.mark.parametrize("n", [8, 90])
def test_nan_and_inf_stay_in_their_matrix(dtype, n):
    """A matrix holding NaN or Inf gets NaN factors, without NumPy warnings (LAPACK raises none),
    and its neighbours the factors they get alone (n = 90: the CPU's blocked path for real
    dtypes, n = 8: the unblocked one)."""
    import warnings
    gen = rng(8)
    a = random_matrix(gen, (4, n, n), dtype)
    a[1, 2, 3] = numpy.nan
    a[2, n - 1, 0] = numpy.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = linalg.gebrd(a)
        alone = linalg.gebrd(a[[0, 3]])
    assert numpy.isnan(result.d[1]).any() and not numpy.isfinite(result.d[2]).all()
    tol = 100 * eps(dtype)
    for name, field, ref in zip(result._fields, result, alone):
        assert numpy.allclose(field[[0, 3]], ref, rtol=tol, atol=tol), name
        assert numpy.isfinite(field[[0, 3]]).all(), name


def test_cpu_blocked_path_by_default():
    """Real matrices from BLOCKED_FROM on take the blocked path with the default settings."""
    from linalg._cpu import bidiag
    gen = rng(7)
    k = bidiag.BLOCKED_FROM
    for m, n in [(k, k), (k + 7, k), (k, k + 7)]:
        a = gen.standard_normal((2, m, n))
        assert check_factorization(a, linalg.gebrd(a), numpy.float64) < THRESHOLD, (m, n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("count", [0, 1, 3, 1000])
def test_batch_forms(dtype, count):
    """Strided, list of equal shapes, list of different shapes and VBatch give the same factors."""
    gen = rng(5)
    a = random_matrix(gen, (count, 5, 3), dtype)
    strided = linalg.gebrd(a)
    listed = linalg.gebrd(list(a))
    assert all(isinstance(field, list) and len(field) == count for field in listed)
    tol = 100 * eps(dtype)     # a different batch size may sum in a different order
    for field_s, field_l in zip(strided, listed):
        for k in range(count):
            assert numpy.allclose(field_s[k], field_l[k], rtol=tol, atol=tol)
    shapes_k = [(1 + (5 * i) % 7, 1 + (3 * i) % 6) for i in range(count)]
    varied = [random_matrix(gen, s, dtype) for s in shapes_k]
    out_list = linalg.gebrd(varied)
    packed = linalg.gebrd(linalg.VBatch.from_list(varied) if count else
                          linalg.VBatch(numpy.zeros(0, dtype), [], []))
    assert all(isinstance(field, linalg.VBatch) and len(field) == count for field in packed)
    for k in range(count):
        single = linalg.gebrd(varied[k][None])
        for name, field_l, field_p, field_1 in zip(single._fields, out_list, packed, single):
            assert numpy.allclose(field_l[k], field_1[0], rtol=tol, atol=tol), name
            assert numpy.array_equal(to_numpy(field_p[k]), field_l[k]), name
    if count:
        q, b, pt = linalg.gebrd_unpack(out_list)
        for k in range(count):
            assert numpy.allclose(q[k] @ b[k] @ pt[k], varied[k], atol=100 * eps(dtype))
        assert check_factorization(a, strided, dtype) < THRESHOLD
