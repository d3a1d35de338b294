"""The one-launch triangle kernels at NT = 5-6 (device probe): n = 129..192 (cholesky.TRIANGLE_MAX)
on kernels/potrf.cu chol_tensor, chol_tensor_trtri and chol_tensor_inverse (one block an SM,
384 threads) against the paths before them, through the backend calls (linalg._cuda.cholesky
.potrf, potri, poti, linalg._cuda.triangular.trtri; in place, lower; the operand reset before
each call, ms between CUDA events: bench_cholesky.timeit), the settings alternated over --rounds
(bench_cholesky.alternate), and the largest difference of the results over the largest entry.

    python3 scripts/probe_triangle_192.py [--sizes 160,192] [--batches 1000,10240]
                                          [--ops potrf,trtri,potri,poti,trsm,potrs,posv,lauum]
                                          [--dtype float64]
                                          [--rounds 2]

Settings: "before" the triangle kernels up to TENSOR_MAX only (TRTRI's recursion into 96- and
64-blocks and two GEMMs, POTRI = TRTRI then LAUUM, POTI = POTRF then POTRI); "trtri" TRTRI on
chol_tensor_trtri up to 192 (a whole matrix, POTRI's / POTI's TRTRI, the recursion's blocks);
"fused" also POTRI / POTI on chol_tensor_inverse up to 192 (the committed rules since
2026-11-28 03:30 UTC); "two_step" (poti) POTRF on chol_tensor, then the fused POTRI; for potrf
"before" (chol_left) against "tensor" (chol_tensor up to 192). TRSM (left, lower, N), POTRS and
POSV with n right-hand sides (B overwritten; POSV keeps A): "solve" TRSM and POTRS on
chol_tensor_trsm / chol_tensor_solve up to cholesky.SOLVE_MAX = 160 (NT = 5, 512 threads), POSV's
POTRS among them; "fused" (posv) the fused POSV up to 160. LAUUM (lower): "before" without
chol_tensor_lauum (chol_small, tri_tile or the dense product by the committed rules), "lauum"
chol_tensor_lauum from n = 33 to 192 ahead of them. float32: trtri and potri only
(float32 POTI stays off chol_tensor_inverse). One markdown row per (op, n, batch): each
setting's ms (medians of the rounds), before / setting, % of the copy bandwidth of the fastest
(the matrix read and written once; for the solves bench_cholesky's count: B read and written, A
read, POSV's A written), diff.
"""
import argparse
import statistics
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cholesky import alternate, copy_bandwidth, spd_batch  # noqa: E402
from linalg._cuda import cholesky as gchol, triangular as gtri  # noqa: E402

NAMES = ("TENSOR_TRTRI_RANGE", "TENSOR_INVERSE_RANGE", "TENSOR_INVERSE_BELOW", "TENSOR_RANGE",
         "LEFT_RULES", "TENSOR_TRSM_RULES", "TENSOR_SOLVE_RANGE", "TENSOR_LAUUM_RULES")
SETTINGS = {"potrf": ("before", "tensor"), "trtri": ("before", "trtri"),
            "potri": ("before", "trtri", "fused"), "poti": ("before", "trtri", "fused", "two_step"),
            "trsm": ("before", "solve"), "potrs": ("before", "solve"),
            "posv": ("before", "solve", "fused"), "lauum": ("before", "lauum")}
# n x n matrices read or written once (bench_cholesky's count; 2 for the others: in and out)
MATRICES_MOVED = {"trsm": 3, "potrs": 3, "posv": 4}


