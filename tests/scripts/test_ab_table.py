"""scripts/ab_table.py: before/after rows of the same benchmark cells (CPU only, synthetic CSVs)."""
import csv

from . import load_script

FIELDS = ("op", "dtype", "n", "batch", "backend_ms", "speedup", "pct_bw")


def _write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(dict(zip(FIELDS, r)) for r in rows)


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
