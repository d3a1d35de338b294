"""Small batch counts: ours (the public API, crossovers included) against the best vendor.

    python3 scripts/bench_small_batch.py [--quick] [--output DIR] [--ops potrf,poti]
                                         [--sizes 256,512] [--batches 1,8,100] [--dtype float64]

Every Cholesky-family / triangular operation of scripts/bench_cholesky.py at n = 8..512 and batch
1, 8, 100 (--batches), float64 (--dtype), then TRSV and GEMV-N with the default dispatch; rows
where the vendor is faster are marked. The issue's rule is "never slower than the vendor at any size up to 512, for
any batch count": this script is how we check it. Writes small_batch.md under --output (and
prints it); --quick keeps n = 8, 64, 512; --ops and --sizes pick a subset.
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = (8, 32, 64, 128, 256, 512)
QUICK_SIZES = (8, 64, 512)
BATCHES = (1, 8, 100)
BLAS_OPS = ("trsv", "gemv_n")      # blas_rows' operations; the others are bench_cholesky.OPS


def _mark(ours, vendor):
    return f"{vendor / ours:.2f}" + (" (vendor faster)" if vendor < ours else "")


def cholesky_rows(sizes, ops, dtype="float64", batches=BATCHES):
    import bench_cholesky as bc
    # "backend ms": our backend alone (linalg/_cuda), what the public layer adds is the difference.
    yield "| op | n | batch | ours ms | backend ms | vendor ms | vendor | ratio |"
    yield "|---|---|---|---|---|---|---|---|"
    for op in [op for op in bc.OPS if op in ops]:
        for n in sizes:
            for batch in batches:
                try:
                    case = bc.case(op, n, batch, numpy.dtype(dtype), 10)
                    (ours, backend), vend, name = case[:3]      # then flops, bytes, fresh ms
                    yield (f"| {op} | {n} | {batch} | {ours:.4f} | {backend:.4f} | {vend:.4f} | {name} | "
                           f"{_mark(ours, vend)} |")
                except Exception as exc:  # one failing case (e.g. memory) must not lose the table
                    yield f"| {op} | {n} | {batch} | failed: {type(exc).__name__} | | | | |"


def blas_rows(sizes, ops, dtype="float64", batches=BATCHES):
    import cupy
    import torch
    import bench_cholesky as bc
    import linalg
    yield ""
    yield "| op (default dispatch) | n | batch | ours ms | vendor ms | ratio |"
    yield "|---|---|---|---|---|---|"
    for n in sizes:
        for batch in batches:
            a = (cupy.tril(cupy.random.standard_normal((batch, n, n))) / n).astype(dtype)
            idx = cupy.arange(n)
            a[:, idx, idx] = 1 + cupy.random.random((batch, n))
            x0 = cupy.random.standard_normal((batch, n)).astype(dtype)
            x = x0.copy()
            if "trsv" in ops:
                ours = bc.timeit(lambda: linalg.trsv(a, x, lower=True, overwrite_x=True,
                                                     return_info=True), lambda: cupy.copyto(x, x0))
                ta = torch.as_tensor(a, device="cuda")
                tb = torch.as_tensor(x0, device="cuda")[..., None]
                vend = bc.timeit(lambda: torch.linalg.solve_triangular(ta, tb, upper=False))
                yield f"| trsv | {n} | {batch} | {ours:.4f} | {vend:.4f} | {_mark(ours, vend)} |"
            if "gemv_n" not in ops:
                continue
            y = cupy.empty((batch, n), dtype=dtype)
            ours = bc.timeit(lambda: linalg.gemv(a, x0, y, overwrite_y=True))
            vend = bc.timeit(lambda: cupy.matmul(a, x0[:, :, None]))
            yield f"| gemv_n | {n} | {batch} | {ours:.4f} | {vend:.4f} | {_mark(ours, vend)} |"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--ops", default=None,
                        help="comma-separated subset of bench_cholesky.OPS and BLAS_OPS "
                             "(default all)")
    parser.add_argument("--sizes", default=None, help="comma-separated n (default 8..512)")
    parser.add_argument("--batches", default=",".join(str(b) for b in BATCHES),
                        help="comma-separated batch counts")
    parser.add_argument("--dtype", default="float64")
    args = parser.parse_args(argv)
    sizes = (tuple(int(n) for n in args.sizes.split(",")) if args.sizes else
             QUICK_SIZES if args.quick else SIZES)
    import bench_cholesky as bc
    known = list(bc.OPS) + list(BLAS_OPS)
    ops = set(args.ops.split(",")) if args.ops else set(known)
    if ops - set(known):
        parser.error(f"--ops: unknown {sorted(ops - set(known))}; expected from {known}")
    batches = tuple(int(b) for b in args.batches.split(","))
    lines = [f"# small batches (scripts/bench_small_batch.py), {args.dtype}", ""]
    rows = list(cholesky_rows(sizes, ops, args.dtype, batches))
    if ops & set(BLAS_OPS):
        rows += list(blas_rows(sizes, ops, args.dtype, batches))
    for line in rows:
        print(line, flush=True)
        lines.append(line)
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / "small_batch.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
