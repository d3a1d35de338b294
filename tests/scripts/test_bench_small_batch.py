"""scripts/bench_small_batch.py: its table rows from bench_cholesky.case (CPU only, with a
stand-in for bench_cholesky, which needs a GPU)."""
import sys
import types

from . import load_script


def test_rows_read_the_first_three_fields_of_a_case(monkeypatch):
    """bench_cholesky.case grew a sixth field (the fresh call's ms) and every row of the table
    had read "failed: ValueError"; the rows take what they print by position."""
    fake = types.ModuleType("bench_cholesky")
    fake.OPS = ("potrf",)
    fake.case = lambda op, n, batch, dtype, reps: ((0.5, 0.25), 1.0, "vendor", 1, 2, None)
    monkeypatch.setitem(sys.modules, "bench_cholesky", fake)
    bench = load_script("bench_small_batch")
    rows = list(bench.cholesky_rows([8], ["potrf"]))[2:]
    assert len(rows) == len(bench.BATCHES)
    assert all(row.startswith("| potrf | 8 |") and "| 0.5000 | 0.2500 | 1.0000 | vendor | 2.00 |"
               in row for row in rows), rows
