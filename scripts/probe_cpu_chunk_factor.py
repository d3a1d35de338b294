"""The CPU POSV (one vector a matrix) and POTI with the factorization done chunk by chunk
(linalg/_cpu/cholesky.py `_posv_vector`, `poti`: each chunk factored and solved / inverted
while its factor is in cache) against the whole batch factored first (`potrf`, then
`_solve_with_factor` / `_inverse_from_factor`, the earlier path), alternating on the same
float64 SPD batch; results checked equal.

    python3 scripts/probe_cpu_chunk_factor.py [--sizes 8 16 32 64 128] [--batch 10000] [--reps 5]

For each op and n: the best wall time of each path over --reps alternating runs and their ratio
(the numbers in docs/results.md); n = 128 takes 4000 matrices at the default batch.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from linalg._cpu import cholesky  # noqa: E402


def paths(a, b):
    """{op: (whole batch first, chunk by chunk)}, each a function returning the result."""
    def posv_whole():
        factor, info = cholesky.potrf(a, True)
        return cholesky._solve_with_factor(factor, b.copy(), True, info)[0]

    def poti_whole():
        factor, info = cholesky.potrf(a, True)
        return cholesky._inverse_from_factor(factor, True, info)[0]
    return {"posv": (posv_whole, lambda: cholesky.posv(a, b.copy(), True)[0]),
            "poti": (poti_whole, lambda: cholesky.poti(a, True)[0])}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args(argv)
    rng = numpy.random.default_rng(0)
    print("| op | n | batch | whole batch first ms | chunk by chunk ms | speedup |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        batch = args.batch if n < 128 else max(1, args.batch * 2 // 5)
        a = rng.standard_normal((batch, n, n))
        a = a @ a.transpose(0, 2, 1) + n * numpy.eye(n)
        b = rng.standard_normal((batch, n, 1))
        for op, (whole, chunked) in paths(a, b).items():
            numpy.testing.assert_allclose(chunked(), whole(), rtol=1e-9, atol=1e-12)
            times = {whole: [], chunked: []}
            for _ in range(args.reps):
                for fn in (whole, chunked):
                    start = time.perf_counter()
                    fn()
                    times[fn].append(time.perf_counter() - start)
            t_whole, t_chunked = min(times[whole]) * 1e3, min(times[chunked]) * 1e3
            print(f"| {op} | {n} | {batch} | {t_whole:.1f} | {t_chunked:.1f} | "
                  f"{t_whole / t_chunked:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
