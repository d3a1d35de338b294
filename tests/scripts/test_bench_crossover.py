"""scripts/bench_crossover.py: the crossover batch and the tuning-table rule it makes (CPU only;
the timings themselves need the GPU)."""
import math

from . import load_script


def test_crossover_is_where_ours_wins_for_good():
    bench = load_script("bench_crossover")
    # (batch, ours ms, vendor ms): the vendor wins at 1 and 4, ours from 16 on.
    assert math.isclose(bench.crossover([(1, 2.0, 1.0), (4, 2.0, 1.5), (16, 1.0, 2.0),
                                         (64, 1.0, 3.0)]), 8.0)
    assert bench.crossover([(1, 1.0, 2.0), (4, 1.0, 2.0)]) == 0          # ours everywhere
    assert bench.crossover([(1, 2.0, 1.0), (4, 2.0, 1.0)]) is None       # the vendor everywhere
    # A win at batch 1 that the vendor takes back at 4 does not count: the last switch does.
    assert math.isclose(bench.crossover([(1, 1.0, 2.0), (4, 2.0, 1.0), (16, 1.0, 2.0)]), 8.0)


def test_rules_are_batch_times_n_per_size_class():
    bench = load_script("bench_crossover")
    summary = [("trsm", 64, 8.0), ("trsm", 512, 2.0), ("trsv", 64, 0), ("trsv", 512, None)]
    rules = bench.rules(summary, max_batch_n=1000)
    assert rules["trsm"] == {"vendor_below": {"64": 512, "512": 1024, "*": 1024}}
    assert rules["trsv"] == {"vendor_below": {"64": 0, "512": 1000, "*": 1000}}


def test_measure_with_replaces_the_rule_during_the_call_only(monkeypatch):
    import sys
    import types
    import pytest
    from linalg._cuda import triangular as gtri
    bench = load_script("bench_crossover")
    seen = []
    monkeypatch.setitem(sys.modules, "bench_cholesky",
                        types.SimpleNamespace(timeit=lambda call, reset, reps: call() or 1.5))
    monkeypatch.setattr(bench, "setup", lambda op, n, batch, dtype: (
        lambda: seen.append(gtri.vendor_below("trsm", "float64", n)), None))
    original = gtri.vendor_below
    assert bench.measure("trsm", 64, 8, "float64", vendor=True) == 1.5
    assert bench.measure("trsm", 64, 8, "float64", vendor=False) == 1.5
    assert seen == [10**12, 0] and gtri.vendor_below is original

    def failing(op, n, batch, dtype):
        raise RuntimeError("setup failed")
    monkeypatch.setattr(bench, "setup", failing)
    with pytest.raises(RuntimeError):
        bench.measure_with("potrf", 40, 1, "float64", "one_launch_below", lambda o, d: 1)
    assert gtri.one_launch_below(op="potrf", dtype="float64") == 512     # restored
