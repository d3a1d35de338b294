"""gebrd_blocked probe (device): labrd.cu panels + GEMMs against the one-launch kernels. Modes:
  times [n ...]   ms per call (restore subtracted, bench_blas.timeit) of the default plan,
                  gebrd_team, gebrd_blocked with nb = 16 / 32 (panels down to the fitting tail,
                  and all the way with tail = 0), gebrd_cols where it fits; float64 and float32
  default [n ...] the same, the default plan only (A/B runs of two kernel folders)
  threads [n ...] gebrd_blocked's block size (256 / 512 / 1024), panel width (16 / 32) and
                  fused sweep (on / off), at the table's batch and at batch 10240
                  (LABRD_BIG_BATCH)
  crossover       gebrd_cols against gebrd_blocked (panels down to 0 / 96 / 128 columns) where
                  gebrd_cols still fits, n = 112 .. 224, batch 2048
  nb              panel widths 8 / 16 / 24 / 32 (float64 / float32 n = 256 batch 2048, n = 512
                  batch 256)
  sanitize        small forced gebrd_blocked runs (under compute-sanitizer)"""
import contextlib
import itertools
import os
import sys

import numpy
import cupy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from bench_blas import timeit  # noqa: E402
from linalg._cuda import bidiag  # noqa: E402

BATCH = {128: 2048, 160: 2048, 192: 1024, 256: 1024, 384: 256, 512: 256}


def candidates(n, dtype):
    out = [("default", None), ("team", {"kernel": "team"})]
    for nb in (16, 32):
        out.append((f"blocked nb={nb}", {"kernel": "blocked", "nb": nb}))
        out.append((f"blocked nb={nb} tail=0", {"kernel": "blocked", "nb": nb, "tail": 0}))
    if bidiag.plan(n, n, dtype, {"kernel": "cols"})["kernel"] == "cols":
        out.append(("cols", {"kernel": "cols"}))
    return out


def time_call(a, a0, params, slow):
    reps, inner = (3, 1) if slow else (7, 3)

    def run():
        a[...] = a0
        bidiag.gebrd(a, _params=params)
    return (timeit(run, reps, 1, inner)
            - timeit(lambda: a.__setitem__(Ellipsis, a0), reps, 1, inner))


def print_gpu():
    print(f"GPU {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}", flush=True)


@contextlib.contextmanager
def batch_of(batch, n, dtype):
    """[a, a0]: a random batch of n x n matrices and a copy to restore it from (time_call's
    arguments); the list is emptied and the memory handed back to the device after."""
    a0 = cupy.random.standard_normal((batch, n, n)).astype(dtype)
    arrays = [a0.copy(), a0]
    del a0
    try:
        yield arrays
    finally:
        arrays.clear()
        cupy.get_default_memory_pool().free_all_blocks()


def report(dtype, n, batch, label, ms):
    """One line: the case, ms per call, us a matrix and GFLOP/s (8/3 n^3 a matrix)."""
    flops = 8.0 / 3.0 * n ** 3 * batch
    print(f"{numpy.dtype(dtype).name} n={n} batch={batch} {label} {ms:9.3f} ms  "
          f"{ms / batch * 1e3:8.2f} us/matrix  {flops / ms / 1e6:7.0f} GFLOP/s", flush=True)


def times(sizes, only_default=False):
    print_gpu()
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            batch = BATCH.get(n, 256)
            default = bidiag.plan(n, n, dtype)["kernel"]
            with batch_of(batch, n, dtype) as arrays:
                for name, params in candidates(n, dtype)[:1 if only_default else None]:
                    slow = (params or {}).get("kernel", default) == "team"
                    ms = time_call(*arrays, params, slow)
                    note = f"(default {default})" if params is None else "()"
                    report(dtype, n, batch, f"{name:24s} {note}", ms)


def threads(sizes):
    print_gpu()
    big = int(os.environ.get("LABRD_BIG_BATCH", 10240))
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            for batch in (BATCH.get(n, 256), big):
                if batch * n * n * numpy.dtype(dtype).itemsize > 6e9:
                    continue
                with batch_of(batch, n, dtype) as arrays:
                    for nb, t, fuse in itertools.product((16, 32), (256, 512, 1024),
                                                         (True, False)):
                        params = {"kernel": "blocked", "nb": nb, "threads": t, "fuse": fuse}
                        ms = time_call(*arrays, params, batch * n ** 3 > 2e10)
                        report(dtype, n, batch, f"nb={nb} threads={t:4d} fuse={int(fuse)}", ms)


def crossover():
    print_gpu()
    batch = 2048
    for dtype in (numpy.float64, numpy.float32):
        for n in (112, 128, 144, 160, 176, 192, 208, 224):
            if bidiag.plan(n, n, dtype, {"kernel": "cols"})["kernel"] != "cols":
                continue
            with batch_of(batch, n, dtype) as arrays:
                for name, params in (("cols", {"kernel": "cols"}),
                                     ("blocked tail=0", {"kernel": "blocked", "tail": 0}),
                                     ("blocked tail=96", {"kernel": "blocked", "tail": 96}),
                                     ("blocked tail=128", {"kernel": "blocked", "tail": 128})):
                    if name.endswith("128") and n <= 128:
                        continue
                    report(dtype, n, batch, f"{name:18s}", time_call(*arrays, params, False))


def panel_widths():
    print_gpu()
    for dtype in (numpy.float64, numpy.float32):
        for n, batch in ((256, 2048), (512, 256)):
            with batch_of(batch, n, dtype) as arrays:
                for nb in (8, 16, 24, 32):
                    ms = time_call(*arrays, {"kernel": "blocked", "nb": nb}, False)
                    report(dtype, n, batch, f"nb={nb:2d}", ms)


def sanitize():
    for dtype in (numpy.float64, numpy.float32):
        for m, n, nb, t in ((70, 70, 8, 256), (61, 97, 5, 512), (97, 61, 32, 1024),
                            (40, 33, 32, 256)):
            for fuse in (True, False):
                a = cupy.random.standard_normal((3, m, n)).astype(dtype)
                bidiag.gebrd(a, _params={"kernel": "blocked", "nb": nb, "tail": 0, "threads": t,
                                         "fuse": fuse})
    cupy.cuda.runtime.deviceSynchronize()
    print("sanitize runs done", flush=True)


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "times"
    if mode == "times":
        times([int(x) for x in sys.argv[2:]] or [128, 192, 256, 384, 512])
    elif mode == "default":
        times([int(x) for x in sys.argv[2:]] or [256, 512], only_default=True)
    elif mode == "threads":
        threads([int(x) for x in sys.argv[2:]] or [192, 256, 512])
    elif mode == "crossover":
        crossover()
    elif mode == "nb":
        panel_widths()
    elif mode == "sanitize":
        sanitize()
    else:
        raise SystemExit(f"unknown mode {mode!r}")
