"""Small run for compute-sanitizer: TRMM on tri_tile's persistent grid at n = 48 / 62 / 64 (every
variant, float64 and float32, 3 matrices a block: TILE_ONE_TILE widened to both dtypes and one
matrix) and at n = 61 (unaligned rows: tri_block), each checked against tri_block's result.
Arguments: the sizes (default 48,61,62,64) and dtypes (default float64,float32)."""
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from linalg._cuda import blas, triangular as gtri  # noqa: E402

gen = cupy.random.default_rng(3)
batch = 3 * gtri.TILE_SHAPE["float64"][2] * blas.sm_count() + 1
args = sys.argv[1:] + ["48,61,62,64", "float64,float32"][len(sys.argv) - 1:]
sizes, dtypes = [int(s) for s in args[0].split(",")], [numpy.dtype(s) for s in args[1].split(",")]
for dtype in dtypes:
    for n in sizes:
        a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        for side, lower, trans in ((s, lo, t) for s in ("left", "right") for lo in (True, False)
                                   for t in ("N", "T")):
            gtri.TILE_ONE_TILE.clear()
            ref = gtri.trmm(a, b, side, lower, trans, False, 1.0, keep=("b",))
            gtri.TILE_ONE_TILE.update({("trmm", "float64"): (48, 1), ("trmm", "float32"): (48, 1)})
            got = gtri.trmm(a, b, side, lower, trans, False, 1.0, keep=("b",))
            err = float(cupy.abs(got - ref).max() / cupy.abs(ref).max())
            assert err < (1e-12 if dtype == numpy.float64 else 1e-4), (dtype, n, side, err)
print("ok")
