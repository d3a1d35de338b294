"""Prepared probe (session 2026-11-28e, not run): tri_block staging 48 k rows for n <= 48
(reports/gpu_20261128e/tri_block_rows48.patch: float64's operands then fit four blocks an SM,
not three). Backend ms of TRMM (n vectors) and LAUUM with BLOCK_SMALL_UPTO on (48 rows) and off
(64 rows: the kernel as before), two turns in alternation, the better kept; one cupy.matmul of
the same shape; the two settings' results compared (the same sums in the same order: equal).
LAUUM also on chol_tensor_lauum (TENSOR_LAUUM_RULES widened to n = 33-55; on the H100 it took
0.96-1.11x tri_block's time at n = 48, not taken)."""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import cholesky as gchol, triangular as gtri  # noqa: E402

RULE = dict(gtri.BLOCK_SMALL_UPTO)
LAUUM_RULES = dict(gchol.TENSOR_LAUUM_RULES)
WIDER = dict(LAUUM_RULES, float64=LAUUM_RULES["float64"] + ((33, 55, 1),))


def settings(tensor):
    """(label, BLOCK_SMALL_UPTO, TENSOR_LAUUM_RULES): the 64-row staging, the 48-row one, and
    with ``tensor`` chol_tensor_lauum."""
    out = [("rows 64", {}, LAUUM_RULES), ("rows 48", RULE, LAUUM_RULES)]
    return out + [("tensor", RULE, WIDER)] if tensor else out


def compare(call, tensor=False):
    """ms of call() under each setting (two turns) and whether tri_block's two results are
    equal (and the tensor one within 1e-12 of them)."""
    ms, results = {}, {}
    for _ in range(2):
        for name, rule, lauum_rules in settings(tensor):
            gtri.BLOCK_SMALL_UPTO.clear()
            gtri.BLOCK_SMALL_UPTO.update(rule)
            gchol.TENSOR_LAUUM_RULES.clear()
            gchol.TENSOR_LAUUM_RULES.update(lauum_rules)
            t = timeit(call)
            ms[name] = min(t, ms.get(name, t))
            results[name] = call()
    gtri.BLOCK_SMALL_UPTO.clear()
    gtri.BLOCK_SMALL_UPTO.update(RULE)
    gchol.TENSOR_LAUUM_RULES.clear()
    gchol.TENSOR_LAUUM_RULES.update(LAUUM_RULES)
    same = bool(cupy.array_equal(results["rows 64"], results["rows 48"]))
    if tensor:
        ref = results["rows 64"]
        same = same and float(cupy.abs(results["tensor"] - ref).max()
                              / cupy.abs(ref).max()) < 1e-12
    return ms, same


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="33,36,40,44,48")
    p.add_argument("--batches", default="10240,100000")
    p.add_argument("--trmm", default="LNl,UNl,LTl,LNr,UNr")
    p.add_argument("--lauum", default="L,U")
    args = p.parse_args()
    gen = cupy.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",")):
        for batch in (int(s) for s in args.batches.split(",")):
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64)
            mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
            rows = []
            for v in (s for s in args.trmm.split(",") if s):
                lower, trans, side = v[0] == "L", v[1], "left" if v[2] == "l" else "right"
                rows.append((f"trmm {v}", compare(
                    lambda: gtri.trmm(a, b, side, lower, trans, False, 1.0, keep=("b",)))))
            for v in (s for s in args.lauum.split(",") if s):
                rows.append((f"lauum {v}", compare(
                    lambda: gtri.lauum(a, v == "L", keep=("a",)), tensor=n <= 55)))
            for label, (ms, same) in rows:
                print(f"| {label} | float64 | {n} | {batch} | "
                      + ", ".join(f"{k} {t:.4f}" for k, t in ms.items())
                      + f", cupy.matmul {mm:.4f} | 48 / 64 rows "
                      f"{ms['rows 64'] / ms['rows 48']:.2f}x | equal {same} |", flush=True)
            del a, b


if __name__ == "__main__":
    main()
