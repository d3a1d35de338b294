"""Scratch: trsv_split's launches of scripts/sanitizer_smoke.py alone (for memcheck / racecheck)."""
import sys
sys.path.insert(0, ".")
import numpy, cupy
import linalg
from linalg._cuda import trsv as T
g = numpy.random.default_rng(0)
for dtype in (numpy.float32, numpy.float64):
    for n in (20, 33, 100, 129):
        m = g.standard_normal((5, n, n))
        f = linalg.potrf(cupy.asarray(m @ m.transpose(0, 2, 1) + n * numpy.eye(n), dtype=dtype))
        x = cupy.ones((5, n), dtype=dtype)
        for lower in (True, False):
            for trans in (0, 1):
                for parts in (1, 2):
                    T.launch_split(f, x.copy(), lower, trans, False, parts=parts)
                    T.launch_split(f, x, lower, trans, True, out=cupy.empty_like(x), parts=parts)
            for parts in (1, 2):
                T.launch_split(f, x.copy(), lower, 0 if lower else 1, False, True, parts=parts)
cupy.cuda.get_current_stream().synchronize()
print("split sanitize run done")
