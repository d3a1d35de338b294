"""Small run for compute-sanitizer (session 2026-11-28g): the public TRMM (every variant) and
LAUUM at sizes on TILE_CHUNKED's grid with more items than resident blocks (each block walks a
run of several items), against float64 NumPy products; prints the worst relative error a case."""
import itertools
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import linalg  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

rng = numpy.random.default_rng(3)
worst = 0.0
for dtype, n in ((numpy.float64, 100), (numpy.float32, 120)):
    assert gtri.TILE_CHUNKED[numpy.dtype(dtype).name][0] <= n
    batch = 300                                   # 1200 items over ~400 blocks
    a = rng.standard_normal((batch, n, n))
    b = rng.standard_normal((batch, n, n))
    for side, lower, trans in itertools.product(("left", "right"), (True, False), "NT"):
        t = numpy.tril(a) if lower else numpy.triu(a)
        op = t.swapaxes(1, 2) if trans == "T" else t
        ref = op @ b if side == "left" else b @ op
        got = linalg.trmm(cupy.asarray(a.astype(dtype)), cupy.asarray(b.astype(dtype)),
                          side=side, lower=lower, trans=trans).get()
        err = float(numpy.abs(got - ref).max() / numpy.abs(ref).max())
        worst = max(worst, err)
        print(numpy.dtype(dtype).name, n, "trmm", side, lower, trans, f"{err:.2e}", flush=True)
    for lower in (True, False):
        t = numpy.tril(a) if lower else numpy.triu(a)
        ref = t.swapaxes(1, 2) @ t if lower else t @ t.swapaxes(1, 2)
        got = linalg.lauum(cupy.asarray(a.astype(dtype)), lower=lower).get()
        got = numpy.tril(got) if lower else numpy.triu(got)
        ref = numpy.tril(ref) if lower else numpy.triu(ref)
        err = float(numpy.abs(got - ref).max() / numpy.abs(ref).max())
        worst = max(worst, err)
        print(numpy.dtype(dtype).name, n, "lauum", lower, f"{err:.2e}", flush=True)
print("worst", worst, "OK" if worst < 1e-4 else "FAIL")
