"""scripts/tune_blas.py's choice of a "rows" rule for the tall one-B GEMM (CPU only, synthetic
timings; the timing itself runs on the device)."""
from . import load_script

K32 = {"rows": 32, "rows_path": "kernel"}
V256 = {"rows": 256, "rows_path": "vendor"}


def test_a_rule_that_gains_on_both_op_b_wins_by_its_smaller_gain():
    tune = load_script("tune_blas")
    base = {"T": (0.226, 0.28), "N": (0.224, 0.25)}            # kernel, vendor: one call
    timed = {"T": [(K32, 0.168), (V256, 0.150)], "N": [(K32, 0.172), (V256, 0.240)]}
    entry = tune.pick_rows_rule(base, timed, "2026-11-28")
    assert {k: v for k, v in entry.items() if k != "reason"} == {"rows": 32, "use_vendor": False}
    assert "1.30x" in entry["reason"] and "every op(B)" in entry["reason"]


def test_a_rule_for_one_op_b_names_it_and_keeps_the_vendor_decision():
    tune = load_script("tune_blas")
    base = {"T": (3.6, 3.4), "N": (3.5, 3.3)}                  # cuBLAS's one call faster
    timed = {"T": [(V256, 2.98), (K32, 20.5)], "N": [(V256, 3.34), (K32, 20.4)]}
    entry = tune.pick_rows_rule(base, timed, "2026-11-28")
    assert {k: v for k, v in entry.items() if k != "reason"} == {
        "rows": 256, "rows_path": "vendor", "rows_transb": "T", "use_vendor": True}


def test_no_rule_under_the_gain_leaves_the_decision_alone():
    """The entry then replaces a rule an earlier run wrote: no "rows", the class's decision."""
    tune = load_script("tune_blas")
    base = {"T": (0.040, 0.077), "N": (0.041, 0.078)}
    timed = {"T": [(K32, 0.039)], "N": [(K32, 0.044)]}
    entry = tune.pick_rows_rule(base, timed, "2026-11-28")
    assert {k: v for k, v in entry.items() if k != "reason"} == {"use_vendor": False}
    assert "at most 1.03x" in entry["reason"]


def test_candidates_try_the_tables_own_kernel_parameters():
    tune = load_script("tune_blas")
    plain = tune.rows_candidates()
    own = tune.rows_candidates({"kernel": "small", "stages": 2})
    assert len(plain) == 2 * len(tune.ROW_BLOCKS) and all("rows_params" not in c for c in plain)
    assert [c["rows_params"]["stages"] for c in own if "rows_params" in c] == [2] * 5
