"""Closed forms for 3 x 3 eigen- and singular values (hydro/symmetric3.py) against LAPACK."""
import numpy as np
import pytest

from hydro import symmetric3


def rotated(diagonals, seed):
    """Q diag(d) Q^T for random orthogonal Q, one matrix a row of ``diagonals`` (m, 3)."""
    Q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((len(diagonals), 3, 3)))
    return Q @ (np.asarray(diagonals, float)[:, :, None] * np.eye(3)) @ Q.transpose(0, 2, 1)


def assert_pair_is_smallest(A, lam, vec, tol):
    w = np.linalg.eigvalsh(A)
    scale = np.abs(w).max(axis=-1, initial=0.0)[..., None] + 1e-300
    np.testing.assert_allclose(lam / scale[..., 0], w[..., 0] / scale[..., 0], atol=tol)
    residual = np.einsum("...ij,...j->...i", A, vec) - lam[..., None] * vec
    assert (np.abs(residual) / scale).max() <= 10 * tol
    np.testing.assert_allclose(np.linalg.norm(vec, axis=-1), 1.0, rtol=1e-13)


def test_min_eigenpair_random_batch_matches_eigh():
    m = np.random.default_rng(0).standard_normal((4, 500, 3, 3))
    A = m + m.transpose(0, 1, 3, 2)
    lam, vec = symmetric3.min_eigenpair(A)
    assert lam.shape == (4, 500) and vec.shape == (4, 500, 3)
    assert_pair_is_smallest(A, lam, vec, 1e-14)


@pytest.mark.parametrize("diagonal", [(-3.0, 1.0, 1.0), (-1.0, 2.0, 2.0 + 1e-9), (0.5, 4.0, 9.0),
                                      (-1e-3, 0.0, 1e3)])
def test_min_eigenpair_separated_smallest(diagonal):
    """The smallest eigenvalue apart from the others, the other two tied or not (closed form),
    and one near the middle relative to the spread (-1e-3 and 0 beside 1e3: LAPACK)."""
    A = rotated([diagonal] * 50, seed=1)
    lam, vec = symmetric3.min_eigenpair(A)
    assert_pair_is_smallest(A, lam, vec, 1e-14)


@pytest.mark.parametrize("diagonal", [(-1.0, -1.0, 2.0), (-1.0, -1.0 + 1e-9, 2.0),
                                      (5.0, 5.0 + 1e-12, 5.0 - 1e-12)])
def test_min_eigenpair_near_ties_go_to_lapack(diagonal):
    """Two smallest (nearly) tied, or the matrix nearly isotropic: eigh's pair, exactly."""
    A = rotated([diagonal] * 20, seed=2)
    lam, vec = symmetric3.min_eigenpair(A)
    w, V = np.linalg.eigh(A)
    np.testing.assert_array_equal(lam, w[:, 0])
    np.testing.assert_array_equal(vec, V[:, :, 0])


def test_min_eigenpair_isotropic_and_diagonal():
    """c I (and 0) give (c, e_0), as eigh; a diagonal matrix its smallest entry's axis."""
    A = np.zeros((4, 3, 3))
    A[1] = 2.5 * np.eye(3)
    A[2] = np.diag([3.0, -2.0, 1.0])
    A[3] = np.diag([-7.0, 0.0, 7.0])
    lam, vec = symmetric3.min_eigenpair(A)
    np.testing.assert_array_equal(lam[:2], [0.0, 2.5])
    np.testing.assert_array_equal(vec[:2], [[1.0, 0.0, 0.0]] * 2)
    np.testing.assert_allclose(lam[2:], [-2.0, -7.0], rtol=1e-15)
    np.testing.assert_allclose(np.abs(vec[2:]), [[0, 1, 0], [1, 0, 0]], atol=1e-15)


def test_min_singular_value_random_batch_matches_svd():
    J = np.random.default_rng(3).standard_normal((3, 400, 3, 3)) + 2.0 * np.eye(3)
    s = np.linalg.svd(J, compute_uv=False)
    got = symmetric3.min_singular_value(J, np.linalg.det(J))
    assert got.shape == (3, 400)
    well = s[..., 0] / s[..., -1] < 1e3
    np.testing.assert_allclose(got[well], s[..., -1][well], rtol=1e-12)
    np.testing.assert_allclose(got, s[..., -1], rtol=1e-8)


@pytest.mark.parametrize("sigma", [(1.0, 0.5, 0.25), (2.0, 1.0, 1.0), (1.0, 1.0, 0.5),
                                   (3.0, 3.0, 3.0), (1.0, 1e-3, 1e-6), (1.0, 1.0, 0.0)])
def test_min_singular_value_of_known_spectra(sigma):
    """U diag(sigma) V^T: distinct, the two smallest tied (an elongated zone: LAPACK decides),
    the two largest tied, all tied, condition 1e6, singular."""
    rng = np.random.default_rng(4)
    U, _ = np.linalg.qr(rng.standard_normal((30, 3, 3)))
    V, _ = np.linalg.qr(rng.standard_normal((30, 3, 3)))
    J = U @ (np.asarray(sigma)[:, None] * np.eye(3)) @ V.transpose(0, 2, 1)
    got = symmetric3.min_singular_value(J, np.linalg.det(J))
    want = np.linalg.svd(J, compute_uv=False)[:, -1]
    atol = 1e-15 * sigma[0]
    np.testing.assert_allclose(got, want, rtol=1e-9 if sigma[2] < 1e-3 else 1e-13, atol=atol)
    np.testing.assert_allclose(got, sigma[2], rtol=1e-9, atol=atol)


def test_min_singular_value_of_zero_and_rank_one():
    J = np.zeros((2, 3, 3))
    J[1] = np.outer([1.0, 2.0, 3.0], [0.5, -1.0, 2.0])
    np.testing.assert_array_equal(symmetric3.min_singular_value(J, np.zeros(2)), [0.0, 0.0])
