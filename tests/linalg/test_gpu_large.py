"""Operands of more than 2^31 elements on the GPU: the public API at batch counts whose matrices
reach past element 2^31 (float32 n = 64: 524 304 matrices, 8.6 GB an operand; n = 512: 8208),
where an offset computed in 32-bit integers would wrap.

The batch repeats PERIOD distinct inputs, so every result must equal the one of its input's
first occurrence (checked over the whole batch, a chunk at a time, naming the first index that
differs); the first PERIOD results are checked against NumPy in float64 with LAPACK-style scaled
residuals. One test runs the operations and sizes one after another (~30 GB at a time).
"""
import numpy
import pytest

import linalg

from .helpers import (THRESHOLD, eps, fro, random_spd, random_triangular, rng, scaled_residual,
                      to_numpy)

pytestmark = [pytest.mark.gpu, pytest.mark.slow]

PERIOD = 8
DTYPE = numpy.float32
LIMIT = 2 ** 31


def _batch(n):
    """A multiple of PERIOD whose matrices run past element 2^31."""
    return (LIMIT // (n * n) // PERIOD + 2) * PERIOD


def _tiled(cp, base, batch):
    """The (batch, ...) device array repeating the PERIOD items of ``base``."""
    reps = (batch // PERIOD,) + (1,) * (base.ndim - 1)
    return cp.tile(cp.asarray(base.astype(DTYPE)), reps)


def _periodic(cp, out, name):
    """Every item of ``out`` equals item i % PERIOD (to a few ulps of its largest entry)."""
    first = out[:PERIOD]
    tol = 16 * eps(DTYPE) * cp.abs(first).reshape(PERIOD, -1).max(axis=1)
    tol = tol.reshape((1, PERIOD) + (1,) * (out.ndim - 1))
    chunk = PERIOD * 8192
    for start in range(0, out.shape[0], chunk):
        part = out[start:start + chunk]
        part = part.reshape((part.shape[0] // PERIOD, PERIOD) + out.shape[1:])
        bad = cp.abs(part - first[None]) > tol
        if bool(bad.any()):
            index = start + int(cp.flatnonzero(bad.reshape(part.shape[0] * PERIOD, -1)
                                                  .any(axis=1))[0])
            pytest.fail(f"{name}: item {index} differs from item {index % PERIOD} "
                        f"(same input; element offset {index * first[0].size})")


def _host(x):
    return to_numpy(x[:PERIOD]).astype(numpy.float64)


def _inputs(n):
    """float64 host bases: SPD matrices, their lower factors, triangular and general matrices,
    right-hand sides."""
    gen = rng(n)
    a = random_spd(gen, PERIOD, n, numpy.float64).astype(DTYPE).astype(numpy.float64)
    t = random_triangular(gen, PERIOD, n, numpy.float64).astype(DTYPE).astype(numpy.float64)
    factor = numpy.linalg.cholesky(a).astype(DTYPE).astype(numpy.float64)
    g = gen.standard_normal((PERIOD, n, n)).astype(DTYPE).astype(numpy.float64)
    b = gen.standard_normal((PERIOD, n, n)).astype(DTYPE).astype(numpy.float64)
    return a, factor, t, g, b


def _inverse(cp, name, a, inv):
    """inv periodic; ||A inv - I|| / (||A|| ||inv|| n eps) small on the first items."""
    _periodic(cp, inv, name)
    h, n = _host(inv), a.shape[-1]
    _residual(name, a @ h - numpy.eye(n), fro(a) * fro(h), n)


def _solution(cp, name, a, rhs, x):
    """x periodic; ||A x - rhs|| / (||A|| ||x|| n eps) small on the first items (rhs: host
    float64 matrices or vectors)."""
    _periodic(cp, x, name)
    h = _host(x)
    if rhs.ndim == 2:
        h, rhs = h[:, :, None], rhs[:, :, None]
    _residual(name, a @ h - rhs, fro(a) * fro(h), a.shape[-1])


def _product(cp, name, out, ref, scale):
    """out periodic; ||out - ref|| / (scale n eps) small on the first items."""
    _periodic(cp, out, name)
    _residual(name, _host(out) - ref, scale, ref.shape[1])


def _residual(name, diff, scale, n):
    res = scaled_residual(diff, scale, n, DTYPE)
    assert res < THRESHOLD, f"{name}: scaled residual {res:.3g} of the first {PERIOD} items"


def _run_cholesky(cp, batch, a, factor):
    rhs = numpy.linspace(-1.0, 1.0, a.size // a.shape[-1] * 2).reshape(a.shape[:2] + (2,))
    da = _tiled(cp, a, batch)
    f = linalg.potrf(da)
    _periodic(cp, f, "potrf")
    h = _host(f)
    _residual("potrf", h @ numpy.swapaxes(h, 1, 2) - a, fro(a), a.shape[-1])
    del f
    _inverse(cp, "poti", a, linalg.poti(da))
    _solution(cp, "posv", a, rhs, linalg.posv(da, _tiled(cp, rhs, batch)))
    del da
    a2 = factor @ numpy.swapaxes(factor, 1, 2)
    dl = _tiled(cp, factor, batch)
    _inverse(cp, "potri", a2, linalg.potri(dl))
    vec = rhs[:, :, 0]
    _solution(cp, "potrs (one vector)", a2, vec, linalg.potrs(dl, _tiled(cp, vec, batch)))


def _run_triangular(cp, batch, t, b):
    dt = _tiled(cp, t, batch)
    _inverse(cp, "trtri", t, linalg.trtri(dt))
    _product(cp, "lauum", linalg.lauum(dt), numpy.swapaxes(t, 1, 2) @ t, fro(t) ** 2)
    vec = b[:, :, 0]
    _solution(cp, "trsv", t, vec, linalg.trsv(dt, _tiled(cp, vec, batch)))
    db = _tiled(cp, b, batch)
    _solution(cp, "trsm", t, b, linalg.trsm(dt, db))
    _product(cp, "trmm", linalg.trmm(dt, db), t @ b, fro(t) * fro(b))


def _run_products(cp, batch, g, b):
    dg = _tiled(cp, g, batch)
    _product(cp, "gemm", linalg.gemm(dg, _tiled(cp, b, batch)), g @ b, fro(g) * fro(b))
    _product(cp, "syrk", linalg.syrk(dg), g @ numpy.swapaxes(g, 1, 2), fro(g) ** 2)
    vec = b[:, :, 0]
    _product(cp, "gemv", linalg.gemv(dg, _tiled(cp, vec, batch)),
             (g @ vec[:, :, None])[:, :, 0], fro(g) * fro(vec))


def test_operands_beyond_2_31_elements():
    """Every operation at n = 64 and 512 (one after another: ~30 GB of the GPU at a time, so
    beside the other tests' workers) on a batch past element 2^31, float32: results equal
    across repeats of the same input, the first ones right."""
    cp = pytest.importorskip("cupy")
    _, total = cp.cuda.runtime.memGetInfo()
    if total < 64 * 2 ** 30:
        pytest.skip(f"needs a GPU of 64 GB or more (~30 GB at a time); this one has "
                    f"{total / 2 ** 30:.0f} GB")
    for n in (64, 512):
        batch = _batch(n)
        assert batch * n * n > LIMIT
        a, factor, t, g, b = _inputs(n)
        try:
            _run_cholesky(cp, batch, a, factor)
            _run_triangular(cp, batch, t, b)
            _run_products(cp, batch, g, b)
        finally:
            cp.get_default_memory_pool().free_all_blocks()
