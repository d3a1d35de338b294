"""Session 2026-11-28e probe: is tri_tile (DMMA, one 64 x 64 output tile a matrix) faster than
tri_block (FMA register tiles) for TRMM and LAUUM at 33 <= n <= 64? Backend ms (CUDA events,
bench_cholesky.timeit) of the committed dispatch, tri_tile called directly (tile_trmm /
tile_lauum, out of place), and one cupy.matmul of the same shape (min of three timings: it moved
0.16-0.23 ms at n = 48 within one run of call 1). Each tile result is checked against the
committed path's on fresh operands (max |diff| / max |committed|)."""
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


def rel_diff(x, y):
    return float(cupy.abs(x - y).max() / cupy.abs(y).max())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="33,40,48,57,64")
    p.add_argument("--batches", default="10240")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,UNl,LTl,UTl,LNr,UNr,LTr,UTr",
                   help="TRMM variants: triangle L/U, trans N/T, side l/r")
    p.add_argument("--lauum", default="L,U")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    gen = cupy.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",") if s):
        for batch in (int(s) for s in args.batches.split(",")):
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(3))
            for v in (s for s in args.trmm.split(",") if s):
                lower, trans, right = v[0] == "L", v[1] == "T", v[2] == "r"
                side = "right" if right else "left"
                ref = gtri.trmm(a, b.copy(), side, lower, "T" if trans else "N", False, 1.0)
                got = gtri.tile_trmm(a, b, right, lower, trans, False, 1.0)
                err = rel_diff(got, ref)
                work = b.copy()
                committed = timeit(lambda: gtri.trmm(a, work, side, lower, "T" if trans else "N",
                                                     False, 1.0))
                tile = timeit(lambda: gtri.tile_trmm(a, b, right, lower, trans, False, 1.0))
                print(f"| trmm {v} | {dtype.name} | {n} | {batch} | committed {committed:.4f}, "
                      f"tile {tile:.4f}, cupy.matmul {mm:.4f} | tile / committed "
                      f"{committed / tile:.2f}x, tile / matmul {mm / tile:.2f}x | err {err:.1e} |",
                      flush=True)
            for v in (s for s in args.lauum.split(",") if s):
                lower = v == "L"
                ref = gtri.lauum(a, lower, keep=("a",))
                got = gtri.tile_lauum(a, lower)
                err = rel_diff(cupy.tril(got) if lower else cupy.triu(got),
                               cupy.tril(ref) if lower else cupy.triu(ref))
                committed = timeit(lambda: gtri.lauum(a, lower, keep=("a",)))
                tile = timeit(lambda: gtri.tile_lauum(a, lower))
                print(f"| lauum {v} | {dtype.name} | {n} | {batch} | committed {committed:.4f}, "
                      f"tile {tile:.4f}, cupy.matmul {mm:.4f} | tile / committed "
                      f"{committed / tile:.2f}x, tile / matmul {mm / tile:.2f}x | err {err:.1e} |",
                      flush=True)
            del a, b


if __name__ == "__main__":
    main()
