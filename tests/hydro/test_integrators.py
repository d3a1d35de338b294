"""Time integration: energy conservation, step control, restart (hydro/integrators.py, simulation)."""
import numpy as np
import pytest

from hydro.config import load_case
from hydro.simulation import Simulation


def _run(d, steps=None):
    base = {"backend": "cpu"}
    base.update(d)
    s = Simulation(load_case(base))
    while not s.done() and (steps is None or s.cycle < steps):
        s.step()
    return s


def _rel_energy_change(s):
    return abs(s.energies()["total"] - s.energy_initial["total"]) / abs(s.energy_initial["total"])


@pytest.mark.parametrize("dim,nx,tf", [(1, 16, 0.05), (2, 6, 0.05), (3, 3, 0.15)])
def test_rk2avg_conserves_energy_sedov(dim, nx, tf):
    s = _run({"problem": "sedov", "dim": dim, "mesh": {"nx": nx}, "final_time": tf,
              "integrator": "rk2avg", "solver": {"cg_tol": 1e-14}})
    assert s.cycle > 5 and s.t == pytest.approx(tf)
    assert s.energies()["kinetic"] > 0.01 * s.energies()["internal"]  # the blast is moving
    assert _rel_energy_change(s) < 1e-9


def test_rk2avg_conserves_energy_with_taylor_green_source():
    s = _run({"problem": "taylor_green", "dim": 2, "mesh": {"nx": 4}, "final_time": 0.1,
              "integrator": "rk2avg", "solver": {"cg_tol": 1e-14}})
    # The source heats and cools zones (its domain integral is ~0, so the net work is tiny) ...
    b = s.op.source_vector(s.S, s.op.opts["energy_source"])
    assert np.abs(b).sum() > 1e-2
    # ... and total energy, with the source's work accounted, is conserved to solver tolerance.
    assert _rel_energy_change(s) < 1e-9


def test_rk2avg_conserves_energy_sod_1d():
    s = _run({"problem": "sod", "dim": 1, "mesh": {"nx": 32}, "final_time": 0.05,
              "integrator": "rk2avg", "solver": {"cg_tol": 1e-14}})
    assert _rel_energy_change(s) < 1e-9


def test_rk4_energy_error_is_small_but_not_exact():
    s = _run({"problem": "sedov", "dim": 2, "mesh": {"nx": 4}, "final_time": 0.05,
              "integrator": "rk4", "solver": {"cg_tol": 1e-14}})
    assert _rel_energy_change(s) < 1e-3


def test_final_time_is_hit_and_dt_control():
    s = _run({"problem": "sedov", "dim": 2, "mesh": {"nx": 4}, "final_time": 0.1})
    assert s.done() and s.t == pytest.approx(0.1, abs=1e-15)
    assert s.cycle > 3


def test_checkpoint_restart_bit_for_bit():
    d = {"problem": "sedov", "dim": 2, "mesh": {"nx": 4}, "final_time": 0.08}
    ref = _run(d)
    part = _run(d, steps=7)
    state = part.checkpoint_state()
    state = {k: (np.array(v) if isinstance(v, np.ndarray) else v) for k, v in state.items()}
    fresh = Simulation(load_case(dict(d, backend="cpu")))
    fresh.restore(state)
    while not fresh.done():
        fresh.step()
    assert fresh.cycle == ref.cycle and fresh.dt == ref.dt and fresh.t == ref.t
    np.testing.assert_array_equal(fresh.S, ref.S)


def test_tangled_mesh_stops_with_last_good_state():
    # A huge cfl makes every step tangle the mesh; min_dt stops the retries.
    d = {"problem": "sedov", "dim": 2, "mesh": {"nx": 2}, "final_time": 0.5, "cfl": 1.0,
         "time_step": {"initial": 10.0, "min_dt": 1.0, "reject_factor": 0.5}, "backend": "cpu"}
    s = Simulation(load_case(d))
    S0 = s.S.copy()
    with pytest.raises((Simulation.MeshTangled, Simulation.TimeStepCollapse)):
        s.step()
    np.testing.assert_array_equal(s.S, S0)
    assert s.cycle == 0 and s.rejections >= 1


@pytest.mark.parametrize("problem,dim", [("noh", 2), ("triple_point", 2), ("gresho", 2),
                                         ("rayleigh_taylor", 2), ("taylor_green", 3),
                                         ("triple_point", 3), ("sod", 2)])
def test_every_problem_runs_and_conserves_energy(problem, dim):
    # total = kinetic + internal - work of sources (gravity for Rayleigh-Taylor) is conserved
    s = _run({"problem": problem, "dim": dim, "mesh": {"nx": 2 if dim == 3 else 4},
              "integrator": "rk2avg", "solver": {"cg_tol": 1e-14}, "final_time": 10.0}, steps=5)
    assert s.cycle == 5 and np.isfinite(s.S).all()
    assert _rel_energy_change(s) < 1e-9
    if problem == "rayleigh_taylor":
        assert s.energies()["source_work"] != 0.0


def test_output_fields_shapes_and_subcells():
    s = _run({"problem": "sedov", "dim": 2, "mesh": {"nx": 3}, "order": 3, "final_time": 0.05})
    f = s.output_fields()
    Z = 9
    assert f["zone_center"].shape == (Z, 2) and f["zone_density"].shape == (Z,)
    assert sorted(f["zone_global_index"]) == list(range(Z))
    assert f["cells"].shape == (Z * 9, 4) and f["cell_density"].shape == (Z * 9,)
    assert f["points"].shape == f["point_velocity"].shape == (Z * 16, 2)
    # linear sub-cells (VTK corner order, counter-clockwise) tile the moved mesh: positive areas
    # that sum to the domain area (mass conservation: sum rho_zone * vol_zone = initial mass)
    p = f["points"][f["cells"]]                                   # (C, 4, 2)
    x, y = p[..., 0], p[..., 1]
    area = 0.5 * (x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y).sum(1)
    assert (area > 0).all()
    assert area.sum() == pytest.approx(1.0, rel=1e-3)  # curved zones: linear sub-cells approximate
    assert f["zone_density"].min() > 0 and np.isfinite(f["cell_pressure"]).all()
    assert f["x"].shape == (2, s.layout.n) and f["e"].shape == (Z, 9)


@pytest.mark.gpu
@pytest.mark.parametrize("problem,dim", [("sedov", 2), ("taylor_green", 2), ("sedov", 3)])
def test_gpu_matches_cpu(problem, dim):
    cupy = pytest.importorskip("cupy")
    d = {"problem": problem, "dim": dim, "mesh": {"nx": 4 if dim == 2 else 2}, "final_time": 0.1}
    cpu = Simulation(load_case(dict(d, backend="cpu")), xp=np)
    gpu = Simulation(load_case(dict(d, backend="gpu")), xp=cupy)
    while not cpu.done() and cpu.cycle < 10:   # Taylor-Green and 3-D Sedov end before 10 cycles
        cpu.step()
        gpu.step()
    assert cpu.cycle >= 3 and gpu.done() == cpu.done()
    assert gpu.cycle == cpu.cycle and gpu.dt == pytest.approx(cpu.dt, rel=1e-12)
    S = cupy.asnumpy(gpu.S)
    assert np.abs(S - cpu.S).max() <= 1e-10 * np.abs(cpu.S).max()
    assert gpu.energy_norm() == pytest.approx(cpu.energy_norm(), rel=1e-12)
    f = gpu.output_fields()
    assert isinstance(f["zone_density"], np.ndarray)
