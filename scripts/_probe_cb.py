import sys, numpy, cupy
sys.path.insert(0, '.')
from linalg._cuda import triangular as tri
def spd(b, n, dt):
    rng = numpy.random.default_rng(0)
    m = rng.standard_normal((b, n, n))
    return cupy.asarray(m @ m.transpose(0, 2, 1) + n * numpy.eye(n), dtype=dt)
for dt in (numpy.float64, numpy.float32):
    for n in (65, 128):
        for ops in (1, 4, 7):
            a0 = spd(1, n, dt)
            a = a0.copy()
            tri.chol_block(a, ops, True)
            cupy.cuda.Device().synchronize()
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            ts = []
            for _ in range(20):
                a = a0.copy()
                s.record(); tri.chol_block(a, ops, True); e.record(); e.synchronize()
                ts.append(cupy.cuda.get_elapsed_time(s, e) * 1e3)
            print(numpy.dtype(dt).name, n, ops, "event us median", sorted(ts)[10])
