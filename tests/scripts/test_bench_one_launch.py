"""scripts/bench_one_launch.py: the ONE_LAUNCH_BELOW bound its timings make (CPU only)."""
from . import load_script


def test_bound_is_where_the_default_path_wins_for_good():
    bench = load_script("bench_one_launch")
    # (batch, default ms, one launch ms): the one launch wins up to 256, the default from 1024.
    assert bench.bound([(1, 2.0, 1.0), (256, 2.0, 1.0), (1024, 1.0, 2.0), (4096, 1.0, 3.0)]) == 512
    assert bench.bound([(1, 2.0, 1.0), (16, 2.0, 1.0)]) == 16          # always won: largest batch
    assert bench.bound([(1, 1.0, 2.0), (16, 1.0, 2.0)]) == 0           # never won
