"""The semi-discrete Lagrangian hydro operator (Laghos's LagrangianHydroOperator, our own code).

State S: one flat array [x (dim*n), v (dim*n), e (Z*NE)], vector fields component-major. Then

    dx/dt = v,   M_V dv/dt = -F(S) . 1 (+ M_V g),   M_E de/dt = F(S)^T v (+ b_source).

Everything per stage is vectorized over all quadrature points of all local zones with ``xp``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from hydro import eos, gpu_kernels, symmetric3
from hydro.operators import pcg, scatter_add


@dataclass
class Layout:
    """Named offsets of the flat state: x = S[x0:v0], v = S[v0:e0], e = S[e0:end]."""

    dim: int
    n: int   # local H1 dofs (per component)
    Z: int   # local zones
    ne: int  # L2 dofs per zone

    @property
    def x0(self):
        return 0

    @property
    def v0(self):
        return self.dim * self.n

    @property
    def e0(self):
        return 2 * self.dim * self.n

    @property
    def size(self):
        return self.e0 + self.Z * self.ne

    def x(self, S):
        return S[self.x0:self.v0].reshape(self.dim, self.n)

    def v(self, S):
        return S[self.v0:self.e0].reshape(self.dim, self.n)

    def e(self, S):
        return S[self.e0:].reshape(self.Z, self.ne)


def smooth_step(xp, x, eps):
    """C^1 step from 0 (x <= -eps) to 1 (x >= eps): 3y^2 - 2y^3 with y = (x + eps) / (2 eps)."""
    y = xp.clip((x + eps) / (2.0 * eps), 0.0, 1.0)
    return (3.0 - 2.0 * y) * y * y


def det_inv(xp, J):
    """Determinant (...,) and inverse (..., d, d) of small matrices J (..., d, d), closed form."""
    d = J.shape[-1]
    if d == 1:
        det = J[..., 0, 0]
        return det, 1.0 / J
    if d == 2:
        a, b, c, e = J[..., 0, 0], J[..., 0, 1], J[..., 1, 0], J[..., 1, 1]
        det = a * e - b * c
        inv = xp.stack([xp.stack([e, -b], -1), xp.stack([-c, a], -1)], -2) / det[..., None, None]
        return det, inv
    # 3x3 by cofactors
    cof = xp.empty_like(J)
    for i in range(3):
        for j in range(3):
            i1, i2 = (i + 1) % 3, (i + 2) % 3
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            cof[..., j, i] = J[..., i1, j1] * J[..., i2, j2] - J[..., i1, j2] * J[..., i2, j1]
    det = (J[..., 0, :] * cof[..., :, 0]).sum(-1)
    return det, cof / det[..., None, None]


EIGH_CHUNK = 32768    # matrices per cupy.linalg.eigh call (3-D Sedov 8^3 Q2 ran with this many)


def min_eigenpair(xp, A):
    """Smallest eigenvalue (...,) and a unit eigenvector (..., d) of symmetric A (..., d, d)."""
    d = A.shape[-1]
    if d == 1:
        return A[..., 0, 0], xp.ones(A.shape[:-1])
    if d == 2:
        a, b, c = A[..., 0, 0], A[..., 0, 1], A[..., 1, 1]
        # Jacobi rotation (accurate small eigenvalues, no cancellation in the smaller one).
        nz = b != 0
        bs = xp.where(nz, b, 1.0)
        zeta = (c - a) / (2.0 * bs)
        t = xp.where(zeta >= 0, 1.0, -1.0) / (xp.abs(zeta) + xp.sqrt(1.0 + zeta * zeta))
        t = xp.where(nz, t, 0.0)
        cs = 1.0 / xp.sqrt(1.0 + t * t)
        sn = cs * t
        l1, l2 = a - t * b, c + t * b    # eigenvectors (cs, -sn) and (sn, cs)
        first = l1 <= l2
        lam = xp.where(first, l1, l2)
        vec = xp.stack([xp.where(first, cs, sn), xp.where(first, -sn, cs)], -1)
        return lam, vec
    if xp is np:            # closed form, LAPACK for near-ties (hydro/symmetric3.py)
        return symmetric3.min_eigenpair(A)
    # cuSOLVER's batched Jacobi eigensolver (behind cupy.linalg.eigh) rejects very large batches
    # (CUSOLVER_STATUS_INVALID_VALUE at 3-D Sedov 16^3 Q2, 2.6e5 matrices): solve in chunks.
    flat = A.reshape(-1, d, d)
    lam, vec = xp.empty(flat.shape[0], A.dtype), xp.empty(flat.shape[:2], A.dtype)
    for start in range(0, flat.shape[0], EIGH_CHUNK):
        w, V = xp.linalg.eigh(flat[start:start + EIGH_CHUNK])
        lam[start:start + EIGH_CHUNK], vec[start:start + EIGH_CHUNK] = w[:, 0], V[:, :, 0]
    return lam.reshape(A.shape[:-2]), vec.reshape(A.shape[:-1])


def min_singular_value(xp, J, det):
    """Smallest singular value of J (..., d, d); ``det`` its determinant."""
    d = J.shape[-1]
    if d == 1:
        return xp.abs(J[..., 0, 0])
    if d == 2:
        # sigma_min = |det| / sigma_max avoids the cancellation of the direct formula.
        f2 = (J * J).sum((-1, -2))
        disc = xp.sqrt(xp.maximum(f2 * f2 - 4.0 * det * det, 0.0))
        smax = xp.sqrt(0.5 * (f2 + disc))
        return xp.abs(det) / smax
    if xp is np:            # closed form, LAPACK for near-ties (hydro/symmetric3.py)
        return symmetric3.min_singular_value(J, det)
    return xp.linalg.svd(J, compute_uv=False)[..., -1]


def ref_gradient(xp, fz, G2):
    """Reference gradients of zone fields: fz (dim, Z, ND), G2 (dim*NQ, ND) -> (Z, NQ, dim, dim).

    out[z, q, c, g] = d f_c / d xi_g at point q; one BLAS matmul for all zones.
    """
    return gradient_view(fz @ G2.T, fz.shape[0])


def gradient_view(g, dim):
    """The (Z, NQ, dim, dim) view [z, q, c, g] of the matmul's (dim_c, Z, dim_g*NQ) result."""
    _, Z, _ = g.shape
    return g.reshape(dim, Z, dim, -1).transpose(1, 3, 0, 2)


