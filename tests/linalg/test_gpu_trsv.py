"""GPU batched TRSV (linalg/_cuda/trsv.py, kernels/trsv.cu): scaled residuals
||op(A) x - b|| / (n ||A|| ||x|| eps) for lower/upper x N/T x unit x float32/float64 x awkward
sizes x batches, and info (first zero/non-finite diagonal) computed on the device.
"""
import itertools

import numpy
import pytest

from .helpers import THRESHOLD, rng, random_matrix, random_triangular, scaled_residual, fro, \
    to_numpy

pytestmark = pytest.mark.gpu

cupy = pytest.importorskip("cupy")
trsv_mod = pytest.importorskip("linalg._cuda.trsv")

REAL = (numpy.float32, numpy.float64)
SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 33, 100, 255, 256, 257)


def _case(n, batch, lower, trans, unit, dtype, params=None, path=None):
    g = rng(n * 131 + batch + 7 * lower + 3 * (trans == "T") + unit)
    a = random_triangular(g, batch, n, dtype, lower=lower, unit_diagonal=unit)
    # The other triangle holds garbage: it must never be read.
    junk = random_matrix(g, (batch, n, n), dtype) * 1e3
    idx = numpy.arange(n)
    other = (idx[:, None] < idx[None, :]) if lower else (idx[:, None] > idx[None, :])
    a_full = numpy.where(other[None], junk, a)
    if unit:
        a_full[:, idx, idx] = numpy.nan      # unit diagonal: never read either
    b = random_matrix(g, (batch, n), dtype)
    x, info = trsv_mod.trsv(cupy.asarray(a_full), cupy.asarray(b), lower=lower, trans=trans,
                            unit_diagonal=unit, _params=params, _path=path)
    x, info = to_numpy(x), to_numpy(info)
    assert x.shape == (batch, n) and info.shape == (batch,) and info.dtype == numpy.int32
    assert (info == 0).all()
    op = a.astype(numpy.float64) if trans == "N" else numpy.swapaxes(a, 1, 2).astype(numpy.float64)
    r = numpy.einsum("kij,kj->ki", op, x.astype(numpy.float64)) - b
    res = scaled_residual(r, fro(a) * fro(x), n, dtype)
    assert res < THRESHOLD, (n, batch, lower, trans, unit, dtype, params, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("unit", [False, True])
def test_trsv_all_variants(dtype, lower, trans, unit):
    for n in SIZES:
        for batch in ((1, 3, 1000) if n <= 33 else (1, 3)):
            _case(n, batch, lower, trans, unit, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", [{"kernel": "warp", "warps": 1},
                                    {"kernel": "warp", "warps": 8},
                                    {"kernel": "warp", "warps": 2, "width": 4, "maxreg": 64},
                                    {"kernel": "warp", "warps": 4, "width": 8},
                                    {"kernel": "warp", "warps": 2, "width": 16},
                                    {"kernel": "warp", "warps": 1, "width": 32}],
                         ids=["warp1", "warp8", "width4", "width8", "width16", "width32"])
def test_trsv_forced_parameters(dtype, params):
    for n in (1, 5, 8, 9, 16, 17, 33, 100, 257):
        for lower in (True, False):
            for trans in ("N", "T"):
                _case(n, 5, lower, trans, False, dtype, params, "kernel")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("width", [4, 8, 16, 32])
