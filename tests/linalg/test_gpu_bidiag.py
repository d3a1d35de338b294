"""GPU batched GEBRD (linalg/_cuda/bidiag.py, kernels/gebrd.cu).

Checks, float32/float64, m >= n and m < n, awkward sizes, batches 1, 3, 1000, for the four
kernels (gebrd_reg for max(m, n) <= 32, ``_params={"kernel": "reg"}``, gebrd_cols, gebrd_blocked --
labrd.cu panels and GEMMs, the default for matrices too large for shared memory, forced on small
ones with ``{"kernel": "blocked", "nb": ..., "tail": ...}`` -- and gebrd_team, forced by
``_params={"kernel": "team"}``) and both steps of gebrd_cols (fused, the default, and gebd2_tall,
``"fused": False``):
* the singular values of the bidiagonal B (from d, e) match numpy.linalg.svd of A;
* Q B P^T rebuilt from the returned reflectors (LAPACK storage) reproduces A (scaled residual);
* d, e, tauq, taup and the reflectors agree with a float64 NumPy transcription of LAPACK dgebd2
  (the same reflector convention), and with the CPU backend where it exists;
* zero columns/rows/matrices give tau = 0 (H = I) where LAPACK does; scaling A by a power of two
  near the overflow/underflow limits scales d and e alike (safe norms); which kernel runs where.
"""
import numpy
import pytest

import linalg

from .helpers import (THRESHOLD, bidiagonal_singular_values, rng, random_matrix,
                      scaled_residual, fro, eps, to_numpy)

pytestmark = pytest.mark.gpu

cupy = pytest.importorskip("cupy")
bidiag = pytest.importorskip("linalg._cuda.bidiag")

REAL = (numpy.float32, numpy.float64)
SQUARE = (1, 2, 3, 7, 15, 16, 17, 31, 33, 100, 255, 256, 257)
RECT = ((7, 3), (3, 7), (33, 17), (17, 33), (100, 31), (31, 100), (81, 8), (8, 81), (1, 5), (5, 1))


def _larfg(alpha, x):
    """LAPACK dlarfg, batched over rows: returns beta, tau, v (without the leading 1)."""
    xnorm = numpy.sqrt((x * x).sum(axis=1))
    nz = xnorm > 0
    beta = numpy.where(nz, -numpy.copysign(numpy.hypot(alpha, xnorm), alpha), alpha)
    safe = numpy.where(nz, beta, 1.0)
    tau = numpy.where(nz, (safe - alpha) / safe, 0.0)
    denom = numpy.where(nz, alpha - safe, 1.0)
    return beta, tau, x / denom[:, None]


