"""Agreement with Laghos's published verification numbers (reference/hydro-method.md §1.1).

What is compared, and how it was reached:

* Laghos's built-in ``-chk`` regression (2x2 quads / 2x2x2 hexes, Q2-Q1, RK4, tf 0.6, cfl 0.5):
  |e| at two step indices per problem. Laghos itself uses 1e-13 relative. We measured agreement
  to ~1e-15 for 2-D Taylor-Green, 2-D Sedov and 3-D Taylor-Green (asserted to 1e-13), but only
  1.0e-12 / 2.6e-12 for 3-D Sedov (steps 5 / 20; asserted to 1e-11): the 3-D viscosity takes the
  eigenvector of the most compressive direction from LAPACK (numpy eigh) while MFEM uses its
  own closed-form 3x3 eigensolver, and the two differ at round-off level.
* README runs: run 5 (Sod 1-D) and run 1 (Taylor-Green 2-D) in the default suite; run 3 (Sedov
  2-D), run 8 (Gresho, Q3-Q2, RK2Avg) and run 9 (Rayleigh-Taylor, Q4-Q3) marked slow (30-100 s
  each on a loaded 2-core machine). Final step count and dt are asserted exactly (dt as Laghos
  prints it, %.6f) and |e| to 1e-9 relative (Laghos prints 11 significant digits; ours agree in
  all of them).
* Measured by hand, not in the suite (4-30 minutes each on the loaded CPU), same settings:
  run 2 (Taylor-Green 3-D): step 1041, dt 0.000121, |e| 3.3909635545e+03 -- equal to Laghos's;
  run 4 (Sedov 3-D, E0 2): step 560, dt 0.002449, |e| 1.3408616722e+02 -- equal;
  run 6 (triple point 2-D, rectangle01_quad -rs 2): step 2872, dt 0.000064 -- equal, |e|
  5.6547039080e+01 vs Laghos 5.6547039096e+01 (2.8e-10 relative, inside the issue's 1e-6 but
  not equal). Cause NOT found: emulating Laghos's energy CG (unpreconditioned, 1e-8) gives the
  same 5.6547039080e+01, and so does our P = 2 run (so it is not partition round-off);
  run 7 (triple point 3-D, the box01_hex geometry, -rs 1): step 858, dt 0.000474,
  |e| 5.6691500623e+01 -- equal to Laghos's. All four are re-run on the device's GPU by
  ``scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu`` (docs/verification.md).

Meshes: the Laghos meshes of these runs (square01_quad, segment01, square_gresho, rt2D) are
uniform boxes, so the generated box with the same zones after refinement is the same mesh
(square_gresho: 2x2 on [-0.5, 0.5]^2; rt2D: 1x4 on [0, 0.5] x [-1, 1]).
Laghos's |e| is the l2 norm of the Bernstein dof vector of e, which does not depend on the order
of the zones, so it can be compared directly.
"""
import pytest

from hydro.config import load_case
from hydro.simulation import Simulation


def _laghos_case(problem, dim, nx, tf, **kw):
    """Laghos defaults: Q2-Q1, RK4 (-s 4), cfl 0.5, cg_tol 1e-8, dt control 0.85/1.02/1.25."""
    d = {"problem": problem, "dim": dim, "mesh": {"nx": nx}, "order": 2, "final_time": tf,
         "integrator": "rk4", "cfl": 0.5, "solver": {"cg_tol": 1e-8, "cg_max_iter": 300},
         "backend": "cpu"}
    d.update(kw)
    cfg = load_case(d)
    # the -chk / README configuration, asserted before running (as Laghos's -chk does)
    assert (cfg.order, cfg.order_thermo, cfg.quadrature_order) == (2, 1, 6)
    assert (cfg.time_step.reject_factor, cfg.time_step.grow_factor,
            cfg.time_step.grow_threshold) == (0.85, 1.02, 1.25)
    assert (cfg.viscosity.q1, cfg.viscosity.q2) == (0.5, 2.0)
    return Simulation(cfg)


# Laghos laghos.cpp Checks(): (problem, dim) -> {step: |e|}
CHK = {
    ("taylor_green", 2): {5: 6.546538624534384e+00, 27: 7.588576357792927e+00},
    ("sedov", 2): {5: 3.508254945225794e+00, 15: 2.756444596823211e+00},
    ("taylor_green", 3): {5: 1.198510951452527e+03, 188: 1.199384410059154e+03},
    ("sedov", 3): {5: 6.695818592962833e+00, 20: 4.267902387082487e+00},
}


