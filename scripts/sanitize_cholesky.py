"""One small call of every kernel path of the Cholesky family / triangular BLAS, for
compute-sanitizer:  compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitize_cholesky.py
Sizes hit each size class (8, 16, 32, 64) at awkward n and the recursive path (n = 70)."""
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from linalg._cuda import cholesky as ch, syrk as sy, triangular as tr  # noqa: E402

for dtype in (numpy.float32, numpy.float64):
    for n in (1, 3, 9, 17, 33, 70):
        g = numpy.random.default_rng(n)
        x = g.standard_normal((5, n, n))
        a = cupy.asarray(x @ x.transpose(0, 2, 1) + n * numpy.eye(n), dtype=dtype)
        b = cupy.asarray(g.standard_normal((5, n, 3)), dtype=dtype)
        for lower in (True, False):
            f, _ = ch.potrf(a.copy(), lower)
            ch.potrs(f, b.copy(), lower); ch.posv(a.copy(), b.copy(), lower)
            ch.potri(f.copy(), lower); ch.poti(a.copy(), lower)
            tr.trtri(f.copy(), lower, False); tr.trtri(f.copy(), lower, True); tr.lauum(f.copy(), lower)
            sy.syrk(b, a.copy(), lower, "N", 1.0, 0.5); sy.syrk(b, None, lower, "T", 1.0, 0.0)
            for side in ("left", "right"):
                rhs = b if side == "left" else cupy.ascontiguousarray(b.transpose(0, 2, 1))
                for trans in "NT":
                    tr.trsm(f, rhs.copy(), side, lower, trans, False, 1.0)
                    tr.trmm(f, rhs.copy(), side, lower, trans, True, 2.0)
cupy.cuda.runtime.deviceSynchronize()
print("sanitize_cholesky: all calls done")
