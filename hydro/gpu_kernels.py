"""Launchers of the hydro driver's own GPU kernels (kernels/hydro.cu), float64 CuPy arrays.

The array-module code in hydro/lagrangian.py and hydro/operators.py is the reference (and the CPU
path); on the GPU these kernels replace four of its pieces:
- ``quadrature_physics``: the quadrature-point update (geometry, EOS, viscosity, stress, CFL
  step) in one pass over the points, where the reference runs batched 3 x 3 eigen- and
  singular-value solvers and tens of elementwise passes;
- ``force_rhs``, ``force_energy``: the corner forces' F . 1 and F^T v by partial assembly (sum
  factorization; F never formed), where the reference forms F by one linalg.gemm of the stress
  with a basis table and applies it with GEMVs (hydro.operators.ForceOperator);
- ``assemble_forces``: -F . 1 summed into the momentum right-hand side by a gather over each
  dof's zone entries (the reference scatter-adds with numpy/cupy bincount, atomics on the GPU);
- ``mass_pcg``: the velocity's block PCG (hydro.operators.pcg) in four kernels an iteration: the
  mass matrix by partial assembly (``PartialAssemblyMass``: zone by zone from the weights, then
  a gather into the dofs, where the reference multiplies by the CSR matrix) and the vector
  updates, each with their dot products, the CG's scalars kept on the device (the host queues
  iterations without reading them), on one GPU; ``mass_pcg_ranks`` runs the same kernels on MPI
  ranks, summing the shared dofs and reducing the dot products between them.
They compile through linalg's kernel cache (linalg._cuda._compile) on first use.
"""
from __future__ import annotations

import functools

import numpy as np

THREADS = 128


@functools.lru_cache(maxsize=None)
def _compile():
    from linalg._cuda import _compile
    return _compile


def _grid(items):
    return _compile().grid_1d(items, THREADS)


def _host(xp, a):
    """A device array's values on the host (NumPy arrays as they are)."""
    return a if xp is np else xp.asnumpy(a)


def quadrature_physics(xp, Jg, Vg, e_q, qd, w, opts, order):
    """hydro.lagrangian.quadrature_physics in one kernel (same arguments and results).

    Jg, Vg (dim, Z, dim*NQ), e_q (Z, NQ), qd.rho0DetJ0w (Z, NQ), qd.gamma (Z,), qd.Jac0inv (Z, NQ,
    dim, dim), w (NQ,): float64 device arrays. Returns rho, p (Z, NQ), stressJinvT (Z, NQ, dim,
    dim), dt (Z, NQ), new arrays.
    """
    dim, Z = Jg.shape[0], Jg.shape[1]
    NQ = w.shape[0]
    viscosity = bool(opts["viscosity"])
    args = [xp.ascontiguousarray(a, dtype=xp.float64)
            for a in (Jg, Vg if viscosity else Jg, e_q, qd.rho0DetJ0w, w, qd.gamma, qd.Jac0inv)]
    rho = xp.empty((Z, NQ))
    p = xp.empty((Z, NQ))
    dt = xp.empty((Z, NQ))
    stress = xp.empty((Z, NQ, dim, dim))
    launch = _compile().kernel("hydro", f"quadrature_physics<{dim}>", "p" * 11 + "qiii" + "d" * 5)
    launch(_grid(Z * NQ), THREADS,
           (*args, rho, p, stress, dt, Z, NQ, int(viscosity), int(bool(opts["vorticity"])),
            float(qd.h0), float(opts["q1"]), float(opts["q2"]), float(opts["cfl"]),
            float(order)))
    return rho, p, stress, dt


FORCE_THREADS = 128          # kernels/hydro.cu FORCE_THREADS
# A block's tensor entries at a time (two buffers of them in shared memory): 36 KB for the forces,
# 24 KB for the mass. At 3-D Q2, 32^3 zones (H200, reports/gpu_20261129c call 7): force_rhs /
# force_energy with 1, 2 or 4 zones of all 3 components 0.140 / 0.118 / 0.110 and 0.155 / 0.112 /
# 0.106 ms, with 2, 4 or 8 zones of one component 0.115-0.145; mass_zone with 1, 2, 4 or 8 zones
# 0.093 / 0.065 / 0.059 / 0.056 ms.
FORCE_TENSOR_ENTRIES = 2304
MASS_TENSOR_ENTRIES = 1536


