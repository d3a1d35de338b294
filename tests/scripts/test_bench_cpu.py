"""scripts/bench_cpu.py runs end to end (tiny sizes) and writes its Markdown table."""
import pytest

from . import load_script

pytest.importorskip("scipy")


def test_quick_run_writes_table(tmp_path, capsys):
    bench = load_script("bench_cpu")
    output = tmp_path / "bench.md"
    assert bench.main(["--quick", "--batch", "20", "--output", str(output)]) == 0
    text = output.read_text()
    assert "| op | n | ours ms | scipy-loop ms | speedup |" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| op")
            and not line.startswith("| ---")]
    assert len(rows) == len(bench.OPS) * 2                      # every operation at n = 4 and 8
    assert {row.split(" | ")[0][2:] for row in rows} == set(bench.OPS)
    for row in rows:                                            # a time, or 'n/a' while being written
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[2] == "n/a" or float(cells[2]) > 0
    assert text in capsys.readouterr().out


def test_scipy_loop_matches_ours_for_gebrd():
    """The baseline calls the same LAPACK routine: its d equals linalg.gebrd's."""
    import numpy

    import linalg
    bench = load_script("bench_cpu")
    d = bench.make_inputs(numpy.random.default_rng(0), 3, 5)
    call = bench._gebrd_caller(d["a"])
    ours = linalg.gebrd(d["a"])
    for k in range(3):
        numpy.testing.assert_allclose(call(k)[1], ours.d[k], rtol=1e-12, atol=1e-12)
