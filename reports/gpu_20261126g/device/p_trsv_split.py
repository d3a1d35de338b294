"""Scratch: host vs GPU time of small TRSV calls, float32 against float64 (why the float32 public
call takes ~10 us more)."""
import sys
sys.path.insert(0, "scripts"); sys.path.insert(0, ".")
import numpy, cupy, linalg
from bench_blas import timeit, timeit_gpu
from probe_call_costs import host_us
from linalg._cuda import trsv
for dt in (numpy.float32, numpy.float64):
    for n in (4, 16, 32, 64):
        a = cupy.tril(cupy.random.standard_normal((10240, n, n)).astype(dt) * (0.1 / n))
        idx = cupy.arange(n); a[:, idx, idx] = 1
        x = cupy.random.standard_normal((10240, n)).astype(dt)
        pub = lambda: linalg.trsv(a, x, lower=True, overwrite_x=True, return_info=True)
        be = lambda: trsv.trsv(a, x, lower=True, _path="kernel")
        print(f"{dt.__name__} n={n}: public host {host_us(pub):.1f} us, events {timeit(pub)*1e3:.1f} us;"
              f" backend host {host_us(be):.1f} us, gpu {timeit_gpu(be)*1e3:.1f} us, events {timeit(be)*1e3:.1f} us", flush=True)
