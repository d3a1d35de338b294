"""Scratch (session 2026-11-26j): at the n whose fill keeps TRMM / LAUUM off tri_tile (the
TILE_RULES measured at batch 10240), tri_tile against the dense path by batch count: backend ms
(scripts/bench_cholesky.timeit, queued calls) of gtri.tile_trmm / tile_lauum and of the path
the backend takes there now (gtri.trmm / gtri.lauum with use_tile off: the dense cuBLAS path, or
chol_block for a float32 LAUUM on small batches; LAUUM on a fresh copy)."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

gen = cupy.random.default_rng(0)
real_use_tile = gtri.use_tile
print("| op | dtype | variant | n | batch | tile | dense | dense/tile |")
print("|---|---|---|---|---|---|---|---|")
for dtype in (numpy.float64, numpy.float32):
    for n in (72, 80, 96, 112, 160):
        for op, variant in (("trmm", "left"), ("trmm", "left_t"), ("trmm", "right"),
                            ("trmm", "right_t"), ("lauum", "lower"), ("lauum", "upper")):
            if real_use_tile(op, numpy.dtype(dtype), n, variant):
                continue
            for batch in (1, 8, 32, 100, 300, 1000, 3000):
                l = (gen.standard_normal((batch, n, n)) + n * cupy.eye(n)).astype(dtype)
                b = gen.standard_normal((batch, n, n)).astype(dtype)
                lower = variant != "upper"
                if op == "trmm":
                    right, trans = variant.startswith("right"), variant.endswith("_t")
                    tile = lambda: gtri.tile_trmm(l, b, right, True, trans, False, 1.0)  # noqa
                    gtri.use_tile = lambda *args: False
                    dense = lambda: gtri.trmm(l, b, "right" if right else "left", True,  # noqa
                                              "T" if trans else "N", False, 1.0)
                    reset = None
                else:
                    w = cupy.empty_like(l)
                    tile = lambda: gtri.tile_lauum(l, lower)                             # noqa
                    gtri.use_tile = lambda *args: False
                    dense = lambda: gtri.lauum(w, lower)                                 # noqa
                    reset = lambda: cupy.copyto(w, l)                                    # noqa
                try:
                    t_tile = timeit(tile, reps=20)
                    t_dense = timeit(dense, reset, reps=20)
                finally:
                    gtri.use_tile = real_use_tile
                print(f"| {op} | {numpy.dtype(dtype).name} | {variant} | {n} | {batch} | "
                      f"{t_tile:.4f} | {t_dense:.4f} | {t_dense / t_tile:.2f} |", flush=True)
