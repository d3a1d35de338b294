"""GPU backend of the Cholesky family (linalg._cuda.cholesky) against LAPACK-style scaled residuals.

Calls the backend functions directly (the contract of docs/design.md: C-contiguous 3-D CuPy arrays,
batch >= 1, returns (result, info) without a host sync); batch 0 is the public layer's job.
Sizes cross every kernel size class (8, 16, 32, 64) and the recursive path (n > 64).
"""
import numpy
import pytest

from .helpers import (THRESHOLD, eps, force_small_batch_paths, fro, poison_triangle, random_spd,
                      rng, scaled_residual)

pytestmark = pytest.mark.gpu

SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 33, 47, 64, 65, 100, 128, 255, 256, 257)
REAL = (numpy.float32, numpy.float64)


def batch_for(n):
    """Batch counts that keep the CPU reference quick: 1000 for the small sizes."""
    return 1000 if n <= 17 else (3 if n <= 100 else 2)


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def gpu():
    return pytest.importorskip("linalg._cuda.cholesky")


@pytest.fixture(params=["recursion", "vendor", "pair", "pair_block", "one_launch", "cols",
                        "tensor", "tensor_solve", "tensor_inverse", "global", "cluster",
                        "left", "tensor_trsm"])
def potrf_path(request, gpu, monkeypatch):
    """Every operation above the leaf size by our recursion or by its small-batch vendor path
    (cuSOLVER potrf, cuBLAS triangular solves), whatever the batch count; "pair": the recursion
    with kernels/tri_pair.cu for every dtype and 33 <= n <= 64 (the tuned rules use it only
    where it measured faster) with its own POTRS mode; "pair_block": the same with the float64
    POTRS by tri_pair_potrs (PAIR_POTRS_BLOCK); "one_launch": the small-batch one-launch paths
    whatever the batch (POTRF, POTRI, POTI by chol_small<T, 64> for 33..64 and chol_block for
    65..128, POTRS with n right-hand sides by tri_pair up to 64); "cols": POTRS with several
    right-hand sides and TRTRI (POTRI's first step) by kernels/tri_cols.cu for 33..512;
    "tensor": POTRF (and so POSV, POTI) by kernels/potrf.cu chol_tensor for 33..192, every
    dtype; the other parameters run with chol_tensor off (the panels); "tensor_solve": POSV
    and POTRS with several right-hand sides by kernels/potrf.cu chol_tensor_solve for 33..160,
    every dtype, off for the other parameters; "tensor_inverse": POTRI and POTI by
    kernels/potrf.cu chol_tensor_inverse for 33..192 and above by the recursion whose TRTRI
    blocks run chol_tensor_trtri (up to 192), every dtype, both off for the other parameters;
    "global": POTRF by kernels/potrf.cu chol_global for 33..512 at every batch and dtype;
    "cluster": by chol_cluster, 2 blocks a matrix up to n = 128, 4 up to 256, 8 above; "left":
    by kernels/potrf.cu chol_left for 33..512 at every batch and dtype (off for the others);
    "tensor_trsm": POTRS / POSV with several right-hand sides by chol_tensor_solve for 33..160
    and, above, by the recursion whose blocks run chol_tensor_solve and chol_tensor_trsm (every
    batch and dtype; chol_tensor_trsm off for the others)."""
    force_small_batch_paths(monkeypatch, gpu.tri, vendor=request.param == "vendor",
                            one_launch=request.param == "one_launch",
                            cols=request.param == "cols")
    tensor = request.param == "tensor"
    forced = {dtype: (gpu.tri.LEAF + 1, gpu.TRIANGLE_MAX) for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "TENSOR_RANGE", forced if tensor else {})
    every_op = {(op, dtype): (gpu.tri.LEAF + 1, gpu.SOLVE_MAX) for op in ("posv", "potrs")
                for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "TENSOR_SOLVE_RANGE",
                        every_op if request.param in ("tensor_solve", "tensor_trsm") else {})
    monkeypatch.setattr(gpu, "TENSOR_SOLVE_FROM_BATCH", 1)
    monkeypatch.setattr(gpu, "TENSOR_SOLVE_BELOW", {})
    every_dtype = {dtype: ((gpu.tri.LEAF + 1, gpu.SOLVE_MAX, 1),)
                   for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "TENSOR_TRSM_RULES",
                        every_dtype if request.param == "tensor_trsm" else {})
    every_inverse = {(op, dtype): (gpu.tri.LEAF + 1, gpu.TRIANGLE_MAX)
                     for op in ("potri", "poti") for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "TENSOR_INVERSE_RANGE",
                        every_inverse if request.param == "tensor_inverse" else {})
    up_to_192 = {dtype: (gpu.tri.LEAF + 1, gpu.TRIANGLE_MAX) for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "TENSOR_TRTRI_RANGE",
                        up_to_192 if request.param == "tensor_inverse" else {})
    if request.param in ("global", "cluster"):
        monkeypatch.setattr(gpu, "GLOBAL_FROM", gpu.tri.LEAF + 1)
        every = ((gpu.GLOBAL_MAX, 1, 2**62, 1),)
        if request.param == "cluster":        # every cluster size, by n
            every = ((128, 1, 2**62, 2), (256, 1, 2**62, 4), (gpu.GLOBAL_MAX, 1, 2**62, 8))
        monkeypatch.setattr(gpu, "GLOBAL_BATCHES", {"float32": every, "float64": every})
    else:
        monkeypatch.setattr(gpu, "GLOBAL_BATCHES", {})
    every_n = {dtype: ((gpu.tri.LEAF + 1, gpu.GLOBAL_MAX, 1),)
               for dtype in ("float32", "float64")}
    monkeypatch.setattr(gpu, "LEFT_RULES", every_n if request.param == "left" else {})
    if request.param == "pair":                 # tri_pair's own POTRS sweeps, every dtype
        monkeypatch.setattr(gpu.tri, "PAIR_POTRS_BLOCK", frozenset())
    if request.param in ("pair", "pair_block"):
        monkeypatch.setattr(gpu.tri, "PAIR_RULES", {(op, dtype): "all" for op in ("trsm", "potrs")
                                                    for dtype in ("float32", "float64")})
    return request.param


