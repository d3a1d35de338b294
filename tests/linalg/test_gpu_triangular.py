"""GPU backend of trsm, trmm, trtri, lauum (linalg._cuda.triangular) and syrk (linalg._cuda.syrk).

Every variant (side, lower, trans, unit diagonal, alpha) x float32/float64 x awkward sizes across
the kernel size classes and the recursive path, checked by LAPACK-style scaled residuals; zero and
non-finite diagonals inside a batch reported by index with their neighbours right.
"""
import itertools

import numpy
import pytest

from .helpers import (THRESHOLD, force_small_batch_paths, fro, poison_triangle, random_spd,
                      random_triangular, rng, scaled_residual)

pytestmark = pytest.mark.gpu

SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 33, 47, 64, 65, 100, 128, 255, 256, 257)
REAL = (numpy.float32, numpy.float64)
VARIANTS = list(itertools.product(("left", "right"), (True, False), "NT", (False, True)))


def batch_for(n):
    return 200 if n <= 17 else (3 if n <= 100 else 2)


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(scope="module")
def gpu():
    return pytest.importorskip("linalg._cuda.triangular")


PAIR_EVERYWHERE = {(op, dtype): "all" for op in ("trsm", "trmm", "potrs")
                   for dtype in ("float32", "float64")}


@pytest.fixture(params=["ours", "cublas", "pair", "one_launch", "cols", "tensor_tri"])
def trsm_path(request, gpu, monkeypatch):
    """trsm/trtri above the leaf size by our recursion or by cuBLAS trsm(Batched) (the
    small-batch path), whatever the batch count; "pair": our path with kernels/tri_pair.cu for
    every op, dtype and 33 <= n <= 64 (the tuned rules use it only where it measured faster);
    "one_launch": the small-batch one-launch paths whatever the batch (TRTRI / LAUUM by
    chol_small<T, 64> for 33..64 and chol_block for 65..128, TRSM by tri_pair up to 64);
    "cols": TRSM and TRTRI by kernels/tri_cols.cu for 33..512 whatever the batch;
    "tensor_tri": TRSM (both sides), TRMM, TRTRI and LAUUM by kernels/potrf.cu chol_tensor_trsm and
    chol_tensor_trmm (33..160), chol_tensor_trtri and chol_tensor_lauum (33..192) and for the
    recursions' blocks above, every batch and dtype (all off for the other parameters)."""
    force_small_batch_paths(monkeypatch, gpu, vendor=request.param == "cublas",
                            one_launch=request.param == "one_launch",
                            cols=request.param == "cols")
    from linalg._cuda import cholesky
    every = {dtype: ((gpu.LEAF + 1, cholesky.SOLVE_MAX, 1),)
             for dtype in ("float32", "float64")}
    monkeypatch.setattr(cholesky, "TENSOR_TRSM_RULES",
                        every if request.param == "tensor_tri" else {})
    monkeypatch.setattr(cholesky, "TENSOR_TRMM_RULES",
                        every if request.param == "tensor_tri" else {})
    up_to_192 = {dtype: (gpu.LEAF + 1, cholesky.TRIANGLE_MAX) for dtype in ("float32", "float64")}
    monkeypatch.setattr(cholesky, "TENSOR_TRTRI_RANGE",
                        up_to_192 if request.param == "tensor_tri" else {})
    monkeypatch.setattr(cholesky, "TENSOR_LAUUM_RULES",
                        {dtype: ((first, last, 1),) for dtype, (first, last) in up_to_192.items()}
                        if request.param == "tensor_tri" else {})
    if request.param == "pair":
        monkeypatch.setattr(gpu, "PAIR_RULES", PAIR_EVERYWHERE)
    return request.param


def op_matrix(t, lower, trans, unit):
    t = numpy.tril(t) if lower else numpy.triu(t)
    if unit:
        t = t.copy()
        t[:, numpy.arange(t.shape[1]), numpy.arange(t.shape[1])] = 1
    return numpy.swapaxes(t, 1, 2) if trans in "TC" else t


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", SIZES)
def test_trsm_trmm_all_variants(cp, gpu, trsm_path, n, dtype):
    batch = batch_for(n)
    gen = rng(n)
    for side, lower, trans, unit in VARIANTS:
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        m = 5 if n > 8 else n + 2
        shape = (batch, n, m) if side == "left" else (batch, m, n)
        b = gen.standard_normal(shape).astype(dtype)
        alpha = 1.5
        opm = op_matrix(t, lower, trans, unit)
        da = cp.asarray(poison_triangle(t, lower, unit))
        x, info = gpu.trsm(da, cp.asarray(b), side, lower, trans, unit, alpha)
        assert not info.get().any()
        x = x.get()
        lhs = opm @ x if side == "left" else x @ opm
        res = scaled_residual(lhs - alpha * b, fro(opm) * fro(x), n, dtype)
        assert res < THRESHOLD, (side, lower, trans, unit, res)
        y = gpu.trmm(da, cp.asarray(b), side, lower, trans, unit, alpha).get()
        ref = alpha * (opm @ b if side == "left" else b @ opm)
        res = scaled_residual(y - ref, fro(opm) * fro(b), n, dtype)
        assert res < THRESHOLD, ("trmm", side, lower, trans, unit, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [129, 150, 160])
