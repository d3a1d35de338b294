"""Scratch: trsv_warp's VEC instantiations on small batches, for compute-sanitizer racecheck."""
import sys
sys.path.insert(0, ".")
import numpy, cupy, linalg
from linalg._cuda import trsv
for dtype, vecs in ((numpy.float32, (2, 4)), (numpy.float64, (2,))):
    for n in (12, 36, 64):
        g = numpy.random.default_rng(n)
        a = g.standard_normal((3, n, n)); a = a @ a.transpose(0, 2, 1) + n * numpy.eye(n)
        f = linalg.potrf(cupy.asarray(a, dtype=dtype))
        x = cupy.ones((3, n), dtype=dtype)
        for width in (4, 8, 16, 32):
            for vec in vecs:
                for lower in (True, False):
                    for t in "NT":
                        trsv.trsv(f, x.copy(), lower=lower, trans=t, _path="kernel",
                                  _params={"kernel": "warp", "width": width, "vec": vec})
                    trsv.launch_warp(f, x.copy(), lower, 0 if lower else 1, False, True,
                                     width=width, vec=vec)
cupy.cuda.Device().synchronize()
print("done")