@pytest.mark.parametrize("vec", [2, 4])
def test_trsv_row_vector_loads(dtype, width, vec):
    """trsv_warp's VEC-wide row loads (kernels/trsv.cu), every variant: n a multiple of the
    vector (partial last blocks of rows, n below one block) and n that is not (the launcher
    falls back to single loads); the other triangle and the unit diagonal hold junk / NaN, which
    the vector loads of the diagonal blocks read and must drop."""
    params = {"kernel": "warp", "warps": 2, "width": width, "vec": vec}
    for n in (4, 8, 12, 36, 64, 100, 128, 257):
        for lower, trans, unit in itertools.product((True, False), "NT", (False, True)):
            _case(n, 5, lower, trans, unit, dtype, params, "kernel")


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_row_vector_needs_alignment(dtype):
    """row_vector gives the widest vector width for which every row load is aligned: a view
    starting one element in, an odd leading dimension or an odd n fall back to 1, n = 2 mod 4
    to 2; each view is still solved (the vector instantiation on the aligned one)."""
    g = rng(3)
    n = 64
    big = cupy.asarray(random_matrix(g, (4, n + 1, n + 4), dtype))
    aligned = big[:, :n, :n]
    assert trsv_mod.row_vector(aligned, 4) == min(4, 16 // big.itemsize)
    assert trsv_mod.row_vector(big[:, :n, 1:n + 1], 2) == 1            # base one element in
    odd_lda = cupy.ascontiguousarray(big[:, :n, :n + 1])[:, :, :n]
    assert trsv_mod.row_vector(odd_lda, 2) == 1
    assert trsv_mod.row_vector(big[:, :n - 1, :n - 1], 2) == 1          # n odd
    assert trsv_mod.row_vector(big[:, :n - 2, :n - 2], 4) == 2          # n = 2 mod 4
    for a in (aligned, big[:, :n, 1:n + 1], odd_lda):
        a[:, numpy.arange(n), numpy.arange(n)] += 4 * n                 # in place: the views
        b = cupy.asarray(random_matrix(g, (4, n), dtype))
        x, info = trsv_mod.trsv(a, b.copy(), _params={"kernel": "warp", "width": 16, "vec": 2},
                                _path="kernel")
        t = numpy.tril(to_numpy(a)).astype(numpy.float64)
        xs = to_numpy(x).astype(numpy.float64)
        r = numpy.einsum("kij,kj->ki", t, xs) - to_numpy(b)
        assert not to_numpy(info).any()
        assert scaled_residual(r, fro(t) * fro(xs), n, dtype) < THRESHOLD


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("path", ["kernel", "vendor"])
def test_trsv_both_paths(dtype, path):
    """Our kernel and the cuBLAS trsm fallback (the table's crossover), forced, every variant."""
    for n in (1, 7, 32, 33, 64, 100, 257):
        for lower in (True, False):
            for trans in ("N", "T"):
                for unit in (False, True):
                    _case(n, 3, lower, trans, unit, dtype, path=path)
    _case(3, 1_000_000, True, "N", False, dtype, path=path)
    _case(64, 1, False, "T", False, dtype, path=path)


def test_trsv_empty_never_launches():
    x, info = trsv_mod.trsv(cupy.zeros((0, 4, 4)), cupy.zeros((0, 4)))
    assert x.shape == (0, 4) and info.shape == (0,)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("path", [None, "kernel", "vendor"])
def test_trsv_info_zero_and_nonfinite_diagonal(dtype, path):
    g = rng(3)
    n = 40
    a, b = bad_diagonal_batch(g, n, True, dtype, 33)
    x, info = trsv_mod.trsv(cupy.asarray(a), cupy.asarray(b), lower=True, _path=path)
    assert to_numpy(info).tolist() == [0, 6, 34, 1]
    x0 = to_numpy(x)[0]
    r = a[0].astype(numpy.float64) @ x0 - b[0]
    assert scaled_residual(r[None], fro(a[:1]) * fro(x0[None]), n, dtype) < THRESHOLD
    _, info_unit = trsv_mod.trsv(cupy.asarray(a), cupy.asarray(b), lower=True,
                                 unit_diagonal=True, _path=path)
    assert to_numpy(info_unit).tolist() == [0, 0, 0, 0]


def bad_diagonal_batch(g, n, lower, dtype, inf_at):
    """Four triangles and right-hand sides: matrix 1 with zeros at diagonal entries 5 and 20,
    2 with inf at ``inf_at``, 3 with NaN at 0 (info [0, 6, inf_at + 1, 1])."""
    a = random_triangular(g, 4, n, dtype, lower=lower)
    a[1, 5, 5] = 0
    a[1, 20, 20] = 0
    a[2, inf_at, inf_at] = numpy.inf
    a[3, 0, 0] = numpy.nan
    return a, random_matrix(g, (4, n), dtype)


def test_trsv_complex_falls_back():
    g = rng(9)
    a = random_triangular(g, 3, 6, numpy.complex128, lower=False)
    b = random_matrix(g, (3, 6), numpy.complex128)
    x, info = trsv_mod.trsv(cupy.asarray(a), cupy.asarray(b), lower=False, trans="C")
    x = to_numpy(x)
    r = numpy.einsum("kji,kj->ki", a.conj(), x) - b
    assert numpy.abs(r).max() < 1e-10 and (to_numpy(info) == 0).all()


def test_trsv_huge_batch_grid_stride():
    _case(3, 1_000_000, True, "N", False, numpy.float32)


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_strided_operands(dtype):
    """Views with a leading dimension > n and a strided x: the warp kernel and the cuBLAS path
    take the strides."""
    check_strided_operands(37, dtype, (None, "kernel", "vendor"))


def check_strided_operands(n, dtype, paths):
    """A view with a leading dimension > n and x every other element of a buffer, each variant
    on each path: solved, and x's neighbours untouched."""
    g = rng(21)
    batch = 6
    big = random_matrix(g, (batch, n + 5, n + 3), dtype)
    a = big[:, :n, :n]
    a[:, numpy.arange(n), numpy.arange(n)] += 4 * n
    xbig = random_matrix(g, (batch, n, 2), dtype)
    for lower, trans, path in itertools.product((True, False), "NT", paths):
        xg = cupy.asarray(xbig)
        x, info = trsv_mod.trsv(cupy.asarray(big)[:, :n, :n], xg[:, :, 1], lower=lower,
                                trans=trans, _path=path)
        assert not to_numpy(info).any()
        t = numpy.tril(a) if lower else numpy.triu(a)
        op = t if trans == "N" else numpy.swapaxes(t, 1, 2)
        xs = to_numpy(x).astype(numpy.float64)
        r = numpy.einsum("kij,kj->ki", op.astype(numpy.float64), xs) - xbig[:, :, 1]
        assert scaled_residual(r, fro(t) * fro(xs), n, dtype) < THRESHOLD
        assert numpy.array_equal(to_numpy(xg)[:, :, 0], xbig[:, :, 0])   # untouched


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_staged_kernel(monkeypatch, dtype):
    """kernels/trsv.cu trsv_staged forced for every n <= 32 (STAGED_RANGE serves the measured n):
    every variant and awkward size, 1 and 3 warps a block over odd batches, info of zero and
    non-finite diagonals in original order, strided operands, a huge batch (grid stride)."""
    monkeypatch.setattr(trsv_mod, "STAGED_RANGE", trsv_mod.STAGED_EVERY_N)
    for n in (1, 2, 3, 7, 15, 16, 17, 31, 32):
        for lower, trans, unit in itertools.product((True, False), "NT", (False, True)):
            _case(n, 1, lower, trans, unit, dtype)
            _case(n, 37, lower, trans, unit, dtype)
    monkeypatch.setattr(trsv_mod, "STAGED_WARPS", 3)
    _case(32, 1000, False, "T", False, dtype)
    _case(3, 1_000_000, True, "N", False, dtype)
    check_info_and_strides(30, dtype)


def check_info_and_strides(n, dtype):
    """Every variant on the default path: info of zero and non-finite diagonals in original
    order (bad_diagonal_batch, inf at n - 1), then check_strided_operands."""
    g = rng(5)
    for lower in (True, False):
        a, b = bad_diagonal_batch(g, n, lower, dtype, n - 1)
        for trans in "NT":
            _, info = trsv_mod.trsv(cupy.asarray(a), cupy.asarray(b), lower=lower, trans=trans)
            assert to_numpy(info).tolist() == [0, 6, n, 1], (lower, trans)
    check_strided_operands(n, dtype, (None,))


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_block_kernel(monkeypatch, dtype):
    """kernels/trsv.cu trsv_block (a block of warps a matrix, small batches) forced for every
    batch: every variant and awkward size above 32 (partial last block rows, n below and above
    one panel trip a warp), 1, 3, 8 and 16 warps (16 with a register cap), the row vectors and
    their single-load fallback, info in original order, strided operands, the fused one-vector
    POTRS, a batch beyond the grid (grid stride)."""
    monkeypatch.setattr(trsv_mod, "BLOCK_BELOW", {"float32": 1 << 40, "float64": 1 << 40})
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {})           # (else trsv_split)
    for n in (33, 47, 64, 100, 129, 255, 256, 512):
        for lower, trans, unit in itertools.product((True, False), "NT", (False, True)):
            _case(n, 1 if n > 256 else 3, lower, trans, unit, dtype)
    for warps, vec, maxreg in ((1, 1, None), (3, 2, None), (8, 4, None), (16, 2, 128)):
        monkeypatch.setattr(trsv_mod, "block_warps", lambda n, w=warps: w)
        monkeypatch.setattr(trsv_mod, "BLOCK_VEC", {"float32": vec, "float64": vec})
        if maxreg:
            launch = trsv_mod.launch_block
            monkeypatch.setattr(trsv_mod, "launch_block",
                                lambda *args, **kw: launch(*args, **kw, maxreg=maxreg))
        for n in (40, 97, 300):
            for lower, trans in itertools.product((True, False), "NT"):
                _case(n, 2, lower, trans, False, dtype)
    check_info_and_strides(70, dtype)