def spd(n, batch, dtype, seed=0):
    return random_spd(rng(seed + n), batch, n, dtype)


def check_factor(f, a, lower, dtype):
    n = a.shape[1]
    other = numpy.triu(f, 1) if lower else numpy.tril(f, -1)
    assert not other.any(), "other triangle not zero"
    prod = f @ numpy.swapaxes(f, 1, 2) if lower else numpy.swapaxes(f, 1, 2) @ f
    res = scaled_residual(prod - a, fro(a), n, dtype)
    assert res < THRESHOLD, f"||LL^T - A|| scaled residual {res}"


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_potrf(cp, gpu, potrf_path, n, lower, dtype):
    a = spd(n, batch_for(n), dtype)
    f, info = gpu.potrf(cp.asarray(poison_triangle(a, lower)), lower=lower)
    assert isinstance(info, cp.ndarray) and info.dtype == numpy.int32
    assert not info.get().any()
    check_factor(f.get(), a, lower, dtype)


@pytest.mark.parametrize("batch", [1, 3, 1000])
@pytest.mark.parametrize("n", [4, 8, 9, 27, 64])
def test_potrf_batches(cp, gpu, n, batch):
    a = spd(n, batch, numpy.float64)
    f, info = gpu.potrf(cp.asarray(a), lower=True)
    assert not info.get().any()
    check_factor(f.get(), a, True, numpy.float64)


def test_potrf_huge_batch(cp, gpu):
    """More blocks than the 65 535 grid-y limit would allow, and batch * n * n beyond 2^31 / 8."""
    batch, n = 300_000, 4
    a = cp.asarray(spd(n, 1, numpy.float32)).repeat(batch, axis=0)
    f, info = gpu.potrf(a, lower=True)
    assert not info.any().get()
    ref = numpy.linalg.cholesky(spd(n, 1, numpy.float64)[0])
    assert numpy.allclose(f[-1].get(), ref, atol=1e-5) and numpy.allclose(f[0].get(), ref, atol=1e-5)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [5, 33, 100, 300])
