"""Where a small-batch call's time goes (device probe): POTRF and TRSM at n = 32..512, batch
1/8/100: the public API (default arguments: a copy of the input and the error check's device
sync), our backend, the vendor pieces our backend calls (linalg/_cuda/vendor.py), cuSOLVER
potrfBatched called directly, and torch; then a cProfile of three public calls.

    python3 scripts/probe_small_batch.py        # writes $OUT/probe_small.txt (or /tmp)
"""
import cProfile
import io
import os
import pstats
import sys

import numpy
import cupy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import linalg
from linalg._cuda import cholesky as ch, triangular as tri, vendor
from bench_cholesky import timeit
import torch
from cupy.cuda import device
from cupy_backends.cuda.libs import cublas, cusolver

def spd(batch, n):
    x = cupy.random.standard_normal((batch, n, n))
    return x @ x.swapaxes(1, 2) / n + cupy.eye(n) * 2

out = os.environ.get("OUT", "/tmp")
lines = []
def t(label, fn, reset=None):
    ms = timeit(fn, reset, reps=50, warmup=5)
    lines.append(f"{label}: {ms*1000:.1f} us"); print(lines[-1], flush=True)

for n in (32, 64, 128, 256, 512):
    for batch in (1, 8, 100):
        a0 = spd(batch, n); a = a0.copy()
        reset = lambda: a.__setitem__(Ellipsis, a0)
        t(f"potrf n={n} b={batch} public", lambda: linalg.potrf(a), reset)
        t(f"potrf n={n} b={batch} backend", lambda: ch.potrf(a), reset)
        t(f"potrf n={n} b={batch} vendor.potrf (ours, batch==1 -> non-batched)", lambda: vendor.potrf(a, True), reset)
        h = device.get_cusolver_handle(); info = cupy.empty(batch, numpy.int32)
        ptr = vendor.pointers(a)
        t(f"potrf n={n} b={batch} potrfBatched direct", lambda: cusolver.dpotrfBatched(h, cublas.CUBLAS_FILL_MODE_UPPER, n, ptr.data.ptr, n, info.data.ptr, batch), reset)
        ta = torch.as_tensor(a0, device="cuda")
        t(f"potrf n={n} b={batch} torch.cholesky_ex", lambda: torch.linalg.cholesky_ex(ta))
    a0 = spd(1, n); l = cupy.linalg.cholesky(a0); b0 = cupy.random.standard_normal((1, n, n)); b = b0.copy()
    reset = lambda: b.__setitem__(Ellipsis, b0)
    t(f"trsm n={n} b=1 public", lambda: linalg.trsm(l, b), reset)
    t(f"trsm n={n} b=1 backend", lambda: tri.trsm(l, b), reset)
    t(f"trsm n={n} b=1 vendor.trsm", lambda: vendor.trsm(l, b, False, True, False, False), reset)
    t(f"trsm n={n} b=1 _diag_info", lambda: tri._diag_info(l, False))
    tl = torch.as_tensor(l, device="cuda"); tb = torch.as_tensor(b0, device="cuda")
    t(f"trsm n={n} b=1 torch.solve_triangular", lambda: torch.linalg.solve_triangular(tl, tb, upper=False))

def prof(label, fn, reset, k=300):
    pr = cProfile.Profile()
    for _ in range(20): reset(); fn(); cupy.cuda.Device().synchronize()
    pr.enable()
    for _ in range(k):
        reset(); fn(); cupy.cuda.Device().synchronize()
    pr.disable()
    s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18)
    lines.append(f"=== profile {label} ({k} calls)\n" + s.getvalue())

a0 = spd(1, 64); a = a0.copy(); reset = lambda: a.__setitem__(Ellipsis, a0)
prof("potrf n=64 b=1 public", lambda: linalg.potrf(a), reset)
a0 = spd(8, 64); a = a0.copy(); reset = lambda: a.__setitem__(Ellipsis, a0)
prof("potrf n=64 b=8 public", lambda: linalg.potrf(a), reset)
l = cupy.linalg.cholesky(spd(1, 64)); b0 = cupy.random.standard_normal((1, 64, 64)); b = b0.copy()
prof("trsm n=64 b=1 public", lambda: linalg.trsm(l, b), lambda: b.__setitem__(Ellipsis, b0))
open(os.path.join(out, "probe_small.txt"), "w").write("\n".join(lines) + "\n")