def artificial_viscosity(xp, rho, cs, J, Jinv, Jac0inv, dvdxi, h0, q1, q2, vorticity):
    """Tensor artificial viscosity (Dobrev-Kolev-Rieben; Laghos constants q2 = 2, q1 = 1/2).

    mu_visc = q2 rho h^2 |lam| + q1 rho h c_s psi (1 - smoothstep(lam)), where lam is the smallest
    eigenvalue of sym(grad v) (most compressive rate) with eigenvector s, h = h0 |J J0^{-1} s| is
    the initial length scale stretched along s, and psi = |div v| / |grad v|_F with the vorticity
    option (else 1). Shapes: rho, cs (Z, NQ); J, Jinv, Jac0inv, dvdxi (Z, NQ, dim, dim).
    Returns (mu_visc (Z, NQ), sym(grad v) (Z, NQ, dim, dim)).
    """
    gradv = dvdxi @ Jinv                                  # dv_c/dx_k
    psi = 1.0
    if vorticity:
        gnorm = xp.sqrt((gradv * gradv).sum((-1, -2)))
        div = xp.abs(xp.trace(gradv, axis1=-2, axis2=-1))
        psi = xp.where(gnorm > 0.0, div / xp.where(gnorm > 0, gnorm, 1.0), 1.0)
    sym = 0.5 * (gradv + xp.swapaxes(gradv, -1, -2))
    lam, s = min_eigenpair(xp, sym)
    ph = ((J @ Jac0inv) @ s[..., None])[..., 0]           # s mapped initial -> current
    h = h0 * xp.sqrt((ph * ph).sum(-1)) / xp.sqrt((s * s).sum(-1))
    eps = 1e-12
    visc = q2 * rho * h * h * xp.abs(lam)
    # the linear term acts only in compression: a smoothed "if lam < 0"
    visc = visc + q1 * rho * h * cs * psi * (1.0 - smooth_step(xp, lam - 2.0 * eps, eps))
    return visc, sym


