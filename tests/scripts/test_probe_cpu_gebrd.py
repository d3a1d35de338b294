"""scripts/probe_cpu_gebrd.py runs both CPU GEBRD paths (tiny sizes) and leaves the dispatch
bound as it found it."""
from . import load_script


def test_runs_both_paths_and_restores_the_bound(capsys):
    from linalg._cpu import bidiag
    probe = load_script("probe_cpu_gebrd")
    before = bidiag.BLOCKED_FROM
    probe.main(["--sizes", "40", "--reps", "1"])
    assert bidiag.BLOCKED_FROM == before
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 40 |")]
    assert len(rows) == 1
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert int(cells[1]) == int(1000 * (64 / 40) ** 3) and all(float(c) > 0 for c in cells[2:])