def gebd2_reference(a, sign_tol=0.0):
    """NumPy transcription of dgebd2 (float64, vectorized over the batch). Returns a, d, e, tq,
    tp and, per matrix, the first step whose reflector's alpha is below ``sign_tol`` times its
    norm (min(m, n) where none is): there rounding of the tested precision can flip beta's sign,
    and a valid reduction then differs from this one in every later step."""
    a = a.astype(numpy.float64).copy()
    batch, m, n = a.shape
    k = min(m, n)
    d, e, tq, tp = (numpy.zeros((batch, k)) for _ in range(4))
    stable = numpy.full(batch, k)

    def larfg(i, alpha, x):
        norm = numpy.sqrt(alpha * alpha + (x * x).sum(axis=1))
        flat = (numpy.abs(alpha) < sign_tol * norm) & (stable == k)
        stable[flat] = i
        return _larfg(alpha, x)

    def left(i0, j0, v, tau):          # rows i0.., cols j0..: (I - tau v v^T) C
        c = a[:, i0:, j0:]
        w = numpy.einsum("bi,bij->bj", v, c)
        a[:, i0:, j0:] = c - tau[:, None, None] * v[:, :, None] * w[:, None, :]

    def right(i0, j0, v, tau):         # C (I - tau v v^T)
        c = a[:, i0:, j0:]
        w = numpy.einsum("bij,bj->bi", c, v)
        a[:, i0:, j0:] = c - tau[:, None, None] * w[:, :, None] * v[:, None, :]

    for i in range(k):
        if m >= n:
            beta, tau, v = larfg(i, a[:, i, i], a[:, i + 1:, i])
            a[:, i, i], a[:, i + 1:, i], d[:, i], tq[:, i] = beta, v, beta, tau
            left(i, i + 1, numpy.concatenate([numpy.ones((batch, 1)), v], axis=1), tau)
            if i < n - 1:
                beta, tau, v = larfg(i, a[:, i, i + 1], a[:, i, i + 2:])
                a[:, i, i + 1], a[:, i, i + 2:], e[:, i], tp[:, i] = beta, v, beta, tau
                right(i + 1, i + 1, numpy.concatenate([numpy.ones((batch, 1)), v], axis=1), tau)
        else:
            beta, tau, v = larfg(i, a[:, i, i], a[:, i, i + 1:])
            a[:, i, i], a[:, i, i + 1:], d[:, i], tp[:, i] = beta, v, beta, tau
            right(i + 1, i, numpy.concatenate([numpy.ones((batch, 1)), v], axis=1), tau)
            if i < m - 1:
                beta, tau, v = larfg(i, a[:, i + 1, i], a[:, i + 2:, i])
                a[:, i + 1, i], a[:, i + 2:, i], e[:, i], tq[:, i] = beta, v, beta, tau
                left(i + 1, i + 1, numpy.concatenate([numpy.ones((batch, 1)), v], axis=1), tau)
    return a, d, e[:, :max(k - 1, 0)], tq, tp, stable


def rebuild(a, d, e, tq, tp):
    """Q B P^T from GEBRD output (LAPACK storage), float64."""
    batch, m, n = a.shape
    k = min(m, n)
    b = numpy.zeros((batch, m, n))
    idx = numpy.arange(k)
    b[:, idx, idx] = d
    if k > 1:
        if m >= n:
            b[:, idx[:-1], idx[:-1] + 1] = e
        else:
            b[:, idx[:-1] + 1, idx[:-1]] = e
    out = b
    # A = H_0 ... H_{k-1} B G_{k-1} ... G_0, H_i = I - tq v v^T, G_i = I - tp u u^T.
    for i in reversed(range(k)):
        qoff = i if m >= n else i + 1       # first row of Q's vector i
        poff = i + 1 if m >= n else i       # first column of P's vector i
        if qoff < m:
            v = numpy.zeros((batch, m))
            v[:, qoff] = 1
            v[:, qoff + 1:] = a[:, qoff + 1:, i]
            out = out - tq[:, i, None, None] * v[:, :, None] * numpy.einsum("bi,bij->bj", v, out)[:, None, :]
    for i in reversed(range(k)):
        poff = i + 1 if m >= n else i
        if poff < n:
            u = numpy.zeros((batch, n))
            u[:, poff] = 1
            u[:, poff + 1:] = a[:, i, poff + 1:]
            # out = out G_i^T ... applied from the right in order G_{k-1}..G_0 -> P^T
            out = out - tp[:, i, None, None] * numpy.einsum("bij,bj->bi", out, u)[:, :, None] * u[:, None, :]
    return out


