"""Session 2026-11-28d probe: TRMM / LAUUM / SYRK at the n between the table's sizes where they
trail the dense product (n = 33-63 on tri_block, ragged n > 64 on tri_tile). Backend ms (CUDA
events, bench_cholesky.timeit) of the committed dispatch, tri_tile forced at any fill (n > 64),
the dense path (no kernel rule) and one cupy.matmul of the same shape. Run it once with
LINALG_KERNEL_DIR at the previous kernels and once without for an A/B in one call.
TRMM variants: L/U (A's triangle), N/T, left/right; every one with n vectors."""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import cholesky as gchol, syrk as gsyrk, triangular as gtri  # noqa: E402


def rules_saved():
    return (dict(gtri.BLOCK_RULES), {k: dict(v) for k, v in gtri.TILE_RULES.items()},
            dict(gtri.TILE_ANY_FILL_BELOW), dict(gchol.TENSOR_LAUUM_RULES))


def rules_restore(saved):
    tables = (gtri.BLOCK_RULES, gtri.TILE_RULES, gtri.TILE_ANY_FILL_BELOW,
              gchol.TENSOR_LAUUM_RULES)
    for table, value in zip(tables, saved):
        table.clear()
        table.update(value)


def paths(op, call, n, name, variant):
    """committed / tile any fill / dense path ms of call() for (op, dtype name, TILE variant);
    LAUUM's tile and dense paths without its chol_tensor_lauum rule."""
    saved = rules_saved()
    out = {"committed": timeit(call)}
    gchol.TENSOR_LAUUM_RULES.clear()              # LAUUM: the tile and dense paths themselves
    if n > 64:
        rules = dict(gtri.TILE_RULES.get((op, name), {}))
        rules[variant] = ((65, 512, 0.0, 0),)
        gtri.TILE_RULES[(op, name)] = rules
        out["tile"] = timeit(call)
    gtri.BLOCK_RULES.pop((op, name), None)
    gtri.TILE_RULES.pop((op, name), None)
    gtri.TILE_ANY_FILL_BELOW.clear()
    out["dense"] = timeit(call)
    rules_restore(saved)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="36,40,44,48,52,57,63,72,81,100,112,129,150,200")
    p.add_argument("--batches", default="1000,10240")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,UNl,LTl,LNr,UNr",
                   help="TRMM variants: triangle L/U, trans N/T, side l/r")
    p.add_argument("--lauum", default="L,U")
    p.add_argument("--syrk", action="store_true")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    gen = cupy.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",") if s):
        for batch in (int(s) for s in args.batches.split(",")):
            batch = min(batch, (1 << 28) // (n * n))
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            rows = []
            for v in (s for s in args.trmm.split(",") if s):
                lower, trans, side = v[0] == "L", v[1], "left" if v[2] == "l" else "right"
                variant = side + ("_t" if trans == "T" else "")
                ms = paths("trmm", lambda: gtri.trmm(a, b, side, lower, trans, False, 1.0), n,
                           dtype.name, variant)
                ms["cupy.matmul"] = timeit(lambda: cupy.matmul(a, b))
                rows.append((f"trmm {v}", ms))
            for v in (s for s in args.lauum.split(",") if s):
                lower = v == "L"
                ms = paths("lauum", lambda: gtri.lauum(a, lower, keep=("a",)), n, dtype.name,
                           "lower" if lower else "upper")
                ms["cupy.matmul"] = timeit(lambda: cupy.matmul(a, b))
                rows.append((f"lauum {v}", ms))
            if args.syrk:
                ms = {"committed": timeit(lambda: gsyrk.syrk(a, None, True, "N", 1.0, 0.0))}
                ms["tile"] = timeit(lambda: gtri.tile_syrk(a, False)) if n > 64 else float("nan")
                ms["cupy.matmul"] = timeit(lambda: cupy.matmul(a, a.swapaxes(1, 2)))
                rows.append(("syrk N", ms))
            for label, ms in rows:
                print(f"| {label} | {dtype.name} | {n} | {batch} | "
                      + ", ".join(f"{k} {v:.4f}" for k, v in ms.items())
                      + f" | committed / matmul {ms['cupy.matmul'] / ms['committed']:.2f}x |",
                      flush=True)
            del a, b


if __name__ == "__main__":
    main()