def force_split(monkeypatch):
    """Every TRSV / one-vector POTRS of n > 32 on trsv_split, whatever the batch and the tables."""
    from linalg._cuda import triangular
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {"float32": 1 << 40, "float64": 1 << 40})
    monkeypatch.setattr(trsv_mod, "small_batch", lambda op, a: False)
    monkeypatch.setattr(triangular, "small_batch", lambda op, a: False)


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_split_kernel(monkeypatch, dtype):
    """kernels/trsv.cu trsv_split (a block a 32-row block of a matrix, chained by flags) forced:
    every variant and awkward size above 32 (a partial last block row, two blocks, many), one
    matrix and several, a batch of more blocks than the GPU holds at once (the tickets), info in
    original order (found by later blocks too), strided operands. Every call relies on the one
    before it having left the workspace zeroed."""
    force_split(monkeypatch)
    for n in (33, 47, 64, 100, 129, 255, 256, 512):
        for lower, trans, unit in itertools.product((True, False), "NT", (False, True)):
            _case(n, 1 if n > 256 else 3, lower, trans, unit, dtype)
    _case(512, 300, True, "T", False, dtype)
    _case(100, 5000, False, "N", False, dtype)
    check_info_and_strides(70, dtype)


@pytest.mark.parametrize("dtype", REAL)
def test_trsv_split_other_stream_and_graph(monkeypatch, dtype):
    """trsv_split on a stream of its own (a workspace a stream) and replayed from a CUDA graph
    (each launch leaves its workspace zeroed, so every replay solves again): the same x as on
    the default stream."""
    force_split(monkeypatch)
    g = rng(44)
    n, batch = 200, 2
    a = cupy.asarray(random_triangular(g, batch, n, dtype, lower=True))
    b = cupy.asarray(random_matrix(g, (batch, n), dtype))
    want, _ = trsv_mod.trsv(a, b.copy())
    want = to_numpy(want)
    x, info = b.copy(), cupy.empty(batch, dtype=numpy.int32)
    device = cupy.cuda.runtime.getDevice()
    config = trsv_mod._split_config(device, a.dtype, False)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        workspace = trsv_mod._split_workspace(device, a.dtype, batch * n)    # the stream's
        trsv_mod._launch_split(config, a, x, x, True, 0, False, info, workspace)
        stream.synchronize()
        assert numpy.array_equal(to_numpy(x), want)
        stream.begin_capture()
        trsv_mod._launch_split(config, a, x, x, True, 0, False, info, workspace)
        graph = stream.end_capture()
        for _ in range(3):
            x[...] = b
            graph.launch(stream)
            stream.synchronize()
            assert numpy.array_equal(to_numpy(x), want) and not to_numpy(info).any()


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
def test_potrs_vector_split_kernel(monkeypatch, dtype, lower):
    """The one-vector POTRS on trsv_split (two launches) against LAPACK's solve of A = L L^T /
    U^T U; the right-hand side kept when asked."""
    force_split(monkeypatch)
    check_potrs_vector(dtype, lower, (33, 64, 100, 257, 512))
    check_potrs_vector(dtype, lower, (129,), batch=1)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