def _case(m, n, batch, dtype, params=None, check_reference=True):
    g = rng(m * 1009 + n * 13 + batch)
    a = random_matrix(g, (batch, m, n), dtype)
    out = bidiag.gebrd(cupy.asarray(a), _params=params)
    assert all(x.flags.c_contiguous for x in out[1:])     # d, e, tauq, taup: views of one buffer
    ag, d, e, tq, tp = (to_numpy(x).astype(numpy.float64) for x in out)
    k = min(m, n)
    assert ag.shape == (batch, m, n) and d.shape == (batch, k) and e.shape == (batch, max(k - 1, 0))
    assert tq.shape == (batch, k) and tp.shape == (batch, k)
    tol = 30 * max(m, n) * eps(dtype)
    s_ref = numpy.linalg.svd(a.astype(numpy.float64), compute_uv=False)
    s = bidiagonal_singular_values(d, e)
    assert numpy.abs(s - s_ref).max() <= tol * s_ref.max(), (m, n, batch, dtype)
    nrec = min(batch, 3)
    res = scaled_residual(rebuild(ag[:nrec], d[:nrec], e[:nrec], tq[:nrec], tp[:nrec]) - a[:nrec],
                          fro(a[:nrec]), max(m, n), dtype)
    assert res < THRESHOLD, (m, n, batch, dtype, res)
    if check_reference:
        # entries up to the first step whose alpha is within rounding of zero (a sign there is
        # rounding's choice: float32 257 x 257 has a row alpha at 1.3e-4 of its norm)
        ra, rd, re, rq, rp, stable = gebd2_reference(a[:nrec], 10 * max(m, n) * eps(dtype))
        r, c = numpy.arange(m)[:, None], numpy.arange(n)[None, :]
        for j in range(nrec):
            s = stable[j]
            final = numpy.minimum(r, c) < s                # set by the steps before s
            for got, ref in ((ag[j][final], ra[j][final]), (d[j, :s], rd[j, :s]),
                             (e[j, :s], re[j, :s]), (tq[j, :s], rq[j, :s]),
                             (tp[j, :s], rp[j, :s])):
                if got.size:
                    err = numpy.abs(got - ref).max()
                    assert err <= 1e3 * max(m, n) * eps(dtype) * max(1, numpy.abs(ref).max()), \
                        (j, s, err)


@pytest.mark.parametrize("dtype", REAL)
def test_gebrd_square(dtype):
    for n in SQUARE:
        for batch in ((1, 3, 1000) if n <= 33 else (1, 3)):
            _case(n, n, batch, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("shape", RECT, ids=lambda s: f"{s[0]}x{s[1]}")
def test_gebrd_rectangular(dtype, shape):
    for batch in (1, 3, 1000):
        _case(shape[0], shape[1], batch, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", [
    {"kernel": "team", "unroll": 1, "team": 32, "teams_per_block": 4},
    {"kernel": "team", "unroll": 4, "team": 256, "teams_per_block": 1},
    {"kernel": "team", "unroll": 2, "team": 512, "teams_per_block": 0},
    {"kernel": "cols", "group": 8},
    {"kernel": "cols", "group": 32, "per_block": 1},
    {"kernel": "cols", "group": 64, "per_block": 2},
    {"kernel": "cols", "group": 256},
    {"kernel": "cols", "group": 4},
    {"kernel": "cols", "group": 16, "per_block": 16},
    {"kernel": "cols", "regs": 128},
    {"kernel": "cols", "group": 32, "per_block": 2, "regs": 128},
    {"kernel": "cols", "fused": False},
    {"kernel": "cols", "group": 8, "fused": False},
    {"kernel": "cols", "group": 64, "per_block": 2, "fused": False},
    {"kernel": "cols", "shared_s": True},
    {"kernel": "cols", "group": 16, "per_block": 3, "shared_s": True},
    {"kernel": "cols", "group": 64, "per_block": 2, "regs": 128, "shared_s": True},
    {"kernel": "cols", "peel": False},
    {"kernel": "cols", "group": 16, "per_block": 3, "peel": False},
    {"kernel": "cols", "group": 32, "per_block": 2, "regs": 128, "shared_s": True, "peel": True},
    {"kernel": "cols", "group": 64, "per_block": 2, "regs": 128, "shared_s": True, "peel": True},
    {"kernel": "reg"},
    {"kernel": "reg", "per_block": 3},
    {"kernel": "reg", "per_block": 1, "trs": True},
    {"kernel": "reg", "stage": True},
    {"kernel": "reg", "per_block": 2, "trs": True, "stage": True},
    {"kernel": "reg", "shrink": True},
    {"kernel": "reg", "per_block": 2, "trs": True, "stage": True, "shrink": True}],
    ids=["t32", "t256", "t512", "c8", "c32", "c64x2", "c256", "c4", "c16x16", "r128", "c32x2r128",
         "tall", "tall8", "tall64x2", "shared_s", "c16x3shared_s", "c64x2r128shared_s", "nopeel",
         "c16x3nopeel", "c32x2r128both", "c64x2r128both", "reg", "reg3", "reg1trs", "regstage",
         "reg2trsstage", "regshrink", "reg2trsstageshrink"])
