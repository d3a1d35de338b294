"""Scratch (session 2026-11-26j): TRMM on small batches at n the fill rules keep off tri_tile
(which TILE_ANY_FILL_BELOW now sends there), every variant, both dtypes, 1 and n vectors, in
and out of place, for compute-sanitizer memcheck."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
import cupy  # noqa: E402
import linalg  # noqa: E402

calls = 0
rng = numpy.random.default_rng(0)
for dtype in (numpy.float32, numpy.float64):
    for n in (70, 96, 160, 257):
        a = cupy.asarray(rng.standard_normal((3, n, n)), dtype=dtype)
        for nvec in (1, n):
            for side in ("left", "right"):
                shape = (3, n, nvec) if side == "left" else (3, nvec, n)
                b = cupy.asarray(rng.standard_normal(shape), dtype=dtype)
                for lower in (True, False):
                    for trans in "NT":
                        for unit in (False, True):
                            x = linalg.trmm(a, b, side=side, lower=lower, trans=trans,
                                            unit_diagonal=unit)
                            t = cupy.tril(a) if lower else cupy.triu(a)
                            if unit:
                                t[:, numpy.arange(n), numpy.arange(n)] = 1
                            op = t.swapaxes(1, 2) if trans == "T" else t
                            ref = op @ b if side == "left" else b @ op
                            err = float(cupy.abs(x - ref).max() / cupy.abs(ref).max())
                            assert err < 1e-4, (dtype, n, nvec, side, lower, trans, unit, err)
                            linalg.trmm(a, b.copy(), side=side, lower=lower, trans=trans,
                                        unit_diagonal=unit, overwrite_b=True)
                            calls += 2
cupy.cuda.runtime.deviceSynchronize()
print(f"trmm sanitizer pass: {calls} calls completed")
