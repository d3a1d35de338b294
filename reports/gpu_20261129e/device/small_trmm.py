"""chol_tensor_trmm once on small batches of every variant, NT = 2..5, both dtypes, in place and
out of place (for compute-sanitizer memcheck / racecheck)."""
import itertools
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path.cwd()))
from linalg._cuda import cholesky  # noqa: E402

for dtype, n in itertools.product((numpy.float64, numpy.float32), (33, 70, 100, 150)):
    g = numpy.random.default_rng(n)
    for side, lower, trans, unit in itertools.product(("left", "right"), (True, False),
                                                      (False, True), (False, True)):
        a = cupy.asarray(g.standard_normal((3, n, n)).astype(dtype))
        shape = (3, n, 70) if side == "left" else (3, 70, n)
        b = cupy.asarray(g.standard_normal(shape).astype(dtype))
        cholesky.tensor_trmm(a, b, lower, trans, unit, 0.5, out=cupy.empty_like(b),
                             right=side == "right")
        cholesky.tensor_trmm(a, b, lower, trans, unit, 0.5, right=side == "right")
cupy.cuda.Device().synchronize()
print("small_trmm done")