def test_tensor_trsm_past_128(cp, gpu, n, dtype):
    """chol_tensor_trsm at NT = 5 (n up to cholesky.SOLVE_MAX, one block an SM, passes of 32
    vectors): every variant with 70 vectors (three passes, the last partial), out of place (b
    unchanged) and in place."""
    from linalg._cuda import cholesky
    gen = rng(n)
    for side, lower, trans, unit in VARIANTS:
        t = random_triangular(gen, 2, n, dtype, lower=lower, unit_diagonal=unit)
        b = gen.standard_normal((2, n, 70) if side == "left" else (2, 70, n)).astype(dtype)
        opm = op_matrix(t, lower, trans, unit)
        da, db = cp.asarray(poison_triangle(t, lower, unit)), cp.asarray(b)
        out = cp.empty_like(db)
        for target in (out, None):
            info = cholesky.tensor_trsm(da, db, lower, trans == "T", unit, 1.5, out=target,
                                        right=side == "right")
            assert not info.get().any()
            if target is not None:
                assert numpy.array_equal(db.get(), b), "b changed by an out-of-place call"
            x = (db if target is None else out).get()
            lhs = opm @ x if side == "left" else x @ opm
            res = scaled_residual(lhs - 1.5 * b, fro(opm) * fro(x), n, dtype)
            assert res < THRESHOLD, (side, lower, trans, unit, target is None, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [40, 96, 128, 160])
def test_tensor_trmm_passes(cp, gpu, n, dtype):
    """chol_tensor_trmm at NT = 2..5 with 70 vectors (two or three passes, the last partial): every
    variant out of place (b unchanged) and in place, A's other triangle and (unit) its diagonal
    poisoned."""
    from linalg._cuda import cholesky
    gen = rng(n + 1)
    for side, lower, trans, unit in VARIANTS:
        t = random_triangular(gen, 3, n, dtype, lower=lower, unit_diagonal=unit)
        b = gen.standard_normal((3, n, 70) if side == "left" else (3, 70, n)).astype(dtype)
        opm = op_matrix(t, lower, trans, unit)
        ref = -0.5 * (opm @ b if side == "left" else b @ opm)
        da, db = cp.asarray(poison_triangle(t, lower, unit)), cp.asarray(b)
        out = cp.empty_like(db)
        for target in (out, None):
            y = cholesky.tensor_trmm(da, db, lower, trans == "T", unit, -0.5, out=target,
                                     right=side == "right")
            assert y is (db if target is None else out)
            if target is not None:
                assert numpy.array_equal(db.get(), b), "b changed by an out-of-place call"
            res = scaled_residual(y.get() - ref, fro(opm) * fro(b), n, dtype)
            assert res < THRESHOLD, (side, lower, trans, unit, target is None, res)


@pytest.mark.parametrize("nrhs", [1, 64, 130])
@pytest.mark.parametrize("n", [9, 64, 100])
def test_trsm_many_rhs(cp, gpu, trsm_path, n, nrhs):
    """More right-hand sides than one chunk of the kernel (NMAX vectors)."""
    gen = rng(1)
    t = random_triangular(gen, 3, n, numpy.float64, lower=True)
    b = gen.standard_normal((3, n, nrhs))
    x, _ = gpu.trsm(cp.asarray(t), cp.asarray(b), "left", True, "N", False, 1.0)
    x = x.get()
    assert scaled_residual(t @ x - b, fro(t) * fro(x), n, numpy.float64) < THRESHOLD
    b = gen.standard_normal((3, nrhs, n))
    x, _ = gpu.trsm(cp.asarray(t), cp.asarray(b), "right", True, "T", False, 1.0)
    x = x.get()
    assert scaled_residual(x @ t.swapaxes(1, 2) - b, fro(t) * fro(x), n, numpy.float64) < THRESHOLD


