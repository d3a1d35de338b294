"""chol_tensor_trsm, chol_tensor_solve and chol_tensor_trmm once on small float32 batches (their
passes staged and widened in shared memory), left and right, NT = 2..5, in and out of place, for
compute-sanitizer memcheck / racecheck."""
import itertools
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path.cwd()))
from linalg._cuda import cholesky  # noqa: E402

for n, right in itertools.product((40, 70, 100, 150), (False, True)):
    g = numpy.random.default_rng(n)
    a = cupy.asarray((numpy.tril(g.standard_normal((3, n, n))) + 3 * n * numpy.eye(n))
                     .astype(numpy.float32))
    b = cupy.asarray(g.standard_normal((3, 70, n) if right else (3, n, 70)).astype(numpy.float32))
    for out in (cupy.empty_like(b), None):
        cholesky.tensor_trsm(a, b, True, False, False, 0.5, out=out, right=right)
        cholesky.tensor_trmm(a, b, True, True, False, 0.5, out=out, right=right)
        if not right:
            cholesky.tensor_solve(a, b, True, True, out=out)
cupy.cuda.Device().synchronize()
print("small_f32 done")
