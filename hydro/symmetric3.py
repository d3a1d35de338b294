"""Closed forms for batches of 3 x 3 matrices on the CPU: the smallest eigenpair of symmetric
matrices and the smallest singular value, vectorized over the batch (NumPy).

numpy.linalg.eigh and svd loop over the batch in C, one LAPACK call a matrix (about 1.5 us
each: at 3-D Q2 and 16^3 zones the two were nine tenths of the CPU quadrature-point update).
Here the eigenvalues come from the invariants (trace, spread, determinant: the trigonometric
solution of the characteristic cubic), the eigenvector from cross products of the rows of
A - lambda I, and sigma_min(J) = |det J| / sigma_max(cof J) with sigma_max from the largest
eigenvalue of cof(J)^T cof(J). An eigenvalue so found is off by
about eps |mean| / (its gap / the spread) and never by more than 3 spreads; an eigenvector by
eps |mean| / its gap. So LAPACK takes the matrices where the gap is under NEAR_TIE of the spread
unless the spread is under NEGLIGIBLE of the mean (eigenvalues), and for eigenvectors also
where the spread is under ISOTROPIC of the mean; it settles ties as
hydro.lagrangian.min_eigenpair always has (eigh's order). Exactly isotropic matrices (c I, c = 0
included) get (c, e_0), what eigh returns for them.
"""
from __future__ import annotations

import numpy as np

NEAR_TIE = 1e-2      # relative gap under which LAPACK decides
ISOTROPIC = 1e-8     # spread / |mean eigenvalue| under which LAPACK gives the eigenvector
NEGLIGIBLE = 1e-14   # spread / |mean eigenvalue| under which any gap gives the eigenvalue


def _invariants(a00, a11, a22, a01, a02, a12):
    """Mean q, spread p >= 0 and angle phi in [0, pi/3] of symmetric 3 x 3 matrices given by
    their entries (arrays): the eigenvalues are q + 2 p cos(phi) (largest), q + 2 p cos(phi +
    2 pi / 3) (smallest) and q + 2 p cos(phi + 4 pi / 3)."""
    q = (a00 + a11 + a22) / 3.0
    b00, b11, b22 = a00 - q, a11 - q, a22 - q
    p = np.sqrt((b00 * b00 + b11 * b11 + b22 * b22
                 + 2.0 * (a01 * a01 + a02 * a02 + a12 * a12)) / 6.0)
    det = (b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02)
           + a02 * (a01 * a12 - b11 * a02))
    safe = np.where(p > 0.0, p, 1.0)
    r = np.clip(det / (2.0 * safe * safe * safe), -1.0, 1.0)
    return q, p, np.arccos(r) / 3.0


def _unclear(q, p, gap, vectors):
    """Where the closed form is not trusted: a relative gap under NEAR_TIE with a spread over
    NEGLIGIBLE of |q|; for eigenvectors also a spread under ISOTROPIC of |q| (but not exactly
    isotropic, p = 0, which is exact)."""
    if vectors:
        return (p > 0.0) & ((gap < NEAR_TIE) | (p <= ISOTROPIC * np.abs(q)))
    return (gap < NEAR_TIE) & (p > NEGLIGIBLE * np.abs(q))


def min_eigenpair(A):
    """Smallest eigenvalue (...,) and a unit eigenvector (..., 3) of symmetric A (..., 3, 3)."""
    shape = A.shape[:-2]
    A = A.reshape(-1, 3, 3)
    a00, a11, a22 = (np.ascontiguousarray(A[:, i, i]) for i in range(3))
    a01, a02, a12 = (np.ascontiguousarray(A[:, i, j]) for i, j in ((0, 1), (0, 2), (1, 2)))
    q, p, phi = _invariants(a00, a11, a22, a01, a02, a12)
    lam = q + 2.0 * p * np.cos(phi + 2.0 * np.pi / 3.0)
    # (middle - smallest) / (largest - smallest) = sin(phi) / sin(phi + pi / 3)
    gap = np.sin(phi) / np.sin(phi + np.pi / 3.0)
    # rows of A - lam I, and their three cross products: the one of largest norm
    d0, d1, d2 = a00 - lam, a11 - lam, a22 - lam
    crosses = (
        (a01 * a12 - a02 * d1, a02 * a01 - d0 * a12, d0 * d1 - a01 * a01),   # r0 x r1
        (a01 * d2 - a02 * a12, a02 * a02 - d0 * d2, d0 * a12 - a01 * a02),   # r0 x r2
        (d1 * d2 - a12 * a12, a12 * a02 - a01 * d2, a01 * a12 - d1 * a02),   # r1 x r2
    )
    norms = np.stack([x * x + y * y + z * z for x, y, z in crosses])
    best = norms.argmax(axis=0)
    vec = np.empty((A.shape[0], 3))
    for c in range(3):
        vec[:, c] = np.choose(best, [cross[c] for cross in crosses])
    length = np.sqrt(np.take_along_axis(norms, best[None], 0)[0])
    vec /= np.where(length > 0.0, length, 1.0)[:, None]
    iso = p == 0.0
    lam[iso] = q[iso]
    vec[iso] = (1.0, 0.0, 0.0)
    hard = np.flatnonzero(_unclear(q, p, gap, vectors=True))
    if hard.size:
        w, V = np.linalg.eigh(A[hard])
        lam[hard], vec[hard] = w[:, 0], V[:, :, 0]
    return lam.reshape(shape), vec.reshape(*shape, 3)


def min_singular_value(J, det):
    """Smallest singular value (...,) of J (..., 3, 3) with determinant det (...,)."""
    shape = J.shape[:-2]
    J = J.reshape(-1, 3, 3)
    j = [[np.ascontiguousarray(J[:, r, c]) for c in range(3)] for r in range(3)]
    # cofactor matrix C (C^T = adj J): its singular values are sigma_1 sigma_2 >= sigma_1
    # sigma_3 >= sigma_2 sigma_3, so sigma_3 = |det| / sigma_max(C)
    cof = [[j[(r + 1) % 3][(c + 1) % 3] * j[(r + 2) % 3][(c + 2) % 3]
            - j[(r + 1) % 3][(c + 2) % 3] * j[(r + 2) % 3][(c + 1) % 3] for c in range(3)]
           for r in range(3)]

    def gram(a, b):          # (C^T C)[a][b]
        return cof[0][a] * cof[0][b] + cof[1][a] * cof[1][b] + cof[2][a] * cof[2][b]
    q, p, phi = _invariants(gram(0, 0), gram(1, 1), gram(2, 2), gram(0, 1), gram(0, 2),
                            gram(1, 2))
    lmax = q + 2.0 * p * np.cos(phi)
    # (largest - middle) / (largest - smallest) = sin(pi / 3 - phi) / sin(phi + pi / 3)
    gap = np.sin(np.pi / 3.0 - phi) / np.sin(phi + np.pi / 3.0)
    det = np.abs(np.asarray(det, dtype=float).reshape(-1))
    out = det / np.sqrt(np.where(lmax > 0.0, lmax, 1.0))
    out[lmax <= 0.0] = 0.0                    # J = 0 or of rank one
    hard = np.flatnonzero(_unclear(q, p, gap, vectors=False))
    if hard.size:
        out[hard] = np.linalg.svd(J[hard], compute_uv=False)[:, -1]
    return out.reshape(shape)
