"""scripts/probe_tri_cols.py: the COLS_BELOW bounds it reads off a timing table (CPU only)."""
from . import load_script

TABLE = """
| op | n | batch | default ms | cols w1 | cols w2 | cols w4 | cols w8 | cols default w | torch ms | r |
|---|---|---|---|---|---|---|---|---|---|---|
| trsm | 128 | 1 | 0.0463 | 0.0159 | 0.0161 | 0.0169 | 0.0179 | 0.0159 (w1) | 0.0368 | 2.91 |
| trsm_right | 128 | 1 | 0.0428 | 0.0160 | 0.0161 | 0.0167 | 0.0187 | 0.0160 (w1) | 0.0359 | 2.68 |
| trsm | 128 | 2 | 0.0730 | 0.0191 | 0.0197 | 0.0194 | 0.0196 | 0.0203 (w2) | 0.0712 | 3.83 |
| trsm_right | 128 | 2 | 0.0199 | 0.0196 | 0.0170 | 0.0204 | 0.0190 | 0.0250 (w2) | 0.0775 | 4.69 |
| trsm | 128 | 4 | 0.0696 | 0.0315 | 0.0181 | 0.0182 | 0.0192 | 0.0192 (w4) | 0.1374 | 3.84 |
| trtri | 64 | 1 | 0.0236 | 0.0286 | 0.0290 | 0.0282 | 0.0270 | 0.0280 (w1) | nan | 0.87 |
| potrs | 256 | 1 | 0.1455 | 0.0638 | 0.0609 | 0.0637 | 0.0737 | 0.0605 (w2) | nan | 2.39 |
| potrs | 256 | 4 | 0.2630 | 0.2444 | 0.1290 | 0.0707 | 0.0741 | 0.0742 (w8) | nan | 3.72 |
"""


def test_bounds_stop_at_the_first_batch_either_trsm_side_lost():
    probe = load_script("probe_tri_cols")
    rows = probe.read_table(TABLE)
    assert rows[1] == ("trsm", 128, 1, 0.0428, 0.0160)
    # the right side lost at batch 2: TRSM n = 128 is served below 2 although batch 4 won
    assert probe.bounds(rows) == {"trsm": {128: 2}, "trtri": {64: 0}, "potrs": {256: 5}}
