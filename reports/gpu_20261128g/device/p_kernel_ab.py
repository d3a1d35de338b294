"""Prepared probe (session 2026-11-28g, for the next session): kernels/trmm.cu from two source
folders in one process -- the committed kernels/ and --old DIR (a copy with the previous
trmm.cu) -- switching between them by LINALG_KERNEL_DIR with the compile caches cleared, two
alternating turns, the better of each kept. Backend ms (bench_cholesky.timeit) of tile_trmm
(left N lower, upper left T, left N lower right side, upper right T), tile_lauum (both), tile_syrk
and the committed TRMM dispatch (left N lower); results of the two kernels compared."""
import argparse
import os
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import _compile  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402


def use_kernels(folder):
    """Compile from ``folder`` (None: the committed kernels/) from the next launch on."""
    if folder is None:
        os.environ.pop(_compile.KERNEL_DIR_ENV, None)
    else:
        os.environ[_compile.KERNEL_DIR_ENV] = str(folder)
    _compile.kernel_source.cache_clear()
    _compile._module.cache_clear()
    _compile._FUNCTIONS.clear()
    _compile._LAUNCHERS.clear()
    gtri._tri_tile_config.cache_clear()


def calls(a, b):
    out = {f"trmm {v}": (lambda v=v: gtri.tile_trmm(a, b, v[2] == "r", v[0] == "L", v[1] == "T",
                                                    False, 1.0))
           for v in ("LNl", "UTl", "LNr", "UTr")}
    out["lauum L"] = lambda: gtri.tile_lauum(a, True)
    out["lauum U"] = lambda: gtri.tile_lauum(a, False)
    out["syrk N"] = lambda: gtri.tile_syrk(a, False)
    out["trmm public LNl"] = lambda: gtri.trmm(a, b, "left", True, "N", False, 1.0)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--old", required=True, help="folder of the previous kernels")
    p.add_argument("--sizes", default="72,80,96,100,128,129,150,200,256")
    p.add_argument("--batch", type=int, default=10240)
    p.add_argument("--dtypes", default="float64,float32")
    args = p.parse_args()
    gen = cupy.random.default_rng(0)
    for name in args.dtypes.split(","):
        dtype = numpy.dtype(name)
        for n in (int(s) for s in args.sizes.split(",")):
            batch = min(args.batch, (1 << 28) // (n * n))
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            ms, res = {}, {}
            for _ in range(2):
                for tree in ("old", "new"):
                    use_kernels(args.old if tree == "old" else None)
                    for label, call in calls(a, b).items():
                        res[label, tree] = call()
                        t = timeit(call)
                        ms[label, tree] = min(t, ms.get((label, tree), t))
            use_kernels(None)
            for label in calls(a, b):
                old, new = ms[label, "old"], ms[label, "new"]
                equal = bool(cupy.array_equal(res[label, "old"], res[label, "new"]))
                print(f"| {label} | {name} | {n} | {batch} | old {old:.4f}, new {new:.4f} | "
                      f"new / old {old / new:.2f}x | equal {equal} |", flush=True)
            del a, b, res


if __name__ == "__main__":
    main()
