"""Mass and force operators, PCG (hydro/operators.py)."""
import numpy as np
import pytest

from hydro.config import load_case
from hydro.operators import gather_vector, pcg, scatter_add
from hydro.simulation import Simulation


def _sim(problem="sedov", dim=2, nx=3, order=2, **kw):
    d = {"problem": problem, "dim": dim, "mesh": {"nx": nx}, "order": order, "backend": "cpu"}
    d.update(kw)
    return Simulation(load_case(d))


@pytest.mark.parametrize("dim,order", [(1, 2), (2, 2), (2, 3), (3, 1)])
def test_kinematic_mass_integrates_volume(dim, order):
    s = _sim(dim=dim, order=order, mesh={"nx": 3, "extent": [[0, 2]] + [[0, 1]] * (dim - 1)})
    M = s.op.kmass
    one = np.ones(M.n)
    assert one @ M.mult(one) == pytest.approx(2.0, rel=1e-13)  # rho0 = 1 on volume 2
    # symmetric positive definite
    A = M.matrix.toarray()
    np.testing.assert_allclose(A, A.T, atol=1e-15)
    assert np.linalg.eigvalsh(A).min() > 0


def test_energy_mass_inverse_and_total_mass():
    s = _sim(dim=2, order=3)
    Em = s.op.emass
    eye = np.einsum("zij,zjk->zik", Em.inverse, Em.blocks)
    np.testing.assert_allclose(eye, np.broadcast_to(np.eye(Em.blocks.shape[1]), eye.shape), atol=1e-10)
    # Bernstein partition of unity: 1^T M_E 1 summed over zones = total mass
    assert Em.blocks.sum() == pytest.approx(1.0, rel=1e-13)


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_force_operator_transpose_consistency(dim):
    s = _sim(problem="taylor_green" if dim > 1 else "sod", dim=dim, nx=2)
    rng = np.random.default_rng(0)
    F = s.op.force.F                                   # assembled at the initial dt estimate
    v = rng.standard_normal((dim, s.layout.n))
    vz = gather_vector(v, s.op.dof_map)
    # v . (F 1) == 1 . (F^T v), zone by zone
    lhs = (vz * s.op.force.mult_one()).sum(1)
    rhs = s.op.force.mult_transpose(v).sum(1)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(F, np.einsum("zciq,qj->zcij", np.einsum(
        "zqcg,gqi->zciq", s.qdata.stressJinvT, s.ref.h1_G), s.ref.l2_B).reshape(F.shape), atol=1e-13)


def test_uniform_pressure_gives_no_interior_force():
    # Sod right state everywhere: constant p, v = 0 -> -F.1 vanishes at interior dofs.
    s = _sim(problem="sod", dim=2, nx=3, mesh={"nx": 3, "extent": [[0.5, 1.5], [0, 1]]},
             viscosity={"enabled": False})
    f1 = s.op.force.mult_one()
    L = s.layout
    idx = np.arange(L.dim)[None, :, None] * L.n + s.op.dof_map[:, None, :]
    rhs = scatter_add(np, idx, f1.reshape(L.Z, L.dim, -1), L.dim * L.n).reshape(L.dim, L.n)
    xy = s.local.node_coords
    interior = ((xy[:, 0] > 0.5 + 1e-9) & (xy[:, 0] < 1.5 - 1e-9) & (xy[:, 1] > 1e-9) & (xy[:, 1] < 1 - 1e-9))
    assert np.abs(rhs[:, interior]).max() < 1e-14
    # the net force on the boundary is p * (outward normal) * face length, summing to zero
    np.testing.assert_allclose(rhs.sum(1), 0.0, atol=1e-14)


def _row_dots(a, c):
    return np.array([ai @ ci for ai, ci in zip(a, c)])


def test_pcg_solves_mass_system():
    s = _sim(dim=2, nx=4)
    M = s.op.kmass
    rng = np.random.default_rng(1)
    b = rng.standard_normal((2, M.n))
    x, it = pcg(M.mult, b, M.diag, _row_dots, 1e-13, 300, np)
    np.testing.assert_allclose(M.mult(x), b, atol=1e-10)
    assert x.shape == b.shape and ((0 < it) & (it < 100)).all()


def test_pcg_rows_together_equal_rows_alone():
    """Each row takes the steps it would take alone, bit for bit, and stops on its own: M 1 (the
    preconditioner's own direction) converges in one step, a random row in more, a zero row at
    once."""
    s = _sim(dim=2, nx=4)
    M = s.op.kmass
    rng = np.random.default_rng(2)
    b = np.stack([rng.standard_normal(M.n), np.zeros(M.n), M.mult(np.ones(M.n)),
                  1e3 * np.sin(np.arange(M.n))])
    x, it = pcg(M.mult, b, M.diag, _row_dots, 1e-9, 300, np)
    assert it[1] == 0 and (x[1] == 0).all()
    for i in range(len(b)):
        xi, iti = pcg(M.mult, b[i:i + 1], M.diag, _row_dots, 1e-9, 300, np)
        assert iti[0] == it[i]
        np.testing.assert_array_equal(xi[0], x[i])
    assert it[2] == 1 and it[0] > 5 and it[3] > 5
    _, capped = pcg(M.mult, b, M.diag, _row_dots, 1e-9, 3, np)
    assert (capped == [3, 0, 1, 3]).all()


def test_gather_vector_layout():
    field = np.arange(2 * 5, dtype=float).reshape(2, 5)
    dof_map = np.array([[0, 1, 2], [2, 3, 4]])
    g = gather_vector(field, dof_map)
    np.testing.assert_array_equal(g[1], [2, 3, 4, 7, 8, 9])


def test_force_operator_gemm_form_after_partial_assembly():
    """A stress taken with ``fused`` on (partial assembly: F not built) still gives the GEMM
    form's products once ``fused`` is switched off (bench_hydro's reference path does that)."""
    s = _sim(problem="sedov", dim=2, nx=2)
    force, v = s.op.force, np.random.default_rng(1).standard_normal((2, s.layout.n))
    want = force.mult_one().copy(), force.mult_transpose(v).copy()
    stress = s.qdata.stressJinvT
    force.fused = True
    assert force.assemble(stress * 2.0) is None and force.F is None
    force.fused = False
    np.testing.assert_allclose(force.mult_one(), 2.0 * want[0], rtol=1e-13)
    np.testing.assert_allclose(force.mult_transpose(v), 2.0 * want[1], rtol=1e-13)
