"""scripts/probe_chol_tensor.py: the head its timing reports share (CPU only)."""
from . import load_script


def test_report_head_prints_title_copy_rate_note_and_a_table_header(capsys):
    probe = load_script("probe_chol_tensor")
    lines = probe.report_head("kernel against the path before it (float64)", 2950.4,
                              "ms a call.", ("n", "batch", "ms"))
    assert lines == ["# kernel against the path before it (float64)", "",
                     "device-to-device copy: 2950 GB/s", "", "ms a call.", "",
                     "| n | batch | ms |", "|---|---|---|"]
    assert capsys.readouterr().out == "\n".join(lines) + "\n"