@pytest.mark.parametrize("n", [4, 24, 40, 80])
def test_trsm_trtri_bad_diagonal_mid_batch(cp, gpu, trsm_path, n):
    gen = rng(2)
    t = random_triangular(gen, 5, n, numpy.float64, lower=True)
    t[1, 2, 2] = 0
    t[3, n - 1, n - 1] = numpy.inf
    b = gen.standard_normal((5, n, 3))
    x, info = gpu.trsm(cp.asarray(t), cp.asarray(b), "left", True, "N", False, 1.0)
    assert list(info.get()) == [0, 3, 0, n, 0]
    x = x.get()
    for k in (0, 2, 4):
        assert scaled_residual(t[k:k + 1] @ x[k:k + 1] - b[k:k + 1], fro(t[k:k + 1]) * fro(x[k:k + 1]),
                               n, numpy.float64) < THRESHOLD
    _, info = gpu.trsm(cp.asarray(t), cp.asarray(b), "left", True, "N", True, 1.0)
    assert not info.get().any()
    inv, info = gpu.trtri(cp.asarray(t), True, False)
    assert list(info.get()) == [0, 3, 0, n, 0]
    inv = inv.get()
    good = [0, 2, 4]
    assert scaled_residual(inv[good] @ t[good] - numpy.eye(n), fro(t[good]) * fro(inv[good]), n,
                           numpy.float64) < THRESHOLD


@pytest.mark.parametrize("lanes", [16, 32])
@pytest.mark.parametrize("dtype", REAL)
def test_tri_warp_every_mode_with_both_lane_counts(cp, gpu, lanes, dtype):
    """kernels/tri_warp.cu forced to 16 or 32 lanes a matrix: multiply, solve (both sides, every
    variant) and the fused POTRS, with a vector count that leaves a partial chunk."""
    n, nvec, batch = 23, 37, 9
    gen = rng(lanes)
    for side, lower, trans, unit in VARIANTS:
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        opm = op_matrix(t, lower, trans, unit)
        b = gen.standard_normal((batch, n, nvec) if side == "left" else (batch, nvec, n)).astype(dtype)
        flags = gpu._flags(side == "right", lower, trans == "T", unit)
        for mode in (gpu.TRI_WARP_MUL, gpu.TRI_WARP_SOLVE):
            y = cp.asarray(b)
            info = gpu.tri_warp(cp.asarray(poison_triangle(t, lower, unit)), y, flags, mode, 1.5, lanes)
            assert not info.get().any()
            y = y.get()
            if mode == gpu.TRI_WARP_MUL:
                ref = 1.5 * (opm @ b if side == "left" else b @ opm)
                res = scaled_residual(y - ref, fro(opm) * fro(b), n, dtype)
            else:
                lhs = opm @ y if side == "left" else y @ opm
                res = scaled_residual(lhs - 1.5 * b, fro(opm) * fro(y), n, dtype)
            assert res < THRESHOLD, (side, lower, trans, unit, mode, res)
    a = random_spd(gen, batch, n, dtype)
    for lower in (True, False):
        f = numpy.linalg.cholesky(a)
        f = f if lower else numpy.swapaxes(f, 1, 2).copy()
        b = gen.standard_normal((batch, n, nvec)).astype(dtype)
        y = cp.asarray(b)
        info = gpu.tri_warp(cp.asarray(poison_triangle(f, lower, False)), y, gpu.TRI_LOWER if lower else 0,
                            gpu.TRI_WARP_POTRS, 1.0, lanes)
        assert not info.get().any()
        res = scaled_residual(a @ y.get() - b, fro(a) * fro(y.get()), n, dtype)
        assert res < THRESHOLD, ("potrs", lower, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", SIZES)
def test_trtri_lauum(cp, gpu, trsm_path, n, dtype):
    batch = batch_for(n)
    gen = rng(n + 1)
    for lower, unit in itertools.product((True, False), (False, True)):
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        inv, info = gpu.trtri(cp.asarray(poison_triangle(t, lower, unit)), lower, unit)
        assert not info.get().any()
        inv = inv.get()
        other = numpy.triu(inv, 1) if lower else numpy.tril(inv, -1)
        assert not other.any()
        tm = op_matrix(t, lower, "N", unit)
        res = scaled_residual(inv @ tm - numpy.eye(n), fro(tm) * fro(inv), n, dtype)
        assert res < THRESHOLD, (lower, unit, res)
    check_lauum(cp, gpu, gen, batch, n, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [33, 64, 100, 128, 129, 160, 192])
def test_tensor_lauum(cp, gpu, n, dtype):
    """chol_tensor_lauum itself, both triangles, the unreferenced one poisoned: out of place (a
    unchanged) and in place, the product exactly symmetric and within the scaled residual of the
    NumPy product."""
    from linalg._cuda import cholesky
    gen = rng(n + 5)
    for lower in (True, False):
        t = random_triangular(gen, 3, n, dtype, lower=lower)
        tm = op_matrix(t, lower, "N", False)
        ref = numpy.swapaxes(tm, 1, 2) @ tm if lower else tm @ numpy.swapaxes(tm, 1, 2)
        da = cp.asarray(poison_triangle(t, lower, False))
        kept = da.get()
        out = cholesky.tensor_lauum(da, lower, out=cp.empty_like(da)).get()
        assert numpy.array_equal(da.get(), kept, equal_nan=True), "a changed out of place"
        inplace = cholesky.tensor_lauum(da, lower).get()
        for result in (out, inplace):
            assert numpy.array_equal(result, numpy.swapaxes(result, 1, 2))
            res = scaled_residual(result - ref, fro(tm) ** 2, n, dtype)
            assert res < THRESHOLD, (lower, res)


@pytest.mark.parametrize("n, batch", [(56, 999), (56, 1000), (64, 1000), (60, 1500)])
def test_lauum_committed_rules_at_their_batch_edge(cp, gpu, n, batch):
    """float64 LAUUM at n = 56-64 on each side of TENSOR_LAUUM_RULES' first batch (1000 matrices:
    chol_tensor_lauum from there, the tile / block paths below), with the committed rules."""
    from linalg._cuda import cholesky
    assert cholesky.use_tensor_lauum(numpy.empty((batch, n, n))) == (batch >= 1000)
    check_lauum(cp, gpu, rng(n + batch), batch, n, numpy.float64)


BLOCK_EVERYWHERE = {("trmm", d): {"left": 33, "right": 33} for d in ("float32", "float64")}
BLOCK_EVERYWHERE.update({("lauum", d): {"lower": 33, "upper": 33} for d in ("float32", "float64")})


# kernels/tri_block.cu's buffer variants (TRMM (P, Q), LAUUM) and grid caps: a 2-block grid walks
# several matrices (every buffer turn), 0 the resident grid.
BLOCK_SETUPS = [((1, 1), 1, 2), ((1, 2), 2, 2), ((2, 2), 2, 2), (None, None, 0)]


@pytest.mark.parametrize("setup", BLOCK_SETUPS, ids=lambda s: f"{s[0]}-{s[1]}-grid{s[2]}")
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [33, 47, 63, 64])
def test_tri_block_trmm_lauum_forced(cp, gpu, monkeypatch, n, dtype, setup):
    """kernels/tri_block.cu forced for every TRMM variant and LAUUM (BLOCK_RULES everywhere), each
    buffer variant: vector counts below, at and above one chunk of 64, strided B views, poisoned
    unreferenced triangles."""
    monkeypatch.setattr(gpu, "BLOCK_RULES", BLOCK_EVERYWHERE)
    trmm_bufs, lauum_bufs, cap = setup
    if trmm_bufs:
        name = numpy.dtype(dtype).name
        monkeypatch.setitem(gpu.BLOCK_BUFFERS, ("trmm", name), trmm_bufs)
        monkeypatch.setitem(gpu.BLOCK_BUFFERS, ("lauum", name), lauum_bufs)
    monkeypatch.setattr(gpu, "BLOCK_GRID", cap)
    batch = 5
    gen = rng(n + 7)
    for (side, lower, trans, unit), nvec in itertools.product(VARIANTS, (5, 64, 130)):
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        opm = op_matrix(t, lower, trans, unit)
        shape = (batch, n, nvec + 3) if side == "left" else (batch, nvec, n + 3)
        full = gen.standard_normal(shape).astype(dtype)
        b = full[:, :, :nvec] if side == "left" else full[:, :, :n]
        width = b.shape[2]
        dfull = cp.asarray(full)
        y = gpu.trmm(cp.asarray(poison_triangle(t, lower, unit)), dfull[:, :, :width], side, lower, trans,
                     unit, 1.5)
        ref = 1.5 * (opm @ b if side == "left" else b @ opm)
        res = scaled_residual(y.get() - ref, fro(opm) * fro(b), n, dtype)
        assert res < THRESHOLD, (side, lower, trans, unit, nvec, res)
        assert numpy.array_equal(dfull[:, :, width:].get(), full[:, :, width:])    # padding kept
    check_lauum(cp, gpu, gen, batch, n, dtype)


