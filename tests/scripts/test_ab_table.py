"""scripts/ab_table.py: before/after rows of the same benchmark cells (CPU only, synthetic CSVs)."""
import csv

from . import load_script

FIELDS = ("op", "dtype", "n", "batch", "backend_ms", "speedup", "pct_bw")


def _write(path, rows, fields=FIELDS):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(dict(zip(fields, r)) for r in rows)


def test_pairs_cells_by_op_dtype_n_batch_and_lists_the_unpaired(tmp_path):
    ab = load_script("ab_table")
    _write(tmp_path / "b.csv", [("trsm", "float64", "16", "100000", "0.315", "2.42", "69.0"),
                                ("trsm", "float64", "8", "10240", "0.02", "1.5", "10.0")])
    _write(tmp_path / "a.csv", [("trsm", "float64", "16", "100000", "0.204", "3.65", "102.6"),
                                ("potrf", "float32", "64", "10240", "0.24", "3.0", "49.4")])
    lines = ab.table(ab.read(tmp_path / "b.csv"), ab.read(tmp_path / "a.csv"))
    assert lines[2] == "| trsm | float64 | 16 | 100000 | 0.315 | 0.204 | 1.54 | 2.42 | 3.65 | 69.0 | 102.6 |"
    assert len([line for line in lines if line.startswith("| trsm")]) == 1
    assert lines[-2:] == ["\nonly before: trsm float64 8 10240", "\nonly after: potrf float32 64 10240"]


def test_fresh_ms_pairs_appear_only_where_both_sides_measured_them(tmp_path):
    ab = load_script("ab_table")
    fields = FIELDS + ("fresh_ms",)
    _write(tmp_path / "b.csv", [("potrf", "float64", "32", "10240", "0.05", "3.0", "60.0", "0.09"),
                                ("syrk", "float64", "32", "10240", "0.04", "1.2", "50.0", "")],
           fields)
    _write(tmp_path / "a.csv", [("potrf", "float64", "32", "10240", "0.04", "3.5", "70.0", "0.06"),
                                ("syrk", "float64", "32", "10240", "0.04", "1.2", "50.0", "")],
           fields)
    lines = ab.table(ab.read(tmp_path / "b.csv"), ab.read(tmp_path / "a.csv"))
    assert lines[0].endswith("| % bw before | after | fresh ms before | after | before / after |")
    assert lines[1].count("---") == 14
    assert lines[2] == ("| potrf | float64 | 32 | 10240 | 0.05 | 0.04 | 1.25 | 3.0 | 3.5 | 60.0 | "
                        "70.0 | 0.09 | 0.06 | 1.50 |")
    assert lines[3] == ("| syrk | float64 | 32 | 10240 | 0.04 | 0.04 | 1.00 | 1.2 | 1.2 | 50.0 | "
                        "50.0 | - | - | - |")


def test_empty_fresh_ms_on_one_side_keeps_the_plain_table(tmp_path):
    ab = load_script("ab_table")
    row = ("trsm", "float64", "16", "100000", "0.315", "2.42", "69.0")
    _write(tmp_path / "b.csv", [row])                                     # base: no fresh_ms column
    _write(tmp_path / "a.csv", [row + ("0.4",)], FIELDS + ("fresh_ms",))
    lines = ab.table(ab.read(tmp_path / "b.csv"), ab.read(tmp_path / "a.csv"))
    assert lines == ["| op | dtype | n | batch | before ms | after ms | before / after | "
                     "speedup before | after | % bw before | after |",
                     "|---|---|---|---|---|---|---|---|---|---|---|",
                     "| trsm | float64 | 16 | 100000 | 0.315 | 0.315 | 1.00 | 2.42 | 2.42 | 69.0 | "
                     "69.0 |"]


def test_bench_blas_csvs_pair_by_shape_with_kernel_ms(tmp_path):
    ab = load_script("ab_table")
    fields = ("op", "dtype", "shape", "batch", "ours_ms", "kernel_ms", "speedup", "pct_copy")
    _write(tmp_path / "b.csv", [("trsv_LN", "float64", "32", "10240", "0.03", "0.02", "3.0", "60.0")],
           fields)
    _write(tmp_path / "a.csv", [("trsv_LN", "float64", "32", "10240", "0.025", "0.016", "3.6", "72.0")],
           fields)
    lines = ab.table(ab.read(tmp_path / "b.csv"), ab.read(tmp_path / "a.csv"))
    assert lines[0].startswith("| op | dtype | shape | batch | before ms |")
    assert lines[2] == "| trsv_LN | float64 | 32 | 10240 | 0.02 | 0.016 | 1.25 | 3.0 | 3.6 | 60.0 | 72.0 |"