CHK_RTOL = {("sedov", 3): 1e-11}


@pytest.mark.parametrize("problem,dim", list(CHK))
def test_laghos_chk(problem, dim):
    s = _laghos_case(problem, dim, 2, 0.6)
    seen = {}
    while not s.done():
        s.step()
        if s.cycle in CHK[(problem, dim)]:
            seen[s.cycle] = s.energy_norm()
    for step, ref in CHK[(problem, dim)].items():
        assert seen[step] == pytest.approx(ref, rel=CHK_RTOL.get((problem, dim), 1e-13)), step


def _final(s):
    while not s.done():
        s.step()
    return s.cycle, round(s.dt, 6), s.energy_norm()


def test_laghos_run5_sod_1d():
    # mpirun -np 8 ./laghos -p 2 -m data/segment01.mesh -rs 5 -tf 0.2 -fa
    step, dt, norm = _final(_laghos_case("sod", 1, 64, 0.2))
    assert (step, dt) == (413, 0.000470)
    assert norm == pytest.approx(3.2012077410e+01, rel=1e-9)


def test_laghos_run1_taylor_green_2d():
    # mpirun -np 8 ./laghos -p 0 -m data/square01_quad.mesh -rs 3 -tf 0.75 -pa
    step, dt, norm = _final(_laghos_case("taylor_green", 2, 16, 0.75))
    assert (step, dt) == (339, 0.000702)
    assert norm == pytest.approx(4.9695537349e+01, rel=1e-9)


@pytest.mark.slow
def test_laghos_run3_sedov_2d():
    # mpirun -np 8 ./laghos -p 1 -m data/square01_quad.mesh -rs 3 -tf 0.8 -pa
    step, dt, norm = _final(_laghos_case("sedov", 2, 16, 0.8))
    assert (step, dt) == (1154, 0.001655)
    assert norm == pytest.approx(4.6303396053e+01, rel=1e-9)


@pytest.mark.slow
def test_laghos_run8_gresho_q3q2_rk2avg():
    # mpirun -np 8 ./laghos -p 4 -m data/square_gresho.mesh -rs 3 -ok 3 -ot 2 -tf 0.62831853 -s 7 -pa
    s = Simulation(load_case({"problem": "gresho", "dim": 2, "order": 3, "integrator": "rk2avg",
                              "mesh": {"nx": 2, "extent": [[-0.5, 0.5], [-0.5, 0.5]], "refine": 3},
                              "final_time": 0.62831853, "backend": "cpu"}))
    assert (s.ref.order_thermo, s.ref.nq1d) == (2, 6)
    step, dt, norm = _final(s)
    assert (step, dt) == (776, 0.000045)
    assert norm == pytest.approx(4.0982431726e+02, rel=1e-9)


@pytest.mark.slow
def test_laghos_run9_rayleigh_taylor_q4q3():
    # mpirun -np 8 ./laghos -p 7 -m data/rt2D.mesh -tf 4 -rs 1 -ok 4 -ot 3 -pa
    s = Simulation(load_case({"problem": "rayleigh_taylor", "dim": 2, "order": 4, "integrator": "rk4",
                              "mesh": {"nx": 1, "ny": 4, "extent": [[0, 0.5], [-1, 1]], "refine": 1},
                              "final_time": 4.0, "backend": "cpu"}))
    assert (s.ref.order_thermo, s.ref.nq1d) == (3, 8)
    step, dt, norm = _final(s)
    assert (step, dt) == (2462, 0.000050)
    assert norm == pytest.approx(1.1792848680e+02, rel=1e-9)


@pytest.mark.gpu
@pytest.mark.parametrize("run", [1, 5])
def test_laghos_runs_on_gpu(run):
    """The GPU backend reproduces Laghos's step count, dt and |e| (runs 2, 4, 6, 7: scripts/laghos_runs.py)."""
    pytest.importorskip("cupy")
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "laghos_runs.py"
    spec = importlib.util.spec_from_file_location("laghos_runs", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    result = script.run_one(run, "gpu")
    _, step, dt, norm = script.LAGHOS[run]
    assert (result["step"], result["dt"]) == (step, dt)
    assert result["norm"] == pytest.approx(norm, rel=1e-9)
