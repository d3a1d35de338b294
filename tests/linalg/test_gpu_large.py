"""Operands of more than 2^31 elements on the GPU: the public API at batch counts whose matrices
reach past element 2^31 (float32 n = 64: 524 800 matrices, 8.6 GB an operand; n = 512: 8200),
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


def _check(res, name):
    assert res < THRESHOLD, f"{name}: scaled residual {res:.3g} of the first {PERIOD} items"


def _run_cholesky(cp, n, batch, a, factor):
    ident = numpy.eye(n)
    da = _tiled(cp, a, batch)
    f = linalg.potrf(da)
    _periodic(cp, f, "potrf")
    fh = _host(f)
    _check(scaled_residual(fh @ numpy.swapaxes(fh, 1, 2) - a, fro(a), n, DTYPE), "potrf")
    del f
    inv = linalg.poti(da)
    _periodic(cp, inv, "poti")
    _check(scaled_residual(a @ _host(inv) - ident, fro(a) * fro(_host(inv)), n, DTYPE), "poti")
    del inv
    rhs = numpy.linspace(-1.0, 1.0, PERIOD * n * 2).reshape(PERIOD, n, 2)
    x = linalg.posv(da, _tiled(cp, rhs, batch))
    _periodic(cp, x, "posv")
    _check(scaled_residual(a @ _host(x) - rhs, fro(a) * fro(_host(x)), n, DTYPE), "posv")
    del x, da
    dl = _tiled(cp, factor, batch)
    inv = linalg.potri(dl)
    _periodic(cp, inv, "potri")
    a2 = factor @ numpy.swapaxes(factor, 1, 2)
    _check(scaled_residual(a2 @ _host(inv) - ident, fro(a2) * fro(_host(inv)), n, DTYPE),
           "potri")
    del inv
    vec = rhs[:, :, 0]
    x = linalg.potrs(dl, _tiled(cp, vec, batch))
    _periodic(cp, x, "potrs (one vector)")
    xh = _host(x)[:, :, None]
    _check(scaled_residual(a2 @ xh - vec[:, :, None], fro(a2) * fro(xh), n, DTYPE), "potrs")


def _run_triangular(cp, n, batch, t, b):
    ident = numpy.eye(n)
    dt = _tiled(cp, t, batch)
    inv = linalg.trtri(dt)
    _periodic(cp, inv, "trtri")
    _check(scaled_residual(t @ _host(inv) - ident, fro(t) * fro(_host(inv)), n, DTYPE), "trtri")
    del inv
    y = linalg.lauum(dt)
    _periodic(cp, y, "lauum")
    _check(scaled_residual(_host(y) - numpy.swapaxes(t, 1, 2) @ t, fro(t) ** 2, n, DTYPE),
           "lauum")
    del y
    vec = b[:, :, 0]
    x = linalg.trsv(dt, _tiled(cp, vec, batch))
    _periodic(cp, x, "trsv")
    xh = _host(x)[:, :, None]
    _check(scaled_residual(t @ xh - vec[:, :, None], fro(t) * fro(xh), n, DTYPE), "trsv")
    del x
    db = _tiled(cp, b, batch)
    x = linalg.trsm(dt, db)
    _periodic(cp, x, "trsm")
    _check(scaled_residual(t @ _host(x) - b, fro(t) * fro(_host(x)), n, DTYPE), "trsm")
    del x
    y = linalg.trmm(dt, db)
    _periodic(cp, y, "trmm")
    _check(scaled_residual(_host(y) - t @ b, fro(t) * fro(b), n, DTYPE), "trmm")


def _run_products(cp, n, batch, g, b):
    dg, db = _tiled(cp, g, batch), _tiled(cp, b, batch)
    c = linalg.gemm(dg, db)
    _periodic(cp, c, "gemm")
    _check(scaled_residual(_host(c) - g @ b, fro(g) * fro(b), n, DTYPE), "gemm")
    del c, db
    c = linalg.syrk(dg)
    _periodic(cp, c, "syrk")
    _check(scaled_residual(_host(c) - g @ numpy.swapaxes(g, 1, 2), fro(g) ** 2, n, DTYPE),
           "syrk")
    del c
    vec = b[:, :, 0]
    y = linalg.gemv(dg, _tiled(cp, vec, batch))
    _periodic(cp, y, "gemv")
    ref = (g @ vec[:, :, None])[:, :, 0]
    _check(scaled_residual(_host(y) - ref, fro(g) * fro(vec), n, DTYPE), "gemv")


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
            _run_cholesky(cp, n, batch, a, factor)
            _run_triangular(cp, n, batch, t, b)
            _run_products(cp, n, batch, g, b)
        finally:
            cp.get_default_memory_pool().free_all_blocks()