def cfl_time_step(xp, J, detJ, rho, cs, visc, order, cfl):
    """Pointwise stable step (Z, NQ): cfl / (c_s / h + 2.5 mu_visc / (rho h^2)).

    h = smallest singular value of J / order. inf where nothing limits the step; 0 where the
    Jacobian is negative (a tangled zone forces a retry with a smaller step).
    """
    hmin = min_singular_value(xp, J, detJ) / order
    idt = cs / hmin + 2.5 * visc / rho / (hmin * hmin)
    dt = xp.where(idt > 0.0, cfl / xp.where(idt > 0.0, idt, 1.0), xp.inf)
    return xp.where(detJ < 0.0, 0.0, dt)


def quadrature_physics(xp, Jg, Vg, e_q, qd, w, opts, order):
    """Density, pressure, weighted stress and CFL step at every quadrature point (the reference).

    Jg, Vg: reference gradients of position and velocity as ``fz @ G2.T`` gives them, (dim, Z,
    dim*NQ) (Vg None without viscosity); e_q (Z, NQ) specific internal energy; qd the
    QuadratureData (rho0DetJ0w, gamma, Jac0inv, h0); w (NQ,) weights; opts the operator options
    (viscosity, vorticity, q1, q2, cfl); order the H1 order. Returns rho, p (Z, NQ), stressJinvT
    = sigma J^{-T} w |J| (Z, NQ, dim, dim) and the pointwise step (Z, NQ). On the GPU
    hydro.gpu_kernels.quadrature_physics does the same in one kernel.
    """
    dim = Jg.shape[0]
    J = gradient_view(Jg, dim)
    detJ, Jinv = det_inv(xp, J)
    rho = qd.rho0DetJ0w / (detJ * w)
    p, cs = eos.ideal_gas(xp, qd.gamma[:, None], rho, xp.maximum(e_q, 0.0))
    stress = -p[..., None, None] * xp.eye(dim)
    visc = xp.zeros_like(rho)
    if opts["viscosity"]:
        visc, sym = artificial_viscosity(xp, rho, cs, J, Jinv, qd.Jac0inv, gradient_view(Vg, dim),
                                         qd.h0, opts["q1"], opts["q2"], opts["vorticity"])
        stress = stress + visc[..., None, None] * sym
    dt = cfl_time_step(xp, J, detJ, rho, cs, visc, order, opts["cfl"])
    stressJinvT = (stress @ xp.swapaxes(Jinv, -1, -2)) * (w * detJ)[..., None, None]
    return rho, p, stressJinvT, dt


