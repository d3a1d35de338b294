"""GPU GEMM and GEMV (linalg/_cuda/blas.py, kernels/gemm.cu, kernels/gemv.cu) against float64
NumPy references with LAPACK-style scaled residuals.

Every variant (transa/transb, trans, alpha/beta) x float32/float64 x awkward and hydro sizes x
batches 1, 3, 1000 (1000 for sizes whose batch stays small in memory). Each size runs through the
production dispatch (tuned table, which may pick cuBLAS) and through forced kernel parameters, so
our kernels are exercised at every size whatever the table says.
"""
import numpy
import pytest

from .helpers import THRESHOLD, rng, random_matrix, scaled_residual, fro, to_numpy

pytestmark = pytest.mark.gpu

cupy = pytest.importorskip("cupy")
blas = pytest.importorskip("linalg._cuda.blas")

REAL = (numpy.float32, numpy.float64)
SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 33, 100, 255, 256, 257)
HYDRO = ((18, 4, 16), (32, 9, 36), (81, 8, 64), (192, 27, 216), (375, 64, 512))  # (m, n, q)
SCALARS = ((1.0, 0.0), (-0.5, 2.0))


def _batches(elements):
    """Batches for a problem of `elements` numbers per matrix: 1000 only where it stays small."""
    return (1, 3, 1000) if elements * 1000 <= 4_000_000 else (1, 3)


def _op(x, t):
    return x if t == "N" else numpy.swapaxes(x, 1, 2)


# ---------------------------------------------------------------------------------------------
# GEMM

GEMM_FORCED = ({"cfg": "t16", "mpb": 2}, {"cfg": "h64x8", "mpb": 1}, {"cfg": "t4", "mpb": 8})


