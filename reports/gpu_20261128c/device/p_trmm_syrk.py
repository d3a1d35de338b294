"""Session 2026-11-28c probe: the TRMM and SYRK paths at the n between the table's sizes where
the odd-size sweep (call 2) found them behind the dense product. Backend ms (CUDA events,
bench_cholesky.timeit), float64 (and float32 with --dtype), left lower N TRMM with n vectors, SYRK
N with k = n; each row: the committed dispatch, the alternatives forced, cupy.matmul."""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import blas, syrk as gsyrk, triangular as gtri  # noqa: E402


def trmm_paths(l, b):
    saved = (dict(gtri.BLOCK_RULES), {k: dict(v) for k, v in gtri.TILE_RULES.items()},
             dict(gtri.TILE_ANY_FILL_BELOW))
    name = l.dtype.name

    def call():
        return gtri.trmm(l, b, "left", True, "N", False, 1.0)
    out = {"committed": timeit(call)}
    gtri.BLOCK_RULES.pop(("trmm", name), None)
    gtri.TILE_RULES[("trmm", name)] = {"left": ((65, 512, 0.0, 0),)}
    out["tile any fill"] = timeit(call) if l.shape[1] > 64 else float("nan")
    gtri.TILE_RULES.pop(("trmm", name))
    gtri.TILE_ANY_FILL_BELOW.clear()
    out["dense path"] = timeit(call)
    gtri.BLOCK_RULES.clear(); gtri.BLOCK_RULES.update(saved[0])
    gtri.TILE_RULES.clear(); gtri.TILE_RULES.update(saved[1])
    gtri.TILE_ANY_FILL_BELOW.clear(); gtri.TILE_ANY_FILL_BELOW.update(saved[2])
    out["cupy.matmul"] = timeit(lambda: cupy.matmul(l, b))
    return out


def syrk_paths(a, trans="N"):
    tr = trans == "T"
    op = a.swapaxes(1, 2) if tr else a
    out = {"committed": timeit(lambda: gsyrk.syrk(a, None, True, trans, 1.0, 0.0))}
    out["gemm_small"] = timeit(lambda: blas.gemm(a, a, None, "T" if tr else "N", "N" if tr else "T",
                                                 1.0, 0.0, _params={"kernel": "small"},
                                                 _path="kernel"))
    out["tile"] = timeit(lambda: gtri.tile_syrk(a, tr))
    out["GEMM + mirror"] = timeit(lambda: gsyrk._gemm_syrk(a, None, True, tr, 1.0, 0.0, False))
    out["cupy.matmul"] = timeit(lambda: cupy.matmul(op, op.swapaxes(1, 2)))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--trmm", default="36,40,44,48,52,57,63,72,81,100,112,129,150,200,250")
    p.add_argument("--syrk", default="33,36,40,44,47")
    p.add_argument("--batches", default="1000,10240")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trans", default="N", help="SYRK's op(A): N (A) or T (A^T)")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    gen = cupy.random.default_rng(0)
    for op, sizes in (("trmm", args.trmm), ("syrk", args.syrk)):
        for n in (int(s) for s in sizes.split(",") if s):
            for batch in (int(s) for s in args.batches.split(",")):
                batch = min(batch, (1 << 28) // (n * n))
                a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
                if op == "trmm":
                    b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
                    ms = trmm_paths(a, b)
                else:
                    ms = syrk_paths(a, args.trans)
                label = op + (f" {args.trans}" if op == "syrk" else "")
                print(f"| {label} | {dtype.name} | {n} | {batch} | "
                      + ", ".join(f"{k} {v:.4f}" for k, v in ms.items())
                      + f" | committed / matmul {ms['cupy.matmul'] / ms['committed']:.2f}x |",
                      flush=True)
                del a


if __name__ == "__main__":
    main()
