"""Mass and force operators of the Lagrangian method, on batches of zones through ``linalg``.

Shapes: Z zones, ND H1 dofs per zone, NE L2 dofs per zone, NQ quadrature points, n local H1
dofs. Vector H1 fields are stored component-major: (dim, n). Zone-local vector H1 vectors are
(Z, dim * ND) with row c * ND + i for component c of local dof i.
"""
from __future__ import annotations

import numpy as np

import linalg
from hydro import gpu_kernels


def scatter_add(xp, index, values, size):
    """sum_k values[k] into out[index[k]] -> out (size,). Deterministic on the CPU (bincount)."""
    return xp.bincount(index.ravel(), weights=values.ravel(), minlength=size)


def gather_vector(field, dof_map):
    """Zone-local copy (Z, dim*ND) of a vector H1 field (dim, n) through ``dof_map`` (Z, ND)."""
    Z = dof_map.shape[0]
    return field[:, dof_map].transpose(1, 0, 2).reshape(Z, -1)


def _sparse(xp):
    if xp is np:
        import scipy.sparse as sp
        return sp
    import cupyx.scipy.sparse as sp  # GPU path
    return sp


class KinematicMass:
    """The scalar H1 mass matrix M_ij = sum_q rho0 |J0| w_q w_i(q) w_j(q), assembled (CSR).

    Constant in time (Lagrangian mass conservation); applied to each velocity component.
    ``shared`` sums partial results over MPI ranks (identity in serial).
    """

    def __init__(self, xp, B, rho0DetJ0w, dof_map, n, shared):
        # Per-zone blocks (Z, ND, ND) = B^T diag(m_q) B, from host NumPy arrays (setup only).
        blocks = np.einsum("qi,zq,qj->zij", B, rho0DetJ0w, B)
        nd = B.shape[1]
        rows = np.repeat(dof_map, nd, axis=1).ravel()
        cols = np.tile(dof_map, (1, nd)).ravel()
        import scipy.sparse as sps
        csr = sps.coo_matrix((blocks.ravel(), (rows, cols)), shape=(n, n)).tocsr()
        csr.sum_duplicates()
        self.xp, self.shared = xp, shared
        self.matrix = csr if xp is np else _sparse(xp).csr_matrix(csr)
        # Jacobi preconditioner: the diagonal of the globally assembled matrix.
        self.diag = shared.sum(xp.asarray(csr.diagonal()))
        self.n = n

    def mult(self, x):
        """y = M x for x (n,) or (k, n) (rows are separate fields), shared dofs summed.

        A (k, n) result is C-contiguous: PCG's row dot products then read contiguous rows (a
        strided BLAS dot sums in another order than the contiguous one).
        """
        y = self.xp.ascontiguousarray((self.matrix @ x.T).T) if x.ndim == 2 else self.matrix @ x
        return self.shared.sum(y)


def pcg(apply, b, diag, dot, rel_tol, max_iter, xp):
    """Jacobi-preconditioned CG for SPD ``apply`` on k systems at once, started from x = 0.

    b (k, n): each row is its own CG (MFEM CGSolver's steps, as if solved alone), but the
    operator is applied to all rows in one call (a stopped row's result goes unused) and each
    iteration synchronizes with the host twice for all rows (the velocity's components share
    the mass matrix: one sparse product and one residual check for dim solves). ``apply``
    maps (k, n) -> (k, n); ``diag`` is (n,) or (k, n); ``dot(a, b)`` returns the k global row
    dot products as a NumPy array (each shared dof counted once). A row stops when
    (r, D^{-1} r) <= rel_tol^2 (b, D^{-1} b); its x and r are then left as they are (its step
    size is 0 from there on). Returns (x (k, n), iterations: NumPy int array (k,)).
    """
    k = b.shape[0]
    x = xp.zeros_like(b)
    r = b.copy()
    z = r / diag
    d = z.copy()
    nom = dot(d, r)
    r0 = nom * rel_tol * rel_tol
    iterations = np.zeros(k, dtype=np.int64)
    active = ~(nom <= r0)                 # a NaN keeps iterating, as the scalar loop did
    if not active.any():
        return x, iterations
    z = apply(d)
    den = dot(z, d)
    for it in range(1, max_iter + 1):
        alpha = np.divide(nom, den, out=np.zeros(k), where=active)
        iterations[active] = it
        step = xp.asarray(alpha)[:, None]
        x += step * d
        r -= step * z
        z = r / diag
        betanom = dot(r, z)
        active &= ~(betanom <= r0)
        if not active.any() or it == max_iter:
            break
        beta = np.divide(betanom, nom, out=np.zeros(k), where=active)
        d = z + xp.asarray(beta)[:, None] * d
        z = apply(d)
        den = dot(d, z)
        nom = np.where(active, betanom, nom)
    return x, iterations