def test_gebrd_forced_parameters(dtype, params):
    """Both kernels with non-default launch parameters; gebrd_cols with groups smaller than
    max(m, n) (a thread owns several rows/columns), several wide groups per block (named
    barriers), and more threads than rows."""
    for m, n in ((16, 16), (33, 17), (17, 33), (100, 100), (128, 128), (32, 17), (17, 32)):
        expected = _expected_kernel(params, m, n, dtype)
        if expected is not None:
            assert bidiag.plan(m, n, dtype, params)["kernel"] == expected
        _case(m, n, 5, dtype, params)


KERNELS = ({"kernel": "reg"}, {"kernel": "reg", "shrink": True}, {"kernel": "cols"},
           {"kernel": "cols", "shared_s": True}, {"kernel": "cols", "peel": False},
           {"kernel": "blocked", "nb": 4, "tail": 0},
           {"kernel": "blocked", "nb": 4, "tail": 0, "fuse": False}, {"kernel": "team"})
# gebrd_cols's two step implementations too, for the tests of special values
STEPS = KERNELS + ({"kernel": "cols", "fused": False},)


def _kernel_id(p):
    return (p["kernel"] + ("" if p.get("fused", True) else "-tall")
            + ("" if p.get("fuse", True) else "-unfused")
            + "".join(f"-{k}" for k in ("shrink", "shared_s") if p.get(k))
            + ("-nopeel" if p.get("peel") is False else ""))


def _expected_kernel(params, m, n, dtype):
    """The kernel plan() runs for forced ``params``: gebrd_reg up to 32 rows and columns, else
    gebrd_cols where it fits; None where that depends on the device's shared memory."""
    kernel = params["kernel"]
    if kernel == "blocked":
        if min(m, n) > (params.get("nb") or 32):
            return kernel
        kernel = "cols"
    if kernel == "reg" and max(m, n) > 32:
        kernel = "cols"
    if kernel == "cols" and not _cols_fits(m, n, dtype):
        return None
    return kernel


def _cols_fits(m, n, dtype):
    """Whether gebrd_cols takes m x n matrices of dtype on this device (H100: up to 1024 rows or
    columns and 227 KB of shared memory, e.g. float64 128 x 128 at 133 KB)."""
    optin = bidiag._optin_smem(cupy.cuda.runtime.getDevice())
    size = bidiag._cols_smem_elems(max(m, n), min(m, n), 1024, True) * numpy.dtype(dtype).itemsize
    return max(m, n) <= 1024 and size <= optin


AWKWARD = ((1, 1), (2, 2), (3, 3), (7, 7), (8, 8), (16, 16), (17, 17), (32, 32), (33, 33),
           (64, 64), (65, 65), (100, 100), (128, 128), (80, 20), (20, 80), (1, 9), (9, 1),
           (1, 40), (40, 1), (5, 3), (3, 5), (600, 3), (3, 600))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", KERNELS, ids=_kernel_id)
@pytest.mark.parametrize("shape", AWKWARD, ids=lambda s: f"{s[0]}x{s[1]}")
def test_gebrd_kernels_awkward_shapes(shape, params, dtype):
    m, n = shape
    expected = _expected_kernel(params, m, n, dtype)
    if expected is not None:
        assert bidiag.plan(m, n, dtype, params)["kernel"] == expected
    for batch in ((1, 7, 1000) if max(m, n) <= 33 else (1, 7)):
        _case(m, n, batch, dtype, params)


