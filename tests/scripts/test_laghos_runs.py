"""scripts/laghos_runs.py: runs a case file to its end, compares with Laghos, sets the exit status."""
import pytest

from . import load_script


def test_sod_run_matches_and_table_is_written(tmp_path):
    script = load_script("laghos_runs")
    out = tmp_path / "runs.md"
    with pytest.raises(SystemExit) as stop:
        script.main(["--runs", "5", "--output", str(out)])
    assert stop.value.code == 0
    row = [line for line in out.read_text().splitlines() if line.startswith("| 5 |")][0]
    assert "413 / 0.000470 / 3.2012077410e+01 | 413 / 0.000470" in row and row.endswith("| yes |")


def test_mismatch_sets_exit_status(monkeypatch, tmp_path):
    script = load_script("laghos_runs")
    case, step, dt, norm = script.LAGHOS[5]
    monkeypatch.setitem(script.LAGHOS, 5, (case, step + 1, dt, norm))   # a reference we cannot meet
    with pytest.raises(SystemExit) as stop:
        script.main(["--runs", "5"])
    assert stop.value.code == 1