def _gemm_case(m, n, k, batch, ta, tb, alpha, beta, dtype, params=None, bcast_b=False, path=None):
    g = rng(m * 7919 + n * 104729 + k * 31 + batch)
    a = random_matrix(g, (batch, m, k) if ta == "N" else (batch, k, m), dtype)
    bb = 1 if bcast_b else batch
    b = random_matrix(g, (bb, k, n) if tb == "N" else (bb, n, k), dtype)
    c = random_matrix(g, (batch, m, n), dtype)
    ref = alpha * (_op(a.astype(numpy.float64), ta) @ _op(b.astype(numpy.float64), tb))
    if beta != 0:
        ref = ref + beta * c.astype(numpy.float64)
    out = blas.gemm(cupy.asarray(a), cupy.asarray(b), cupy.asarray(c), transa=ta, transb=tb,
                    alpha=alpha, beta=beta, _params=params, _path=path)
    out = to_numpy(out)
    assert out.shape == (batch, m, n) and out.dtype == numpy.dtype(dtype)
    scale = abs(alpha) * fro(a) * (fro(b) if not bcast_b else fro(b)[0]) + abs(beta) * fro(c)
    res = scaled_residual(out - ref, scale, max(k, 1), dtype)
    assert numpy.isfinite(out).all()
    assert res < THRESHOLD, (m, n, k, batch, ta, tb, alpha, beta, dtype, params, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("alpha,beta", SCALARS)
def test_gemm_square_all_variants(dtype, ta, tb, alpha, beta):
    for n in SIZES:
        for batch in _batches(3 * n * n):
            _gemm_case(n, n, n, batch, ta, tb, alpha, beta, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", GEMM_FORCED, ids=lambda p: p["cfg"])
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
def test_gemm_forced_kernel(dtype, params, ta, tb):
    for n in SIZES:
        batch = 3 if n > 33 else 1000
        _gemm_case(n, n, n, batch, ta, tb, -0.5, 2.0, dtype, params)
    for m, n, k in ((7, 3, 17), (33, 1, 2), (1, 40, 5), (100, 7, 33)):
        _gemm_case(m, n, k, 3, ta, tb, 1.0, 0.0, dtype, params)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("shape", HYDRO, ids=lambda s: f"{s[0]}x{s[1]}x{s[2]}")
@pytest.mark.parametrize("bcast_b", [False, True])
def test_gemm_hydro_azbt(dtype, shape, bcast_b):
    """F_z = A_z B^T: A_z (m x q), B (n x q), F (m x n), with one B for all zones or one each."""
    m, n, q = shape
    for batch in _batches(m * q):
        _gemm_case(m, n, q, batch, "N", "T", 1.0, 0.0, dtype, bcast_b=bcast_b)
        _gemm_case(m, n, q, batch, "N", "T", 1.0, 0.0, dtype, {"cfg": "h64x8", "mpb": 2},
                   bcast_b=bcast_b)
    if bcast_b:     # the streaming kernel for one shared B, every column split and row chunk
        for params in ({"cfg": "tall", "nc": 4, "rp": 64}, {"cfg": "tall", "nc": 8, "rp": 128},
                       {"cfg": "tall", "nc": 16, "rp": 256}):
            _gemm_case(m, n, q, 1000 if m * q <= 4000 else 37, "N", "T", -0.5, 2.0, dtype,
                       params, bcast_b=True)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("tb", ["N", "T"])
def test_gemm_shared_b_streaming_kernel(dtype, tb):
    """One B for the whole batch through gemm_tall: odd sizes, both op(B), unaligned A."""
    for m, n, k in ((1, 1, 1), (7, 3, 5), (33, 17, 31), (100, 33, 2), (5, 64, 100)):
        for params in ({"cfg": "tall", "nc": 4, "rp": 32}, {"cfg": "tall", "nc": 16, "rp": 128}):
            _gemm_case(m, n, k, 1000, "N", tb, 1.0, 0.0, dtype, params, bcast_b=True)
            _gemm_case(m, n, k, 3, "N", tb, -0.5, 2.0, dtype, params, bcast_b=True)


STREAM_FORCED = ({"cfg": "stream"}, {"cfg": "stream", "nc": 3, "rp": 32, "stages": 2},
                 {"cfg": "stream", "nc": 9, "rp": 128, "stages": 6, "pad": False},
                 {"cfg": "stream", "nc": 9, "rp": 64, "stages": 2, "wide": True},
                 {"cfg": "stream", "nc": 3, "rp": 32, "stages": 3, "wide": True},
                 {"cfg": "stream", "nc": 16, "rp": 64, "stages": 3},
                 {"cfg": "stream", "nc": 8, "rp": 256, "stages": 16, "pad": False})


def _one_b_cases(kind, shapes, tb, dtype, params):
    """Each (m, n, k, batch) of ``shapes`` with one B through the forced ``params``: the plan is
    ``kind``, the product right, and with alpha / beta too where the batch is below 3000."""
    for m, n, k, batch in shapes:
        assert _gemm_plan_kind(m, n, k, batch, "N", tb, dtype, params, shared_b=True) == kind
        _gemm_case(m, n, k, batch, "N", tb, 1.0, 0.0, dtype, params, bcast_b=True)
        if batch < 3000:
            _gemm_case(m, n, k, batch, "N", tb, -0.5, 2.0, dtype, params, bcast_b=True)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("tb", ["N", "T"])
@pytest.mark.parametrize("params", STREAM_FORCED, ids=lambda p: "-".join(map(str, p.values())))
def test_gemm_shared_b_bulk_copy_kernel(dtype, tb, params):
    """One B for the whole batch through gemm_stream (rows fed by the bulk copy engine): the
    hydro shapes, rows that leave a partial chunk, columns that leave a partial group, alpha /
    beta, and 40 960 zones (each block's ring of buffers wraps around many times)."""
    item = numpy.dtype(dtype).itemsize
    _one_b_cases("stream", ((32, 9, 36, 1000), (18, 4, 16, 1000), (81, 8, 64, 37),
                            (192, 27, 216, 5), (7, 5, 16 // item * 3, 333), (1, 1, 16, 1),
                            (32, 9, 36, 40960)), tb, dtype, params)
    # rows of k elements that are no whole number of 16-byte pieces: gemm_tall instead
    assert _gemm_plan_kind(32, 9, 35, 100, "N", tb, dtype, params, shared_b=True) == "tall"
    _gemm_case(32, 9, 35, 100, "N", tb, 1.0, 0.0, dtype, params, bcast_b=True)


MMA_FORCED = ({"cfg": "mma"}, {"cfg": "mma", "mt": 1, "nbw": 2, "ch": 1, "rb": 32, "kc": 1},
              {"cfg": "mma", "mt": 1, "nbw": 4, "ch": 2, "rb": 48, "kc": 5, "stages": 4},
              {"cfg": "mma", "mt": 2, "nbw": 2, "ch": 2, "rb": 64, "kc": 27, "stages": 3},
              {"cfg": "mma", "mt": 2, "nbw": 4, "ch": 1, "rb": 256, "kc": 8, "stages": 2},
              {"cfg": "mma", "mt": 1, "nbw": 2, "ch": 2, "rb": 16, "kc": 3, "stages": 5})


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("tb", ["N", "T"])
@pytest.mark.parametrize("params", MMA_FORCED, ids=lambda p: "-".join(map(str, p.values())))
def test_gemm_shared_b_tensor_core_kernel(dtype, tb, params):
    """One B for the whole batch through gemm_stream_mma (DMMA fragments, items of rows x k
    steps fed by the bulk copy engine): the hydro shapes with k a multiple of 8, rows that leave
    a partial item and a partial m tile, zero n tiles past n (n = 3, 5, 17, 27), k steps that
    leave a short last item, alpha / beta, and 3000 zones of 192 x 216 (each block's ring
    wraps around many times)."""
    _one_b_cases("mma", ((192, 27, 216, 5), (18, 4, 16, 1000), (81, 8, 64, 37), (7, 5, 24, 333),
                         (1, 1, 8, 1), (33, 17, 40, 100), (50, 3, 88, 9), (192, 27, 216, 3000)),
                 tb, dtype, params)
    # k not a multiple of 8: cuBLAS instead (gemm_stream where our kernels are forced)
    assert _gemm_plan_kind(32, 9, 36, 100, "N", tb, dtype, params, shared_b=True) == "vendor"
    _gemm_case(32, 9, 36, 100, "N", tb, 1.0, 0.0, dtype, params, bcast_b=True)
    _gemm_case(32, 9, 36, 100, "N", tb, 1.0, 0.0, dtype, params, bcast_b=True, path="kernel")


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("tb", ["N", "T"])
def test_gemm_public_one_b_for_a_batch(dtype, tb):
    """The public linalg.gemm with one B (1, rb, cb) for a batch of A: small batches (the
    batched kernels with B's batch stride 0) and 5000 hydro zones (on a GPU whose table streams
    the tall class, folded into one tall A: blas._folds_to_tall; 500 zones of 192 x 216 fold
    into gemm_stream_mma on the H200), with c and beta."""
    import linalg
    for m, n, k, batch in ((32, 9, 36, 3), (32, 9, 36, 5000), (18, 4, 16, 5000), (7, 5, 3, 40),
                           (192, 27, 216, 500)):
        g = rng(batch * 31 + m)
        a = random_matrix(g, (batch, m, k), dtype)
        b = random_matrix(g, (1, n, k) if tb == "T" else (1, k, n), dtype)
        c = random_matrix(g, (batch, m, n), dtype)
        ref = a.astype(numpy.float64) @ _op(b.astype(numpy.float64), tb)[0]
        for alpha, beta in SCALARS:
            out = to_numpy(linalg.gemm(cupy.asarray(a), cupy.asarray(b), cupy.asarray(c),
                                       transb=tb, alpha=alpha, beta=beta))
            expect = alpha * ref + beta * c.astype(numpy.float64)
            scale = abs(alpha) * fro(a) * fro(b)[0] + abs(beta) * fro(c)
            res = scaled_residual(out - expect, scale, k, dtype)
            assert out.shape == (batch, m, n) and res < THRESHOLD, (m, n, k, batch, res)


DOUBLE_BUFFERED = {"kernel": "small", "rm": 4, "rn": 2, "threads": 256, "smem_target": 16384,
                   "kc": True, "stages": 2}


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("tb", ["N", "T"])
@pytest.mark.parametrize("rows_path,rows_params", [("kernel", None), ("vendor", None),
                                                   ("kernel", DOUBLE_BUFFERED)])
def test_gemm_tall_a_by_rows(dtype, tb, rows_path, rows_params):
    """One tall A (1, m, k) with one B (hydro's zones folded into the rows) run as m // rows
    matrices of ``rows`` rows and one more call for the m % rows rows left: whole and ragged
    row counts, both op(B), alpha / beta, our kernel (the blocks' class entry, or the rule's
    own parameters) and cuBLAS's batched call."""
    for m, n, k, rows in ((32 * 700, 9, 36, 32), (32 * 700 + 17, 9, 36, 64),
                          (18 * 501, 4, 16, 64), (192 * 20 + 5, 27, 216, 256), (100, 3, 5, 8)):
        for alpha, beta in SCALARS:
            _gemm_case(m, n, k, 1, "N", tb, alpha, beta, dtype,
                       {"rows": rows, "rows_path": rows_path, "rows_params": rows_params},
                       bcast_b=True)


def test_gemm_huge_batch_grid_stride():
    """10^6 matrices: the grid is capped, the kernel loops (no grid-limit failure)."""
    for dtype in REAL:
        _gemm_case(4, 4, 4, 1_000_000, "N", "N", 1.0, 0.0, dtype, {"cfg": "t4", "mpb": 16})
        _gemm_case(4, 4, 4, 1_000_000, "N", "N", 1.0, 0.0, dtype, {"kernel": "small", "mpb": 1})


# gemm_small (whole matrices staged in shared memory): shapes of every kind it takes (tiny,
# odd, the squares, rows/columns past the thread tiles, the hydro A_z B^T shapes, its largest
# square), each forced through its defaults and through tiles and groups that leave partial
# tiles, idle threads, one matrix per block and a grid-stride loop (one wave of blocks).
SMALL_SHAPES = ((1, 1, 1), (3, 5, 7), (4, 4, 4), (9, 9, 9), (16, 16, 16), (17, 3, 31),
                (18, 4, 16), (32, 9, 36), (81, 8, 64), (32, 32, 32))
SMALL_FORCED = ({"kernel": "small"}, {"kernel": "small", "kc": True},
                {"kernel": "small", "rm": 1, "rn": 1, "threads": 64, "mpb": 3, "stages": 2,
                 "waves": 1},
                {"kernel": "small", "rm": 4, "rn": 8, "threads": 256, "stages": 1, "waves": 1},
                {"kernel": "small", "rm": 2, "rn": 4, "threads": 32, "mpb": 1, "stages": 2,
                 "kc": False})


def _gemm_plan_kind(m, n, k, batch, ta, tb, dtype, params, shared_b=False):
    """The kind of kernel ("small", "tiled", "tall", "vendor") the launcher picks."""
    key = (numpy.dtype(dtype).name, batch, m, n, k, int(ta == "T"), int(tb == "T"), shared_b,
           True)
    return blas.cached_plan(blas._gemm_plan, key, params, None)[0]


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("params", SMALL_FORCED, ids=lambda p: "-".join(
    f"{k}{v}" for k, v in p.items() if k != "kernel") or "defaults")
def test_gemm_small_kernel(dtype, ta, tb, params):
    for m, n, k in SMALL_SHAPES:
        assert _gemm_plan_kind(m, n, k, 37, ta, tb, dtype, params) == "small"
        for alpha, beta in ((2.0, 0.5), (1.0, 0.0)):
            _gemm_case(m, n, k, 37, ta, tb, alpha, beta, dtype, params)
            _gemm_case(m, n, k, 37, ta, tb, alpha, beta, dtype, params, bcast_b=True)
        _gemm_case(m, n, k, 1, ta, tb, 2.0, 0.5, dtype, params)


@pytest.mark.parametrize("dtype", REAL)
def test_gemm_small_default_dispatch(dtype):
    """Without a table entry the small shapes take gemm_small, 33^3 does not (fallback)."""
    for m, n, k in SMALL_SHAPES:
        assert _gemm_plan_kind(m, n, k, 10, "N", "T", dtype, {"policy": "auto"}) == "small"
        _gemm_case(m, n, k, 10, "N", "T", 2.0, 0.5, dtype, path="kernel")
    assert _gemm_plan_kind(33, 33, 33, 10, "N", "N", dtype, {"policy": "auto"}) != "small"
    _gemm_case(33, 33, 33, 10, "N", "N", 2.0, 0.5, dtype, path="kernel")


@pytest.mark.parametrize("dtype", REAL)
def test_gemm_small_large_batch_grid_stride(dtype):
    """70000 matrices through one wave of resident blocks (each loops over several groups),
    single- and double-buffered."""
    for ta, tb in (("N", "N"), ("T", "T")):
        for m, n, k in ((3, 5, 7), (18, 4, 16)):
            for params in ({"kernel": "small", "mpb": 1, "waves": 1, "stages": 1},
                           {"kernel": "small", "waves": 1, "stages": 2}):
                _gemm_case(m, n, k, 70000, ta, tb, 2.0, 0.5, dtype, params)
                _gemm_case(m, n, k, 70000, ta, tb, 1.0, 0.0, dtype, params, bcast_b=True)


def test_gemm_small_unaligned_views():
    """A, B, C one element past a 16-byte boundary: element-wise staging copies (also for the
    k-contiguous variant, A "N" B "T", which copies 16-byte pieces when both are aligned)."""
    g = rng(11)
    for dtype in REAL:
        for (m, n, k), tb, shared in (((5, 3, 7), "N", False), ((16, 16, 16), "N", True),
                                      ((18, 4, 16), "T", True), ((32, 9, 36), "T", False)):
            a = random_matrix(g, (9, m, k), dtype)
            b = random_matrix(g, (1 if shared else 9,) + ((k, n) if tb == "N" else (n, k)),
                              dtype)

            def shifted(x):
                buf = cupy.empty(x.size + 1, dtype=x.dtype)
                buf[1:] = cupy.asarray(x).ravel()
                return buf[1:].reshape(x.shape)
            c = shifted(numpy.zeros((9, m, n), dtype))
            out = to_numpy(blas.gemm(shifted(a), shifted(b), c, transb=tb,
                                     _params={"kernel": "small", "kc": True}))
            ref = a.astype(numpy.float64) @ _op(b.astype(numpy.float64), tb)
            res = scaled_residual(out - ref, fro(a) * fro(b).max(), k, dtype)
            assert res < THRESHOLD, (m, n, k, tb, dtype, res)


# ---------------------------------------------------------------------------------------------
# GEMV

GEMV_N_FORCED = ({"vec": 1, "unroll": 1, "tx": 0, "block": 128, "maxreg": 80},
                 {"vec": 4, "unroll": 4, "tx": 8, "block": 256},
                 {"kernel": "team", "vec": 2, "unroll": 4, "team": 32, "block": 256},
                 {"kernel": "team", "vec": 1, "unroll": 2, "team": 128, "block": 256},
                 {"kernel": "team", "vec": 4, "unroll": 1, "team": 8, "block": 128},
                 {"kernel": "warp", "warps": 1}, {"kernel": "warp", "warps": 8},
                 {"kernel": "warp", "warps": 2, "vec": 2}, {"kernel": "warp", "warps": 4, "vec": 4})
# gemv_staged: its defaults, one matrix per tile with the widest group, small tiles whose
# matrices straddle 16-byte boundaries, and a tile larger than the default.
GEMV_STAGED_FORCED = ({"kernel": "staged"},
                      {"kernel": "staged", "tile_bytes": 1, "group": 32, "block": 64},
                      {"kernel": "staged", "tile_bytes": 1000, "group": 2, "block": 128,
                       "maxreg": 40},
                      {"kernel": "staged", "tile_bytes": 65536, "group": 8, "block": 512})
# gemv_stream (the bulk copy engine feeding a ring of tiles): its defaults, tiles of the fewest
# matrices (a few bytes past the last 16-byte piece copied by hand), lanes per dot product from
# 1 to 32 (GEMV-N rows of 16-byte pieces: fewer, as many or more lanes than pieces), rings of 2
# to 5 buffers, a tile larger than the default.
GEMV_STREAM_FORCED = ({"kernel": "stream"},
                      {"kernel": "stream", "tile_bytes": 1, "group": 32, "block": 64,
                       "stages": 3},
                      {"kernel": "stream", "tile_bytes": 1000, "group": 1, "block": 128,
                       "stages": 5},
                      {"kernel": "stream", "tile_bytes": 4096, "group": 2, "block": 256,
                       "stages": 2},
                      {"kernel": "stream", "tile_bytes": 65536, "group": 4, "block": 512})
GEMV_N_FORCED += GEMV_STAGED_FORCED + GEMV_STREAM_FORCED
GEMV_T_FORCED = ({"vec": 1, "unroll": 1, "team": 8, "block": 128},
                 {"vec": 4, "unroll": 2, "team": 64, "block": 256},
                 {"vec": 2, "unroll": 4, "team": 256, "block": 256}) + GEMV_STAGED_FORCED + \
    GEMV_STREAM_FORCED


def _gemv_case(m, n, batch, trans, alpha, beta, dtype, params=None, offset=0, path=None):
    g = rng(m * 7919 + n * 31 + batch)
    a = random_matrix(g, (batch, m, n), dtype)
    xl, yl = (n, m) if trans == "N" else (m, n)
    x = random_matrix(g, (batch, xl), dtype)
    y = random_matrix(g, (batch, yl), dtype)
    ref = alpha * numpy.einsum("kij,kj->ki", _op(a.astype(numpy.float64), trans), x)
    if beta != 0:
        ref = ref + beta * y
    a_d = cupy.asarray(a)
    if offset:      # an unaligned base pointer (a view): the launcher must drop to VEC=1
        buf = cupy.empty(a.size + offset, dtype=a.dtype)
        buf[offset:] = a_d.ravel()
        a_d = buf[offset:].reshape(a.shape)
    out = to_numpy(blas.gemv(a_d, cupy.asarray(x), cupy.asarray(y), trans=trans, alpha=alpha,
                             beta=beta, _params=params, _path=path))
    assert out.shape == (batch, yl)
    scale = abs(alpha) * fro(a) * fro(x) + abs(beta) * fro(y)
    res = scaled_residual(out - ref, scale, max(xl, 1), dtype)
    assert res < THRESHOLD, (m, n, batch, trans, alpha, beta, dtype, params, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("alpha,beta", SCALARS)
def test_gemv_square(dtype, trans, alpha, beta):
    for n in SIZES:
        for batch in _batches(n * n):
            _gemv_case(n, n, batch, trans, alpha, beta, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv_hydro_and_rectangular(dtype, trans):
    shapes = [(m, n) for m, n, _ in HYDRO] + [(n, m) for m, n, _ in HYDRO] + \
             [(7, 3), (3, 7), (1, 33), (33, 1), (100, 17), (17, 255)]
    for m, n in shapes:
        for batch in _batches(m * n):
            _gemv_case(m, n, batch, trans, 1.0, 0.0, dtype)
            _gemv_case(m, n, 3, trans, -0.5, 2.0, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv_forced_parameters(dtype, trans):
    forced = GEMV_N_FORCED if trans == "N" else GEMV_T_FORCED
    for params in forced:
        for m, n in [(s, s) for s in SIZES] + [(18, 4), (32, 9), (81, 8), (192, 27), (375, 64)]:
            batch = 1000 if m * n <= 4000 else 3
            _gemv_case(m, n, batch, trans, -0.5, 2.0, dtype, params)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv_unaligned_base(dtype, trans):
    for m, n in ((81, 8), (32, 9), (16, 16)):
        _gemv_case(m, n, 5, trans, 1.0, 0.0, dtype, offset=1)
        for params in GEMV_STAGED_FORCED:    # staged loads start at the aligned address below
            _gemv_case(m, n, 37, trans, 1.0, 0.5, dtype, params, offset=3)
        for params in GEMV_STREAM_FORCED:    # no bulk copy from there: gemv_staged instead
            _gemv_case(m, n, 37, trans, 1.0, 0.5, dtype, params, offset=3)
        if trans == "N":                     # gemv_n_warp's row vectors drop to single loads
            _gemv_case(m, n, 5, trans, 1.0, 0.0, dtype, {"kernel": "warp", "vec": 4}, offset=1)


@pytest.mark.parametrize("dtype", REAL)
def test_gemv_n_small_batches_of_big_matrices(dtype):
    """The flat kernel's small-batch rule (blas.GEMV_N_FLAT_ROWS) on both sides of its bound,
    odd row lengths and an unaligned base."""
    for m, n, batch in ((128, 128, 511), (128, 128, 512), (129, 300, 2), (300, 129, 1),
                        (512, 512, 3)):
        _gemv_case(m, n, batch, "N", -0.5, 2.0, dtype)
    _gemv_case(200, 131, 3, "N", 1.0, 0.0, dtype, offset=1)


def test_gemv_huge_batch_grid_stride():
    for trans in ("N", "T"):
        _gemv_case(2, 3, 1_000_000, trans, 1.0, 0.0, numpy.float32)
        _gemv_case(18, 4, 1_000_000, trans, 1.0, 0.0, numpy.float32, {"kernel": "staged"})
        _gemv_case(18, 4, 1_000_000, trans, 1.0, 0.0, numpy.float64, {"kernel": "stream"})


@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv_stream_is_what_runs_where_it_applies(trans):
    """gemv_stream where A and x are aligned (the forced tests above then test it), gemv_staged
    where either is not."""
    for dtype in ("float32", "float64"):
        for aligned, x_aligned, kernel in ((True, True, "gemv_stream"),
                                           (False, True, "gemv_staged"),
                                           (True, False, "gemv_staged")):
            key = (numpy.dtype(dtype), int(trans == "T"), 1000, 32, 9, aligned, x_aligned)
            plan = blas.cached_plan(blas._gemv_plan, key, {"kernel": "stream"}, None)
            assert plan[0].startswith(kernel), (dtype, aligned, x_aligned, plan)


@pytest.mark.parametrize("below", [{"kernel": "team", "team": 4, "vec": 4, "unroll": 2},
                                   {"use_vendor": True}])
def test_gemv_entry_below_batch_runs_its_small_batch_parameters(monkeypatch, below):
    """A table entry's "below" parameters on batches under its "below_batch", the entry's own
    (gemv_stream) from there: both right, N and T."""
    from linalg import _tuning
    entry = {"kernel": "stream", "block": 128, "group": 1, "stages": 2, "tile_bytes": 8192,
             "use_vendor": False, "below_batch": 50, "below": below}
    real_entries = _tuning.entries

    def entries(op, dtype, cls, gpu=None):
        if op in ("gemv_n", "gemv_t") and cls == "32x32":
            return [entry]
        return real_entries(op, dtype, cls, gpu)
    monkeypatch.setattr(_tuning, "entries", entries)
    blas._gemv_plan.cache_clear()
    try:
        for dtype in REAL:
            for trans in ("N", "T"):
                for batch in (3, 49, 50, 400):
                    key = (numpy.dtype(dtype), int(trans == "T"), batch, 20, 20, True, True)
                    plan = blas.cached_plan(blas._gemv_plan, key, None, None)
                    if batch >= 50:
                        assert plan[0].startswith("gemv_stream"), plan
                    else:
                        assert plan[0] == "vendor" if below.get("use_vendor") else \
                            plan[0].startswith("gemv_" + "nt"[trans == "T"] + "_team"), plan
                    _gemv_case(20, 20, batch, trans, -0.5, 2.0, dtype)
    finally:
        blas._gemv_plan.cache_clear()


def test_complex_falls_back_to_vendor():
    g = rng(5)
    a = random_matrix(g, (3, 5, 4), numpy.complex128)
    b = random_matrix(g, (3, 4, 6), numpy.complex128)
    out = to_numpy(blas.gemm(cupy.asarray(a), cupy.asarray(b)))
    numpy.testing.assert_allclose(out, a @ b, rtol=1e-12, atol=1e-12)
    x = random_matrix(g, (3, 5), numpy.complex64)
    y = to_numpy(blas.gemv(cupy.asarray(a.astype(numpy.complex64)), cupy.asarray(x), trans="C"))
    numpy.testing.assert_allclose(y, numpy.einsum("kij,ki->kj", a.conj(), x), rtol=1e-4,
                                  atol=1e-4)


def test_public_api_empty_batch():
    """Through the public layer, if it is in place: batch 0 returns an empty result."""
    import linalg
    try:
        out = linalg.gemm(cupy.zeros((0, 3, 4)), cupy.zeros((0, 4, 2)))
    except NotImplementedError:
        pytest.skip("public gemm not implemented yet")
    assert out.shape == (0, 3, 2)


# ---------------------------------------------------------------------------------------------
# Both paths of the crossover (linalg/tuning/*.json): our kernel and the vendor, forced

PATH_SIZES = ((4, 4, 4), (16, 16, 16), (33, 33, 33), (81, 8, 64), (192, 27, 216), (100, 7, 33))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("path", ["kernel", "vendor"])
@pytest.mark.parametrize("alpha,beta", SCALARS)
def test_gemm_both_paths(dtype, path, alpha, beta):
    for m, n, k in PATH_SIZES:
        for ta, tb in (("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")):
            _gemm_case(m, n, k, 3, ta, tb, alpha, beta, dtype, path=path)
        _gemm_case(m, n, k, 1000 if m * k <= 4000 else 37, "N", "T", alpha, beta, dtype,
                   bcast_b=True, path=path)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("path", ["kernel", "vendor"])
@pytest.mark.parametrize("trans", ["N", "T"])
def test_gemv_both_paths(dtype, path, trans):
    for m, n in ((4, 4), (32, 32), (64, 64), (81, 8), (192, 27), (375, 64), (7, 3), (1, 6),
                 (6, 1)):
        for alpha, beta in SCALARS:
            _gemv_case(m, n, 3, trans, alpha, beta, dtype, path=path)
        _gemv_case(m, n, 1, trans, 1.0, 0.0, dtype, path=path)


@pytest.mark.parametrize("path", ["kernel", "vendor"])
def test_both_paths_batch_one_and_huge(path):
    _gemv_case(2, 3, 1_000_000, "N", 1.0, 0.0, numpy.float32, path=path)
    _gemm_case(4, 4, 4, 1_000_000, "N", "N", 1.0, 0.0, numpy.float32, path=path)
    _gemv_case(40, 40, 1, "N", -0.5, 2.0, numpy.float64, path=path)
    _gemm_case(40, 40, 40, 1, "N", "N", -0.5, 2.0, numpy.float64, path=path)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("ta,tb", [("N", "N"), ("N", "T"), ("T", "N"), ("T", "T")])
@pytest.mark.parametrize("bcast_b", [False, True])
def test_vendor_gemm_writes_views_in_place(dtype, ta, tb, bcast_b):
    """The cuBLAS path writes c in place (one gemmStridedBatched call, alpha/beta applied by it)
    on sliced views with padded rows, and never reads c when beta = 0 (NaN there)."""
    g = rng(5)
    batch, m, n, k = 5, 7, 6, 9
    big_a = cupy.asarray(random_matrix(g, (batch, 12, 12), dtype))
    big_b = cupy.asarray(random_matrix(g, (1 if bcast_b else batch, 12, 12), dtype))
    a = big_a[:, :m, :k] if ta == "N" else big_a[:, :k, :m]
    b = big_b[:, :k, :n] if tb == "N" else big_b[:, :n, :k]
    ref_ab = _op(to_numpy(a).astype(numpy.float64), ta) @ _op(to_numpy(b).astype(numpy.float64), tb)
    for alpha, beta in ((1.0, 0.0), (-0.5, 2.0)):
        big_c = cupy.asarray(random_matrix(g, (batch, 10, 10), dtype))
        if beta == 0:
            big_c[:] = numpy.nan
        c = big_c[:, :m, :n]
        c_before = to_numpy(c).astype(numpy.float64)
        out = blas.gemm(a, b, c, transa=ta, transb=tb, alpha=alpha, beta=beta, _path="vendor")
        assert out is c
        ref = alpha * ref_ab + (beta * c_before if beta != 0 else 0)
        scale = abs(alpha) * fro(to_numpy(a)) * fro(to_numpy(b)).max() + (
            abs(beta) * fro(c_before) if beta != 0 else 0)
        assert scaled_residual(to_numpy(out) - ref, scale, k, dtype) < THRESHOLD
        assert numpy.isnan(to_numpy(big_c)[:, m:, :]).all() == (beta == 0)   # padding untouched


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("layout", ["strided y", "padded rows"])
def test_vendor_gemv_writes_y_in_place(dtype, trans, layout):
    """The cuBLAS path writes y in place from a strided x, alpha / beta: a strided y, or a
    contiguous y from matrices sliced out of larger ones (rows apart by more than their
    length); y (and a strided y's gaps) never read where beta = 0 (NaN there)."""
    g = rng(6)
    batch, m, n = 6, 11, 7
    big_a = cupy.asarray(random_matrix(g, (batch, 16, 16), dtype))
    a = big_a[:, 2:2 + m, 1:1 + n]
    if layout == "strided y":
        a = cupy.ascontiguousarray(a)
    rows, cols = (m, n) if trans == "N" else (n, m)
    x = cupy.asarray(random_matrix(g, (batch, 2 * cols), dtype))[:, ::2]
    step = 2 if layout == "strided y" else 1
    for alpha, beta in ((1.0, 0.0), (-0.5, 2.0)):
        big_y = cupy.asarray(random_matrix(g, (batch, step * rows), dtype))
        if beta == 0:
            big_y[:] = numpy.nan
        y = big_y[:, ::step]
        y_before = to_numpy(y).astype(numpy.float64)
        out = blas.gemv(a, x, y, trans=trans, alpha=alpha, beta=beta, _path="vendor")
        assert out is y
        op_a = _op(to_numpy(a).astype(numpy.float64), trans)
        ref = alpha * numpy.einsum("bij,bj->bi", op_a, to_numpy(x).astype(numpy.float64))
        ref = ref + (beta * y_before if beta != 0 else 0)
        scale = abs(alpha) * fro(op_a) * fro(to_numpy(x)) + (
            abs(beta) * fro(y_before) if beta != 0 else 0)
        assert scaled_residual(to_numpy(out) - ref, scale, cols, dtype) < THRESHOLD
        if step == 2:
            assert numpy.isnan(to_numpy(big_y)[:, 1::2]).all() == (beta == 0)


def test_backend_empty_never_launches():
    assert blas.gemv(cupy.zeros((0, 3, 4)), cupy.zeros((0, 4))).shape == (0, 3)
    assert blas.gemm(cupy.zeros((0, 3, 4)), cupy.zeros((0, 4, 2))).shape == (0, 3, 2)
    out = blas.gemm(cupy.zeros((2, 3, 0)), cupy.zeros((2, 0, 2)), cupy.ones((2, 3, 2)), beta=2.0)
    assert (to_numpy(out) == 2).all()


def test_public_overwrite_with_aliased_or_overlapping_operands():
    """The public layer's overlap test on CuPy arrays (address ranges): an output aliasing an
    input, or overlapping it through a view, is never read after being written (a copied input);
    a disjoint output takes the no-copy path and the result is the same."""
    import linalg
    gen = rng(9)
    a = gen.standard_normal((3, 4, 4))
    da = cupy.asarray(a)
    out = linalg.gemm(da, da, da, beta=2, overwrite_c=True)
    numpy.testing.assert_allclose(to_numpy(out), a @ a + 2 * a, rtol=1e-13, atol=1e-13)
    big = gen.standard_normal((4, 4, 4))
    dbig = cupy.asarray(big)
    # c = big[1:] overlaps the inputs big[:3]
    out = linalg.gemm(dbig[:3], dbig[:3], dbig[1:], beta=1, overwrite_c=True)
    numpy.testing.assert_allclose(to_numpy(out), big[:3] @ big[:3] + big[1:], rtol=1e-13,
                                  atol=1e-13)
    m, v = gen.standard_normal((3, 4, 4)), gen.standard_normal((3, 4))
    dv = cupy.asarray(v)
    out = linalg.gemv(cupy.asarray(m), dv, dv, beta=-1, overwrite_y=True)
    numpy.testing.assert_allclose(to_numpy(out), numpy.einsum("bij,bj->bi", m, v) - v,
                                  rtol=1e-13, atol=1e-13)
    dy = cupy.empty((3, 4))                           # disjoint: written in place, no copy
    out = linalg.gemv(cupy.asarray(m), cupy.asarray(v), dy, overwrite_y=True)
    assert out.data.ptr == dy.data.ptr
    numpy.testing.assert_allclose(to_numpy(out), numpy.einsum("bij,bj->bi", m, v), rtol=1e-13,
                                  atol=1e-13)