def test_gebrd_plan():
    """gebrd_reg where the tuning table asks for it (max(m, n) <= 32), gebrd_cols wherever it fits
    (the default), gebrd_blocked beyond (a matrix larger than the shared memory of a block, or
    more than 1024 rows or columns) where min(m, n) exceeds its panel width, gebrd_team
    otherwise."""
    from linalg._cuda.blas import params
    for m, n in ((1, 1), (8, 8), (16, 16), (32, 32), (33, 7), (7, 33), (128, 128), (1024, 3),
                 (3, 1024)):
        for dtype in REAL:
            tuned = params("gebrd", dtype, m, n).get("kernel") or "cols"
            expected = (_expected_kernel({"kernel": tuned}, m, n, dtype)
                        or ("blocked" if min(m, n) > 32 else "team"))
            assert bidiag.plan(m, n, dtype)["kernel"] == expected, (m, n, dtype)
    cfg = bidiag.plan(8, 8, numpy.float64)
    assert cfg["group"] == 8 and cfg["per_block"] == 16
    cfg = bidiag.plan(100, 40, numpy.float64)
    assert cfg["group"] == 128 and cfg["per_block"] == 1
    cfg = bidiag.plan(600, 3, numpy.float64)     # over 512 rows: threads own two rows
    assert cfg["kernel"] == "cols" and cfg["group"] == 512
    for m, n in ((1025, 3), (3, 1025), (1030, 32)):
        assert bidiag.plan(m, n, numpy.float64)["kernel"] == "team", (m, n)
    for m, n in ((256, 256), (300, 200), (200, 300), (1030, 33)):
        cfg = bidiag.plan(m, n, numpy.float64)
        tuned = params("gebrd", numpy.float64, m, n)          # the table's panel width, or 32
        assert cfg["kernel"] == "blocked" and cfg["nb"] == (tuned.get("nb") or 32), (m, n)
        assert cfg["threads"] == (tuned.get("threads") or 512) and cfg["fuse"], (m, n)
    assert bidiag.plan(64, 64, numpy.float64, {"kernel": "blocked", "nb": 8})["nb"] == 8
    assert bidiag.plan(8, 8, numpy.float64, {"kernel": "blocked"})["kernel"] != "blocked"
    assert bidiag.plan(8, 8, numpy.float64, {"kernel": "team"})["kernel"] == "team"
    for option, default in (("shared_s", False), ("peel", True)):   # options of gebd2_fused
        assert bidiag.plan(64, 64, numpy.float64, {"kernel": "cols"})[option] == default
        assert bidiag.plan(64, 64, numpy.float64, {"kernel": "cols", option: True})[option]
        assert not bidiag.plan(64, 64, numpy.float64, {"kernel": "cols", option: False})[option]
        assert not bidiag.plan(64, 64, numpy.float64,
                               {"kernel": "cols", "fused": False, option: True})[option]
    with pytest.raises(ValueError, match="gebrd kernel"):
        bidiag.plan(8, 8, numpy.float64, {"kernel": "rows"})
    with pytest.raises(ValueError, match="gebrd regs"):
        bidiag.plan(8, 8, numpy.float64, {"kernel": "cols", "regs": 96})
    with pytest.raises(ValueError, match="gebrd nb"):
        bidiag.plan(64, 64, numpy.float64, {"kernel": "blocked", "nb": 33})
    with pytest.raises(ValueError, match="gebrd threads"):
        bidiag.plan(64, 64, numpy.float64, {"kernel": "blocked", "threads": 128})


BLOCKED = ({"nb": 1, "tail": 0}, {"nb": 5, "tail": 0, "threads": 512}, {"nb": 8, "tail": 20},
           {"nb": 16, "tail": 0, "threads": 1024}, {"nb": 32, "tail": 0}, {"nb": 32},
           {"nb": 32, "tail": 0, "threads": 512}, {"nb": 8, "tail": 0, "fuse": False},
           {"nb": 32, "tail": 0, "threads": 1024, "fuse": False})


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", BLOCKED,
                         ids=lambda p: (f"nb{p['nb']}-tail{p.get('tail')}-t{p.get('threads', 256)}"
                                        + ("" if p.get("fuse", True) else "-unfused")))
