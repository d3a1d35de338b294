"""Reference-element bases and quadrature on [0, 1]^dim (tensor products of 1-D rules).

Conventions (used by every other hydro module):

* reference coordinates xi in [0, 1] per axis (as MFEM);
* tensor (lexicographic) ordering with the first axis fastest: a point or dof with 1-D indices
  (i0, i1, i2) has flat index i0 + n*(i1 + n*i2);
* tables are plain NumPy arrays built once at setup; the simulation copies them to the device.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np


# --------------------------------------------------------------------------------------------
# 1-D point sets and quadrature
# --------------------------------------------------------------------------------------------

def gauss_legendre(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre rule with ``n`` points on [0, 1]: (points (n,), weights (n,)).

    Exact for polynomials of degree 2n - 1.
    """
    x, w = np.polynomial.legendre.leggauss(n)
    return 0.5 * (x + 1.0), 0.5 * w


def points_for_order(order: int) -> int:
    """Number of Gauss-Legendre points that integrate degree ``order`` exactly (MFEM's choice)."""
    return order // 2 + 1


@lru_cache(maxsize=None)
def gauss_lobatto_points(n: int) -> np.ndarray:
    """The ``n`` Gauss-Lobatto points on [0, 1] (endpoints included), ascending, shape (n,)."""
    if n == 1:
        return np.array([0.5])
    # Interior points are the roots of P'_{n-1}; endpoints are 0 and 1.
    leg = np.polynomial.legendre.Legendre.basis(n - 1).deriv()
    interior = np.sort(np.real(leg.roots())) if n > 2 else np.array([])
    pts = np.concatenate([[-1.0], interior, [1.0]])
    # Symmetrize to kill round-off asymmetry of the root finder.
    pts = 0.5 * (pts - pts[::-1])
    return 0.5 * (pts + 1.0)


# --------------------------------------------------------------------------------------------
# 1-D bases: value and derivative tables at arbitrary points
# --------------------------------------------------------------------------------------------