class EnergyMass:
    """Block-diagonal L2 mass M_E (one dense SPD block per zone), inverted once at setup.

    blocks (Z, NE, NE) = B^T diag(rho0 |J0| w) B; the inverses come from batched Cholesky
    (``linalg.poti``) and are applied with batched GEMV.
    """

    def __init__(self, xp, B, rho0DetJ0w):
        blocks = np.einsum("qi,zq,qj->zij", B, rho0DetJ0w, B)
        self.blocks = xp.asarray(blocks)
        self.inverse = linalg.poti(self.blocks, lower=True)

    def solve(self, rhs):
        """M_E^{-1} rhs for rhs (Z, NE) -> (Z, NE)."""
        return linalg.gemv(self.inverse, rhs)


class ForceOperator:
    """The corner forces F_z = A_z B^T (Z, dim*ND, NE) of the quadrature stress, applied as F . 1
    (the momentum right-hand side) and F^T v (the energy's).

    (A_z)_{(c,i),q} = sum_g stressJinvT_z(q)[c, g] dw_i/dxi_g(q) and B_{jq} = phi_j(q) (L2 basis).
    Two forms, chosen by ``fused`` (True on the GPU):
    - the GEMM form (the CPU path and the reference): F_z[(c,i), j] = sum_{q,g}
      stressJinvT_z(q)[c, g] H[(q,g), (i,j)] with the basis table H[(q,g), (i,j)] =
      dw_i/dxi_g(q) phi_j(q) made on first use, all zones' F as one GEMM through linalg,
      (Z*dim, NQ*dim) x (NQ*dim, ND*NE), then GEMVs with it. That takes dim NE / (dim + NE)
      times the multiply-adds of forming A and then A B^T (2.2x for 3-D Q2), but it is one
      BLAS-shaped product with no A in memory: 3-D Q2 at 16^3 zones on two CPU cores 3.1-3.4 ->
      0.11 s of forces a cycle (scripts/probe_cpu_corner_force.py, 2026-11-29);
    - partial assembly (hydro.gpu_kernels.force_rhs / force_energy): F . 1 and F^T v straight
      from the stress by sum factorization over the 1-D tables of the tensor-product bases; F
      is never formed. Tested against the GEMM form.
    """

    def __init__(self, xp, ref, dof_map):
        self.xp = xp
        self.dof_map = dof_map                 # (Z, ND) local H1 dofs of each zone (xp)
        self.dofs32 = None                     # kernel_dofs(), made on first use
        self.G = xp.asarray(ref.h1_G)          # (dim, NQ, ND)
        self.Bt = xp.asarray(ref.l2_B)         # (NQ, NE): B^T
        # 1-D tables (Q, P), (Q, P), (Q, E) for partial assembly
        self.tables_1d = tuple(xp.ascontiguousarray(xp.asarray(t, dtype=float))
                               for t in (ref.h1_B1, ref.h1_G1, ref.l2_B1))
        self.H = None                       # the basis table, made on the first GEMM-form call
        self.F = self.stress = None
        self.fused = xp is not np

    def assemble(self, stressJinvT):
        """Take the stress stressJinvT (Z, NQ, dim, dim) for the next products. The GEMM form
        builds and returns F (Z, dim*ND, NE); partial assembly keeps the stress (returns None;
        F is then built if the GEMM form is asked for it later, ``fused`` switched off)."""
        self.stress, self.F = stressJinvT, None
        return None if self.fused else self.gemm_form()

    def gemm_form(self):
        """F (Z, dim*ND, NE) of the stress taken last, by one GEMM with the basis table H."""
        if self.F is not None:
            return self.F
        xp, s = self.xp, self.stress
        Z, NQ, dim, _ = s.shape
        if self.H is None:      # (NQ*dim, ND*NE): 98 MB at 3-D Q4, so not made where unused
            self.H = xp.einsum("gqi,qj->qgij", self.G, self.Bt).reshape(NQ * dim, -1)
        s = xp.ascontiguousarray(s.transpose(0, 2, 1, 3)).reshape(1, Z * dim, NQ * dim)
        self.F = linalg.gemm(s, self.H[None]).reshape(Z, dim * self.G.shape[2], self.Bt.shape[1])
        return self.F

    def kernel_dofs(self):
        """dof_map as the GPU kernels read it (int32, made once): force_energy's and the PCG's."""
        if self.dofs32 is None:
            self.dofs32 = gpu_kernels.int32_dofs(self.xp, self.dof_map)
        return self.dofs32

    def mult_one(self):
        """F . 1 per zone: (Z, dim*ND)."""
        if self.fused:
            return gpu_kernels.force_rhs(self.xp, self.stress, *self.tables_1d)
        F = self.gemm_form()
        return linalg.gemv(F, self.xp.ones(F.shape[::2], dtype=F.dtype))

    def mult_transpose(self, v):
        """F^T v per zone for the velocity v (dim, n): (Z, NE)."""
        if self.fused:
            return gpu_kernels.force_energy(self.xp, self.stress, v, self.kernel_dofs(),
                                            *self.tables_1d)
        return linalg.gemv(self.gemm_form(), gather_vector(v, self.dof_map), trans="T")
