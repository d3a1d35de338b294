"""Simulation: builds the discretization from a case config and advances it in time.

This is the contract used by hydro.run / hydro.io (see the class docstring). Setup runs on the
host with NumPy; the per-step state and tables live in the array module ``xp`` (NumPy or CuPy).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from hydro import basis, integrators, problems
from hydro.lagrangian import Layout, LagrangianHydro, det_inv
from hydro.mesh import box, corner_shape, read_mesh
from hydro.operators import EnergyMass, ForceOperator, KinematicMass
from hydro.parallel import Comm, SharedDofs, partition_zones
from hydro.quadrature import QuadratureData
from hydro.spaces import H1Space, LocalH1

STAGES = ("corner_force", "quadrature_update", "pcg", "energy_update", "dt_reduction", "other")


class TimeStepCollapse(RuntimeError):
    """dt fell below time_step.min_dt; the Simulation still holds the last accepted state."""


class MeshTangled(RuntimeError):
    """Every retry produced a negative Jacobian; the Simulation holds the last accepted state."""


@dataclass
class StepInfo:
    dt: float            # the step size taken
    rejected: int        # retries needed for this step
    cg_iterations: int   # kinematic PCG iterations over all stages and components


def _resolve_xp(backend):
    if backend == "cpu":
        return np
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
    except Exception:
        if backend == "gpu":
            raise
    return np


def _to_numpy(a):
    return a if isinstance(a, np.ndarray) else a.get()


class Simulation:
    """One hydro run on this rank's zones.

    Attributes: t, cycle, dt (the next step size), rejections (total), timers (wall seconds per
    stage, keys :data:`STAGES`). State: one flat array ``S`` = [x, v, e] (see Layout).
    """

    TimeStepCollapse = TimeStepCollapse
    MeshTangled = MeshTangled

    def __init__(self, config, comm=None, xp=None):
        self.cfg = cfg = config
        self.comm = comm if comm is not None else Comm()
        self.xp = xp = xp if xp is not None else _resolve_xp(getattr(cfg, "backend", "cpu"))
        self.problem = prob = problems.get(cfg.problem)
        self.timers = {k: 0.0 for k in STAGES}
        self.t, self.cycle, self.rejections = 0.0, 0, 0
        self.source_work = 0.0
        self._clipped_to_end = False
        dim = cfg.dim
        self.defaults = prob.defaults(dim)
        k = cfg.order
        kt = cfg.order_thermo if cfg.order_thermo is not None else k - 1
        kq = cfg.quadrature_order if cfg.quadrature_order is not None else 3 * k + kt - 1
        self.ref = basis.ReferenceElement(dim, k, kt, kq)
        self.mesh = self._build_mesh(cfg, self.defaults)
        self._partition()
        geo = self._initial_geometry()
        self._initial_state(geo)
        self._build_operator(geo)
        self._viz_tables(geo["detJ0"], geo["rho0_coef"])
        self.op.reset_dt_estimate()
        est = self.op.time_step_estimate(self.S)
        self.dt = cfg.time_step.initial if cfg.time_step.initial is not None else est
        self.energy_initial = self.energies()

    def _partition(self):
        """Zones of this rank, its part of the H1 space, the state layout and shared dofs.

        Every rank numbers the whole (global) mesh identically; simple, and cheap at the sizes
        we run (the numbering is O(global dofs) per rank).
        """
        gspace = H1Space(self.mesh, self.ref)
        part = partition_zones(self.mesh.zone_centers(), self.comm.size)
        self.zones = np.nonzero(part == self.comm.rank)[0]
        self.local = LocalH1(gspace, self.zones)
        self.layout = Layout(self.mesh.dim, self.local.num_dofs, len(self.zones), self.ref.nd_l2)
        self.shared = SharedDofs(self.comm, gspace.dof_map, part, self.local.l2g, self.xp)
        self.global_zones = self.mesh.num_zones

    def _initial_geometry(self) -> dict:
        """Host arrays of the initial mesh at quadrature points, materials and initial masses."""
        ref, prob, dim = self.ref, self.problem, self.mesh.dim
        Z = len(self.zones)
        corners = self.mesh.corners[self.zones]
        xz = self.local.node_coords[self.local.dof_map]             # (Z, ND, dim)
        J0 = np.einsum("zic,gqi->zqcg", xz, ref.h1_G)
        detJ0, Jac0inv = det_inv(np, J0)
        xq = np.einsum("zic,qi->zqc", xz, ref.h1_B)                 # (Z, NQ, dim)
        centers = np.einsum("zic,i->zc", xz, ref.h1_eval(np.full((1, dim), 0.5))[0])
        l2_nodes, l2_interp = self._l2_interpolation()
        xl2 = np.einsum("mc,zcd->zmd", corner_shape(l2_nodes), corners)  # (Z, NE, dim)
        rho0_coef = prob.rho0(xl2.reshape(-1, dim)).reshape(Z, -1) @ l2_interp.T
        w = ref.qweights
        return dict(
            corners=corners, detJ0=detJ0, Jac0inv=Jac0inv, xl2=xl2, l2_interp=l2_interp,
            rho0_coef=rho0_coef,
            gamma=prob.gamma(centers, self.cfg.gamma),   # per zone, moves with the mesh
            # Laghos: rho0 projected on L2 for the density, the exact rho0 in the mass matrices
            rho0DetJ0w=(rho0_coef @ ref.l2_B.T) * detJ0 * w,
            mass_w=prob.rho0(xq.reshape(-1, dim)).reshape(Z, -1) * detJ0 * w,
            volume=self.comm.allreduce(float((detJ0 * w).sum()), "sum"))

    def _initial_state(self, geo):
        """x at the nodes, v interpolated (0 on walls), e interpolated then made Bernstein."""
        prob, dim, local = self.problem, self.mesh.dim, self.local
        v = prob.v0(local.node_coords).T.copy()                      # (dim, n)
        for c in range(dim):
            v[c, local.essential[c]] = 0.0
        if prob.delta_energy:
            e = self._delta_energy(geo["corners"], geo["detJ0"], dim, self.ref.order_thermo)
        else:
            xl2 = geo["xl2"].reshape(-1, dim)
            e0 = prob.e0(xl2, prob.gamma(xl2, self.cfg.gamma))
            e = e0.reshape(len(self.zones), -1) @ geo["l2_interp"].T
        S = np.concatenate([local.node_coords.T.ravel(), v.ravel(), e.ravel()])
        self.S = self.xp.asarray(S)

    def _build_operator(self, geo):
        """Quadrature data, mass and force operators, and the Lagrangian operator."""
        cfg, xp, ref, dim = self.cfg, self.xp, self.ref, self.mesh.dim
        h0 = (geo["volume"] / self.global_zones) ** (1.0 / dim) / ref.order
        self.qdata = QuadratureData(rho0DetJ0w=xp.asarray(geo["rho0DetJ0w"]),
                                    Jac0inv=xp.asarray(geo["Jac0inv"]), h0=h0,
                                    gamma=xp.asarray(geo["gamma"]))
        kmass = KinematicMass(xp, ref.h1_B, geo["mass_w"], self.local.dof_map,
                              self.local.num_dofs, self.shared)
        emass = EnergyMass(xp, ref.l2_B, geo["mass_w"])
        dof_map = xp.asarray(self.local.dof_map)
        force = ForceOperator(xp, ref, dof_map)
        d, vc = self.defaults, cfg.viscosity
        opts = dict(viscosity=bool(vc.enabled if vc.enabled is not None else d["viscosity"]),
                    vorticity=bool(vc.vorticity if vc.vorticity is not None else d["vorticity"]),
                    q1=vc.q1, q2=vc.q2, cfl=cfg.cfl, cg_tol=cfg.solver.cg_tol,
                    cg_max_iter=cfg.solver.cg_max_iter,
                    energy_source=self.problem.energy_source(dim),
                    acceleration=self.problem.acceleration(dim, dict(cfg.parameters or {})))
        ess = [xp.asarray(e_) for e_ in self.local.essential]
        self.op = LagrangianHydro(xp, ref, self.layout, dof_map, ess,
                                  self.qdata, kmass, emass, force, self.shared, opts, self.timers)
        self.op.mass_w = xp.asarray(geo["mass_w"])
        # On a GPU, stage timers measure kernel launches unless the device is synchronized at
        # stage boundaries; set ``sim.op.sync_timers = True`` for a per-stage profile (extra syncs).
        self.step_fn = integrators.get(cfg.integrator)

    # ------------------------------------------------------------------ setup helpers
    @staticmethod
    def _build_mesh(cfg, defaults):
        m = cfg.mesh
        if m.file:
            mesh = read_mesh(m.file)
            if mesh.dim != cfg.dim:
                raise ValueError(f"mesh.file {m.file!r} is {mesh.dim}-D but dim is {cfg.dim}")
        else:
            n = (m.nx, m.ny if m.ny is not None else m.nx, m.nz if m.nz is not None else m.nx)
            extent = m.extent if m.extent is not None else defaults["extent"]
            mesh = box(n[:cfg.dim], extent)
        return mesh.refined(m.refine)

    def _l2_interpolation(self):
        """Gauss-Legendre nodes of the L2 order (NE, dim) and the map nodal values -> Bernstein.

        As Laghos: interpolate at the nodes of a nodal L2 basis, then express the same polynomial
        in the Bernstein (positive) basis.
        """
        ref = self.ref
        p1, _ = basis.gauss_legendre(ref.order_thermo + 1)
        nodes = basis.tensor_points(p1, ref.dim)
        V = ref.l2_eval(nodes)                      # (NE nodes, NE Bernstein)
        return nodes, np.linalg.inv(V)

    def _delta_energy(self, corners, detJ0, dim, p):
        """Sedov: blast_energy / 2^dim in the Bernstein corner mode of the zone(s) at the origin."""
        params = dict(self.cfg.parameters or {})
        energy = float(params.get("blast_energy", 1.0)) / 2 ** dim
        ref = self.ref
        Z = corners.shape[0]
        e = np.zeros((Z, ref.nd_l2))
        scale = np.abs(corners).max() if Z else 1.0
        hits = np.argwhere(np.linalg.norm(corners, axis=2) < 1e-12 * max(scale, 1.0))
        integral = 0.0
        for z, c in hits:
            bits = [(c >> a) & 1 for a in range(dim)]
            j = sum(bits[a] * p * (p + 1) ** a for a in range(dim))
            e[z, j] = 1.0
            integral += float((ref.l2_B[:, j] * detJ0[z] * ref.qweights).sum())
        integral = self.comm.allreduce(integral, "sum")
        if integral <= 0.0:
            raise ValueError("sedov: no zone has a vertex at the origin (the blast position)")
        return e * (energy / integral)

    def _viz_tables(self, detJ0, rho0_coef):
        """Tables to refine each zone into order**dim linear sub-cells for visualization."""
        ref, dim = self.ref, self.ref.dim
        k = ref.order
        nodes1 = ref.h1_nodes_1d
        mids1 = 0.5 * (nodes1[1:] + nodes1[:-1])
        cpts = basis.tensor_points(mids1, dim)
        vals, ders = basis.lagrange_1d(nodes1, mids1)
        self._cell_B, self._cell_G = basis.tensor_basis(vals, ders, dim)
        self._cell_Bl2 = ref.l2_eval(cpts)
        # rho0 |J0| at sub-cell centres (for the sub-cell density)
        Z = self.layout.Z
        xz = self.local.node_coords[self.local.dof_map]
        Jc = np.einsum("zic,gqi->zqcg", xz, self._cell_G)
        det_c, _ = det_inv(np, Jc)
        self._rho0detJ0_cell = (rho0_coef @ self._cell_Bl2.T) * det_c
        # sub-cell connectivity on the zone's own nodes, in VTK/XDMF corner order
        n1 = k + 1
        vtk = [0, 1, 3, 2] if dim == 2 else ([0, 1, 3, 2, 4, 5, 7, 6] if dim == 3 else [0, 1])
        base = []
        for cell in range(k ** dim):
            ci = [(cell // k ** a) % k for a in range(dim)]
            corner_ids = []
            for corner in range(2 ** dim):
                idx = [ci[a] + ((corner >> a) & 1) for a in range(dim)]
                corner_ids.append(sum(idx[a] * n1 ** a for a in range(dim)))
            base.append([corner_ids[v] for v in vtk])
        base = np.array(base)
        nd = ref.nd_h1
        self._cells = (np.arange(Z)[:, None, None] * nd + base[None]).reshape(-1, 2 ** dim)

    # ------------------------------------------------------------------ time stepping
    def done(self) -> bool:
        """True when final_time is reached (or time_step.max_steps accepted steps were taken)."""
        ms = self.cfg.time_step.max_steps
        return self._clipped_to_end or (ms is not None and self.cycle >= ms)

    def step(self) -> StepInfo:
        """Advance one accepted step, retrying with dt *= reject_factor while the CFL estimate
        of the new state is below the step taken (Laghos's control); clipped to final_time."""
        if self.done():
            raise RuntimeError(f"step() after the end of the run (t = {self.t}, cycle {self.cycle})")
        t_start = time.perf_counter()
        busy0 = sum(v for k, v in self.timers.items() if k != "other")
        ts = self.cfg.time_step
        tf = self.cfg.final_time
        dt = self.dt
        rejected, tangled = 0, False
        cg0 = self.op.cg_iterations
        while True:
            last = False
            if self.t + dt >= tf:
                dt, last = tf - self.t, True
            self.op.reset_dt_estimate()
            S_new, work = self.step_fn(self.op, self.S, dt)
            dt_est = self.op.time_step_estimate(S_new)
            if not (dt_est >= dt):          # also catches NaN
                tangled = dt_est == 0.0
                dt *= ts.reject_factor
                rejected += 1
                self.rejections += 1
                self.op.invalidate()
                if dt < ts.min_dt:
                    self._account(t_start, busy0)
                    err = MeshTangled if tangled else TimeStepCollapse
                    raise err(f"time step collapsed to {dt:.3e} < min_dt {ts.min_dt:.1e} at "
                              f"t = {self.t:.6g}, cycle {self.cycle}"
                              + (" (negative Jacobian: the mesh tangled)" if tangled else ""))
                continue
            break
        self.S = S_new
        self.t += dt
        self.cycle += 1
        self.source_work += work
        self._clipped_to_end = last
        self.dt = dt * ts.grow_factor if dt_est > ts.grow_threshold * dt else dt
        self._account(t_start, busy0)
        return StepInfo(dt, rejected, self.op.cg_iterations - cg0)

    def _account(self, t_start, busy0):
        busy = sum(v for k, v in self.timers.items() if k != "other") - busy0
        self.timers["other"] += max(time.perf_counter() - t_start - busy, 0.0)

    # ------------------------------------------------------------------ diagnostics
    def energies(self) -> dict:
        """Global kinetic, internal, source work (energy added by sources so far) and
        total = kinetic + internal - source_work, which the scheme conserves."""
        ke = self.op.kinetic_energy(self.S)
        ie = self.op.internal_energy(self.S)
        return {"kinetic": ke, "internal": ie, "source_work": self.source_work,
                "total": ke + ie - self.source_work}

    def energy_norm(self) -> float:
        """Laghos's |e|: the Euclidean norm of the global specific-internal-energy dof vector."""
        e = self.layout.e(self.S)
        return float(np.sqrt(self.comm.allreduce(float((e * e).sum()), "sum")))

    # ------------------------------------------------------------------ output
    def output_fields(self) -> dict:
        """NumPy arrays of this rank's zones (see the module contract in hydro.run / hydro.io)."""
        xp, L, ref = self.xp, self.layout, self.ref
        x, v, e = L.x(self.S), L.v(self.S), L.e(self.S)
        xz = x[:, self.op.dof_map]                                   # (dim, Z, ND)
        J = xp.einsum("czi,gqi->zqcg", xz, self.op.G)
        detJ, _ = det_inv(xp, J)
        vol_w = detJ * self.op.w
        m = self.qdata.rho0DetJ0w
        e_q = e @ self.op.Bl2.T
        rho_q = m / vol_w
        gamma = self.qdata.gamma[:, None]
        p_q = (gamma - 1.0) * rho_q * xp.maximum(e_q, 0.0)
        vol = vol_w.sum(1)
        mass = m.sum(1)
        center_B = xp.asarray(ref.h1_eval(np.full((1, ref.dim), 0.5))[0])
        out = {
            "zone_center": (xz @ center_B).T,
            "zone_density": mass / vol,
            "zone_pressure": (p_q * vol_w).sum(1) / vol,
            "zone_energy": (m * e_q).sum(1) / mass,
        }
        # visualization: linear sub-cells on each zone's own copy of its nodes
        cB, cG = xp.asarray(self._cell_B), xp.asarray(self._cell_G)
        Jc = xp.einsum("czi,gqi->zqcg", xz, cG)
        det_c, _ = det_inv(xp, Jc)
        e_c = e @ xp.asarray(self._cell_Bl2).T
        rho_c = xp.asarray(self._rho0detJ0_cell) / det_c
        out["cell_density"] = rho_c.ravel()
        out["cell_energy"] = e_c.ravel()
        out["cell_pressure"] = ((gamma - 1.0) * rho_c * xp.maximum(e_c, 0.0)).ravel()
        out["points"] = xz.transpose(1, 2, 0).reshape(-1, ref.dim)
        out["point_velocity"] = v[:, self.op.dof_map].transpose(1, 2, 0).reshape(-1, ref.dim)
        out["x"], out["v"], out["e"] = x, v, e
        out = {k_: _to_numpy(a) for k_, a in out.items()}
        out["cells"] = self._cells
        out["zone_global_index"] = self.zones.copy()
        out["h1_global_index"] = self.local.l2g.copy()
        return out

    # ------------------------------------------------------------------ restart
    def checkpoint_state(self) -> dict:
        """Everything needed to continue bit-for-bit (same ranks): arrays and scalars."""
        return {"S": _to_numpy(self.S).copy(), "t": self.t, "cycle": self.cycle, "dt": self.dt,
                "rejections": self.rejections, "source_work": self.source_work,
                "clipped_to_end": self._clipped_to_end,
                "energy_initial_total": self.energy_initial["total"],
                "zone_global_index": self.zones.copy()}

    def restore(self, state: dict) -> None:
        """Continue from :meth:`checkpoint_state` output (possibly read back from a file)."""
        if not np.array_equal(np.asarray(state["zone_global_index"]), self.zones):
            raise ValueError("checkpoint was written with a different partition (rank count)")
        self.S = self.xp.asarray(np.asarray(state["S"], dtype=float))
        self.t, self.cycle = float(state["t"]), int(state["cycle"])
        self.dt, self.rejections = float(state["dt"]), int(state["rejections"])
        self.source_work = float(state["source_work"])
        self._clipped_to_end = bool(state["clipped_to_end"])
        # An uninterrupted run holds the quadrature data of the current state (from the last dt
        # estimate) and reuses it in the next step's first stage; recreate exactly that.
        self.op.invalidate()
        self.op.reset_dt_estimate()
        self.op.update_quadrature_data(self.S)
        self.energy_initial = dict(self.energy_initial, total=float(state["energy_initial_total"]))

