"""Quadrature-point physics (hydro/lagrangian.py)."""
import numpy as np
import pytest

from hydro.config import load_case
from hydro.lagrangian import det_inv, min_eigenpair, min_singular_value, smooth_step
from hydro.simulation import Simulation


@pytest.mark.parametrize("d", [1, 2, 3])
def test_det_inv_and_singular_value(d):
    rng = np.random.default_rng(d)
    J = rng.standard_normal((50, d, d)) + 3 * np.eye(d)
    det, inv = det_inv(np, J)
    np.testing.assert_allclose(det, np.linalg.det(J), rtol=1e-12)
    np.testing.assert_allclose(inv, np.linalg.inv(J), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(min_singular_value(np, J, det),
                               np.linalg.svd(J, compute_uv=False)[:, -1], rtol=1e-10)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_min_eigenpair(d):
    rng = np.random.default_rng(10 + d)
    A = rng.standard_normal((100, d, d))
    A = A + np.swapaxes(A, 1, 2)
    A[0] = np.diag(np.arange(d, 0, -1.0))  # diagonal, b == 0 branch
    lam, vec = min_eigenpair(np, A)
    np.testing.assert_allclose(lam, np.linalg.eigvalsh(A)[:, 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.einsum("zij,zj->zi", A, vec), lam[:, None] * vec, atol=1e-11)
    np.testing.assert_allclose(np.linalg.norm(vec, axis=1), 1.0, rtol=1e-12)


def test_smooth_step():
    x = np.array([-1.0, -1e-12, 0.0, 1e-12, 1.0])
    np.testing.assert_allclose(smooth_step(np, x, 1e-12), [0, 0, 0.5, 1, 1])


def test_quadrature_data_at_rest_state():
    # Sod left state on a box: uniform rho = 1, p = 1, v = 0 and no viscosity.
    cfg = load_case({"problem": "sod", "dim": 2, "mesh": {"nx": 2, "extent": [[-1, 0.5], [0, 1]]},
                     "viscosity": {"enabled": False}, "backend": "cpu"})
    s = Simulation(cfg)
    qd, ref = s.qdata, s.ref
    np.testing.assert_allclose(qd.rho, 1.0, rtol=1e-13)
    np.testing.assert_allclose(qd.p, 1.0, rtol=1e-13)
    # stressJinvT = -p J^{-T} w det J for the affine zone 0.75 x 0.5
    J = np.diag([0.75, 0.5])
    expect = -np.linalg.inv(J).T * np.linalg.det(J)
    np.testing.assert_allclose(qd.stressJinvT / ref.qweights[None, :, None, None],
                               np.broadcast_to(expect, qd.stressJinvT.shape), rtol=1e-12, atol=1e-15)
    # CFL estimate: cfl * h_min / c_s with h_min = 0.5 / order, c_s = sqrt(1.4 * 0.4 * e)
    cs = np.sqrt(1.4 * 0.4 * 1.0 / 0.4)
    assert s.dt == pytest.approx(0.5 * 0.25 / cs, rel=1e-12)
    assert qd.h0 == pytest.approx(np.sqrt(1.5 / 4) / 2)


def test_min_eigenpair_chunked_path_matches_numpy(monkeypatch):
    """The GPU path (cupy.linalg.eigh in chunks) gives the same pairs as one NumPy call."""
    import types
    from hydro import lagrangian
    g = np.random.default_rng(3)
    m = g.standard_normal((5, 7, 3, 3))
    A = m + m.transpose(0, 1, 3, 2)
    chunked_numpy = types.SimpleNamespace(linalg=np.linalg, empty=np.empty)   # not `np`: GPU branch
    monkeypatch.setattr(lagrangian, "EIGH_CHUNK", 4)
    lam, vec = lagrangian.min_eigenpair(chunked_numpy, A)
    w, V = np.linalg.eigh(A)
    assert lam.shape == (5, 7) and vec.shape == (5, 7, 3)
    np.testing.assert_allclose(lam, w[..., 0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.abs((vec * V[..., :, 0]).sum(-1)), 1.0, rtol=1e-10)


@pytest.mark.gpu
def test_min_eigenpair_large_batch_on_gpu():
    cupy = pytest.importorskip("cupy")
    from hydro.lagrangian import min_eigenpair
    m = np.random.default_rng(4).standard_normal((300_000, 3, 3))
    A = m + m.transpose(0, 2, 1)
    lam, _ = min_eigenpair(cupy, cupy.asarray(A))
    np.testing.assert_allclose(cupy.asnumpy(lam), np.linalg.eigvalsh(A)[:, 0], rtol=1e-10, atol=1e-10)