TILE_EVERYWHERE = {(op, d): {v: ((65, 512, 0.0, 0),) for v in variants}
                   for op, variants in (("trmm", ("left", "left_t", "right", "right_t")),
                                        ("lauum", ("lower", "upper")))
                   for d in ("float32", "float64")}


# (grid cap in items, blocks an item, chunked): a 2-block grid walks every tile of the batch (k
# tile streams crossing item boundaries), 0 a block (or cluster) a tile; 2 / 5 blocks each
# walking a contiguous run of items (TILE_CHUNKED: runs crossing matrix boundaries and ending
# mid-matrix); tri_tile_split with 2 / 4 / 8 blocks an item (runs of k tiles, empty ones where an
# item has fewer tiles than blocks), one cluster of 4 walking every item.
TILE_LAUNCHES = [(2, 1, False), (0, 1, False), (2, 1, True), (5, 1, True), (0, 2, False),
                 (1, 4, False), (0, 8, False)]


@pytest.mark.parametrize("cap,split,chunked", TILE_LAUNCHES, ids=lambda v: str(v))
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [65, 100, 128, 200, 257])
def test_tri_tile_trmm_lauum_forced(cp, gpu, monkeypatch, n, dtype, cap, split, chunked):
    """kernels/trmm.cu tri_tile / tri_tile_split forced for every TRMM variant and LAUUM
    (TILE_RULES everywhere): vector counts below, at and above a 64 tile, strided views of B
    (16-byte aligned or not), poisoned unreferenced triangles; the launches of TILE_LAUNCHES."""
    monkeypatch.setattr(gpu, "TILE_RULES", TILE_EVERYWHERE)
    monkeypatch.setattr(gpu, "TILE_GRID", cap)
    monkeypatch.setattr(gpu, "TILE_SPLIT", split)
    monkeypatch.setattr(gpu, "TILE_CHUNKED", {"float64": (0, 512), "float32": (0, 512)}
                        if chunked else {})
    gen = rng(n + 13)
    check_trmm_variants(cp, gpu, gen, 3, n, dtype)
    check_lauum(cp, gpu, gen, 3, n, dtype)


