"""Small runs of kernels/tri_block.cu and kernels/trmm.cu (tri_tile, tri_tile_split) for
compute-sanitizer: TRMM every side / triangle / trans at n = 40 and 100, 129 (ragged tiles),
LAUUM both triangles, SYRK; each checked against NumPy."""
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
    for n, batch in ((40, 3), (100, 2), (129, 2)):
        a = g.standard_normal((batch, n, n)).astype(dt)
        b = g.standard_normal((batch, n, n)).astype(dt)
        for lower in (True, False):
            t = numpy.tril(a) if lower else numpy.triu(a)
            for trans in ("N", "T"):
                for side in ("left", "right"):
                    got = gtri.trmm(cupy.asarray(a), cupy.asarray(b), side, lower, trans, False,
                                    1.0, keep=("b",)).get()
                    m = t.swapaxes(1, 2) if trans == "T" else t
                    ref = m @ b if side == "left" else b @ m
                    worst = max(worst, float(abs(got - ref).max() / abs(ref).max()))
            if n > 64:
                got = gtri.tile_lauum(cupy.asarray(a), lower, False).get()
            else:
                got = gtri.tri_block_lauum(cupy.asarray(a), lower,
                                           out=cupy.empty(a.shape, dt)).get()
            ref = t.swapaxes(1, 2) @ t if lower else t @ t.swapaxes(1, 2)
            worst = max(worst, float(abs(got - ref).max() / abs(ref).max()))
        got = gtri.tile_syrk(cupy.asarray(a), False).get() if n > 64 else None
        if got is not None:
            ref = a @ a.swapaxes(1, 2)
            worst = max(worst, float(abs(numpy.tril(got) - numpy.tril(ref)).max() / abs(ref).max()))
cupy.cuda.Device().synchronize()
print("small done, worst relative error", worst)
assert worst < 1e-5
