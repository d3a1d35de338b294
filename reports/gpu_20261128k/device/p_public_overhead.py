#!/usr/bin/env python3
"""Why the public linalg.gemm of the tall hydro product times above the backend call
(bench_blas gemm_AzBt ours_ms 0.166 against blas.gemm 0.140 ms, float64 32x36 (9x36)^T, 40 960
zones, call 3): bench_blas.timeit of each form, the host time per call (perf_counter around
200 calls, then one synchronize), and cProfile's top functions of 200 public calls.

    python3 p_public_overhead.py > public_overhead.txt
"""
import cProfile
import os
import pstats
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
import linalg                                          # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit, timeit_gpu              # noqa: E402


def host_us(fn, calls=200):
    fn()
    cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    host = (time.perf_counter() - t) / calls * 1e6
    cupy.cuda.Device().synchronize()
    return host


def main():
    zones, m, n, q = 40960, 32, 9, 36
    for dtype in ("float64", "float32"):
        a = cupy.random.standard_normal((1, zones * m, q)).astype(dtype)
        b = cupy.random.standard_normal((1, n, q)).astype(dtype)
        f = cupy.empty((1, zones * m, n), dtype)
        forms = {
            "public, c given": lambda: linalg.gemm(a, b, f, transb="T", overwrite_c=True),
            "public, no c (hydro)": lambda: linalg.gemm(a, b, transb="T"),
            "backend blas.gemm, c given": lambda: blas.gemm(a, b, f, transb="T"),
            "backend, no c": lambda: blas.gemm(a, b, transb="T"),
        }
        print(f"## {dtype} 32x36 (9x36)^T, {zones} zones")
        for name, fn in forms.items():
            ms = timeit(fn)
            gpu = timeit_gpu(fn, 10, 2) if "c given" in name else float("nan")
            print(f"- {name}: {ms:.4f} ms (timeit), GPU {gpu:.4f}, host {host_us(fn):.1f} us "
                  "a call", flush=True)
        prof = cProfile.Profile()
        fn = forms["public, c given"]
        prof.enable()
        for _ in range(200):
            fn()
        prof.disable()
        cupy.cuda.Device().synchronize()
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
