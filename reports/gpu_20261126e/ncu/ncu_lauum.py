# ncu target: tri_tile LAUUM lower vs upper, float64 and float32, n = 128, batch 10240 (one profiled
# launch each, after a warm-up outside the profiler range).
import cupy
from cupy.cuda import profiler
from linalg._cuda import triangular as T
rng = cupy.random.default_rng(0)
for dt in ("float64", "float32"):
    a = rng.standard_normal((10240, 128, 128)).astype(dt)
    for lower in (True, False):
        T.tile_lauum(a, lower); T.tile_lauum(a, lower)
cupy.cuda.Device().synchronize()
profiler.start()
for dt in ("float64", "float32"):
    a = rng.standard_normal((10240, 128, 128)).astype(dt)
    for lower in (True, False):
        T.tile_lauum(a, lower)
cupy.cuda.Device().synchronize()
profiler.stop()
