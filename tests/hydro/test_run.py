"""The command line: --help, case-file errors, stop on failure, restart, and a real end-to-end run."""
import json
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

from hydro import run as hrun

from . import hydro_fakes
from .test_io import check_xdmf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = os.path.join(ROOT, "cases", "sedov2d_tiny.yaml")


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_help():
    for module in ("hydro.run", "hydro"):
        res = _cli(module, "--help")
        assert res.returncode == 0, res.stderr
        for flag in ("--output", "--set", "--restart", "--backend", "case"):
            assert flag in res.stdout


def test_bad_case_file_names_the_key(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("problem: sedov\ndim: 2\ncfl: 2.5\nmesh: {nx: 4, nzz: 3}\n")
    assert hrun.main([str(bad), "--set", "integrator=euler"]) == 2
    err = capsys.readouterr().err
    assert "cfl: 2.5 is not allowed; expected a number > 0 and <= 1" in err
    assert "mesh.nzz: unknown key" in err
    assert "integrator: 'euler' is not allowed; expected one of 'rk2avg', 'rk4'" in err


@pytest.mark.parametrize("size, preset, expected", [(1, None, None), (4, None, "1"), (4, "3", "3")])
def test_mpi_ranks_use_one_cpu_thread_unless_told(monkeypatch, size, preset, expected):
    from hydro.run import share_cores
    from linalg._cpu.blas import THREADS_ENV
    monkeypatch.delenv(THREADS_ENV, raising=False)
    if preset is not None:
        monkeypatch.setenv(THREADS_ENV, preset)
    share_cores(type("Comm", (), {"size": size})())
    assert os.environ.get(THREADS_ENV) == expected


def test_progress_line_tty_and_plain():
    import io
    from hydro.progress import Progress
    clock = iter([0.0, 0.05, 0.3, 0.31]).__next__
    tty = io.StringIO()
    p = Progress(tty, tty=True, clock=clock)                 # 0.2 s throttle on a terminal
    assert p.update(10, 0.1, 1e-3, 1e-12, 5e4)
    assert not p.update(20, 0.2, 1e-3, 1e-12, 5e4)           # throttled
    assert p.update(30, 0.3, 1e-3, -2e-12, 5e4)
    p.close()
    text = tty.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and "cycle      30" in text
    assert "dE/E = -2.000e-12" in text and "zone-cycles/s" in text
    plain = io.StringIO()
    q = Progress(plain, tty=False, interval=0.0)
    q.update(1, 0.0, 1e-3, 0.0, 1.0)
    q.update(2, 0.0, 1e-3, 0.0, 1.0)
    assert plain.getvalue().count("\n") == 2 and "\r" not in plain.getvalue()
    silent = io.StringIO()
    Progress(silent, enabled=False).update(1, 0, 1, 0, 1, force=True)   # ranks != 0
    assert silent.getvalue() == ""


def _fake_run(monkeypatch, tmp_path, *extra):
    hydro_fakes.install(monkeypatch)
    out = tmp_path / "out"
    argv = [TINY, "--output", str(out), "--backend", "cpu", "--set", "mesh.nx=3", "--set", "mesh.refine=0",
            "--set", "final_time=0.1", *extra]
    return hrun.main(argv), out


def test_fake_run_outputs(monkeypatch, tmp_path, capsys):
    code, out = _fake_run(monkeypatch, tmp_path, "--set", "output.every_cycles=4")
    assert code == 0
    stdout = capsys.readouterr().out
    assert "problem: sedov" in stdout and "completed" in stdout       # echo + summary
    grids, times = check_xdmf(str(out / "sedov2d_tiny.xdmf"))
    summary = json.load(open(out / "summary.json"))
    assert summary["cycles"] == 10 and times[-1] == pytest.approx(summary["final_time"])
    assert len(grids) == 4                                           # cycles 0, 4, 8, 10
    assert summary["status"] == "completed" and summary["backend"] == "cpu"


def test_stop_on_collapse_writes_last_state(monkeypatch, tmp_path, capsys):
    code, out = _fake_run(monkeypatch, tmp_path, "--set", "parameters.fail_at_cycle=6")
    assert code == 3
    err = capsys.readouterr().err
    assert "TimeStepCollapse" in err and "last good state" in err and "--restart" in err
    summary = json.load(open(out / "summary.json"))
    assert summary["cycles"] == 5 and summary["status"].startswith("stopped")
    with h5py.File(out / "fields_00001.h5") as h5:
        assert h5.attrs["cycle"] == 5
    assert os.path.exists(out / "checkpoint_00000005" / "rank_00000.h5")


def test_restart_bit_for_bit_fake(monkeypatch, tmp_path):
    code, full = _fake_run(monkeypatch, tmp_path / "a", "--set", "checkpoint.every_cycles=4")
    assert code == 0
    code, part = _fake_run(monkeypatch, tmp_path / "b", "--set", "checkpoint.every_cycles=4",
                           "--restart", str(tmp_path / "a" / "out" / "checkpoint_00000004"))
    assert code == 0
    _assert_same_final(full, part)


def test_restart_missing_checkpoint(monkeypatch, tmp_path, capsys):
    code, _ = _fake_run(monkeypatch, tmp_path, "--restart", str(tmp_path / "nowhere"))
    assert code == 2 and "cannot restart" in capsys.readouterr().err


def _assert_same_final(a, b):
    sa, sb = json.load(open(a / "summary.json")), json.load(open(b / "summary.json"))
    for key in ("cycles", "final_time", "dt_min", "dt_max", "energy_norm", "kinetic_energy_final",
                "internal_energy_final", "relative_energy_change"):
        assert sa[key] == sb[key], key
    fa = sorted(p for p in os.listdir(a) if p.startswith("fields_"))[-1]
    fb = sorted(p for p in os.listdir(b) if p.startswith("fields_"))[-1]
    with h5py.File(a / fa) as ha, h5py.File(b / fb) as hb:
        for key in ("high_order/rank_00000/x", "high_order/rank_00000/v", "high_order/rank_00000/e"):
            assert ha[key][()].tobytes() == hb[key][()].tobytes(), key


# --- the real Simulation ----------------------------------------------------------------------

def test_end_to_end_real(tmp_path):
    """python -m hydro.run on the tiny Sedov case: h5 + xdmf + summary.json, energy conserved."""
    out = tmp_path / "tiny"
    res = _cli("hydro.run", TINY, "--output", str(out), "--backend", "cpu",
               "--set", "final_time=0.01", "--set", "solver.cg_tol=1e-12", timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "problem: sedov" in res.stdout
    check_xdmf(str(out / "sedov2d_tiny.xdmf"))
    summary = json.load(open(out / "summary.json"))
    assert summary["final_time"] >= 0.01 and summary["cycles"] > 0 and summary["ranks"] == 1
    assert abs(summary["relative_energy_change"]) < 1e-8
    with h5py.File(out / "fields_00001.h5") as h5:
        assert h5["zone_density"].shape == (64,) and h5["zone_center"].shape == (64, 2)
        assert np.all(h5["zone_density"][()] > 0)


def test_restart_bit_for_bit_real(tmp_path):
    args = ["hydro.run", TINY, "--backend", "cpu", "--set", "time_step.max_steps=6",
            "--set", "checkpoint.every_cycles=3"]
    a = _cli(*args, "--output", str(tmp_path / "a"))
    assert a.returncode == 0, a.stderr[-3000:]
    b = _cli(*args, "--output", str(tmp_path / "b"),
             "--restart", str(tmp_path / "a" / "checkpoint_00000003"))
    assert b.returncode == 0, b.stderr[-3000:]
    _assert_same_final(tmp_path / "a", tmp_path / "b")


def test_stop_real_writes_last_state(tmp_path):
    """A step far above the CFL limit is rejected until dt < min_dt: exit 3, last state written."""
    out = tmp_path / "stop"
    res = _cli("hydro.run", TINY, "--output", str(out), "--backend", "cpu",
               "--set", "time_step.initial=0.1", "--set", "time_step.min_dt=0.05")
    assert res.returncode == 3, res.stderr[-3000:]
    assert "last good state" in res.stderr and ("MeshTangled" in res.stderr or "TimeStepCollapse" in res.stderr)
    summary = json.load(open(out / "summary.json"))
    assert summary["status"].startswith("stopped") and summary["dt_min"] is None   # no step taken
    check_xdmf(str(out / "sedov2d_tiny.xdmf"))
    assert os.path.exists(out / "checkpoint_00000000" / "rank_00000.h5")


@pytest.mark.mpi
def test_two_ranks_match_one(tmp_path):
    """mpiexec -n 2: the gathered zone fields (global order) equal the 1-rank run to round-off."""
    args = [TINY, "--backend", "cpu", "--set", "final_time=0.02"]
    one = _cli("hydro.run", *args, "--output", str(tmp_path / "p1"))
    assert one.returncode == 0, one.stderr[-3000:]
    two = subprocess.run(["mpiexec", "-n", "2", sys.executable, "-m", "hydro.run", *args,
                          "--output", str(tmp_path / "p2")], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert two.returncode == 0, two.stderr[-3000:]
    assert two.stdout.count("problem: sedov") == 1                 # only rank 0 echoes
    with h5py.File(tmp_path / "p1" / "fields_00001.h5") as a, h5py.File(tmp_path / "p2" / "fields_00001.h5") as b:
        assert b.attrs["ranks"] == 2 and set(np.unique(b["cell_rank"][()])) == {0, 1}
        for key in ("zone_center", "zone_density", "zone_pressure", "zone_energy"):
            np.testing.assert_allclose(b[key][()], a[key][()], rtol=1e-10, atol=1e-12)
    check_xdmf(str(tmp_path / "p2" / "sedov2d_tiny.xdmf"))