class LagrangianHydro:
    """Right-hand side of the semi-discrete system and the quadrature-point physics.

    Arguments: ``ref`` (ReferenceElement), ``layout``, ``dof_map`` (Z, ND) local H1 ids (xp),
    ``essential`` list of local essential dofs per component (xp), ``qdata`` (QuadratureData),
    ``kmass`` (KinematicMass), ``emass`` (EnergyMass), ``force`` (ForceOperator), ``shared``
    (SharedDofs), ``opts`` (dict: viscosity, vorticity, q1, q2, cfl, cg_tol, cg_max_iter,
    energy_source (callable(xp, x) -> Q or None), acceleration ((dim,) or None)).
    """

    def __init__(self, xp, ref, layout, dof_map, essential, qdata, kmass, emass, force, shared,
                 opts, timers):
        self.xp, self.ref, self.L = xp, ref, layout
        self.dof_map, self.qdata = dof_map, qdata
        self.kmass, self.emass, self.force, self.shared = kmass, emass, force, shared
        self.opts, self.timers = opts, timers
        self.G = xp.asarray(ref.h1_G)          # (dim, NQ, ND)
        self.G2 = xp.ascontiguousarray(self.G.reshape(-1, self.G.shape[2]))  # (dim*NQ, ND)
        self.B = xp.asarray(ref.h1_B)          # (NQ, ND)
        self.Bl2 = xp.asarray(ref.l2_B)        # (NQ, NE)
        self.w = xp.asarray(ref.qweights)      # (NQ,)
        n, dim = layout.n, layout.dim
        # free[c]: 1 on dofs where component c is free, 0 on essential (wall) dofs.
        self.free = xp.ones((dim, n))
        for c in range(dim):
            self.free[c, essential[c]] = 0.0
        self.qdata_current = False
        self.cg_iterations = 0
        self.sync_timers = False
        # On the GPU the quadrature-point physics, the forces' assembly into the dofs and the
        # velocity's PCG (with MPI ranks the shared dofs summed between its kernels) run as
        # kernels/hydro.cu (the corner forces too, by ForceOperator.fused); False runs the
        # array-module reference code there too.
        self.fused = xp is not np
        self.dof_entries = None     # kernel_entries(), made on first use
        self.mass_pa = None         # partial_assembly_mass(), made on first use
        self.mass_w = qdata.rho0DetJ0w  # replaced by the mass-matrix weights (Simulation)
        self.accel_rhs = None
        if opts.get("acceleration") is not None:
            g = xp.asarray(opts["acceleration"], dtype=float)
            self.accel_rhs = self.kmass.mult(xp.ones((dim, n)) * g[:, None])  # M_V g

    # ---------------------------------------------------------------- quadrature-point physics
    def reset_dt_estimate(self):
        """Start a new running minimum of the time-step estimate (Laghos ResetTimeStepEstimate)."""
        self.qdata.dt_est = float("inf")

    def invalidate(self):
        """The quadrature data no longer matches the state (Laghos ResetQuadratureData)."""
        self.qdata_current = False

    def update_quadrature_data(self, S):
        """Geometry, density, EOS, viscosity and stress at all points; assemble F; lower dt_est.

        Skipped when the data is current (computed at this same state and not invalidated).
        """
        if self.qdata_current:
            return
        t0 = time.perf_counter()
        xp, qd, o = self.xp, self.qdata, self.opts
        Jg, Vg, e_q = self.point_fields(S)
        physics = gpu_kernels.quadrature_physics if self.fused else quadrature_physics
        rho, p, qd.stressJinvT, dt = physics(xp, Jg, Vg, e_q, qd, self.w, o, self.ref.order)
        dt_local = float(dt.min()) if rho.size else float("inf")  # the one host sync
        qd.dt_est = min(qd.dt_est, dt_local)
        qd.rho, qd.p, qd.e = rho, p, e_q
        t0 = self._lap("quadrature_update", t0)
        self.force.assemble(qd.stressJinvT)
        self._lap("corner_force", t0)
        self.qdata_current = True

    def point_fields(self, S):
        """The state at the quadrature points, as quadrature_physics takes it: reference gradients
        of position and velocity (dim, Z, dim*NQ) (velocity None without viscosity) and e (Z, NQ).
        """
        L = self.L
        Jg = L.x(S)[:, self.dof_map] @ self.G2.T
        Vg = L.v(S)[:, self.dof_map] @ self.G2.T if self.opts["viscosity"] else None
        return Jg, Vg, L.e(S) @ self.Bl2.T

    def kernel_entries(self):
        """gpu_kernels.dof_entries of dof_map (made once): assemble_forces's and the PCG's."""
        if self.dof_entries is None:
            self.dof_entries = gpu_kernels.dof_entries(self.xp, self.dof_map, self.L.n)
        return self.dof_entries

    def partial_assembly_mass(self):
        """gpu_kernels.PartialAssemblyMass of M_V (made once): the GPU PCG's product.

        mass_w: the weights KinematicMass was built from (Simulation sets them).
        """
        if self.mass_pa is None:
            self.mass_pa = gpu_kernels.PartialAssemblyMass(
                self.xp, self.L.dim, self.ref.h1_B1, self.mass_w, self.force.kernel_dofs(),
                self.kernel_entries(), self.L.n)
        return self.mass_pa

    def _lap(self, stage, t0):
        """Add the time since t0 to ``stage`` (syncing the device first if sync_timers)."""
        if self.sync_timers and self.xp is not np:
            self.xp.cuda.Device().synchronize()
        t1 = time.perf_counter()
        self.timers[stage] += t1 - t0
        return t1

    def time_step_estimate(self, S):
        """Global minimum of the running time-step estimate, after updating at state S."""
        self.update_quadrature_data(S)
        t0 = time.perf_counter()
        dt = self.shared.global_sum(self.qdata.dt_est, "min")
        self.timers["dt_reduction"] += time.perf_counter() - t0
        return dt

    # ---------------------------------------------------------------- solves
    def solve_velocity(self, S):
        """dv/dt (dim, n) = M_V^{-1} (-F . 1 [+ M_V g]) with v_c = 0 on the walls of component c.

        One PCG per component (as Laghos), run side by side: one sparse product a step for all.
        """
        xp, L = self.xp, self.L
        self.update_quadrature_data(S)
        t0 = time.perf_counter()
        f1 = self.force.mult_one()                        # (Z, dim*ND)
        if self.fused:
            rhs = gpu_kernels.assemble_forces(xp, f1, self.kernel_entries(), L.dim, L.n)
        else:
            Z, nd = self.dof_map.shape
            idx = (xp.arange(L.dim)[None, :, None] * L.n + self.dof_map[:, None, :])
            rhs = -scatter_add(xp, idx, f1.reshape(Z, L.dim, nd), L.dim * L.n)
            rhs = rhs.reshape(L.dim, L.n)
        t0 = self._lap("corner_force", t0)
        rhs = self.shared.sum(rhs)
        if self.accel_rhs is not None:
            rhs = rhs + self.accel_rhs
        free, o, b = self.free, self.opts, rhs * self.free
        args = (free, b, self.kmass.diag, o["cg_tol"], o["cg_max_iter"])
        if self.fused and self.shared.comm.size == 1:
            dv, iterations = gpu_kernels.mass_pcg(xp, self.partial_assembly_mass(), *args)
        elif self.fused:
            dv, iterations = gpu_kernels.mass_pcg_ranks(xp, self.partial_assembly_mass(), *args,
                                                        self.shared)
        else:
            def apply(d):
                # essential rows/columns replaced by the identity (MFEM's constrained operator)
                return free * self.kmass.mult(d * free) + (1.0 - free) * d

            dv, iterations = pcg(apply, b, self.kmass.diag, self.shared.dot_rows,
                                 o["cg_tol"], o["cg_max_iter"], xp)
        self.cg_iterations += int(iterations.sum())
        self._lap("pcg", t0)
        return dv

    def solve_energy(self, S, v):
        """de/dt (Z, NE) = M_E^{-1} (F^T v + b) and the source power 1^T b (global, float)."""
        xp = self.xp
        self.update_quadrature_data(S)
        t0 = time.perf_counter()
        rhs = self.force.mult_transpose(v)
        t0 = self._lap("corner_force", t0)
        power = 0.0
        src = self.opts.get("energy_source")
        if src is not None:
            b = self.source_vector(S, src)
            rhs = rhs + b
            power = self.shared.global_sum(float(b.sum()))
        de = self.emass.solve(rhs)
        self._lap("energy_update", t0)
        return de, power

    def source_vector(self, S, src):
        """b_zj = sum_q phi_j(q) Q(x(q)) |J(q)| w_q on the current mesh (Z, NE)."""
        xp, L = self.xp, self.L
        xz = L.x(S)[:, self.dof_map]
        xq = (xz @ self.B.T).transpose(1, 2, 0)           # (Z, NQ, dim)
        J = ref_gradient(xp, xz, self.G2)
        detJ, _ = det_inv(xp, J)
        Q = src(xp, xq.reshape(-1, L.dim)).reshape(detJ.shape)
        return (Q * detJ * self.w) @ self.Bl2

    def gravity_power(self, v):
        """v^T M_V g (global), the power of the body force, or 0."""
        if self.accel_rhs is None:
            return 0.0
        return self.shared.dot(v, self.accel_rhs)

    def rhs(self, S):
        """Full dS/dt (flat) and source power, for generic RK methods (Laghos Mult)."""
        xp, L = self.xp, self.L
        dv = self.solve_velocity(S)
        v = L.v(S)
        de, power = self.solve_energy(S, v)
        power += self.gravity_power(v)
        self.invalidate()
        return xp.concatenate([v.ravel(), dv.ravel(), de.ravel()]), power

    # ---------------------------------------------------------------- energies
    # Weights: the mass matrices' rho0 |J0| w_q (exact rho0 at the points), so that IE = 1^T M_E e
    # and KE = v^T M_V v / 2 are exactly the energies the scheme conserves. Laghos weighs with
    # qdata.rho0DetJ0w (rho0 projected on L2); the two agree when rho0 is smooth in each zone.
    def internal_energy(self, S):
        """sum_q rho0 |J0| w_q e(q), global."""
        e_q = self.L.e(S) @ self.Bl2.T
        return self.shared.global_sum(float((self.mass_w * e_q).sum()))

    def kinetic_energy(self, S):
        """1/2 sum_q rho0 |J0| w_q |v(q)|^2, global."""
        vz = self.L.v(S)[:, self.dof_map]                 # (dim, Z, ND)
        vq = vz @ self.B.T                                 # (dim, Z, NQ)
        return 0.5 * self.shared.global_sum(float((self.mass_w * (vq * vq).sum(0)).sum()))
