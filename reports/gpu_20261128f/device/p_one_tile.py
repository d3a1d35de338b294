"""Session 2026-11-28f probe: TRMM at n <= 64 (one tile a matrix) under TILE_ONE_TILE -- the
committed dispatch ("rule"), tri_block (TILE_ONE_TILE emptied), tri_tile on its persistent grid
(tile_trmm called directly; at odd n its rows are not 16-byte aligned and it stages an element a
copy) and one cupy.matmul of the same shape. Backend ms (bench_cholesky.timeit), two turns in
alternation, the better kept; the tile result checked against tri_block's (max |diff| / max |x|).
--vectors: B's vector counts ("n": n x n); --inplace: the dispatch paths write B in place (the
public default) instead of a new array (keep=("b",)).
"""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

RULE = dict(gtri.TILE_ONE_TILE)


def paths(a, b, side, lower, trans, inplace=False):
    """{name: call} of the three paths for one variant."""
    right, tr = side == "right", "T" if trans else "N"
    work = b.copy()

    def dispatch(rule):
        def call():
            gtri.TILE_ONE_TILE.clear()
            gtri.TILE_ONE_TILE.update(rule)
            if inplace:
                return gtri.trmm(a, work, side, lower, tr, False, 1.0)
            return gtri.trmm(a, b, side, lower, tr, False, 1.0, keep=("b",))
        return call
    return {"rule": dispatch(RULE), "tri_block": dispatch({}),
            "tile": lambda: gtri.tile_trmm(a, b, right, lower, trans, False, 1.0)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="40,44,46,48,50,52,54,56,58,60,61,62,63,64")
    p.add_argument("--batches", default="1000,3000,10240,100000")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,UTl,LNr,UTr")
    p.add_argument("--vectors", default="n")
    p.add_argument("--inplace", action="store_true")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    gen = cupy.random.default_rng(0)
    cases = ((n, batch, nv) for n in (int(s) for s in args.sizes.split(","))
             for batch in (int(s) for s in args.batches.split(","))
             for nv in args.vectors.split(","))
    for n, batch, nv in cases:
        nvec = n if nv == "n" else int(nv)
        a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = gen.standard_normal((batch, n, nvec), dtype=numpy.float64).astype(dtype)
        mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
        for v in (s for s in args.trmm.split(",") if s):
            side = "right" if v[2] == "r" else "left"
            bv = cupy.ascontiguousarray(b.swapaxes(1, 2)) if side == "right" else b
            calls = paths(a, bv, side, v[0] == "L", v[1] == "T", args.inplace)
            gtri.TILE_ONE_TILE.clear()
            ref = gtri.trmm(a, bv, side, v[0] == "L", v[1], False, 1.0, keep=("b",))
            err = float(cupy.abs(calls["tile"]() - ref).max() / cupy.abs(ref).max())
            ms = {}
            for _ in range(2):
                for name, call in calls.items():
                    t = timeit(call)
                    ms[name] = min(t, ms.get(name, t))
            gtri.TILE_ONE_TILE.clear()
            gtri.TILE_ONE_TILE.update(RULE)
            print(f"| trmm {v} | {dtype.name} | {n} | {batch} | {nvec} | "
                  + ", ".join(f"{k} {t:.4f}" for k, t in ms.items())
                  + f", cupy.matmul {mm:.4f} | tile / tri_block "
                  f"{ms['tri_block'] / ms['tile']:.2f}x, rule / matmul "
                  f"{mm / ms['rule']:.2f}x | err {err:.1e} |", flush=True)
        del a, b

if __name__ == "__main__":
    main()
