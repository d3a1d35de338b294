"""Reference bases and quadrature (hydro/basis.py)."""
import numpy as np
import pytest

from hydro import basis


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_gauss_legendre_exact_to_degree_2n_minus_1(n):
    x, w = basis.gauss_legendre(n)
    for deg in range(2 * n):
        assert np.dot(w, x**deg) == pytest.approx(1.0 / (deg + 1), rel=1e-13)
    # and not beyond (degree 2n is integrated inexactly)
    assert abs(np.dot(w, x ** (2 * n)) - 1.0 / (2 * n + 1)) > 1e-12


def test_points_for_order_matches_mfem():
    # order 6 (Q2-Q1 default) -> 4 points, order 10 (Q3-Q2) -> 6, order 14 (Q4-Q3) -> 8
    assert [basis.points_for_order(o) for o in (6, 10, 14)] == [4, 6, 8]


def test_gauss_lobatto_points():
    np.testing.assert_allclose(basis.gauss_lobatto_points(3), [0, 0.5, 1], atol=1e-15)
    s = np.sqrt(5.0) / 10
    np.testing.assert_allclose(basis.gauss_lobatto_points(4), [0, 0.5 - s, 0.5 + s, 1], atol=1e-15)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_lagrange_is_nodal_partition_of_unity(k):
    nodes = basis.gauss_lobatto_points(k + 1)
    val, der = basis.lagrange_1d(nodes, nodes)
    np.testing.assert_allclose(val, np.eye(k + 1), atol=1e-13)
    x = np.linspace(0, 1, 17)
    val, der = basis.lagrange_1d(nodes, x)
    np.testing.assert_allclose(val.sum(1), 1.0, atol=1e-13)
    np.testing.assert_allclose(der.sum(1), 0.0, atol=1e-11)
    # derivative against central differences
    h = 1e-6
    fd = (basis.lagrange_1d(nodes, x + h)[0] - basis.lagrange_1d(nodes, x - h)[0]) / (2 * h)
    np.testing.assert_allclose(der, fd, atol=1e-7)


@pytest.mark.parametrize("p", [0, 1, 2, 3])
def test_bernstein_positive_partition_of_unity(p):
    x = np.linspace(0, 1, 13)
    val, der = basis.bernstein_1d(p, x)
    assert (val >= 0).all()
    np.testing.assert_allclose(val.sum(1), 1.0, atol=1e-14)
    np.testing.assert_allclose(der.sum(1), 0.0, atol=1e-12)
    h = 1e-6
    fd = (basis.bernstein_1d(p, x + h)[0] - basis.bernstein_1d(p, x - h)[0]) / (2 * h)
    np.testing.assert_allclose(der, fd, atol=1e-7)


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_reference_element_tensor_tables(dim):
    ref = basis.ReferenceElement(dim, 2, 1, 6)
    assert ref.nq == 4**dim and ref.nd_h1 == 3**dim and ref.nd_l2 == 2**dim
    assert ref.qweights.sum() == pytest.approx(1.0, rel=1e-14)
    np.testing.assert_allclose(ref.h1_B.sum(1), 1.0, atol=1e-13)
    np.testing.assert_allclose(ref.l2_B.sum(1), 1.0, atol=1e-13)
    np.testing.assert_allclose(ref.h1_G.sum(2), 0.0, atol=1e-12)
    # gradient of the coordinate field sum_i xi_i(node) w_i is the identity
    for g in range(dim):
        for c in range(dim):
            grad = ref.h1_G[g] @ ref.h1_nodes[:, c]
            np.testing.assert_allclose(grad, float(g == c), atol=1e-12)
    # scattered evaluation agrees with the tensor tables at the quadrature points
    np.testing.assert_allclose(ref.h1_eval(ref.qpts), ref.h1_B, atol=1e-13)
    np.testing.assert_allclose(ref.l2_eval(ref.qpts), ref.l2_B, atol=1e-13)


def test_tensor_quadrature_integrates_polynomial_3d():
    ref = basis.ReferenceElement(3, 2, 1, 6)
    x, y, z = ref.qpts.T
    val = np.dot(ref.qweights, x**5 * y**3 * z**6)
    assert val == pytest.approx(1 / 6 * 1 / 4 * 1 / 7, rel=1e-13)