def test_gebrd_blocked_panels(dtype, params):
    """gebrd_blocked (labrd.cu panels, a GEMM after each) forced on matrices that would fit
    gebrd_cols: panel widths 1 .. 32 (the kernel's limit), widths that do not divide n, the tail
    handed to one launch early (``tail``) or after the last whole panel, blocks of 256 / 512 /
    1024 threads, the fused sweep (default) and the separate column pass (``fuse: False``); tall,
    square and wide."""
    for m, n in ((70, 70), (97, 61), (61, 97), (129, 40), (33, 33)):
        p = {"kernel": "blocked", **params}
        assert bidiag.plan(m, n, dtype, p)["kernel"] == ("blocked" if min(m, n) > p["nb"]
                                                         else "cols")
        _case(m, n, 3, dtype, p)
    _case(48, 40, 1000, dtype, {"kernel": "blocked", **params})


@pytest.mark.parametrize("dtype", REAL)
def test_gebrd_blocked_chunks(dtype):
    """gebrd_blocked in chunks of the batch (its workspace bound): chunks that do not divide the
    batch, tall and wide (each chunk transposed on its own); every matrix matches its
    reduction in one chunk (to rounding: cuBLAS may pick another GEMM for another batch count)."""
    for m, n in ((70, 45), (45, 70)):
        g = rng(m + 3 * n)
        a = random_matrix(g, (7, m, n), dtype)
        params = {"kernel": "blocked", "nb": 8, "tail": 0}
        whole = _run(a, params)
        for chunk in (1, 3, 7, 9):
            got = _run(a, {**params, "chunk": chunk})
            for x, y in zip(got, whole):
                err = numpy.abs(x.astype(numpy.float64) - y).max(initial=0.0)
                assert err <= 100 * max(m, n) * eps(dtype) * max(1.0, numpy.abs(y).max()), \
                    (m, n, chunk, err)
        _case(m, n, 7, dtype, {**params, "chunk": 3})


@pytest.mark.parametrize("dtype", REAL)
def test_gebrd_blocked_default_shapes(dtype):
    """The default path of matrices too large for one launch: gebrd_blocked, panels until the
    rest fits gebrd_cols; tall and wide; over 1024 rows (or columns) panels until at most nb
    columns are left, which gebrd_team takes."""
    for m, n in ((300, 200), (200, 300), (384, 384), (1100, 45), (45, 1100)):
        assert bidiag.plan(m, n, dtype)["kernel"] == "blocked"
        _case(m, n, 2, dtype)


@pytest.mark.parametrize("dtype", REAL)
def test_gebrd_fallback_shapes(dtype):
    """Shapes gebrd_cols does not take run gebrd_team without being forced."""
    for m, n in ((1030, 2), (2, 1030)):
        _case(m, n, 2, dtype)


def _run(a, params):
    out = bidiag.gebrd(cupy.asarray(a), _params=params)
    return [to_numpy(x) for x in out]


