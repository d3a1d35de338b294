"""scripts/bench_table.py: the headline table and the list of cells short of the issues' targets
(CPU only, synthetic CSV rows)."""
from . import load_script


def _chol(op, n, speedup, pct, batch=10240, dtype="float64"):
    return {"op": op, "dtype": dtype, "n": str(n), "batch": str(batch), "speedup": str(speedup),
            "pct_bw": str(pct)}


def _blas(op, shape, speedup, pct, dispatch="kernel"):
    return {"op": op, "dtype": "float64", "shape": shape, "batch": "10240", "speedup": str(speedup),
            "pct_copy": str(pct), "dispatch": dispatch}


def test_targets_list_each_missed_criterion_and_nothing_met():
    bench = load_script("bench_table")
    chol = [_chol("potrf", 32, 3.5, 70),          # speedup short (4x), bandwidth met
            _chol("potrf", 64, 2.6, 54),          # speedup met, bandwidth short (60 %)
            _chol("potrf", 128, 2.6, 10),         # both met (no bandwidth target at 128)
            _chol("trsm", 16, 2.0, 40),           # both short
            _chol("trmm", 128, 0.9, 90),          # slower than the dense product
            _chol("potrf", 32, 1.0, 1, batch=100000),   # another batch: evidence only
            _chol("potrf", 32, 1.0, 1, dtype="float32")]
    blas = [_blas("trsv_LN", "32", 4.0, 61), _blas("gemm_NN", "64^3", 0.5, 90, "vendor"),
            _blas("gemv_N", "18x4", 0.1, 1), _blas("gebrd", "32", 9.8, 1)]
    assert bench.misses(chol, blas, "float64", 10240) == [
        "- potrf n = 32: 3.50x the vendor (target 4x, which needs 80 % of the copy bandwidth) "
        "[batch 100 000: 1.00x, 1 % of the copy bandwidth]",
        "- potrf n = 64: 54 % of the copy bandwidth (target 60 %)",
        "- trsm n = 16: 2.00x the vendor (target 3x, which needs 60 % of the copy bandwidth); "
        "40 % of the copy bandwidth (target 50 %)",
        "- trmm n = 128: 0.90x the vendor (target 1x, which needs 100 % of the copy bandwidth)",
        "- gebrd n = 32: 9.80x the vendor (target 10x, which needs 1 % of the copy bandwidth)"]


def test_targets_carry_what_the_run_measured_around_the_cell():
    bench = load_script("bench_table")
    small = dict(_chol("potrf", 16, 2.0, 45), ours_ms="0.02")
    large = dict(_chol("potrf", 16, 4.5, 98, batch=100000), ours_ms="0.08")
    larger_still_other_n = dict(_chol("potrf", 32, 9.0, 99, batch=1000000), ours_ms="1.0")
    gemm = dict(_blas("gemm_NN", "8^3", 1.2, 13), ours_ms="0.04", kernel_ms="0.005")
    gemv = dict(_blas("gemv_N", "32", 1.1, 86), ours_ms="0.04", kernel_ms="0.03")
    assert bench.misses([small, large, larger_still_other_n], [gemm, gemv], "float64", 10240) == [
        "- potrf n = 16: 2.00x the vendor (target 4x, which needs 90 % of the copy bandwidth); "
        "45 % of the copy bandwidth (target 60 %) [batch 100 000: 4.50x, 98 % of the copy "
        "bandwidth (9.77x the matrices in 4x the time)]",
        "- gemm_NN n = 8: 1.20x the vendor (target 1.5x, which needs 16 % of the copy bandwidth) "
        "[the kernel is 0.005 of the call's 0.04 ms]",
        "- gemv_N n = 32: 1.10x the vendor (target 1.5x, which needs 117 % of the copy "
        "bandwidth)"]


def test_headline_cell_forms():
    bench = load_script("bench_table")
    out = bench.table([_chol("potrf", 4, 12.3, 1)], [_blas("gemm_NN", "32^3", 1.0, 1, "vendor")],
                      "float64", 10240)
    potrf = next(line for line in out.splitlines() if line.startswith("| potrf |"))
    gemm = next(line for line in out.splitlines() if line.startswith("| gemm NN |"))
    assert potrf.split(" | ")[1] == "12x" and potrf.split(" | ")[2] == "-"
    assert gemm.split(" | ")[4] == "vendor"


