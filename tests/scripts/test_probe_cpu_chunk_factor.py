"""scripts/probe_cpu_chunk_factor.py times both CPU factorization orders (tiny sizes) after
checking that they agree."""
from . import load_script


def test_runs_both_orders_for_posv_and_poti(capsys):
    probe = load_script("probe_cpu_chunk_factor")
    assert probe.main(["--sizes", "5", "--batch", "30", "--reps", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "| 5 | 30 |" in line]
    assert [row.split("|")[1].strip() for row in rows] == ["posv", "poti"]
    assert all(float(c.strip().rstrip("x")) > 0 for row in rows for c in row.split("|")[4:7])