@pytest.mark.parametrize("cap", [2, 0])
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [48, 62, 64])
def test_trmm_of_single_tiles_on_tri_tile(cp, gpu, monkeypatch, n, dtype, cap):
    """TRMM at n <= 64 on tri_tile (TILE_ONE_TILE from n = 48 and one matrix, both dtypes; one
    tile a matrix): every variant, vector counts below, at and above a tile, strided views of B
    (those whose rows are not 16-byte aligned take tri_block), poisoned unreferenced triangles;
    a 2-block grid walking the batch and the persistent grid."""
    monkeypatch.setattr(gpu, "TILE_ONE_TILE", {("trmm", "float64"): (48, 1),
                                               ("trmm", "float32"): (48, 1)})
    monkeypatch.setattr(gpu, "TILE_GRID", cap)
    assert gpu.use_tile("trmm", dtype, n, "right_t", 3)
    check_trmm_variants(cp, gpu, rng(n), 3, n, dtype)


@pytest.mark.parametrize("n", [56, 62])
def test_persistent_tri_tile_walks_many_matrices_a_block(cp, gpu, n):
    """The committed TILE_ONE_TILE rule on a batch of several matrices a resident block (float64,
    left N and right T, n vectors, C-contiguous): tri_tile's persistent grid against NumPy."""
    least = gpu.TILE_ONE_TILE[("trmm", "float64")][1]
    batch = max(least, 8 * gpu.TILE_SHAPE["float64"][2] * cp.cuda.Device().attributes[
        "MultiProcessorCount"] + 5)
    assert gpu.use_tile("trmm", numpy.float64, n, "left", batch)
    gen = rng(n + 1)
    t = random_triangular(gen, batch, n, numpy.float64, lower=True, unit_diagonal=False)
    b = gen.standard_normal((batch, n, n))
    for side, trans in (("left", "N"), ("right", "T")):
        opm = op_matrix(t, True, trans, False)
        y = gpu.trmm(cp.asarray(t), cp.asarray(b), side, True, trans, False, 2.0).get()
        ref = 2.0 * (opm @ b if side == "left" else b @ opm)
        res = scaled_residual(y - ref, fro(opm) * fro(b), n, numpy.float64)
        assert res < THRESHOLD, (side, res)


def check_trmm_variants(cp, gpu, gen, batch, n, dtype):
    """gpu.trmm for every VARIANT with 5, 64 and 130 vectors (B a strided view, A's unreferenced
    triangle poisoned, alpha -0.5) against NumPy within the scaled-residual bound."""
    for (side, lower, trans, unit), (nvec, pad) in itertools.product(VARIANTS, ((5, 3), (64, 0),
                                                                                 (130, 2))):
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        opm = op_matrix(t, lower, trans, unit)
        shape = (batch, n, nvec + pad) if side == "left" else (batch, nvec, n + pad)
        full = gen.standard_normal(shape).astype(dtype)
        b = full[:, :, :nvec] if side == "left" else full[:, :, :n]
        width = b.shape[2]
        y = gpu.trmm(cp.asarray(poison_triangle(t, lower, unit)),
                     cp.asarray(full)[:, :, :width], side, lower, trans, unit, -0.5)
        ref = -0.5 * (opm @ b if side == "left" else b @ opm)
        res = scaled_residual(y.get() - ref, fro(opm) * fro(b), n, dtype)
        assert res < THRESHOLD, (side, lower, trans, unit, nvec, res)