def lagrange_1d(nodes: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lagrange basis on ``nodes`` (n,) evaluated at ``x`` (m,).

    Returns (values (m, n), derivatives (m, n)); column j is the basis function that is 1 at
    nodes[j].
    """
    nodes = np.asarray(nodes, float)
    x = np.asarray(x, float)
    n = len(nodes)
    val = np.ones((len(x), n))
    der = np.zeros((len(x), n))
    for j in range(n):
        others = [m for m in range(n) if m != j]
        denom = np.prod([nodes[j] - nodes[m] for m in others]) if others else 1.0
        factors = np.stack([x - nodes[m] for m in others], axis=1) if others else np.ones((len(x), 0))
        val[:, j] = np.prod(factors, axis=1) / denom
        # Product rule: sum over the factor left out.
        for k in range(len(others)):
            der[:, j] += np.prod(np.delete(factors, k, axis=1), axis=1) / denom
    return val, der


def bernstein_1d(p: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bernstein basis of degree ``p`` on [0, 1] at ``x`` (m,): (values (m, p+1), derivatives).

    B_i(x) = C(p, i) x^i (1 - x)^(p - i): positive and a partition of unity (MFEM
    ``BasisType::Positive``, which Laghos uses for the specific internal energy).
    """
    x = np.asarray(x, float)
    val = np.zeros((len(x), p + 1))
    der = np.zeros((len(x), p + 1))
    for i in range(p + 1):
        c = comb(p, i)
        val[:, i] = c * x**i * (1.0 - x) ** (p - i)
        d = np.zeros_like(x)
        if i > 0:
            d += c * i * x ** (i - 1) * (1.0 - x) ** (p - i)
        if i < p:
            d -= c * (p - i) * x**i * (1.0 - x) ** (p - i - 1)
        der[:, i] = d
    return val, der


# --------------------------------------------------------------------------------------------
# Tensor products
# --------------------------------------------------------------------------------------------

def tensor_points(x1: np.ndarray, dim: int) -> np.ndarray:
    """Tensor grid of the 1-D points ``x1`` (n,) in ``dim`` dimensions: (n**dim, dim), axis 0 fastest."""
    grids = np.meshgrid(*([x1] * dim), indexing="ij")
    # meshgrid 'ij' makes axis 0 slowest; reverse so that the first coordinate runs fastest.
    return np.stack([g.transpose(tuple(range(dim))[::-1]).ravel() for g in grids], axis=1)


def tensor_weights(w1: np.ndarray, dim: int) -> np.ndarray:
    """Tensor-product weights (n**dim,) in the ordering of :func:`tensor_points`."""
    w = np.ones(1)
    for _ in range(dim):
        w = np.kron(w1, w)  # new (slower) axis on the left of kron
    return w


def tensor_basis(val1: np.ndarray, der1: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Tensor-product basis from 1-D tables val1, der1 (m, n).

    Returns B (m**dim, n**dim) and G (dim, m**dim, n**dim), G[g] = d/dxi_g, with points and dofs
    both in the tensor ordering (axis 0 fastest).
    """
    B = np.ones((1, 1))
    G = [np.ones((1, 1)) for _ in range(dim)]
    for axis in range(dim):
        # kron(new, old): the new axis is the slower one, matching the ordering.
        B_new = np.kron(val1, B)
        for g in range(dim):
            G[g] = np.kron(der1 if g == axis else val1, G[g])
        B = B_new
    return B, np.stack(G)


class ReferenceElement:
    """Tables of one reference element for H1 Q_k (Gauss-Lobatto) and L2 Q_p (Bernstein).

    Attributes (shapes: NQ quadrature points, ND H1 dofs, NE L2 dofs per zone):
      qpts (NQ, dim), qweights (NQ,): Gauss-Legendre rule with ``nq1d`` points per axis;
      h1_nodes (ND, dim): Gauss-Lobatto nodes; h1_B (NQ, ND), h1_G (dim, NQ, ND);
      l2_B (NQ, NE), l2_G (dim, NQ, NE): Bernstein values / derivatives at quadrature points;
      h1_B1, h1_G1 (nq1d, order + 1), l2_B1 (nq1d, order_thermo + 1): the 1-D tables whose
      tensor products those are (partial assembly contracts one axis at a time with them).
    """

    def __init__(self, dim: int, order: int, order_thermo: int, quad_order: int):
        self.dim, self.order, self.order_thermo = dim, order, order_thermo
        self.quad_order = quad_order
        self.nq1d = points_for_order(quad_order)
        q1, w1 = gauss_legendre(self.nq1d)
        self.q1d, self.w1d = q1, w1
        self.qpts = tensor_points(q1, dim)
        self.qweights = tensor_weights(w1, dim)
        self.h1_nodes_1d = gauss_lobatto_points(order + 1)
        self.h1_nodes = tensor_points(self.h1_nodes_1d, dim)
        self.h1_B1, self.h1_G1 = lagrange_1d(self.h1_nodes_1d, q1)
        self.h1_B, self.h1_G = tensor_basis(self.h1_B1, self.h1_G1, dim)
        self.l2_B1, l2_G1 = bernstein_1d(order_thermo, q1)
        self.l2_B, self.l2_G = tensor_basis(self.l2_B1, l2_G1, dim)
        self.nq = len(self.qweights)
        self.nd_h1 = (order + 1) ** dim
        self.nd_l2 = (order_thermo + 1) ** dim

    def h1_eval(self, xi: np.ndarray) -> np.ndarray:
        """H1 basis values at points xi (m, dim): (m, ND) (not tensor-structured points)."""
        return _tensor_eval(lambda x: lagrange_1d(self.h1_nodes_1d, x)[0], xi)

    def l2_eval(self, xi: np.ndarray) -> np.ndarray:
        """Bernstein L2 basis values at points xi (m, dim): (m, NE)."""
        return _tensor_eval(lambda x: bernstein_1d(self.order_thermo, x)[0], xi)


def _tensor_eval(basis1, xi: np.ndarray) -> np.ndarray:
    """Evaluate a tensor basis (1-D factor ``basis1(x) -> (m, n)``) at scattered points (m, dim)."""
    m, dim = xi.shape
    out = np.ones((m, 1))
    for axis in range(dim):
        b = basis1(xi[:, axis])
        out = (b[:, :, None] * out[:, None, :]).reshape(m, -1)
    return out
