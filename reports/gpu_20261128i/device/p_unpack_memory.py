"""Probe (calls 2 and 4): GPU memory and time of linalg.gebrd and linalg.gebrd_unpack on the
sweep's largest GEBRD cases (call 1's memory.md) and test_gpu_bidiag's pool test's shapes, the
unpack's Householder accumulation as of the start tree (a new temporary each step; --old FILE,
that tree's linalg/_bidiag.py) against this tree's (call 2: workspaces reused, the pool grew the
same; call 4: w^H R over the contiguous output). The peak of bytes in use comes from a CuPy
memory hook (every malloc and free of the pool), the pool's size from total_bytes() after the
call."""
import argparse
import sys
import time
from pathlib import Path

import cupy
from cupy.cuda import memory_hook

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
import linalg                                   # noqa: E402
from linalg import _bidiag                      # noqa: E402

GB = 2.0 ** 30
CASES = [(64, 256, 128, "float64"), (64, 128, 256, "float64"), (256, 512, 256, "float64"), (2621, 160, 160, "float64"), (4032, 129, 129, "float64"),
         (100, 445, 445, "float64"), (315, 461, 461, "float32"), (152174, 21, 21, "float64"),
         (20000, 8, 8, "float32")]


class Peak(memory_hook.MemoryHook):
    name = "Peak"

    def __init__(self):
        self.now = self.peak = 0

    def malloc_postprocess(self, device_id, size, mem_size, mem_ptr, pmem_id):
        self.now += mem_size
        self.peak = max(self.peak, self.now)

    def free_postprocess(self, device_id, mem_size, mem_ptr, pmem_id):
        self.now -= mem_size


def measure(fn):
    pool = cupy.get_default_memory_pool()
    pool.free_all_blocks()
    base = pool.used_bytes()
    hook = Peak()
    start = time.perf_counter()
    with hook:
        out = fn()
        cupy.cuda.Device().synchronize()
    seconds = time.perf_counter() - start
    return out, (hook.peak) / GB, (pool.total_bytes() - base) / GB, seconds


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--old", required=True)
    args = p.parse_args()
    src = Path(args.old).read_text()
    scope = {}
    exec(src[src.index("def _accumulate("):], scope)
    versions = {"start": scope["_accumulate"], "now": _bidiag._accumulate}
    print("| batch | m | n | dtype | input GB | gebrd peak GB | unpack | peak GB | pool GB | s |"
          " max diff |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for batch, m, n, dtype in CASES:
        a = cupy.random.default_rng(1).standard_normal((batch, m, n), dtype=dtype)
        result, g_peak, _, _ = measure(lambda: linalg.gebrd(a.copy()))
        outs = {}
        for name, fn in versions.items():
            _bidiag._accumulate = fn
            linalg.gebrd_unpack(result)                 # warm-up (kernels compiled)
            outs[name], peak, pool, s = measure(lambda: linalg.gebrd_unpack(result))
            diff = max(float(abs(x - y).max()) for x, y in zip(outs["start"], outs[name]))
            print(f"| {batch} | {m} | {n} | {dtype} | {a.nbytes / GB:.2f} | {g_peak:.2f} | "
                  f"{name} | {peak:.2f} | {pool:.2f} | {s:.3f} | {diff:.1e} |", flush=True)
        del outs, result, a


if __name__ == "__main__":
    main()