def test_headline_cells_never_read_more_than_measured():
    """Ratios are cut to two significant digits, not rounded up to a target they miss."""
    bench = load_script("bench_table")
    cells = [bench.cell({"speedup": s}) for s in ("9.98", "10.6", "2.46", "4.02", "1.0", "0.87",
                                                     "2.3", "0.29")]
    assert cells == ["9.9x", "10x", "2.4x", "4x", "1x", "0.8x", "2.3x", "0.2x"]


def test_a_later_partial_run_replaces_only_the_cells_it_measured():
    bench = load_script("bench_table")
    old = [_chol("trmm", 128, 0.96, 90), _chol("potrf", 128, 2.4, 57),
           _chol("trmm", 128, 0.87, 50, dtype="float32")]
    new = [_chol("trmm", 128, 1.19, 99), _chol("syrk", 32, 1.3, 40)]
    rows = bench.updated(old, new)
    assert [(r["op"], r["dtype"], r["speedup"]) for r in rows] == [
        ("trmm", "float64", "1.19"), ("potrf", "float64", "2.4"), ("trmm", "float32", "0.87"),
        ("syrk", "float64", "1.3")]


def test_a_later_blas_run_replaces_its_cells_in_the_targets_too():
    """Several bench_blas CSVs: the latest run's row of a cell is the only one the table and the
    target list see (an older miss of a re-measured cell is not listed)."""
    bench = load_script("bench_table")
    old = [_blas("trsv_LN", "128", 2.5, 77), _blas("trsv_LN", "256", 1.7, 75)]
    new = [_blas("trsv_LN", "128", 3.2, 85)]
    rows = bench.latest_blas_rows([old, new])
    assert [r["speedup"] for r in rows] == ["3.2", "1.7"]
    assert bench.misses([], rows, "float64", 10240) == [
        "- trsv_LN n = 256: 1.70x the vendor (target 3x, which needs 132 % of the copy "
        "bandwidth)"]


def _hydro(op, shape, batch, speedup, pct, ours="0.05", kernel="0.04"):
    return {"op": op, "dtype": "float64", "shape": shape, "batch": str(batch),
            "speedup": str(speedup), "pct_copy": str(pct), "ours_ms": ours, "kernel_ms": kernel}


def test_hydro_rows_short_of_issue_4s_targets():
    """GEMV hydro shapes above the 10 240 series under 80 % of the copy bandwidth; the
    corner-force GEMM from 10 240 matrices under both 2x the vendor and 80 %."""
    bench = load_script("bench_table")
    rows = [_hydro("gemv_N", "32x9", 40960, 1.6, 68),          # short
            _hydro("gemv_T", "81x8", 262144, 3.1, 97),          # met
            _hydro("gemv_N", "375x64", 22369, 1.0, 79),         # a cut 40 960 batch: short
            _hydro("gemv_N", "18x4", 10240, 1.3, 12),           # the 10 240 series: no target
            _hydro("gemv_N", "32x32", 40960, 1.0, 10),          # a square: TARGETS' business
            _hydro("gemm_AzBt", "32x36*(9x36)^T", 40960, 1.16, 66, "0.24", "0.23"),   # short
            _hydro("gemm_AzBt", "18x16*(4x16)^T", 40960, 1.67, 84),                   # 80 % met
            _hydro("gemm_AzBt", "18x16*(4x16)^T", 10240, 2.1, 30),                    # 2x met
            dict(_hydro("gemm_AzBt", "81x64*(8x64)^T", 40960, 0.9, 70), dtype="float32")]
    assert bench.hydro_misses(rows, "float64") == [
        "- gemv_N 32x9 batch 40960: 1.60x the vendor, 68.0 % of the copy bandwidth (target 80 %)",
        "- gemv_N 375x64 batch 22369: 1.00x the vendor, 79.0 % of the copy bandwidth (target "
        "80 %)",
        "- gemm_AzBt 32x36*(9x36)^T batch 40960: 1.16x the vendor, 66.0 % of the copy bandwidth "
        "(target 2x the vendor or 80 %)"]


def test_square_gemv_t_has_issue_4s_square_targets():
    bench = load_script("bench_table")
    rows = [_hydro("gemv_T", "16x16", 10240, 1.4, 30), _hydro("gemv_T", "64x64", 10240, 3.0, 80)]
    assert bench.misses([], rows, "float64", 10240) == [
        "- gemv_T n = 16: 1.40x the vendor (target 1.5x, which needs 32 % of the copy bandwidth)",
        "- gemv_T n = 64: 80 % of the copy bandwidth (target 85 %)"]