@pytest.mark.parametrize("cap,split", [(2, 1), (0, 1), (1, 4)], ids=lambda v: str(v))
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [65, 100, 128, 200, 257])
def test_tile_lauum_of_a_zeroed_triangle_stages_whole_tiles(cp, gpu, monkeypatch, n, dtype, cap,
                                                            split):
    """tile_lauum(..., zeroed=True) (TT_ZEROED: POTRI's LAUUM of a TRTRI result, whose other
    triangle is zero) stages the tiles the diagonal crosses whole: the same bits as the masked
    staging, and L^T L / U U^T within the residual bound; lower and upper, 16-byte aligned or not;
    tri_tile and tri_tile_split (TILE_LAUNCHES)."""
    monkeypatch.setattr(gpu, "TILE_GRID", cap)
    monkeypatch.setattr(gpu, "TILE_SPLIT", split)
    gen = rng(n + 29)
    for lower, pad in itertools.product((True, False), (0, 1)):
        t = random_triangular(gen, 3, n, dtype, lower=lower, unit_diagonal=False)
        full = numpy.zeros((3, n, n + pad), dtype)
        full[:, :, :n] = t
        a = cp.asarray(full)[:, :, :n]
        zeroed = gpu.tile_lauum(a, lower, zeroed=True).get()
        assert numpy.array_equal(zeroed, gpu.tile_lauum(a, lower).get()), (lower, pad)
        ref = t.swapaxes(1, 2) @ t if lower else t @ t.swapaxes(1, 2)
        res = scaled_residual(zeroed - ref, fro(t) ** 2, n, dtype)
        assert res < THRESHOLD, (lower, pad, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [300, 512])
def test_trmm_lauum_default_paths_up_to_512(cp, gpu, n, dtype):
    """The default rules above 256 (TILE_RULES reach 512: tri_tile for most variants, the dense
    product for the others): every TRMM variant with n and 5 vectors, and LAUUM, against NumPy."""
    batch = 2
    gen = rng(n + 17)
    for (side, lower, trans, unit), nvec in itertools.product(VARIANTS, (5, n)):
        t = random_triangular(gen, batch, n, dtype, lower=lower, unit_diagonal=unit)
        opm = op_matrix(t, lower, trans, unit)
        shape = (batch, n, nvec) if side == "left" else (batch, nvec, n)
        b = gen.standard_normal(shape).astype(dtype)
        y = gpu.trmm(cp.asarray(poison_triangle(t, lower, unit)), cp.asarray(b), side, lower,
                     trans, unit, 0.75).get()
        ref = 0.75 * (opm @ b if side == "left" else b @ opm)
        res = scaled_residual(y - ref, fro(opm) * fro(b), n, dtype)
        assert res < THRESHOLD, (side, lower, trans, unit, nvec, res)
    check_lauum(cp, gpu, gen, batch, n, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", [48, 64])
def test_tri_block_resident_grid_large_batch(cp, gpu, monkeypatch, n, dtype):
    """kernels/tri_block.cu with its tuned buffers at the resident grid over 1500 matrices (each
    block walks several, the next one's copy in flight during a product): TRMM both sides, n and
    100 vectors (two chunks), and LAUUM, every matrix checked."""
    monkeypatch.setattr(gpu, "BLOCK_RULES", BLOCK_EVERYWHERE)
    batch = 1500
    gen = rng(n + 11)
    for side, nvec in (("left", n), ("right", 100)):
        t = random_triangular(gen, batch, n, dtype, lower=True)
        opm = op_matrix(t, True, "N", False)
        b = gen.standard_normal((batch, n, nvec) if side == "left" else (batch, nvec, n))
        b = b.astype(dtype)
        y = gpu.trmm(cp.asarray(poison_triangle(t, True, False)), cp.asarray(b), side, True, "N").get()
        ref = opm @ b if side == "left" else b @ opm
        res = scaled_residual(y - ref, fro(opm) * fro(b), n, dtype)     # max over the batch
        assert res < THRESHOLD, (side, res)
    check_lauum(cp, gpu, gen, batch, n, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n,k", [(1, 1), (3, 7), (8, 8), (9, 27), (16, 5), (24, 30), (25, 25), (32, 64),
                                 (33, 40), (40, 40), (44, 44), (47, 64), (48, 48), (64, 64),
                                 (100, 20)])
def test_syrk(cp, n, k, dtype):
    """Every path by its default rules (gemm_small where C is not read, syrk_small, GEMM +
    mirror): both transposes and triangles, beta 0 and 0.5; C symmetric bit for bit."""
    gpu_syrk = pytest.importorskip("linalg._cuda.syrk")
    gen = rng(n * k)
    batch = 50
    for lower, trans, beta in itertools.product((True, False), "NT", (0.0, 0.5)):
        a = gen.standard_normal((batch, n, k) if trans == "N" else (batch, k, n)).astype(dtype)
        c = random_spd(gen, batch, n, dtype)
        m = a if trans == "N" else numpy.swapaxes(a, 1, 2)
        ref = 2.0 * m @ numpy.swapaxes(m, 1, 2) + beta * c
        dc = cp.asarray(poison_triangle(c, lower, False)) if beta else None
        out = gpu_syrk.syrk(cp.asarray(a), dc, lower, trans, 2.0, beta).get()
        assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2))
        res = scaled_residual(out - ref, fro(m) ** 2 + fro(c), n, dtype)
        assert res < THRESHOLD, (lower, trans, beta, res)


