"""Scratch: host time (us a call: 200 calls issued after a sync, best of 15 rounds, so the
queue never fills) and single-call time (CUDA events around one call, median of 60) of small
public calls, for the linalg tree on sys.path (run once per tree)."""
import sys, time
import numpy, cupy, torch
import linalg
print("linalg from", linalg.__file__)

def host_us(fn, calls=200, rounds=15):
    best = 1e9
    for _ in range(rounds):
        cupy.cuda.Device().synchronize()
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t) / calls * 1e6)
    cupy.cuda.Device().synchronize()
    return best

def single_ms(fn, reps=60):
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(20): fn()
    out = []
    for _ in range(reps):
        cupy.cuda.Device().synchronize()
        s.record(); fn(); e.record(); e.synchronize()
        out.append(cupy.cuda.get_elapsed_time(s, e))
    return float(numpy.median(out))

g = cupy.random.default_rng(1)
def tri(batch, n):
    a = cupy.tril(g.standard_normal((batch, n, n)) / n); a[:, cupy.arange(n), cupy.arange(n)] = 2
    return a
cases = {}
for n in (64, 128, 512):
    a, x = tri(1, n), g.standard_normal((1, n))
    ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")[..., None]
    cases[f"trsv n={n} batch 1"] = lambda a=a, x=x: linalg.trsv(a, x, overwrite_x=True, return_info=True)
    cases[f"torch trsv n={n} batch 1"] = lambda ta=ta, tb=tb: torch.linalg.solve_triangular(ta, tb, upper=False)
    b = x[:, :, None]
    cases[f"potrs1 n={n} batch 1"] = lambda a=a, b=b: linalg.potrs(a, b, overwrite_b=True, return_info=True)
m = g.standard_normal((10240, 4, 4)); spd = m @ m.transpose(0, 2, 1) + 4 * cupy.eye(4)
a4 = spd.copy(); l4 = cupy.linalg.cholesky(spd); b4 = g.standard_normal((10240, 4, 4))
cases["potrf n=4 batch 10240"] = lambda: linalg.potrf(a4, overwrite_a=True, return_info=True)
cases["trsm n=4 batch 10240"] = lambda: linalg.trsm(l4, b4, overwrite_b=True, return_info=True)
v8 = g.standard_normal((10240, 8)); m8 = g.standard_normal((10240, 8, 8)); y8 = cupy.zeros((10240, 8))
cases["gemv n=8 batch 10240"] = lambda: linalg.gemv(m8, v8, y=y8, overwrite_y=True)
for k, fn in cases.items():
    try:
        print(f"  {k:28s} host {host_us(fn):7.2f} us   single call {single_ms(fn) * 1000:7.2f} us", flush=True)
    except Exception as exc:
        print(f"  {k:28s} failed: {type(exc).__name__}: {exc}", flush=True)
