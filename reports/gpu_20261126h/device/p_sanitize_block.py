"""Scratch: the trsv_block part of scripts/sanitizer_smoke.py alone (under compute-sanitizer)."""
import sys
import numpy
import cupy
sys.path.insert(0, ".")
sys.path.insert(0, "scripts")
import linalg
from linalg._cuda import trsv as _gtrsv
from sanitizer_smoke import spd, BATCH
for dtype, vecs in ((numpy.float32, (1, 2, 4)), (numpy.float64, (1, 2))):
    for n in (33, 64, 100, 129):
        f = linalg.potrf(spd(n, dtype))
        x = cupy.ones((BATCH, n), dtype=dtype)
        for warps in (1, 3, 8):
            for vec in vecs:
                for lower in (True, False):
                    for trans in (0, 1):
                        _gtrsv.launch_block(f, x.copy(), lower, trans, False, False, warps, vec)
                        _gtrsv.launch_block(f, x, lower, trans, True, False, warps, vec,
                                            out=cupy.empty_like(x))
                    _gtrsv.launch_block(f, x.copy(), lower, 0 if lower else 1, False, True,
                                        warps, vec)
# f32 n = 32 on trsv_warp (vec 2, 8 lanes) through the public calls
f = linalg.potrf(spd(32, numpy.float32))
x = cupy.ones((BATCH, 32), dtype=numpy.float32)
for lower in (True, False):
    for trans in "NT":
        linalg.trsv(f, x, lower=lower, trans=trans)
    linalg.potrs(f, x, lower=lower)
cupy.cuda.get_current_stream().synchronize()
print("done")