@pytest.mark.parametrize("split", [0, 4], ids=lambda s: f"split{s}")
@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n,k", [(1, 3), (33, 40), (64, 64), (65, 1), (100, 37), (129, 200),
                                 (257, 64)])
def test_syrk_by_tri_tile(cp, gpu, monkeypatch, n, k, dtype, split):
    """SYRK by kernels/trmm.cu tri_tile (TT_FULL) wherever C is not read (TILE_FROM widened to
    every n, gemm_small's rule off): both transposes, a C to write into or none, a padded row
    stride (no copy: the kernel takes strides), beta 0.5 still by the other paths; C symmetric bit
    for bit; the rule's launch (split 0) and tri_tile_split with 4 blocks an item."""
    gpu_syrk = pytest.importorskip("linalg._cuda.syrk")
    monkeypatch.setattr(gpu_syrk, "TILE_FROM", {"float32": (1, 4096), "float64": (1, 4096)})
    monkeypatch.setattr(gpu_syrk, "GEMM_SMALL_UPTO", {})
    monkeypatch.setattr(gpu, "TILE_SPLIT", split)
    gen = rng(n + 3 * k)
    batch = 4
    for trans, beta, pad in itertools.product("NT", (0.0, 0.5), (0, 3)):
        rows, cols = (n, k) if trans == "N" else (k, n)
        full = gen.standard_normal((batch, rows, cols + pad)).astype(dtype)
        a = full[:, :, :cols]
        c = random_spd(gen, batch, n, dtype)
        m = a if trans == "N" else numpy.swapaxes(a, 1, 2)
        ref = 0.75 * m @ numpy.swapaxes(m, 1, 2) + beta * c
        dc = cp.asarray(c)
        out = gpu_syrk.syrk(cp.asarray(full)[:, :, :cols], dc, True, trans, 0.75, beta).get()
        assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2)), (trans, beta, pad)
        res = scaled_residual(out - ref, fro(m) ** 2 + fro(c), max(n, k), dtype)
        assert res < THRESHOLD, (trans, beta, pad, res)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n,k", [(25, 25), (32, 1), (33, 40), (48, 7), (64, 64), (64, 90)])
def test_syrk_small_kernel_above_its_large_batch_bound(cp, monkeypatch, n, k, dtype):
    """syrk_small for MAX_N < n <= SMALL_BATCH_MAX_N (its small-batch rule, forced here for every
    batch): both transposes, beta on either triangle (the other poisoned; where op(A) and C
    overflow a matrix's shared budget the GEMM path runs), batches 1, 3 and 50; gemm_small's rule
    off (test_syrk covers it)."""
    gpu_syrk = pytest.importorskip("linalg._cuda.syrk")
    monkeypatch.setattr(gpu_syrk, "SMALL_BATCH_BELOW", {"float32": 10**9, "float64": 10**9})
    monkeypatch.setattr(gpu_syrk, "GEMM_SMALL_UPTO", {})
    gen = rng(n + 7 * k)
    for batch in (1, 3, 50):
        for lower, trans, beta in itertools.product((True, False), "NT", (0.0, 0.5)):
            a = gen.standard_normal((batch, n, k) if trans == "N" else (batch, k, n)).astype(dtype)
            c = random_spd(gen, batch, n, dtype)
            m = a if trans == "N" else numpy.swapaxes(a, 1, 2)
            ref = -1.5 * m @ numpy.swapaxes(m, 1, 2) + beta * c
            dc = cp.asarray(poison_triangle(c, lower, False)) if beta else None
            out = gpu_syrk.syrk(cp.asarray(a), dc, lower, trans, -1.5, beta).get()
            assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2))
            res = scaled_residual(out - ref, fro(m) ** 2 + fro(c), n, dtype)
            assert res < THRESHOLD, (batch, lower, trans, beta, res)


