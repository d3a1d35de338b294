"""hydro.gpu_kernels (kernels/hydro.cu) against the array-module reference they replace.

Without a GPU the kernels' source is compiled as host C++ (hydro_kernels_host.cpp, g++) and
called through ctypes in place of the launchers: CI checks the kernels' arithmetic. Tests marked
``gpu`` launch the real kernels on the device and compare them with the reference run there.
"""
import ctypes
import functools
import shutil
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import linalg

from hydro import gpu_kernels
from hydro.gpu_kernels import mass_pcg_ranks
from hydro.basis import ReferenceElement, tensor_basis
from hydro.config import load_case
from hydro.lagrangian import quadrature_physics
from hydro.operators import ForceOperator, gather_vector, pcg, scatter_add
from hydro.simulation import Simulation

HERE = Path(__file__).resolve().parent
KERNELS = HERE.parents[1] / "kernels"

# (problem, dim, nx, order, overrides): viscosity with and without the vorticity factor, no
# viscosity, 1-D to 3-D, Q1-Q4 (3-D Q3 splits F's 27 columns over two threads).
CASES = [
    ("sedov", 2, 4, 2, {}),
    ("sedov", 3, 2, 2, {}),
    ("sedov", 3, 2, 3, {}),
    ("sod", 1, 8, 1, {}),
    ("sod", 1, 6, 4, {}),
    ("rayleigh_taylor", 2, 4, 2, {}),
    ("taylor_green", 2, 3, 4, {"viscosity": {"enabled": False}}),
    ("noh", 2, 4, 1, {}),
]


def case_id(case):
    problem, dim, _, order, over = case
    return f"{problem}-{dim}d-Q{order}" + ("-noviscosity" if over else "")


def simulation(case, xp=np, cycles=3):
    """A small run of ``case`` advanced by ``cycles`` steps (viscosity active, zones moved)."""
    problem, dim, nx, order, over = case
    d = {"problem": problem, "dim": dim, "mesh": {"nx": nx}, "order": order, "final_time": 1.0,
         "backend": "cpu" if xp is np else "gpu", **over}
    sim = Simulation(load_case(d), xp=xp)
    for _ in range(cycles):
        sim.step()
    return sim


