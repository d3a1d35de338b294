"""Two device probes (2026-11-25b):

1. GEMV-N on small batches: the tuning table's kernel for n = 64..128 (``warp``: one warp a
   matrix) against the ``flat`` kernel (rows of the whole batch in one list, a row per
   1..32 lanes) and the vendor path, n = 32..512, batch 1..10 240, backend calls; cupy.matmul
   as the user's alternative.
2. SYRK n = 16..128, batch 10 240: the public call against the backend call, timed in both
   orders and twice, to see whether the ~0.06 ms gap of bench_cholesky at n = 32/64 is the
   public layer or the timing order.

    python3 scripts/probe_gemv_syrk.py [--output DIR] [--dtype float32] [--gemv-only]

writes probe_gemv_syrk_<dtype>.md (the first run, float64: reports/gpu_20261125b/probe_gemv_syrk.md).
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

BATCHES = (1, 8, 32, 100, 300, 1000, 3000, 10240)
FLAT = {"kernel": "flat", "block": 256, "unroll": 4}


def gemv_rows(dtype):
    import cupy
    from bench_cholesky import timeit
    from linalg._cuda import blas
    yield "| n | batch | default ms | flat ms | vendor ms | cupy.matmul ms |"
    yield "|---|---|---|---|---|---|"
    for n in (32, 64, 128, 256, 512):
        for batch in BATCHES:
            if batch * n * n * 8 > 2**32:         # at most 4 GiB of matrices
                continue
            a = cupy.random.standard_normal((batch, n, n)).astype(dtype)
            x = cupy.random.standard_normal((batch, n)).astype(dtype)
            y = cupy.empty((batch, n), dtype)
            ref = cupy.matmul(a, x[:, :, None])[:, :, 0]
            flat = blas.gemv(a, x, y.copy(), _params=FLAT)
            tol = (1e-9 if dtype == numpy.float64 else 1e-3) * n
            assert float(cupy.abs(flat - ref).max()) < tol, "flat kernel wrong"
            row = [timeit(lambda: blas.gemv(a, x, y)),
                   timeit(lambda: blas.gemv(a, x, y, _params=FLAT)),
                   timeit(lambda: blas.gemv(a, x, y, _path="vendor")),
                   timeit(lambda: cupy.matmul(a, x[:, :, None]))]
            yield f"| {n} | {batch} | " + " | ".join(f"{v:.4f}" for v in row) + " |"


def syrk_rows():
    import cupy
    import linalg
    from bench_cholesky import timeit
    from linalg._cuda import syrk as gsyrk
    yield "| n | public ms | backend ms | backend ms (first) | public ms (second) | matmul ms |"
    yield "|---|---|---|---|---|---|"
    for n in (16, 32, 64, 128):
        a = cupy.random.standard_normal((10240, n, n))
        pub = lambda: linalg.syrk(a)
        back = lambda: gsyrk.syrk(a, None, True, "N", 1.0, 0.0)
        row = [timeit(pub), timeit(back), timeit(back), timeit(pub),
               timeit(lambda: cupy.matmul(a, a.swapaxes(1, 2)))]
        yield f"| {n} | " + " | ".join(f"{v:.4f}" for v in row) + " |"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--dtype", default="float64", help="GEMV's dtype (SYRK: float64)")
    parser.add_argument("--gemv-only", action="store_true")
    args = parser.parse_args(argv)
    dtype = numpy.dtype(args.dtype)
    lines = [f"# probe_gemv_syrk (scripts/probe_gemv_syrk.py), GEMV {dtype.name}", "",
             "## GEMV-N", ""]
    parts = [lambda: gemv_rows(dtype)]
    if not args.gemv_only:
        parts += [lambda: iter(["", "## SYRK, batch 10240, float64", ""]), syrk_rows]
    for part in parts:
        for line in part():
            print(line, flush=True)
            lines.append(line)
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        (args.output / f"probe_gemv_syrk_{dtype.name}.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
