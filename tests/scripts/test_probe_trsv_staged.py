"""scripts/probe_trsv_staged.py: the per-dtype ranges its timings suggest (CPU only)."""
from . import load_script


def test_a_size_counts_only_where_staged_won_every_variant_of_that_dtype():
    probe = load_script("probe_trsv_staged")
    wins = {("float64", 25): [True, True], ("float64", 28): [True, False],
            ("float64", 32): [True, True], ("float32", 25): [False, True],
            ("float32", 32): [True, True]}
    won = probe.won_sizes(wins)
    assert won == {"float32": [32], "float64": [25, 32]}
    assert probe.span(won) == {"float32": (32, 32), "float64": (25, 32)}
    assert probe.span({"float32": []}) == {"float32": (0, 0)}