@pytest.mark.parametrize("dtype", [numpy.complex128])
def test_complex_vendor_path(cp, gpu, dtype):
    gen = rng(5)
    n = 6
    for side, lower, trans, unit in VARIANTS:
        t = random_triangular(gen, 3, n, dtype, lower=lower, unit_diagonal=unit)
        b = (gen.standard_normal((3, n, 4) if side == "left" else (3, 4, n)) + 0j).astype(dtype)
        opm = op_matrix(t, lower, trans, unit)
        x, _ = gpu.trsm(cp.asarray(t), cp.asarray(b), side, lower, trans, unit, 1)
        x = x.get()
        lhs = opm @ x if side == "left" else x @ opm
        assert scaled_residual(lhs - b, fro(opm) * fro(x), n, dtype) < THRESHOLD


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", (1, 2, 31, 32, 33, 64, 100))
def test_triangle_fix_mirror_and_zero(cp, gpu, n, dtype):
    """kernels/triangle.cu: the other strict triangle mirrored (exactly) or zeroed, the kept one
    untouched, on a view with a leading dimension > n."""
    g = rng(n)
    for batch in (1, 7):
        big = g.standard_normal((batch, n + 3, n + 2)).astype(dtype)
        for keep_lower in (True, False):
            for zero in (False, True):
                dev = cp.asarray(big)
                gpu.triangle_fix(dev[:, :n, :n], keep_lower, zero)
                got = dev.get()
                a = big[:, :n, :n]
                kept = numpy.tril(a) if keep_lower else numpy.triu(a)
                if zero:
                    want = kept
                else:
                    strict = numpy.tril(a, -1) if keep_lower else numpy.triu(a, 1)
                    want = kept + numpy.swapaxes(strict, 1, 2)
                assert numpy.array_equal(got[:, :n, :n], want), (n, batch, keep_lower, zero)
                assert numpy.array_equal(got[:, n:, :], big[:, n:, :])
                assert numpy.array_equal(got[:, :, n:], big[:, :, n:])


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", (1, 2, 31, 32, 33, 64, 100))
def test_triangle_transpose_moves_the_other_triangle(cp, gpu, n, dtype):
    """kernels/triangle.cu with move: the requested triangle becomes the transpose of the other
    one (diagonal kept), the other one zero, the padding untouched."""
    g = rng(n + 1)
    for batch in (1, 7):
        big = g.standard_normal((batch, n + 3, n + 2)).astype(dtype)
        for to_lower in (True, False):
            dev = cp.asarray(big)
            gpu.triangle_transpose(dev[:, :n, :n], to_lower)
            got = dev.get()
            a = big[:, :n, :n]
            source = numpy.triu(a) if to_lower else numpy.tril(a)
            assert numpy.array_equal(got[:, :n, :n], numpy.swapaxes(source, 1, 2)), (n, to_lower)
            assert numpy.array_equal(got[:, n:, :], big[:, n:, :])
            assert numpy.array_equal(got[:, :, n:], big[:, :, n:])


@pytest.mark.parametrize("n", (1, 3, 40, 100))
def test_triangle_transpose_writes_the_diagonal_info_where_none(cp, gpu, n):
    """With info: the first zero or non-finite diagonal entry where info is 0, a prior nonzero
    info kept, a good matrix 0; the move itself unchanged."""
    g = rng(n + 2)
    a = g.standard_normal((5, n, n)) + 3 * n * numpy.eye(n)
    a[1, n - 1, n - 1] = numpy.nan          # matrix 1: its last diagonal entry
    a[2, n // 2, n // 2] = 0.0              # matrix 2: a zero
    a[3, 0, 0] = numpy.inf                  # matrix 3: bad, but a prior info 7 stays
    prior = numpy.array([0, 0, 0, 7, 0], dtype=numpy.int32)
    dev, info = cp.asarray(a), cp.asarray(prior)
    gpu.triangle_transpose(dev, True, info=info)
    assert info.get().tolist() == [0, n, n // 2 + 1, 7, 0]
    assert numpy.array_equal(dev.get(), numpy.swapaxes(numpy.triu(a), 1, 2), equal_nan=True)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", (1, 5, 33, 70))
def test_diag_info_first_bad_entry_and_prior(cp, gpu, n, dtype):
    """kernels/triangle.cu diag_info: the first zero or non-finite diagonal entry per matrix, on a
    strided view; with a prior info array its nonzero entries win."""
    gen = rng(n)
    t = random_triangular(gen, 6, n, dtype, lower=True)
    t[1, n - 1, n - 1] = 0
    t[3, n // 2, n // 2] = numpy.nan
    t[4, 0, 0] = numpy.inf
    t[4, n - 1, n - 1] = 0
    padded = cp.zeros((6, n, n + 3), dtype=dtype)
    padded[:, :, :n] = cp.asarray(t)
    view = padded[:, :, :n]
    expect = [0, n, 0, n // 2 + 1, 1, 0]
    assert list(gpu._diag_info(view, False).get()) == expect
    prior = cp.asarray([0, 0, 7, 0, 9, 0], dtype=numpy.int32)
    got = gpu._diag_info(view, False, prior=prior)
    assert list(got.get()) == [0, n, 7, n // 2 + 1, 9, 0]
    assert not gpu._diag_info(view, True).get().any()


def check_lauum(cp, gpu, gen, batch, n, dtype):
    """LAUUM of random triangles, both triangles, unreferenced triangle poisoned: symmetric
    output and a small scaled residual against the NumPy product."""
    for lower in (True, False):
        t = random_triangular(gen, batch, n, dtype, lower=lower)
        out = gpu.lauum(cp.asarray(poison_triangle(t, lower, False)), lower).get()
        tm = op_matrix(t, lower, "N", False)
        ref = numpy.swapaxes(tm, 1, 2) @ tm if lower else tm @ numpy.swapaxes(tm, 1, 2)
        assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2))
        res = scaled_residual(out - ref, fro(tm) ** 2, n, dtype)
        assert res < THRESHOLD, (lower, res)