def apply(setting, committed, dtype):
    """Set the rules of ``setting`` for ``dtype`` (committed: the module's rules as imported)."""
    rules = {name: dict(value) for name, value in committed.items()}
    top, cap = gchol.TRIANGLE_MAX, gchol.TENSOR_MAX
    rules["TENSOR_TRTRI_RANGE"][dtype] = (65, cap if setting == "before" else top)
    for op in ("potri", "poti"):
        first, _ = committed["TENSOR_INVERSE_RANGE"].get((op, dtype), (None, None))
        if first is not None:
            rules["TENSOR_INVERSE_RANGE"][(op, dtype)] = (
                first, top if setting in ("fused", "two_step") else cap)
    if setting == "two_step":
        rules["TENSOR_INVERSE_BELOW"] = {("poti", dtype): (33, top, 1)}
    solve_top = gchol.SOLVE_MAX if setting in ("solve", "fused") else cap
    if dtype in committed["TENSOR_TRSM_RULES"]:      # from 100 matrices, every batch above
        rules["TENSOR_TRSM_RULES"][dtype] = ((33, solve_top, 100),)
    if ("potrs", dtype) in committed["TENSOR_SOLVE_RANGE"]:
        rules["TENSOR_SOLVE_RANGE"][("potrs", dtype)] = (33, solve_top)
    if setting == "fused":
        rules["TENSOR_SOLVE_RANGE"][("posv", dtype)] = (33, gchol.SOLVE_MAX)
    if setting == "lauum":
        rules["TENSOR_LAUUM_RULES"][dtype] = ((33, top, 1),)
    else:
        rules["TENSOR_LAUUM_RULES"].pop(dtype, None)
    if setting in ("tensor", "two_step"):
        rules["TENSOR_RANGE"][dtype] = (33, top)
        rules["LEFT_RULES"][dtype] = left_rows_above(committed["LEFT_RULES"].get(dtype, ()), top)
    for name, value in rules.items():
        setattr(gchol, name, value)


def left_rows_above(rows, last):
    """chol_left's rows (first n, last n, first batch) without n = TENSOR_MAX + 1 .. last."""
    kept = []
    for first, end, batch in rows:
        if first > gchol.TENSOR_MAX:
            first = max(first, last + 1)
        if first <= end:
            kept.append((first, end, batch))
    return tuple(kept)


def operands(op, batch, n, dtype):
    """(the operand the call overwrites, its original, the call)."""
    a = spd_batch(batch, n, numpy.dtype(dtype))
    if op == "posv":                                  # A kept (only read), B overwritten
        b = cupy.random.default_rng(3).standard_normal((batch, n, n)).astype(dtype)
        return b, b.copy(), lambda w: gchol.posv(a, w, True, keep=("a",))
    if op == "potrf":
        return a, a.copy(), lambda w: gchol.potrf(w, True)
    if op == "poti":
        return a, a.copy(), lambda w: gchol.poti(w, True)
    l, _ = gchol.potrf(a, True)
    if op == "potri":
        return l, l.copy(), lambda w: gchol.potri(w, True)
    if op == "lauum":                                 # the product: a new array or l itself
        return l, l.copy(), lambda w: (gtri.lauum(w, True),)
    if op in ("trsm", "potrs"):                       # n right-hand sides, B overwritten
        b = cupy.random.default_rng(3).standard_normal((batch, n, n)).astype(dtype)
        if op == "trsm":
            return b, b.copy(), lambda w: gtri.trsm(l, w)
        return b, b.copy(), lambda w: gchol.potrs(l, w, True)
    return l, l.copy(), lambda w: gtri.trtri(w, True, False)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="160,192")
    parser.add_argument("--batches", default="1000,10240")
    parser.add_argument("--ops", default="potrf,trtri,potri,poti")
    parser.add_argument("--dtype", default="float64", choices=("float64", "float32"))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    committed = {name: getattr(gchol, name) for name in NAMES}
    bandwidth = copy_bandwidth()
    print(f"copy bandwidth {bandwidth:.0f} GB/s\n")
    print("| op | n | batch | ms by setting | before / setting | % bw best | diff |")
    print("|---|---|---|---|---|---|---|")
    try:
        for n in (int(v) for v in args.sizes.split(",")):
            for batch in (int(v) for v in args.batches.split(",")):
                for op in args.ops.split(","):
                    work, original, fn = operands(op, batch, n, args.dtype)
                    settings = SETTINGS[op]
                    times, _, diff = alternate(
                        lambda: fn(work), lambda: cupy.copyto(work, original),
                        lambda out: out[0], settings, lambda s: apply(s, committed, args.dtype),
                        args.rounds)
                    ms = {s: statistics.median(times[s]) for s in settings}
                    best = min(ms.values())
                    item = numpy.dtype(args.dtype).itemsize
                    pct = (MATRICES_MOVED.get(op, 2) * batch * n * n * item / (best * 1e-3) / 1e9
                           / bandwidth * 100)
                    print(f"| {op} | {n} | {batch} | "
                          + ", ".join(f"{s} {ms[s]:.3f}" for s in settings) + " | "
                          + ", ".join(f"{ms['before'] / ms[s]:.2f}" for s in settings[1:])
                          + f" | {pct:.0f} | {diff:.1e} |", flush=True)
                    del work, original
                    cupy.get_default_memory_pool().free_all_blocks()
    finally:
        for name, value in committed.items():
            setattr(gchol, name, value)


if __name__ == "__main__":
    main()