def test_potrf_not_spd_mid_batch(cp, gpu, potrf_path, n, lower, dtype):
    """Matrix 2 of 5 loses definiteness at order j + 1: info[2] = j + 1, the others are right."""
    a = spd(n, 5, dtype)
    j = n - 2
    a[2, j, j] = -10.0
    f, info = gpu.potrf(cp.asarray(a), lower=lower)
    info = info.get()
    assert info[2] == j + 1 and not numpy.delete(info, 2).any(), info
    good = [0, 1, 3, 4]
    check_factor(f.get()[good], a[good], lower, dtype)
    _, info = gpu.posv(cp.asarray(a), cp.ones((5, n, 2), dtype=dtype), lower=lower)
    assert list(info.get()) == [0, 0, j + 1, 0, 0]
    _, info = gpu.poti(cp.asarray(a), lower=lower)
    assert list(info.get()) == [0, 0, j + 1, 0, 0]


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [1, 6, 40, 90, 200])
def test_potrf_nan(cp, gpu, potrf_path, n, dtype):
    """A NaN on the diagonal fails at that order; an off-diagonal NaN at (i, j) fails at i + 1."""
    a = spd(n, 3, dtype)
    a[0, 0, 0] = numpy.nan
    if n > 1:
        a[2, n - 1, 0] = numpy.nan
    _, info = gpu.potrf(cp.asarray(a), lower=True)
    assert list(info.get()) == [1, 0, n if n > 1 else 0]


def _solve_residual(a, x, b, dtype):
    n = a.shape[1]
    return scaled_residual(a @ x - b, fro(a) * fro(x), n, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_potrs_posv(cp, gpu, potrf_path, n, lower, dtype):
    batch = min(batch_for(n), 100)
    a = spd(n, batch, dtype)
    gen = rng(7)
    for nrhs in sorted({1, 3, n}):
        b = gen.standard_normal((batch, n, nrhs)).astype(dtype)
        f, _ = gpu.potrf(cp.asarray(a), lower=lower)
        x, info = gpu.potrs(poison(cp, f, lower), cp.asarray(b), lower=lower)
        assert not info.get().any()
        assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD
        x, info = gpu.posv(cp.asarray(poison_triangle(a, lower)), cp.asarray(b), lower=lower)
        assert not info.get().any()
        assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", (33, 64))
def test_potrs_many_matrices_each_right(cp, gpu, potrf_path, n, lower, dtype):
    """POTRS and POSV on thousands of matrices, every one checked: a shared-memory race in a
    kernel that loops over the batch shows in a few matrices of thousands (tri_pair_potrs
    before its barrier fix: 2-21 of 10240), never in the 3 that the tests above solve at these
    sizes."""
    batch = 10240
    a = spd(n, batch, dtype)
    b = rng(11).standard_normal((batch, n, n)).astype(dtype)
    f, _ = gpu.potrf(cp.asarray(a), lower=lower)
    x, info = gpu.potrs(f, cp.asarray(b), lower=lower)
    assert not info.get().any()
    assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD
    x, info = gpu.posv(cp.asarray(a), cp.asarray(b), lower=lower)
    assert not info.get().any()
    assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD


@pytest.fixture(params=["operators", "substitution"])
def solve_scheme(request, gpu, monkeypatch):
    """chol_tensor_solve's two solve schemes, each for POSV and POTRS (the launch settings are
    cached: cleared before and after)."""
    by_operators = request.param == "operators"
    monkeypatch.setattr(gpu, "TENSOR_SOLVE_OPERATORS", {"posv": by_operators,
                                                        "potrs": by_operators})
    gpu._tensor_solve_config.cache_clear()
    yield request.param
    gpu._tensor_solve_config.cache_clear()


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n, nrhs", [(33, 2), (40, 70), (64, 129), (65, 5), (96, 100),
                                     (128, 33), (150, 40), (160, 33)])
