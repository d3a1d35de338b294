"""float32 TRSM (left N, right N) and POTRS with n vectors on chol_tensor_trsm / chol_tensor_solve
(their passes staged by cp.async and widened in shared memory) against the float32 rules of the
tree (the recursion, tri_pair, the vendor), public calls in place, alternated over two rounds in
one process (scripts/bench_cholesky.alternate).

    python3 p_f32_tensor.py SIZES BATCHES
"""
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import linalg  # noqa: E402
from linalg._cuda import cholesky  # noqa: E402
from bench_cholesky import alternate  # noqa: E402


def case(op, n, batch):
    gen = cupy.random.default_rng(n)
    t = gen.standard_normal((batch, n, n), dtype=numpy.float64)
    t = (cupy.tril(t) / n + 2 * cupy.eye(n)).astype(numpy.float32)
    b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(numpy.float32)
    work = cupy.empty_like(b)
    result = {}

    def call():
        if op == "trsm_LN":
            result["x"], _ = linalg.trsm(t, work, overwrite_b=True, return_info=True)
        elif op == "trsm_RN":
            result["x"], _ = linalg.trsm(t, work, side="right", overwrite_b=True,
                                         return_info=True)
        else:
            result["x"], _ = linalg.potrs(t, work, overwrite_b=True, return_info=True)
        return result["x"]

    saved = (dict(cholesky.TENSOR_TRSM_RULES), dict(cholesky.TENSOR_SOLVE_RANGE))

    def apply(setting):
        cholesky.TENSOR_TRSM_RULES.clear()
        cholesky.TENSOR_TRSM_RULES.update(saved[0])
        cholesky.TENSOR_SOLVE_RANGE.clear()
        cholesky.TENSOR_SOLVE_RANGE.update(saved[1])
        if setting == "tensor":
            cholesky.TENSOR_TRSM_RULES["float32"] = ((33, cholesky.SOLVE_MAX, 1),)
            cholesky.TENSOR_SOLVE_RANGE[("potrs", "float32")] = (33, cholesky.SOLVE_MAX)

    times, _, diff = alternate(call, lambda: cupy.copyto(work, b), lambda x: x,
                               ["before", "tensor"], apply, 2)
    apply("before")
    before, tensor = min(times["before"]), min(times["tensor"])
    print(f"| {op} | {n} | {batch} | {before:.4f} | {tensor:.4f} | {before / tensor:.2f} | "
          f"{diff:.1e} |", flush=True)


def main():
    sizes = [int(v) for v in sys.argv[1].split(",")]
    batches = [int(v) for v in sys.argv[2].split(",")]
    print("| op | n | batch | before ms | tensor ms | before/tensor | diff |")
    print("|---|---|---|---|---|---|---|")
    for op in ("trsm_LN", "trsm_RN", "potrs_n"):
        for n in sizes:
            for batch in batches:
                case(op, n, batch)


if __name__ == "__main__":
    main()