def force_blocking(dim, p, q, e):
    """(ZB, CB) of force_rhs / force_energy: ZB zones a block, CB of their dim velocity
    components at a time, each with dim tensors of up to max(p, q, e)^dim entries within
    FORCE_TENSOR_ENTRIES: all components at once where they fit (then force_rhs reads the
    stress as it lies in memory), ZB at most 16. 3-D Q2-Q1: (4, 3); 3-D Q3: (1, 3); 3-D Q4:
    (1, 1)."""
    tensor = dim * max(p, q, e) ** dim
    cb = dim if dim * tensor <= FORCE_TENSOR_ENTRIES else 1
    return max(1, min(16, FORCE_TENSOR_ENTRIES // (cb * tensor))), cb


def _force_kernel(name, dim, tables, signature):
    """The launcher and zones a block of force_rhs / force_energy for the 1-D tables (Q, P),
    (Q, P), (Q, E)."""
    (q, p), e = tables[0].shape, tables[2].shape[1]
    zb, cb = force_blocking(dim, p, q, e)
    launch = _compile().kernel("hydro", f"{name}<{dim}, {p}, {q}, {e}, {zb}, {cb}>", signature)
    return launch, zb


def force_rhs(xp, stressJinvT, h1_B1, h1_G1, l2_B1):
    """F . 1 (Z, dim*ND) by partial assembly from stressJinvT (Z, NQ, dim, dim) and the 1-D
    tables h1_B1, h1_G1 (Q, P), l2_B1 (Q, E) (hydro.basis.ReferenceElement); float64 device
    arrays, NQ = Q^dim, ND = P^dim."""
    Z, NQ, dim, _ = stressJinvT.shape
    tables = (h1_B1, h1_G1, l2_B1)
    launch, zb = _force_kernel("force_rhs", dim, tables, "ppppp" + "q")
    f1 = xp.empty((Z, dim * h1_B1.shape[1] ** dim))
    launch(_compile().grid_1d(Z, zb), FORCE_THREADS,
           (xp.ascontiguousarray(stressJinvT), *tables, f1, Z))
    return f1


def force_energy(xp, stressJinvT, v, dofs, h1_B1, h1_G1, l2_B1):
    """F^T v (Z, NE) by partial assembly for the velocity v (dim, n), each zone's entries read
    through dofs (Z, ND) int32 (hydro.operators.gather_vector's map); the other arguments as
    force_rhs's, NE = E^dim."""
    Z, NQ, dim, _ = stressJinvT.shape
    tables = (h1_B1, h1_G1, l2_B1)
    launch, zb = _force_kernel("force_energy", dim, tables, "pppi" + "pppp" + "q")
    e = xp.empty((Z, l2_B1.shape[1] ** dim))
    launch(_compile().grid_1d(Z, zb), FORCE_THREADS,
           (xp.ascontiguousarray(stressJinvT), xp.ascontiguousarray(v, dtype=xp.float64),
            dofs, v.shape[1], *tables, e, Z))
    return e


def int32_dofs(xp, dof_map):
    """dof_map (Z, ND) as a C-contiguous int32 array of xp (force_energy's ``dofs``)."""
    if dof_map.size and int(dof_map.max()) >= 2**31:
        raise ValueError("dof numbers past 2**31 - 1: force_energy reads them as int32")
    return xp.ascontiguousarray(dof_map, dtype=xp.int32)


def dof_entries(xp, dof_map, n):
    """What assemble_forces needs of the zone-to-dof map dof_map (Z, ND): offsets (n + 1,) and
    entries (Z * ND,), int32 arrays of xp, entries[offsets[i]:offsets[i + 1]] the zone-local
    positions z * ND + l with dof_map[z, l] = i in increasing order."""
    flat = _host(xp, dof_map).ravel()
    if flat.size >= 2**31:
        raise ValueError(f"{flat.size} zone-local dofs: assemble_forces indexes them with int32")
    entries = np.argsort(flat, kind="stable").astype(np.int32)
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(flat, minlength=n), out=offsets[1:])
    return xp.asarray(offsets), xp.asarray(entries)


def assemble_forces(xp, f1, dof_entries_, dim, n):
    """-F . 1 assembled into the dofs: rhs (dim, n) from f1 (Z, dim*ND) and dof_entries' arrays
    (hydro.operators.scatter_add's sum, in a sequential scatter-add's order, without atomics)."""
    offsets, entries = dof_entries_
    nd = f1.shape[1] // dim
    rhs = xp.empty((dim, n))
    launch = _compile().kernel("hydro", f"assemble_forces<{dim}>", "ppppii")
    launch(_grid(n), THREADS, (xp.ascontiguousarray(f1), offsets, entries, rhs, n, nd))
    return rhs


PCG_THREADS = 256      # kernels/hydro.cu PCG_THREADS
PCG_MAX_BLOCKS = 1024  # blocks of the PCG kernels (their partial sums: (blocks, k))
PCG_POLL = 4           # mass_pcg reads whether any component is still active every 4 iterations


def mass_zones_per_block(dim, p, q, k):
    """Zones a block of mass_zone<dim, p, q, ZB, k> takes: their k tensors of up to max(p, q)^dim
    entries within MASS_TENSOR_ENTRIES, at most 16 (3-D Q2, k = 3: 8)."""
    return max(1, min(16, MASS_TENSOR_ENTRIES // (k * max(p, q) ** dim)))


class PartialAssemblyMass:
    """The kinematic mass matrix as mass_pcg applies it: zone by zone from the mass weights
    (mass_zone: sum factorization with the 1-D table h1_B1 (Q, P)), then summed into the dofs
    by a gather (pcg_gather_apply), where the reference multiplies by the assembled CSR matrix
    (hydro.operators.KinematicMass, built from the same weights). weights (Z, NQ): rho0 |J0|
    w_q; dofs (Z, ND), ND = P^dim: the zone-to-dof map as int32_dofs gives it; entries: its
    dof_entries (the driver's, shared with assemble_forces); n dofs."""

    def __init__(self, xp, dim, h1_B1, weights, dofs, entries, n):
        self.xp, self.dim, self.n = xp, dim, n
        self.B1 = xp.ascontiguousarray(xp.asarray(h1_B1, dtype=xp.float64))
        self.weights = xp.ascontiguousarray(weights, dtype=xp.float64)
        self.dofs, self.entries = dofs, entries

    def zones_per_block(self, k):
        """mass_zone's zones a block for k vectors (mass_zones_per_block)."""
        q, p = self.B1.shape
        return mass_zones_per_block(self.dim, p, q, k)

    def applier(self, k, free):
        """(apply, blocks): apply(d, z, partial) sets z = free * M d + (1 - free) * d for (n, k)
        interleaved vectors d (free (n, k)) and the partial sums of (d, z) in partial's first
        ``blocks`` rows."""
        xp, (q, p), n = self.xp, self.B1.shape, self.n
        Z, nd = self.dofs.shape
        zb = self.zones_per_block(k)
        zone = _compile().kernel("hydro", f"mass_zone<{self.dim}, {p}, {q}, {zb}, {k}>",
                                 "ppppp" + "q")
        gather = _compile().kernel("hydro", f"pcg_gather_apply<{k}>", "pppppppi")
        blocks = max(1, min(-(-n // PCG_THREADS), PCG_MAX_BLOCKS))
        offsets, entries = self.entries
        yz = xp.empty((Z * nd, k))
        zone_grid = _compile().grid_1d(Z, zb)

        def apply(d, z, partial):
            zone(zone_grid, FORCE_THREADS, (d, self.dofs, self.weights, self.B1, yz, Z))
            gather(blocks, PCG_THREADS, (offsets, entries, yz, free, d, z, partial, n))
        return apply, blocks


def vector_blocks(n, k):
    """Blocks of pcg_update / pcg_direction for n dofs of k components (a thread an entry): up to
    PCG_MAX_BLOCKS, a multiple of k (so that a thread's entries share a component)."""
    blocks = max(1, min(-(-n * k // PCG_THREADS), PCG_MAX_BLOCKS))
    return min(-(-blocks // k) * k, PCG_MAX_BLOCKS // k * k)


class _BlockPCG:
    """What mass_pcg and mass_pcg_ranks share: the kernels for k components, the interleaved
    vectors (n, k) of MFEM's CG started from x = 0 (r = b on free dofs, z = D^{-1} r, d = z) and
    the device arrays of the CG's scalars (pcg_update's and pcg_direction's state, istate)."""

    def __init__(self, xp, mass, free, b, diag, owned):
        k, n = b.shape
        compile_ = _compile()
        self.xp, self.k, self.n = xp, k, n
        self.vector_blocks = vector_blocks(n, k)
        weighted = "true" if owned is not None else "false"
        self.update_kernel = compile_.kernel("hydro", f"pcg_update<{k}, {weighted}>",
                                             "pppppppppp" + "iii")
        self.direction_kernel = compile_.kernel("hydro", f"pcg_direction<{k}>", "pppppiii")
        self.free = xp.ascontiguousarray(xp.asarray(free, dtype=xp.float64).T)
        self.apply, self.apply_blocks = mass.applier(k, self.free)
        self.diag = xp.ascontiguousarray(diag, dtype=xp.float64)
        self.owned = self.diag if owned is None else owned    # not read without weights
        self.x = xp.zeros((n, k))
        self.r = xp.ascontiguousarray(xp.asarray(b, dtype=xp.float64).T) * self.free
        self.z = self.r / self.diag[:, None]
        self.d = self.z.copy()
        self.apply_partial = xp.empty((PCG_MAX_BLOCKS, k))
        self.update_partial = xp.empty((PCG_MAX_BLOCKS, k))

    def start(self, nom, rel_tol):
        """The stopping bound r0 and the active rows (NumPy) for (d, r) = nom, the state and
        istate on the device (iteration 1 reads parity 1)."""
        k = self.k
        r0 = nom * rel_tol * rel_tol
        active = ~(nom <= r0)                 # a NaN keeps iterating, as the reference's
        self.state = self.xp.asarray(np.concatenate([r0, nom, nom]))
        self.istate = self.xp.asarray(np.concatenate([active, active, np.zeros(k), [1]])
                                      .astype(np.int32))
        return r0, active

    def update(self, den_partial, den_blocks, it):
        self.update_kernel(self.vector_blocks, PCG_THREADS,
                           (self.x, self.r, self.z, self.d, self.diag, self.owned, den_partial,
                            self.update_partial, self.state, self.istate, den_blocks, it,
                            self.n))

    def direction(self, betanom_partial, betanom_blocks, it):
        self.direction_kernel(self.vector_blocks, PCG_THREADS,
                              (self.d, self.z, betanom_partial, self.state, self.istate,
                               betanom_blocks, it, self.n))

    def solution(self):
        return self.xp.ascontiguousarray(self.x.T)


def mass_pcg(xp, mass, free, b, diag, rel_tol, max_iter):
    """hydro.operators.pcg for the constrained mass operator d -> free * M (free * d) + (1 - free)
    * d on one GPU (no shared dofs to sum), in four kernels an iteration (kernels/hydro.cu).

    mass: PartialAssemblyMass (M); free, b (k, n) with k <= 3; diag (n,) float64. Each row is its
    own CG with MFEM's steps and stopping test, as in the reference. The kernels hold the k vectors
    interleaved, (n, k), and the CG's scalars on the device (dot products summed by blocks, then in
    block order), so the host queues iterations without waiting for them: it reads whether any row
    is still active every PCG_POLL iterations, and a row that has stopped takes steps of size 0
    until then (its x and iteration count stay as they were). Returns (x (k, n), iterations (k,)).
    """
    k = b.shape[0]
    cg = _BlockPCG(xp, mass, free, b, diag, None)
    r0, active = cg.start(_host(xp, (cg.d * cg.r).sum(axis=0)), rel_tol)
    if not active.any():
        return cg.solution(), np.zeros(k, dtype=np.int64)
    cg.apply(cg.d, cg.z, cg.apply_partial)
    for it in range(1, max_iter + 1):
        cg.update(cg.apply_partial, cg.apply_blocks, it)
        if it == max_iter:
            break
        cg.direction(cg.update_partial, cg.vector_blocks, it)
        if it % PCG_POLL == 0 and not int(_host(xp, cg.istate[3 * k:])[0]):
            break
        cg.apply(cg.d, cg.z, cg.apply_partial)
    return cg.solution(), _host(xp, cg.istate[2 * k:3 * k]).astype(np.int64)


def mass_pcg_ranks(xp, mass, free, b, diag, rel_tol, max_iter, shared):
    """mass_pcg for MPI ranks: the same kernels and steps, the shared dofs summed and the dot
    products reduced over the ranks between them (hydro.parallel.SharedDofs ``shared``).

    An iteration: mass_zone and pcg_gather_apply give this rank's part of z = free * M d (d is
    consistent over the ranks, so the ranks' partial (d, z) sum to the global one), then one trip
    to the host sums z's shared entries over the ranks (rank order) and (d, z) (allreduce);
    pcg_update (its (r, z) weighted by ``shared.owned``: each dof once), a second trip reduces
    (r, z), and pcg_direction. The global scalars go back to the kernels as a one-block partial
    sum; the host decides when to stop (every iteration, as the reference). Arguments and result
    as mass_pcg's.
    """
    k = b.shape[0]
    comm = shared.comm
    owned = xp.ascontiguousarray(shared.owned, dtype=xp.float64)
    cg = _BlockPCG(xp, mass, free, b, diag, owned)
    r0, active = cg.start(shared.dot_rows(cg.d.T, cg.r.T), rel_tol)
    iterations = np.zeros(k, dtype=np.int64)
    if not active.any():
        return cg.solution(), iterations
    # One transfer a trip each way (the host's time between a trip and the next launch idles the
    # GPU): down holds this rank's (d, z) block partials (pcg_gather_apply writes them there) and
    # z's shared entries, up the global (d, z) and the shared entries' sums; the entries move by
    # their flat positions in the interleaved z (take / put, lighter than fancy indexing).
    bk, sk = cg.apply_blocks * k, len(shared.shared) * k
    entries = (shared.shared_device[:, None] * k + xp.arange(k)[None, :]).ravel()
    z_flat = cg.z.reshape(-1)
    down = xp.empty(bk + sk)
    apply_partial = down[:bk].reshape(-1, k)
    for it in range(1, max_iter + 1):
        cg.apply(cg.d, cg.z, apply_partial)
        xp.take(z_flat, entries, out=down[bk:])
        local = _host(xp, down)
        den = comm.allreduce(local[:bk].reshape(-1, k).sum(axis=0), "sum")
        z_shared = shared.sum_shared(local[bk:].reshape(-1, k))
        up = xp.asarray(np.concatenate([den, z_shared.ravel()]))
        xp.put(z_flat, entries, up[k:])
        iterations[active] = it
        cg.update(up[:k].reshape(1, k), 1, it)
        betanom = comm.allreduce(_host(xp, cg.update_partial[:cg.vector_blocks]).sum(axis=0),
                                 "sum")
        active = active & ~(betanom <= r0)
        if not active.any() or it == max_iter:
            break
        cg.direction(xp.asarray(betanom).reshape(1, k), 1, it)
    return cg.solution(), iterations