def test_potrs_vector_block_kernel(monkeypatch, dtype, lower):
    """The one-vector POTRS on trsv_block (both solves in one launch) for small batches, against
    LAPACK's solve of A = L L^T / U^T U; the right-hand side kept when asked."""
    monkeypatch.setattr(trsv_mod, "BLOCK_BELOW", {"float32": 1 << 40, "float64": 1 << 40})
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {})           # (else trsv_split)
    check_potrs_vector(dtype, lower)


def check_potrs_vector(dtype, lower, sizes=(33, 64, 100, 257), batch=3):
    """cholesky.potrs with one vector against LAPACK's solve of A = L L^T / U^T U, b kept."""
    from linalg._cuda import cholesky
    for n in sizes:
        g = rng(n)
        t = random_triangular(g, batch, n, dtype, lower=lower).astype(numpy.float64)
        t[:, numpy.arange(n), numpy.arange(n)] = numpy.abs(t[:, numpy.arange(n),
                                                              numpy.arange(n)]) + n
        a = t @ numpy.swapaxes(t, 1, 2) if lower else numpy.swapaxes(t, 1, 2) @ t
        b = random_matrix(g, (batch, n, 1), dtype)
        bg = cupy.asarray(b)
        x, info = cholesky.potrs(cupy.asarray(t.astype(dtype)), bg, lower, keep=("b",))
        xs = to_numpy(x).astype(numpy.float64)
        assert not to_numpy(info).any() and numpy.array_equal(to_numpy(bg), b)
        r = numpy.einsum("kij,kjl->kil", a, xs) - b
        assert scaled_residual(r, fro(a) * fro(xs), n, dtype) < THRESHOLD, n
