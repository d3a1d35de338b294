# ncu target: one launch of each kernel family at a table size (float64, batch 10240), after a
# warm-up outside the profiler range: bank conflicts and stalls per kernel.
import cupy
from cupy.cuda import profiler
import linalg
from linalg._cuda import triangular as T, cholesky as C
rng = cupy.random.default_rng(0)
def spd(n, batch=10240):
    m = rng.standard_normal((batch, n, n))
    return m @ m.transpose(0, 2, 1) + n * cupy.eye(n)
cases = {}
for n in (32, 64, 128):
    a = spd(n); l = cupy.linalg.cholesky(a); b = rng.standard_normal((10240, n, n))
    x = rng.standard_normal((10240, n))
    cases[n] = (a, l, b, x)
def run():
    for n, (a, l, b, x) in cases.items():
        C.potrf(a.copy(), True)
        T.trtri(l.copy(), True, False)
        T.lauum(l.copy(), True)
        T.trsm(l, b.copy(), "left", True, "N", False, 1.0)
        C.potrs(l, x.copy()[:, :, None], True)
    g = rng.standard_normal((10240, 32, 32)); linalg.gebrd(g)
    g = rng.standard_normal((10240, 64, 64)); linalg.gebrd(g)
run(); run()
cupy.cuda.Device().synchronize()
profiler.start()
run()
cupy.cuda.Device().synchronize()
profiler.stop()
