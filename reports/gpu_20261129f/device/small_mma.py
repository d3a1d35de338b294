"""A small run of gemm_stream_mma for compute-sanitizer: every instantiated (MT, NBW), both
dtypes and op(B), a partial item and a short last k item, alpha / beta; checked against
cupy.matmul in float64."""
import sys
from pathlib import Path

import cupy

sys.path.insert(0, str(Path.cwd()))
from linalg._cuda import blas  # noqa: E402

for dtype in ("float64", "float32"):
    for mt, nbw, ch in blas.MMA_SHAPES:
        for m, n, k, zones, kc in ((192, 27, 216, 7, 5), (7, 5, 24, 33, 1), (33, 17, 40, 5, 9)):
            for tb, tf32 in (("N", False), ("T", False), ("N", True), ("T", True)):
                p = {"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": 64, "kc": kc,
                     "stages": 3, "tf32": tf32}
                a = cupy.random.standard_normal((1, zones * m, k)).astype(dtype)
                b = cupy.random.standard_normal((1, n, k) if tb == "T" else (1, k, n))
                b = b.astype(dtype)
                c = cupy.random.standard_normal((1, zones * m, n)).astype(dtype)
                ref = -0.5 * (a[0].astype("float64") @ (b[0].T if tb == "T" else b[0])
                              .astype("float64")) + 2.0 * c[0]
                out = blas.gemm(a, b, c, transb=tb, alpha=-0.5, beta=2.0, _params=p,
                                _path="kernel")
                err = float(abs(out[0] - ref).max() / abs(ref).max())
                assert err < (1e-13 if dtype == "float64" else 1e-5), (dtype, mt, nbw, m, err)
cupy.cuda.Device().synchronize()
print("small_mma ok")
