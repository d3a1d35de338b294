"""Small runs of kernels/trmm.cu tri_tile at n <= 64 (one tile a matrix, partly filled) for
compute-sanitizer: TRMM every side / triangle / trans and LAUUM both triangles at n = 33, 47,
64, each checked against NumPy."""
import sys

import cupy
import numpy

sys.path.insert(0, ".")
from linalg._cuda import _compile  # noqa: E402
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
from linalg._cuda import triangular as gtri  # noqa: E402

g = numpy.random.default_rng(0)
worst = 0.0
for dt in (numpy.float64, numpy.float32):
    for n, batch in ((33, 3), (47, 2), (64, 2)):
        a = g.standard_normal((batch, n, n)).astype(dt)
        b = g.standard_normal((batch, n, n)).astype(dt)
        for lower in (True, False):
            t = numpy.tril(a) if lower else numpy.triu(a)
            for trans in (False, True):
                for right in (False, True):
                    got = gtri.tile_trmm(cupy.asarray(a), cupy.asarray(b), right, lower, trans,
                                         False, 1.0).get()
                    m = t.swapaxes(1, 2) if trans else t
                    ref = b @ m if right else m @ b
                    worst = max(worst, float(abs(got - ref).max() / abs(ref).max()))
            got = gtri.tile_lauum(cupy.asarray(a), lower, False).get()
            ref = t.swapaxes(1, 2) @ t if lower else t @ t.swapaxes(1, 2)
            worst = max(worst, float(abs(got - ref).max() / abs(ref).max()))
cupy.cuda.Device().synchronize()
print("small tile done, worst relative error", worst)
assert worst < 1e-5
