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


def test_candidates_try_a_zones_own_rows_once():
    """The zone's height (192 rows for 3-D Q3) joins the block heights on both paths; a height
    already among them is not tried twice."""
    tune = load_script("tune_blas")
    zone = tune.rows_candidates(None, 192)
    assert {c["rows_path"] for c in zone if c["rows"] == 192} == {"kernel", "vendor"}
    assert len(zone) == 2 * (len(tune.ROW_BLOCKS) + 1)
    assert len(tune.rows_candidates(None, 32)) == 2 * len(tune.ROW_BLOCKS)


S9 = {"cfg": "stream", "nc": 9, "rp": 64, "stages": 2, "pad": False}
S3 = {"cfg": "stream", "nc": 3, "rp": 32, "stages": 3, "pad": True}


def test_stream_parameters_win_by_their_time_summed_over_both_op_b():
    tune = load_script("tune_blas")
    streamed = {"T": [(S9, 0.138), (S3, 0.130)], "N": [(S9, 0.140), (S3, 0.160)]}
    assert tune.pick_stream(streamed, {"T": 0.155, "N": 0.155}) == S9
    assert tune.pick_stream(streamed, {"T": 0.145, "N": 0.140}) is None     # under 5 %
    assert tune.pick_stream({"T": [], "N": []}, {"T": 1.0, "N": 1.0}) is None


def test_stream_candidates_only_for_narrow_products():
    tune = load_script("tune_blas")
    cands = tune.stream_candidates(9, 36)
    assert {c["nc"] for c in cands} == {4, 9, 16} and all(c["cfg"] == "stream" for c in cands)
    assert {c["nc"] for c in tune.stream_candidates(4, 16)} == {4}
    assert tune.stream_candidates(27, 216) == [] and tune.stream_candidates(8, 512) == []
    # B^T's rows read with their padding: only nc = 9, the one group of odd columns covering n
    assert {c["nc"] for c in cands if c.get("wide")} == {9}


def test_mma_candidates_only_for_wide_products_of_whole_k_steps():
    """gemm_stream_mma is tried where gemm_stream is not (192x216 (27x216)^T, 375x512
    (64x512)^T), k a multiple of 8: items of whole rows (an odd number of k steps, else one
    fewer; 48 and 64 rows) and of 9 k steps; the candidates' (MT, NBW, CH) are instantiated
    ones."""
    from linalg._cuda import blas
    tune = load_script("tune_blas")
    cands = tune.mma_candidates(27, 216)
    assert cands and all(c["cfg"] == "mma" for c in cands)
    assert {c["kc"] for c in cands} == {27, 9} and {48, 64} <= {c["rb"] for c in cands}
    assert {c["kc"] for c in tune.mma_candidates(64, 512)} == {63, 9}
    assert all((c["mt"], c["nbw"], c["ch"]) in blas.MMA_SHAPES for c in cands)
    assert tune.mma_candidates(9, 36) == []        # gemm_stream's
    assert tune.mma_candidates(27, 212) == []


def test_the_tall_entry_takes_mma_parameters_and_names_their_kernel():
    tune = load_script("tune_blas")
    mma = {"cfg": "mma", "mt": 1, "nbw": 2, "ch": 2, "rb": 48, "kc": 27, "stages": 2}
    base = {"T": (1.70, 1.61), "N": (1.63, 1.66)}
    timed = {"T": [({"rows": 192, "rows_path": "vendor"}, 1.69)], "N": []}
    entry = tune.tall_class_entry(base, timed, {"T": [(mma, 1.33)], "N": [(mma, 1.34)]}, "d")
    assert {k: entry[k] for k in mma} == mma and "rows" not in entry
    assert "one call on gemm_stream_mma" in entry["reason"] and entry["use_vendor"] is False


def test_the_tall_entry_keeps_stream_where_a_rule_leaves_calls_to_it():
    """float32 32x36 (9x36)^T on the H200: 32-row blocks win with B^T only, gemm_stream wins the
    one call; the entry holds both (the rule for B^T, gemm_stream for B)."""
    tune = load_script("tune_blas")
    base = {"T": (0.128, 0.197), "N": (0.120, 0.188)}
    streamed = {"T": [(S9, 0.079)], "N": [(S9, 0.087)]}
    timed = {"T": [(K32, 0.0747)], "N": [(K32, 0.1201)]}
    entry = tune.tall_class_entry(base, timed, streamed, "2026-11-29")
    assert {k: v for k, v in entry.items() if k != "reason"} == {
        **S9, "rows": 32, "rows_transb": "T", "use_vendor": False}
    assert "gemm_stream" in entry["reason"]
    # a rule on every op(B): no gemm_stream parameters (no call would reach them)
    timed = {"T": [(K32, 0.070)], "N": [(K32, 0.080)]}
    entry = tune.tall_class_entry(base, timed, streamed, "2026-11-29")
    assert "cfg" not in entry and entry["rows"] == 32
    # no rule beats gemm_stream's one call: gemm_stream alone
    timed = {"T": [(K32, 0.120)], "N": [(K32, 0.120)]}
    entry = tune.tall_class_entry(base, timed, streamed, "2026-11-29")
    assert {k: v for k, v in entry.items() if k != "reason"} == {**S9, "use_vendor": False}


def test_gemv_stream_candidates_only_where_a_matrix_stages():
    tune = load_script("tune_blas")
    cands = tune.gemv_stream_candidates(32, 9, 8)
    assert len(cands) == 36 and all(c["kernel"] == "stream" and "maxreg" not in c
                                    for c in cands)
    assert tune.gemv_stream_candidates(512, 512, 8) == []
    # rows of whole 16-byte pieces (float64 81x8): two lanes a row tried too
    assert {c["group"] for c in tune.gemv_stream_candidates(81, 8, 8)} == {0, 1, 2, 4}