class HostKernels:
    """kernels/hydro.cu built for the host, with hydro.gpu_kernels' signatures (NumPy arrays)."""

    def __init__(self, lib):
        self.lib = lib

    @staticmethod
    def _ptr(a):
        return a.ctypes.data_as(ctypes.c_void_p)

    def quadrature_physics(self, xp, Jg, Vg, e_q, qd, w, opts, order):
        dim, Z, NQ = Jg.shape[0], Jg.shape[1], w.shape[0]
        visc = bool(opts["viscosity"])
        ins = [np.ascontiguousarray(a, dtype=np.float64)
               for a in (Jg, Vg if visc else Jg, e_q, qd.rho0DetJ0w, w, qd.gamma, qd.Jac0inv)]
        rho, p, dt = (np.empty((Z, NQ)) for _ in range(3))
        stress = np.empty((Z, NQ, dim, dim))
        scalars = (qd.h0, opts["q1"], opts["q2"], opts["cfl"], order)
        self.lib.host_quadrature_physics(
            ctypes.c_int(dim), *map(self._ptr, ins + [rho, p, stress, dt]), ctypes.c_longlong(Z),
            ctypes.c_int(NQ), ctypes.c_int(visc), ctypes.c_int(bool(opts["vorticity"])),
            *(ctypes.c_double(float(v)) for v in scalars))
        return rho, p, stress, dt

    def _force(self, name, stressJinvT, gather, tables, out_cols):
        """Launch host_<name> on (stressJinvT, *gather, *tables) -> out (Z, out_cols); gather is
        () or (v, dofs): v (dim, n) float64, dofs (Z, ND) int32."""
        Z, _, dim, _ = stressJinvT.shape
        (q, p), e = tables[0].shape, tables[2].shape[1]
        zb, cb = gpu_kernels.force_blocking(dim, p, q, e)
        out = np.empty((Z, out_cols))
        args = [self._ptr(np.ascontiguousarray(stressJinvT, dtype=np.float64))]
        if gather:
            v, dofs = np.ascontiguousarray(gather[0], dtype=np.float64), gather[1]
            assert dofs.dtype == np.int32 and dofs.flags.c_contiguous
            args += [self._ptr(v), self._ptr(dofs), ctypes.c_int(v.shape[1])]
        args += [self._ptr(np.ascontiguousarray(a, dtype=np.float64)) for a in tables]
        missing = getattr(self.lib, f"host_{name}")(
            *(ctypes.c_int(v) for v in (dim, p, q, e, zb, cb)), *args, self._ptr(out),
            ctypes.c_longlong(Z))
        assert missing == 0, \
            f"hydro_kernels_host.cpp lacks {name}<{dim}, {p}, {q}, {e}, {zb}, {cb}>"
        return out

    def force_rhs(self, xp, stressJinvT, h1_B1, h1_G1, l2_B1):
        dim = stressJinvT.shape[2]
        return self._force("force_rhs", stressJinvT, (), (h1_B1, h1_G1, l2_B1),
                           dim * h1_B1.shape[1] ** dim)

    def force_energy(self, xp, stressJinvT, v, dofs, h1_B1, h1_G1, l2_B1):
        return self._force("force_energy", stressJinvT, (v, dofs), (h1_B1, h1_G1, l2_B1),
                           l2_B1.shape[1] ** stressJinvT.shape[2])

    def mass_zone(self, mass, d):
        """mass_zone's zone results yz (Z * ND, k) for PartialAssemblyMass ``mass`` and the
        interleaved vectors d (n, k)."""
        k = d.shape[1]
        (q, p), zb = mass.B1.shape, mass.zones_per_block(k)
        Z, nd = mass.dofs.shape
        yz = np.empty((Z * nd, k))
        ins = [np.ascontiguousarray(d), mass.dofs, mass.weights, mass.B1, yz]
        missing = self.lib.host_mass_zone(*(ctypes.c_int(v) for v in (mass.dim, p, q, zb, k)),
                                          *map(self._ptr, ins), ctypes.c_longlong(Z))
        assert missing == 0, \
            f"hydro_kernels_host.cpp lacks mass_zone<{mass.dim}, {p}, {q}, {zb}, {k}>"
        return yz

    def assemble_forces(self, xp, f1, dof_entries, dim, n):
        offsets, entries = dof_entries
        f1 = np.ascontiguousarray(f1)
        rhs = np.empty((dim, n))
        self.lib.host_assemble_forces(ctypes.c_int(dim), *map(self._ptr, (f1, offsets, entries,
                                                                           rhs)),
                                      ctypes.c_int(n), ctypes.c_int(f1.shape[1] // dim))
        return rhs


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++) to build kernels/hydro.cu for the host")
    lib = tmp_path_factory.mktemp("hydro_kernels") / "libhydro_kernels.so"
    cmd = [cxx, "-O2", "-std=c++17", "-shared", "-fPIC", "-I", str(KERNELS),
           str(HERE / "hydro_kernels_host.cpp"), "-o", str(lib)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, f"g++ failed on kernels/hydro.cu:\n{done.stderr[-4000:]}"
    return HostKernels(ctypes.CDLL(str(lib)))


@pytest.mark.parametrize("dim,order", [(1, 3), (2, 2), (3, 2)])
def test_assemble_forces_kernel_equals_scatter_add(host_kernels, dim, order):
    """The gather over each dof's entries sums what numpy.bincount sums, in its order: equal
    bit for bit on the host."""
    sim = simulation(("sedov", dim, 3, order, {}), cycles=0)
    op, L = sim.op, sim.layout
    Z, nd = op.dof_map.shape
    f1 = np.random.default_rng(dim).standard_normal((Z, dim * nd))
    idx = np.arange(dim)[None, :, None] * L.n + op.dof_map[:, None, :]
    want = -scatter_add(np, idx, f1.reshape(Z, dim, nd), dim * L.n).reshape(dim, L.n)
    entries = gpu_kernels.dof_entries(np, op.dof_map, L.n)
    np.testing.assert_array_equal(host_kernels.assemble_forces(np, f1, entries, dim, L.n), want)


class EmulatedPCGKernels:
    """The PCG kernels of kernels/hydro.cu in NumPy, with the launchers' arguments, standing in
    for linalg's kernel cache: mass_pcg's host loop and the kernels' bookkeeping (step sizes,
    stopping, the scalars' parities, the polled flag, the block partial sums, here all in block
    0) run in CI. Their warp shuffles do not build as host code; the device tests check the
    kernels themselves (and test_mass_zone_kernel_matches_csr_product the host-built mass_zone)."""

    @staticmethod
    def grid_1d(batch, per_block):
        return max(1, -(-batch // per_block))

    def kernel(self, family, name, signature):
        assert family == "hydro"
        params = [{"true": 1, "false": 0}.get(v.strip()) if v.strip() in ("true", "false")
                  else int(v) for v in name[name.index("<") + 1:-1].split(",")]
        return functools.partial(getattr(self, name.split("<")[0]), params)

    @staticmethod
    def _partial(partial, grid, products):
        """Column sums of products (n, k) into block 0's slot (pairwise, as NumPy sums a
        contiguous row: a running sum down a column rounds worse than any kernel order)."""
        partial[:grid] = 0.0
        partial[0] = np.ascontiguousarray(products.T).sum(axis=1)

    def mass_zone(self, params, grid, block, args):
        dim = params[0]
        d, dofs, w, B1, yz, Z = args
        B = tensor_basis(B1, B1, dim)[0]                          # (NQ, ND)
        at_points = np.einsum("qj,zjk->zqk", B, d[dofs]) * w[:, :, None]
        yz[...] = np.einsum("qi,zqk->zik", B, at_points).reshape(yz.shape)

    def pcg_gather_apply(self, params, grid, block, args):
        offsets, entries, yz, free, d, z, partial, n = args      # vectors (n, k)
        dof_of_entry = np.repeat(np.arange(n), np.diff(offsets))
        Md = np.zeros_like(d)
        np.add.at(Md, dof_of_entry, yz[entries])
        assert (d[free == 0] == 0).all()                          # the kernel reads d unmasked
        z[...] = free * Md + (1.0 - free) * d
        self._partial(partial, grid, d * z)

    @staticmethod
    def _total(partial, blocks):
        return np.ascontiguousarray(partial[:blocks].T).sum(axis=1)

    def pcg_update(self, params, grid, block, args):
        x, r, z, d, diag, owned, apply_partial, partial, state, istate, apply_blocks, it, n = args
        k, p = x.shape[1], it & 1
        weights = owned[:, None] if params[1] else 1.0
        active = istate[p * k:(p + 1) * k] != 0
        nom = state[k + p * k:k + (p + 1) * k]
        alpha = np.divide(nom, self._total(apply_partial, apply_blocks), out=np.zeros(k),
                          where=active)
        istate[2 * k:3 * k][active] = it
        x += alpha * d
        r -= alpha * z
        z[...] = r / diag[:, None]
        self._partial(partial, grid, weights * (r * z))

    def pcg_direction(self, params, grid, block, args):
        d, z, update_partial, state, istate, update_blocks, it, n = args
        k, p = d.shape[1], it & 1
        q = p ^ 1
        betanom = self._total(update_partial, update_blocks)
        nom = state[k + p * k:k + (p + 1) * k].copy()
        still = (istate[p * k:(p + 1) * k] != 0) & ~(betanom <= state[:k])
        istate[q * k:(q + 1) * k] = still
        state[k + q * k:k + (q + 1) * k] = np.where(still, betanom, nom)
        istate[3 * k] = still.any()
        d[...] = z + np.divide(betanom, nom, out=np.zeros(k), where=still) * d


def partial_assembly_mass(xp, sim):
    """The driver's PartialAssemblyMass of sim (as LagrangianHydro makes it)."""
    op, L = sim.op, sim.layout
    return gpu_kernels.PartialAssemblyMass(xp, L.dim, sim.ref.h1_B1, op.mass_w,
                                           op.force.kernel_dofs(), op.kernel_entries(), L.n)


@pytest.mark.parametrize("dim,order", [(1, 1), (1, 4), (2, 2), (2, 4), (3, 1), (3, 2), (3, 3),
                                       (3, 4)])
def test_mass_zone_kernel_matches_csr_product(host_kernels, dim, order):
    """mass_zone's zone results summed into the dofs are the assembled mass matrix's product
    (KinematicMass's CSR matrix, the same weights), for the velocity's dim vectors."""
    sim = simulation(("sedov", dim, {1: 9, 2: 5, 3: 3}[dim], order, {}), cycles=0)
    mass, n = partial_assembly_mass(np, sim), sim.layout.n
    d = np.random.default_rng(dim * 10 + order).standard_normal((n, dim))
    yz = host_kernels.mass_zone(mass, d)
    got = np.zeros((n, dim))
    np.add.at(got, mass.dofs.ravel(), yz)
    want = sim.op.kmass.matrix @ d
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14 * np.abs(want).max())


def assert_mass_pcg_follows_reference(xp, sim, rtol):
    """mass_pcg against hydro.operators.pcg on sim's constrained mass operator, rows of
    different scales, run to convergence and capped at 4 steps: the same iterations per row,
    the same solution to rtol."""
    op = sim.op
    free, M = op.free, op.kmass
    mass = partial_assembly_mass(xp, sim)
    b = xp.asarray(np.random.default_rng(free.shape[0]).standard_normal(free.shape)) * free
    b[0] *= 1e-3                                  # rows of other scales stop on their own

    def apply(d):
        return free * M.mult(d * free) + (1.0 - free) * d
    for tol, cap in ((1e-10, 300), (1e-10, 4)):
        want, want_it = pcg(apply, b, M.diag, op.shared.dot_rows, tol, cap, xp)
        got, got_it = gpu_kernels.mass_pcg(xp, mass, free, b, M.diag, tol, cap)
        np.testing.assert_array_equal(got_it, want_it)
        want, got = gpu_kernels._host(xp, want), gpu_kernels._host(xp, got)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * 1e-3 * np.abs(want).max())


@pytest.mark.parametrize("dim", [1, 2, 3])
def test_mass_pcg_follows_reference_pcg(dim, monkeypatch):
    """mass_pcg's loop with NumPy stand-ins for its kernels against the reference (the
    stand-ins' dot products sum in another order than the reference's BLAS dots)."""
    monkeypatch.setattr(gpu_kernels, "_compile", EmulatedPCGKernels)
    assert_mass_pcg_follows_reference(np, simulation(("sedov", dim, 4 if dim < 3 else 2, 2, {}),
                                                     cycles=0), rtol=1e-9)


def test_mass_pcg_iterations_past_convergence_change_nothing(monkeypatch):
    """The host reads the stopping flag every PCG_POLL iterations; the iterations it queues past
    every row's stop take steps of 0: x and the counts equal those of polling every step."""
    monkeypatch.setattr(gpu_kernels, "_compile", EmulatedPCGKernels)
    sim = simulation(("sedov", 2, 4, 2, {}), cycles=0)
    op = sim.op
    b = np.random.default_rng(5).standard_normal(op.free.shape) * op.free
    results = []
    for poll in (1, 7):
        monkeypatch.setattr(gpu_kernels, "PCG_POLL", poll)
        results.append(gpu_kernels.mass_pcg(np, partial_assembly_mass(np, sim), op.free, b,
                                            op.kmass.diag, 1e-10, 300))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
    assert results[0][1].max() % 7 != 0            # the second run went past the stop


class ThreadComm:
    """hydro.parallel.Comm for ranks run as threads of one process: each collective meets at a
    barrier and reads the other ranks' contributions (the MPI path's logic in CI, no mpiexec)."""

    class Hub:
        def __init__(self, size):
            self.size, self.slots = size, [None] * size
            self.barrier = threading.Barrier(size, timeout=120)

    def __init__(self, rank, hub):
        self.rank, self.size, self.hub = rank, hub.size, hub

    def _share(self, value):
        self.hub.slots[self.rank] = value
        self.hub.barrier.wait()
        values = list(self.hub.slots)
        self.hub.barrier.wait()
        return values

    def allreduce(self, value, op="sum"):
        values = self._share(value)
        if op == "sum":
            return functools.reduce(lambda a, b: a + b, values)
        return functools.reduce(np.minimum if op == "min" else np.maximum, values)

    def gather(self, obj, root=0):
        values = self._share(obj)
        return values if self.rank == root else None

    def bcast(self, obj, root=0):
        return self._share(obj)[root]

    def barrier(self):
        self._share(None)

    def exchange(self, sends):
        mail = self._share(sends)
        return {r: np.array(mail[r][self.rank]) for r in sends}


def run_ranks(case, ranks, cycles, setup):
    """``ranks`` Simulations of case (simulation()'s form) as threads with ThreadComm, each
    passed to setup(sim) before ``cycles`` steps; returns them."""
    problem, dim, nx, order, over = case
    config = load_case({"problem": problem, "dim": dim, "mesh": {"nx": nx}, "order": order,
                        "final_time": 1.0, "backend": "cpu", **over})
    hub, sims, errors = ThreadComm.Hub(ranks), [None] * ranks, []

    def rank(r):
        try:
            sims[r] = Simulation(config, comm=ThreadComm(r, hub))
            setup(sims[r])
            for _ in range(cycles):
                sims[r].step()
        except BaseException as error:        # the other ranks then fail at their barrier
            errors.append(error)
            hub.barrier.abort()
    threads = [threading.Thread(target=rank, args=(r,)) for r in range(ranks)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return sims


TIGHT_CG = {"solver": {"cg_tol": 1e-14}}


@pytest.mark.parametrize("case", [("sedov", 2, 5, 2, TIGHT_CG), ("sedov", 3, 3, 2, TIGHT_CG)],
                         ids=["sedov-2d-Q2", "sedov-3d-Q2"])
def test_ranks_pcg_follows_serial_reference(host_kernels, case, monkeypatch):
    """mass_pcg_ranks on two ranks (threads; its kernels as NumPy stand-ins, the quadrature
    update and the forces' assembly host-built): five steps reproduce a serial reference run to
    1e-12, and the two ranks' copies of each shared dof are bitwise equal. The PCG runs to
    cg_tol = 1e-14: at the default 1e-8 its stopping test turns the dot products' other summation
    order into differences of ~3e-10 in 3-D v (3e-13 at 1e-12), which would hide a real error."""
    ref = simulation(case, cycles=5)
    monkeypatch.setattr(gpu_kernels, "quadrature_physics", host_kernels.quadrature_physics)
    monkeypatch.setattr(gpu_kernels, "assemble_forces", host_kernels.assemble_forces)
    monkeypatch.setattr(gpu_kernels, "_compile", EmulatedPCGKernels)
    used = []
    monkeypatch.setattr(gpu_kernels, "mass_pcg_ranks", lambda *a: used.append(1) or
                        mass_pcg_ranks(*a))

    def fused(sim):
        sim.op.fused = True
    sims = run_ranks(case, 2, 5, fused)
    assert used and all(s.cycle == ref.cycle and s.dt == pytest.approx(ref.dt, rel=1e-12)
                        for s in sims)
    want = ref.output_fields()
    copies = {}
    for s in sims:
        f = s.output_fields()
        for key, index in (("x", "h1_global_index"), ("v", "h1_global_index"),
                           ("e", "zone_global_index")):
            got, ref_values = f[key], want[key][..., f[index]] if key != "e" else \
                want[key][f[index]]
            np.testing.assert_allclose(got, ref_values, rtol=0,
                                       atol=1e-12 * np.abs(want[key]).max())
        for g, column in zip(f["h1_global_index"], f["v"].T):
            copies.setdefault(g, []).append(column)
    assert any(len(c) == 2 for c in copies.values())
    for c in copies.values():
        np.testing.assert_array_equal(c[0], c[-1])


def test_vector_blocks_give_each_thread_one_component():
    """pcg_update / pcg_direction take a thread an entry: a grid of a multiple of k blocks (a
    thread's entries, PCG_THREADS * blocks apart, then share a component), within PCG_MAX_BLOCKS
    (the partial sums' rows), at least one block, a thread an entry up to that bound."""
    for n in (1, 5, 255, 256, 1000, 274625, 10**7):
        for k in (1, 2, 3):
            blocks = gpu_kernels.vector_blocks(n, k)
            assert blocks % k == 0 and 1 <= blocks <= gpu_kernels.PCG_MAX_BLOCKS
            assert blocks * gpu_kernels.PCG_THREADS >= min(n * k, 1000 * gpu_kernels.PCG_THREADS)


def hydro_instantiations():
    """Kernel instantiations hydro.gpu_kernels launches: D = 1-3, the partial assembly of Q1-Q4
    with the default quadrature (and P, E > Q), K = 1-3 components of the PCG."""
    names = [f"quadrature_physics<{d}>" for d in (1, 2, 3)]
    names += [f"assemble_forces<{d}>" for d in (1, 2, 3)]
    for d in (1, 2, 3):
        for p, q, e in [(k + 1, 2 * k, k) for k in (1, 2, 3, 4)] + [(3, 2, 3)]:
            zb, cb = gpu_kernels.force_blocking(d, p, q, e)
            names += [f"{name}<{d}, {p}, {q}, {e}, {zb}, {cb}>" for name in ("force_rhs",
                                                                             "force_energy")]
    for k in (1, 2, 3):
        names += [f"pcg_gather_apply<{k}>", f"pcg_update<{k}, false>", f"pcg_update<{k}, true>",
                  f"pcg_direction<{k}>"]
    for d in (1, 2, 3):
        for p, q in [(k + 1, 2 * k) for k in (1, 2, 3, 4)]:
            zb = gpu_kernels.mass_zones_per_block(d, p, q, d)
            names.append(f"mass_zone<{d}, {p}, {q}, {zb}, {d}>")
    return sorted(set(names))


def test_hydro_kernels_compile_for_sm90(tmp_path):
    """kernels/hydro.cu's instantiations compile with nvcc for sm_90 (the PCG kernels build only
    as device code; the device compiles them with NVRTC at run time)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("no nvcc to compile kernels/hydro.cu for sm_90")
    refs = ",\n    ".join(f"(void*)&{name}" for name in hydro_instantiations())
    source = tmp_path / "check_hydro.cu"
    source.write_text(f'#include "hydro.cu"\n\nvoid* refs[] = {{\n    {refs}\n}};\n')
    done = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", "-I", str(KERNELS),
                           str(source), "-o", str(tmp_path / "check.o")],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"nvcc failed on kernels/hydro.cu:\n{done.stderr[-4000:]}"


def assert_physics_close(got, want):
    """rho, p, stressJinvT, dt of the kernel against the reference's.

    Steps far above the smallest (where the flow is nearly at rest) compare to 1e-6 only: there
    the viscous term's eigenvalue comes out of cancellation, and the device's fused multiply-adds
    move it (2-D Sedov: 1.7e-9 relative at a step 1e7 times the smallest; the host build with
    g++ -ffp-contract=fast does the same, and agrees to 1.2e-14 within 10x of the smallest step).
    """
    for name, g, w in zip(("rho", "p", "stressJinvT", "dt"), got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.shape == w.shape, name
        finite = np.isfinite(w)
        scale = np.abs(w[finite]).max()
        if name == "dt":
            near = finite & (w <= 10 * w[finite].min())
            np.testing.assert_allclose(g[near], w[near], rtol=1e-11, err_msg="dt near the minimum")
            np.testing.assert_allclose(g, w, rtol=1e-6, err_msg=name)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-12 * scale, err_msg=name)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_quadrature_physics_kernel_matches_reference(host_kernels, case):
    sim = simulation(case)
    op = sim.op
    fields = op.point_fields(sim.S)
    args = (np, *fields, sim.qdata, op.w, op.opts, sim.ref.order)
    assert_physics_close(host_kernels.quadrature_physics(*args), quadrature_physics(*args))


def test_quadrature_physics_kernel_on_random_deformations(host_kernels):
    """Random Jacobians and velocity gradients: no repeated eigenvalues, so the eigenvector and
    the length scale are defined; inverted points (one forced) get a step of 0."""
    rng = np.random.default_rng(7)
    dim, Z, NQ = 3, 40, 8
    sim = simulation(("sedov", 3, 2, 2, {}), cycles=0)
    qd = sim.qdata
    qd.rho0DetJ0w = rng.uniform(0.5, 2.0, (Z, NQ))
    qd.gamma = rng.uniform(1.3, 1.7, Z)
    J0 = np.eye(3) + 0.3 * rng.standard_normal((Z, NQ, 3, 3))
    qd.Jac0inv = np.linalg.inv(J0)
    J = np.eye(3) + 0.3 * rng.standard_normal((Z, NQ, 3, 3))
    J[0, 0] = -J[0, 0]
    Jg = J.transpose(2, 0, 3, 1).reshape(dim, Z, dim * NQ)       # the matmul's layout
    Vg = rng.standard_normal((dim, Z, dim * NQ))
    e_q = rng.uniform(-0.1, 3.0, (Z, NQ))
    w = rng.uniform(0.1, 1.0, NQ)
    for vorticity in (False, True):
        opts = dict(sim.op.opts, viscosity=True, vorticity=vorticity)
        args = (np, Jg, Vg, e_q, qd, w, opts, 2)
        got, want = host_kernels.quadrature_physics(*args), quadrature_physics(*args)
        assert_physics_close(got, want)
        inverted = np.linalg.det(J) < 0
        assert inverted[0, 0] and (got[3][inverted] == 0).all() and (got[3][~inverted] > 0).all()


def assert_partial_assembly_matches_gemm_form(xp, kernels, force, stress, v):
    """F . 1 and F^T v (v (dim, n) through force.dof_map) by the partial-assembly kernels against
    the GEMM form's F (built by ``force``, fused or not, on xp's arrays)."""
    fused, force.fused = force.fused, False
    F = force.assemble(stress)
    want_f1 = F.sum(axis=2)
    want_e = linalg.gemv(F, gather_vector(v, force.dof_map), trans="T")
    force.fused = fused
    got_f1 = kernels.force_rhs(xp, stress, *force.tables_1d)
    got_e = kernels.force_energy(xp, stress, v, gpu_kernels.int32_dofs(xp, force.dof_map),
                                 *force.tables_1d)
    for got, want in ((got_f1, want_f1), (got_e, want_e)):
        got, want = gpu_kernels._host(xp, got), gpu_kernels._host(xp, want)
        scale = np.abs(want).max()
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13 * scale)


@pytest.mark.parametrize("dim,order", [(1, 1), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4), (3, 1),
                                       (3, 2), (3, 3), (3, 4)])
@pytest.mark.parametrize("mesh", ["small", "large"])
def test_partial_assembly_kernels_match_gemm_form(host_kernels, dim, order, mesh):
    """F . 1 and F^T v by sum factorization against the GEMM form's F (random stresses and
    velocities; 3, 4 or 1 zones, and 17, 25 or 27: blocks partly empty, and several blocks)."""
    nx = {"small": (3, 2, 1), "large": (17, 5, 3)}[mesh][dim - 1]
    sim = simulation(("sedov", dim, nx, order, {}), cycles=0)
    force = sim.op.force
    NQ, n, Z = force.G.shape[1], sim.layout.n, sim.op.dof_map.shape[0]
    rng = np.random.default_rng(dim * 10 + order)
    stress = rng.standard_normal((Z, NQ, dim, dim))
    v = rng.standard_normal((dim, n))
    assert_partial_assembly_matches_gemm_form(np, host_kernels, force, stress, v)


def test_partial_assembly_with_fewer_points_than_dofs(host_kernels):
    """2-D Q2 with Q2 energies on a two-point rule (P = E = 3 > Q = 2, too few points for a run):
    the kernels' tensors grow past the points' count on the way."""
    rng = np.random.default_rng(3)
    force = ForceOperator(np, ReferenceElement(2, 2, 2, 3), rng.integers(0, 30, (5, 9)))
    assert force.tables_1d[0].shape == (2, 3) and force.tables_1d[2].shape == (2, 3)
    stress = rng.standard_normal((5, 4, 2, 2))
    v = rng.standard_normal((2, 30))
    assert_partial_assembly_matches_gemm_form(np, host_kernels, force, stress, v)


@pytest.mark.parametrize("case", CASES[:3] + CASES[5:6], ids=case_id)
def test_driver_with_host_kernels_follows_reference(host_kernels, case, monkeypatch):
    """A run through the kernels (the GPU code path, on the host; the PCG's kernels as NumPy
    stand-ins) and a reference run agree to round-off (the PCG's dot products sum in other
    orders: 3-D Q3 moves |e| by 2e-12 relative in five steps)."""
    ref = simulation(case, cycles=0)
    monkeypatch.setattr(gpu_kernels, "quadrature_physics", host_kernels.quadrature_physics)
    monkeypatch.setattr(gpu_kernels, "force_rhs", host_kernels.force_rhs)
    monkeypatch.setattr(gpu_kernels, "force_energy", host_kernels.force_energy)
    monkeypatch.setattr(gpu_kernels, "assemble_forces", host_kernels.assemble_forces)
    monkeypatch.setattr(gpu_kernels, "_compile", EmulatedPCGKernels)
    new = simulation(case, cycles=0)
    new.op.fused = new.op.force.fused = True
    for _ in range(5):
        ref.step()
        new.step()
    assert new.cycle == ref.cycle and new.dt == pytest.approx(ref.dt, rel=1e-12)
    assert np.abs(new.S - ref.S).max() <= 1e-10 * np.abs(ref.S).max()
    assert new.energy_norm() == pytest.approx(ref.energy_norm(), rel=1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gpu_kernels_match_reference_on_device(case):
    cupy = pytest.importorskip("cupy")
    sim = simulation(case, xp=cupy)
    op = sim.op
    fields = op.point_fields(sim.S)
    args = (cupy, *fields, sim.qdata, op.w, op.opts, sim.ref.order)
    got = [cupy.asnumpy(a) for a in gpu_kernels.quadrature_physics(*args)]
    assert_physics_close(got, [cupy.asnumpy(a) for a in quadrature_physics(*args)])
    v = cupy.asarray(np.random.default_rng(1).standard_normal((op.L.dim, op.L.n)))
    assert_partial_assembly_matches_gemm_form(cupy, gpu_kernels, op.force, op.qdata.stressJinvT,
                                              v)


@pytest.mark.gpu
def test_gpu_kernels_large_batch_on_device():
    """More points than one grid covers in a pass (grid-stride loop), 3-D Q2 at 16^3 zones."""
    cupy = pytest.importorskip("cupy")
    sim = simulation(("sedov", 3, 16, 2, {}), xp=cupy, cycles=1)
    op = sim.op
    args = (cupy, *op.point_fields(sim.S), sim.qdata, op.w, op.opts, sim.ref.order)
    got = [cupy.asnumpy(a) for a in gpu_kernels.quadrature_physics(*args)]
    assert_physics_close(got, [cupy.asnumpy(a) for a in quadrature_physics(*args)])


@pytest.mark.gpu
@pytest.mark.parametrize("dim,nx", [(1, 16), (2, 8), (3, 6)])
def test_mass_pcg_matches_reference_pcg_on_device(dim, nx):
    cupy = pytest.importorskip("cupy")
    assert_mass_pcg_follows_reference(cupy, simulation(("sedov", dim, nx, 2, {}), xp=cupy,
                                                       cycles=0), rtol=1e-10)


@pytest.mark.gpu
@pytest.mark.parametrize("dim,order", [(1, 3), (2, 2), (3, 2)])
def test_assemble_forces_matches_scatter_add_on_device(dim, order):
    cupy = pytest.importorskip("cupy")
    sim = simulation(("sedov", dim, 5, order, {}), xp=cupy, cycles=0)
    op, L = sim.op, sim.layout
    Z, nd = op.dof_map.shape
    f1 = cupy.asarray(np.random.default_rng(dim).standard_normal((Z, dim * nd)))
    idx = cupy.arange(dim)[None, :, None] * L.n + op.dof_map[:, None, :]
    want = -scatter_add(cupy, idx, f1.reshape(Z, dim, nd), dim * L.n).reshape(dim, L.n)
    got = gpu_kernels.assemble_forces(cupy, f1, gpu_kernels.dof_entries(cupy, op.dof_map, L.n),
                                      dim, L.n)
    np.testing.assert_allclose(cupy.asnumpy(got), cupy.asnumpy(want), rtol=1e-13, atol=1e-13)