def test_tensor_solve(cp, gpu, solve_scheme, n, nrhs, lower, dtype):
    """chol_tensor_solve itself, both schemes: right-hand sides in several passes and a partial
    last one, in place and out of place (b unchanged); POSV reports a matrix that is not
    positive definite and POTRS a zero and a NaN diagonal entry of the factor by index, their
    neighbours right."""
    a = spd(n, 5, dtype)
    b = rng(13).standard_normal((5, n, nrhs)).astype(dtype)
    bad = a.copy()
    bad[2, n - 3, n - 3] = -5.0
    d_a = cp.asarray(poison_triangle(bad, lower))
    d_b = cp.asarray(b)
    out = cp.empty_like(d_b)
    info = gpu.tensor_solve(d_a, d_b, lower, factored=False, out=out)
    assert info.get().tolist() == [0, 0, n - 2, 0, 0]
    assert numpy.array_equal(d_b.get(), b), "b changed by an out-of-place call"
    good = [0, 1, 3, 4]
    assert _solve_residual(a[good], out.get()[good], b[good], dtype) < THRESHOLD
    f, _ = gpu.potrf(cp.asarray(a), lower=lower)
    f = poison_triangle(f.get(), lower)
    f[1, n // 2, n // 2] = 0
    f[3, n - 1, n - 1] = numpy.nan
    info = gpu.tensor_solve(cp.asarray(f), d_b, lower, factored=True)      # in place
    assert info.get().tolist() == [0, n // 2 + 1, 0, n, 0]
    good = [0, 2, 4]
    assert _solve_residual(a[good], d_b.get()[good], b[good], dtype) < THRESHOLD


def poison(cp, f, lower):
    return cp.asarray(poison_triangle(f.get(), lower))


def _inverse_check(inv, a, dtype):
    n = a.shape[1]
    assert numpy.array_equal(inv, numpy.swapaxes(inv, 1, 2)), "inverse not exactly symmetric"
    res = scaled_residual(a @ inv - numpy.eye(n), fro(a) * fro(inv), n, dtype)
    assert res < THRESHOLD, f"||A inv - I|| scaled residual {res}"


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_potri_poti(cp, gpu, potrf_path, n, lower, dtype):
    batch = min(batch_for(n), 100)
    a = spd(n, batch, dtype)
    f, _ = gpu.potrf(cp.asarray(a), lower=lower)
    inv, info = gpu.potri(poison(cp, f, lower), lower=lower)
    assert not info.get().any()
    _inverse_check(inv.get(), a, dtype)
    inv, info = gpu.poti(cp.asarray(poison_triangle(a, lower)), lower=lower)
    assert not info.get().any()
    _inverse_check(inv.get(), a, dtype)


@pytest.fixture(params=["threads_needed", "threads_bound"])
def inverse_threads(request, gpu, monkeypatch):
    """chol_tensor_inverse with the 64 NT threads its steps need, and with its launch bound's
    threads for every NT (256 up to NT = 4, 384 at NT = 5-6; the launch settings are cached:
    cleared before and after)."""
    threads = {nt: 64 * nt if request.param == "threads_needed" else (256 if nt <= 4 else 384)
               for nt in gpu.TENSOR_INVERSE_THREADS}
    monkeypatch.setattr(gpu, "TENSOR_INVERSE_THREADS", threads)
    gpu._tensor_inverse_config.cache_clear()
    yield request.param
    gpu._tensor_inverse_config.cache_clear()


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [33, 40, 64, 65, 96, 97, 128, 129, 160, 192])
def test_tensor_inverse(cp, gpu, inverse_threads, n, lower, dtype):
    """chol_tensor_inverse itself: POTI out of place (a unchanged) with a matrix that is not
    positive definite reported by index, POTRI in place with a zero and a NaN diagonal entry of
    the factor reported by index; their neighbours' inverses right and exactly symmetric."""
    a = spd(n, 5, dtype)
    bad = a.copy()
    bad[2, n - 3, n - 3] = -5.0
    d_a = cp.asarray(poison_triangle(bad, lower))
    kept = d_a.get()
    out = cp.empty_like(d_a)
    info = gpu.tensor_inverse(d_a, lower, factored=False, out=out)
    assert info.get().tolist() == [0, 0, n - 2, 0, 0]
    assert numpy.array_equal(d_a.get(), kept, equal_nan=True), "a changed by an out-of-place call"
    good = [0, 1, 3, 4]
    _inverse_check(out.get()[good], a[good], dtype)
    f, _ = gpu.potrf(cp.asarray(a), lower=lower)
    f = poison_triangle(f.get(), lower)
    f[1, n // 2, n // 2] = 0
    f[3, n - 1, n - 1] = numpy.nan
    d_f = cp.asarray(f)
    info = gpu.tensor_inverse(d_f, lower, factored=True)                  # in place
    assert info.get().tolist() == [0, n // 2 + 1, 0, n, 0]
    good = [0, 2, 4]
    _inverse_check(d_f.get()[good], a[good], dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [129, 160, 192])
def test_triangle_kernels_past_128(cp, gpu, n, lower, dtype):
    """chol_tensor and chol_tensor_trtri at NT = 5-6 (n up to TRIANGLE_MAX, one block an SM):
    POTRF out of place with a matrix that is not positive definite reported by index (its
    neighbours' factors right, the input unchanged), then TRTRI of the factors in place, with
    and without a unit diagonal, and with a zero diagonal entry reported by index."""
    a = spd(n, 4, dtype)
    bad = a.copy()
    bad[1, n - 2, n - 2] = -5.0
    d_a = cp.asarray(poison_triangle(bad, lower))
    kept = d_a.get()
    out = cp.empty_like(d_a)
    info = gpu.potrf_tensor(out, lower, src=d_a)
    assert info.get().tolist() == [0, n - 1, 0, 0]
    assert numpy.array_equal(d_a.get(), kept, equal_nan=True), "a changed by an out-of-place call"
    good = [0, 2, 3]
    factors = out.get()[good]
    check_factor(factors, a[good], lower, dtype)
    for unit in (False, True):
        t = factors.copy()
        if unit:
            t[:, numpy.arange(n), numpy.arange(n)] = 1
        f = poison_triangle(factors, lower, unit=unit)   # a unit diagonal is NaN: never read
        if not unit:
            f[1, n // 2, n // 2] = 0
        d_f = cp.asarray(f)
        info = gpu.tensor_trtri(d_f, lower, unit)
        assert info.get().tolist() == [0, 0 if unit else n // 2 + 1, 0]
        x = d_f.get()[[0, 2]]
        other = numpy.triu(x, 1) if lower else numpy.tril(x, -1)
        assert not other.any(), "other triangle of the inverse not zero"
        res = scaled_residual(t[[0, 2]] @ x - numpy.eye(n), fro(t[[0, 2]]) * fro(x), n, dtype)
        assert res < THRESHOLD, f"||T X - I|| scaled residual {res}"


@pytest.mark.parametrize("n", [5, 40, 70])
def test_potri_zero_diagonal_mid_batch(cp, gpu, potrf_path, n):
    a = spd(n, 4, numpy.float64)
    f, _ = gpu.potrf(cp.asarray(a), lower=True)
    f[1, 3, 3] = 0
    inv, info = gpu.potri(f, lower=True)
    assert list(info.get()) == [0, 4, 0, 0]
    _inverse_check(inv.get()[[0, 2, 3]], a[[0, 2, 3]], numpy.float64)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("n", [3, 20])
def test_complex_vendor_path(cp, gpu, n, dtype):
    a = spd(n, 4, dtype)
    for lower in (True, False):
        f, info = gpu.potrf(cp.asarray(a), lower=lower)
        assert not info.get().any()
        fh = f.get()
        prod = fh @ numpy.conj(numpy.swapaxes(fh, 1, 2)) if lower else numpy.conj(numpy.swapaxes(fh, 1, 2)) @ fh
        assert scaled_residual(prod - a, fro(a), n, dtype) < THRESHOLD
        b = rng(3).standard_normal((4, n, 2)).astype(dtype)
        x, _ = gpu.posv(cp.asarray(a), cp.asarray(b), lower=lower)
        assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD
        inv, _ = gpu.poti(cp.asarray(a), lower=lower)
        res = scaled_residual(a @ inv.get() - numpy.eye(n), fro(a) * fro(inv.get()), n, dtype)
        assert res < THRESHOLD
    assert eps(dtype) > 0


@pytest.mark.parametrize("n", (5, 33, 100))
def test_potrs_vector_zero_diagonal_mid_batch(cp, gpu, potrf_path, n):
    """One right-hand side (the fused warp kernel): a zero and a NaN diagonal entry of the factor
    reported by index (1-based, first in original order); the neighbours are solved."""
    for lower in (True, False):
        check_vector_info(cp, gpu, n, lower, numpy.float64)


def check_vector_info(cp, gpu, n, lower, dtype):
    """One right-hand side, four matrices: a zero and a NaN diagonal entry of the factor reported
    by index (1-based, first in original order); the neighbours are solved."""
    a = spd(n, 4, dtype)
    b = rng(5).standard_normal((4, n, 1)).astype(dtype)
    f, _ = gpu.potrf(cp.asarray(a), lower=lower)
    f = f.get()
    f[1, n // 2, n // 2] = 0
    f[1, n - 1, n - 1] = 0
    f[3, 0, 0] = numpy.nan
    x, info = gpu.potrs(cp.asarray(f), cp.asarray(b), lower=lower)
    assert info.get().tolist() == [0, n // 2 + 1, 0, 1]
    x = x.get()
    for k in (0, 2):
        assert _solve_residual(a[k:k + 1], x[k:k + 1], b[k:k + 1], dtype) < THRESHOLD


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
def test_potrs_vector_staged_kernel(cp, gpu, monkeypatch, lower, dtype):
    """One right-hand side by kernels/trsv.cu trsv_staged with both solves from one staged
    factor, forced for every n <= 32 (STAGED_POTRS_RANGE serves the measured n): awkward sizes, the
    other triangle poisoned, odd batches; info of a zero and a NaN diagonal entry mid batch."""
    trsv = pytest.importorskip("linalg._cuda.trsv")
    monkeypatch.setattr(trsv, "STAGED_POTRS_RANGE", trsv.STAGED_EVERY_N)
    gen = rng(17)
    for n in (1, 2, 7, 16, 17, 31, 32):
        for batch in (1, 37, 1000):
            a = spd(n, batch, dtype, seed=n)
            b = gen.standard_normal((batch, n, 1)).astype(dtype)
            f, _ = gpu.potrf(cp.asarray(a), lower=lower)
            x, info = gpu.potrs(poison(cp, f, lower), cp.asarray(b), lower=lower)
            assert not info.get().any()
            assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD, (n, batch)
    check_vector_info(cp, gpu, 30, lower, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
def test_potrs_vector_lanes_and_row_vectors(cp, gpu, monkeypatch, lower, dtype):
    """One right-hand side by the fused trsv_warp launch at the sizes where cholesky's rules
    change lanes (8 / 16 / 32), row vectors (1 / 2 / 4) and cap the registers, odd n (single
    loads: their own lanes and cap) included: the launch takes the rules' values for the vector
    the factor's alignment allows, the other triangle is poisoned, every matrix is solved."""
    chol = pytest.importorskip("linalg._cuda.cholesky")
    trsv = pytest.importorskip("linalg._cuda.trsv")
    tri = pytest.importorskip("linalg._cuda.triangular")
    monkeypatch.setattr(tri, "vendor_below", lambda op, dt, n: 0)     # small batches: ours,
    monkeypatch.setattr(trsv, "BLOCK_BELOW", {})                       # on trsv_warp
    monkeypatch.setattr(trsv, "SPLIT_BLOCKS", {})
    seen = []
    config = trsv._warp_config

    def spy(device, dt, batch, n, warps, width, maxreg=None, fresh=False, vec=1):
        seen.append((width, maxreg, vec))                   # the launch's settings
        return config(device, dt, batch, n, warps, width, maxreg, fresh, vec)
    monkeypatch.setattr(trsv, "_warp_config", spy)
    gen = rng(29)
    item = numpy.dtype(dtype).itemsize
    for n in (20, 24, 36, 40, 48, 57, 64, 96, 129, 130, 192):    # not 25-32: trsv_staged
        a = spd(n, 37, dtype, seed=n)
        b = gen.standard_normal((37, n, 1)).astype(dtype)
        f, _ = gpu.potrf(cp.asarray(a), lower=lower)
        seen.clear()
        x, info = gpu.potrs(poison(cp, f, lower), cp.asarray(b), lower=lower)
        want_vec = chol.potrs_vector_width(n, item)
        while n % want_vec:
            want_vec //= 2
        assert seen == [(chol.potrs_width(n, item, want_vec),
                         chol.potrs_register_cap(n, item, want_vec), want_vec)]
        assert not info.get().any()
        assert _solve_residual(a, x.get(), b, dtype) < THRESHOLD, n