def _check_factorization(a, got, dtype):
    batch, m, n = a.shape
    ag, d, e, tq, tp = (x.astype(numpy.float64) for x in got)
    for x in got:
        assert numpy.isfinite(x).all()
    s_ref = numpy.linalg.svd(a.astype(numpy.float64), compute_uv=False)
    s = bidiagonal_singular_values(d, e)
    assert numpy.abs(s - s_ref).max() <= 30 * max(m, n) * eps(dtype) * max(s_ref.max(), 1.0)
    res = scaled_residual(rebuild(ag, d, e, tq, tp) - a, fro(a), max(m, n), dtype)
    assert res < THRESHOLD, res


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", STEPS, ids=_kernel_id)
def test_gebrd_zero_columns(dtype, params):
    """Nothing to annihilate gives H = I: tau = 0 exactly (LAPACK's dlarfg), the entries left
    alone; a zero matrix comes back zero."""
    g = rng(7)
    for m, n in ((1, 1), (6, 1), (1, 6), (7, 7), (12, 5), (5, 12), (33, 33), (80, 20), (20, 80)):
        k = min(m, n)
        zero = numpy.zeros((2, m, n), dtype)
        ag, d, e, tq, tp = _run(zero, params)
        assert not ag.any() and not d.any() and not e.any() and not tq.any() and not tp.any()
        for x in (ag, d, e, tq, tp):            # +0, as LAPACK (no update applied)
            assert not numpy.signbit(x).any(), (m, n)
        a = random_matrix(g, (3, m, n), dtype)
        if m >= n:
            a[0, :, 0] = 0          # H(0) = I: tauq[0] = 0, d[0] = 0
            a[1, 0, :] = 0          # alpha = 0 with x != 0: tau = 1 unless x = 0 too
        else:
            a[0, 0, :] = 0          # G(0) = I: taup[0] = 0, d[0] = 0
            a[1, :, 0] = 0
        if k > 2:
            a[2, :, 2] = 0          # rank deficient
        got = _run(a, params)
        ag, d, e, tq, tp = got
        first_tau = tq if m >= n else tp
        assert first_tau[0, 0] == 0 and d[0, 0] == 0, (m, n)
        if max(m, n) > 1:
            assert first_tau[1, 0] == 1, (m, n, first_tau[1, 0])
        if m >= n:
            assert not ag[0, 1:, 0].any()
        else:
            assert not ag[0, 0, 1:].any()
        _check_factorization(a, got, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("params", STEPS, ids=_kernel_id)
def test_gebrd_extreme_scaling(dtype, params):
    """Norms without overflow or underflow: A scaled by a power of two near the limits of the
    format scales d and e alike and leaves tau and the reflectors alone (to rounding)."""
    g = rng(8)
    scales = (2.0 ** -530, 2.0 ** 530) if dtype == numpy.float64 else (2.0 ** -100, 2.0 ** 100)
    for m, n in ((7, 7), (12, 5), (5, 12), (40, 40), (100, 31)):
        a = random_matrix(g, (3, m, n), dtype)
        base = _run(a, params)
        tol = 1e3 * max(m, n) * eps(dtype)
        for scale in scales:
            got = _run(a * dtype(scale), params)
            for x in got:
                assert numpy.isfinite(x).all(), (m, n, scale)
            for i in (1, 2):                      # d, e
                err = numpy.abs(got[i] / scale - base[i]).max(initial=0.0)
                size = max(1.0, numpy.abs(base[i]).max(initial=0.0))
                assert err <= tol * size, (m, n, scale, i, err)
            for i in (3, 4):                      # tauq, taup
                assert numpy.abs(got[i] - base[i]).max(initial=0.0) <= tol, (m, n, scale, i)
            refl = ~_bidiagonal_mask(m, n)        # the reflectors, unscaled
            err = numpy.abs(got[0] - base[0])[:, refl].max(initial=0.0)
            assert err <= tol * max(1.0, numpy.abs(base[0]).max()), (m, n, scale, err)


def _bidiagonal_mask(m, n):
    """Where B sits in GEBRD's output: the diagonal and the super- (m >= n) or sub-diagonal."""
    i = numpy.arange(m)[:, None]
    j = numpy.arange(n)[None, :]
    return (i == j) | ((j == i + 1) if m >= n else (i == j + 1))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("kernel", ("cols", "reg"))
def test_gebrd_cols_subnormal(dtype, kernel):
    """gebrd_cols on subnormal entries: finite, and the singular values (which carry few digits
    there) roughly right. The reciprocal of a subnormal alpha - beta would overflow. float32
    arithmetic on the GPU flushes subnormal numbers to zero (both GEBRD kernels see a float32
    matrix of entries ~2^-130 as zero: tau = 0, measured on the H100), so float32 is checked at
    2^-120: normal entries whose squares and products underflow."""
    g = rng(9)
    scale = 2.0 ** -1060 if dtype == numpy.float64 else 2.0 ** -120
    for m, n in ((7, 7), (12, 5), (5, 12), (40, 40)):
        a = (random_matrix(g, (2, m, n), dtype) * dtype(scale)).astype(dtype)
        got = _run(a, {"kernel": kernel})
        for x in got:
            assert numpy.isfinite(x).all(), (m, n)
        s_ref = numpy.linalg.svd(a.astype(numpy.float64), compute_uv=False)
        s = bidiagonal_singular_values(got[1].astype(numpy.float64), got[2].astype(numpy.float64))
        assert numpy.abs(s - s_ref).max() <= 0.05 * s_ref.max(), (m, n)


def test_gebrd_matches_cpu_backend():
    try:
        from linalg._cpu import bidiag as cpu
        g = rng(1)
        a = random_matrix(g, (4, 9, 6), numpy.float64)
        ref = cpu.gebrd(a.copy())
    except (ImportError, NotImplementedError, AttributeError):
        pytest.skip("CPU gebrd not available yet")
    got = bidiag.gebrd(cupy.asarray(a))
    for x, y in zip(got, ref):
        numpy.testing.assert_allclose(to_numpy(x), numpy.asarray(y), rtol=1e-10, atol=1e-10)


def test_gebrd_empty_never_launches():
    """No vendor batched GEBRD exists, so GEBRD has one path; empty inputs return at once."""
    for shape in ((0, 5, 3), (2, 0, 3), (2, 4, 0)):
        a, d, e, tauq, taup = bidiag.gebrd(cupy.zeros(shape))
        mn = min(shape[1:])
        assert d.shape == tauq.shape == taup.shape == (shape[0], mn)
        assert e.shape == (shape[0], max(mn - 1, 0))


REG_SHAPES = ((1, 1), (2, 2), (4, 4), (8, 8), (9, 9), (12, 12), (16, 16), (17, 17), (31, 31),
              (32, 32), (8, 1), (1, 8), (32, 1), (1, 32), (9, 4), (4, 9), (20, 13), (13, 20),
              (32, 31), (31, 32), (32, 17), (17, 32), (24, 24))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("shape", REG_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_gebrd_reg_shapes(shape, dtype):
    """gebrd_reg (a lane holds a column in registers) on every lane count (8, 16, 32), matrices
    smaller than their lanes (zero padding), tall and wide (reduced as A^T), several matrices a
    warp; agrees with gebrd_cols to rounding."""
    m, n = shape
    cfg = bidiag.plan(m, n, dtype, {"kernel": "reg"})
    assert cfg["kernel"] == "reg" and cfg["group"] == max(8, 1 << (max(m, n) - 1).bit_length())
    for batch in (1, 7, 1000):
        _case(m, n, batch, dtype, {"kernel": "reg"})
    _case(m, n, 1000, dtype, {"kernel": "reg", "shrink": True})
    a = random_matrix(rng(m * 31 + n), (50, m, n), dtype)
    ref = _run(a, {"kernel": "cols", "fused": False})
    tol = 1e3 * max(m, n) * eps(dtype)
    for trs in (False, True):
        for stage in (False, True):
            for shrink in (False, True):
                got = _run(a, {"kernel": "reg", "trs": trs, "stage": stage, "shrink": shrink})
                for x, y in zip(got, ref):
                    if x.size:
                        err = numpy.abs(x.astype(numpy.float64) - y).max()
                        assert err <= tol * max(1, numpy.abs(y).max()), (trs, stage, shrink, err)


@pytest.mark.parametrize("shape", ((256, 128), (128, 256)), ids=("tall", "wide"))
def test_gebrd_unpack_pool_growth(shape):
    """linalg.gebrd_unpack on the GPU grows CuPy's memory pool by a few times its outputs, not by
    a block a reflector (the accumulation's block grows by a row a step, so a temporary of its
    size never fits a freed one: 1.55 / 2.05 GB for these 34 MB of outputs before, 0.06 / 0.07
    GB now, reports/gpu_20261128i call 4), and still forms Q and P^T that rebuild A."""
    m, n = shape
    ref = random_matrix(rng(m + 3 * n), (64, m, n), numpy.float64)
    result = linalg.gebrd(cupy.asarray(ref))
    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    before = pool.total_bytes()
    q, b, pt = linalg.gebrd_unpack(result)
    cupy.cuda.Device().synchronize()
    outputs = q.nbytes + b.nbytes + pt.nbytes
    assert pool.total_bytes() - before <= 4 * outputs, (pool.total_bytes() - before, outputs)
    rebuilt = to_numpy(q @ b @ pt)
    assert scaled_residual(rebuilt - ref, fro(ref), max(m, n), numpy.float64) < THRESHOLD
