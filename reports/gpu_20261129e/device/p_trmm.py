"""chol_tensor_trmm against the rules before it and one dense product, public calls.

    python3 p_trmm.py DTYPES SIZES BATCHES [VARIANTS] [NT:RC,BUF,THREADS ...]

For each dtype, n, batch and variant (side, lower, trans): the public linalg.trmm in place
(overwrite_b=True, the bench's call) with TENSOR_TRMM_RULES empty ("before": tri_tile, tri_block
or the dense path, as the rules choose) and with chol_tensor_trmm for every n and batch
("tensor"), alternated over two rounds (scripts/bench_cholesky.alternate), and cupy.matmul of
the zeroed triangle (the bench's vendor). Prints a markdown row per case: ms, the ratios, the
largest difference of the two results over the largest entry. NT:RC,BUF,THREADS arguments
replace cholesky.TENSOR_TRMM_SHAPES entries (the row's "shape" column).
"""
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import linalg  # noqa: E402
from linalg._cuda import cholesky  # noqa: E402
from bench_cholesky import alternate, copy_bandwidth, timeit  # noqa: E402

VARIANTS = {"LN": ("left", True, "N"), "LT": ("left", True, "T"), "RN": ("right", True, "N"),
            "RT": ("right", True, "T"), "uLN": ("left", False, "N")}


def case(dtype, n, batch, variant, bw, shape):
    side, lower, trans = VARIANTS[variant]
    gen = cupy.random.default_rng(n)
    t = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
    t = cupy.tril(t) if lower else cupy.triu(t)
    t += n * cupy.eye(n, dtype=dtype)
    nv = n
    b = gen.standard_normal((batch, n, nv), dtype=numpy.float64).astype(dtype)
    work = cupy.empty_like(b)
    result = {}

    def call():
        result["y"] = linalg.trmm(t, work, side=side, lower=lower, trans=trans, overwrite_b=True)
        return result["y"]

    def reset():
        cupy.copyto(work, b)

    rules = {"before": {}, "tensor": {dtype.__name__: ((33, cholesky.SOLVE_MAX, 1),)}}
    times, _, diff = alternate(call, reset, lambda y: y, list(rules),
                               lambda s: setattr(cholesky, "TENSOR_TRMM_RULES", rules[s]), 2)
    dense = timeit(lambda: cupy.matmul(t, b) if side == "left" else cupy.matmul(b, t))
    before, tensor = min(times["before"]), min(times["tensor"])
    nbytes = (n * (n + 1) / 2 + 2 * n * nv) * numpy.dtype(dtype).itemsize * batch
    print(f"| {dtype.__name__} | {n} | {batch} | {variant} | {shape} | {before:.4f} | "
          f"{tensor:.4f} | "
          f"{dense:.4f} | {before / tensor:.2f} | {dense / tensor:.2f} | "
          f"{100 * nbytes / tensor / 1e6 / bw:.1f} | {diff:.1e} |", flush=True)


def main():
    dtypes = [getattr(numpy, d) for d in sys.argv[1].split(",")]
    sizes = [int(v) for v in sys.argv[2].split(",")]
    batches = [int(v) for v in sys.argv[3].split(",")]
    variants = sys.argv[4].split(",") if len(sys.argv) > 4 else list(VARIANTS)
    for arg in sys.argv[5:]:
        nt, values = arg.split(":")
        cholesky.TENSOR_TRMM_SHAPES[int(nt)] = tuple(int(v) for v in values.split(","))
    cholesky._tensor_trmm_config.cache_clear()
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s; public linalg.trmm in place, ms (best of two "
          f"alternated medians); % bw: the triangle once, B read and written, over the copy rate\n")
    print("| dtype | n | batch | variant | shape | before | tensor | dense | before/tensor | "
          "dense/tensor | tensor % bw | diff |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for dtype in dtypes:
        for n in sizes:
            for batch in batches:
                if batch * n * n * 8 > 4e9:
                    continue
                shape = cholesky.TENSOR_TRMM_SHAPES[cholesky.tensor_blocks_a_side(n)]
                for variant in variants:
                    case(dtype, n, batch, variant, bw, "/".join(map(str, shape)))


if __name__ == "__main__":
    main()
