"""Probe (call 3): where gebrd_unpack's pool growth comes from. Call 2: the pool grew to 34-59 GB
while the bytes in use peaked at 0.9-3 GB, with either accumulation (a new temporary a step, or
workspaces reused). Here the accumulation's steps run one statement at a time with the pool's
size read after each, for three ways to form w^H R: cupy.matmul into a workspace (this tree),
cupy.einsum (the start tree) and an elementwise product summed over the rows (no cuBLAS); then
the whole of gebrd_unpack with each. Prints the statements after which the pool grew (first
steps) and the pool's growth a way."""
import sys
from pathlib import Path

import cupy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
import linalg                                   # noqa: E402
from linalg import _bidiag                      # noqa: E402

GB = 2.0 ** 30
pool = cupy.get_default_memory_pool()


def row_matmul(w, block, row):
    cupy.matmul(w[:, None, :], block, out=row)


def row_einsum(w, block, row):
    row[:, 0, :] = cupy.einsum("bi,bij->bj", w, block)


def row_sum(w, block, row):
    cupy.sum(w[:, :, None] * block, axis=1, keepdims=True, out=row)


def accumulate(way, log):
    def run(xp, vectors, tau, size, k, shift, conj):
        batch, dtype = vectors.shape[0], vectors.dtype
        out = xp.zeros((batch, size, k), dtype)
        out[:, xp.arange(k), xp.arange(k)] = 1
        w_buffer = xp.empty(batch * size, dtype)
        product_buffer = xp.empty(batch * size * k, dtype)
        row = xp.empty((batch, 1, k), dtype)
        last = pool.total_bytes()
        for step, j in enumerate(range(k - 1, -1, -1)):
            start = j + shift
            if start >= size:
                continue
            rows = size - start
            w = w_buffer[:batch * rows].reshape(batch, rows)
            w[:, 0] = 1
            w[:, 1:] = vectors[:, j, start + 1:size]
            block = out[:, start:, :]
            marks = [("w", pool.total_bytes())]
            way(w, block, row)
            marks.append(("w^H R", pool.total_bytes()))
            row *= tau[:, j, None, None]
            product = product_buffer[:batch * rows * k].reshape(batch, rows, k)
            cupy.multiply(w[:, :, None], row, out=product)
            marks.append(("product", pool.total_bytes()))
            block -= product
            marks.append(("block -=", pool.total_bytes()))
            for name, total in marks:
                if total > last and log[0] < 12:
                    log[0] += 1
                    print(f"    step {step} (rows {rows}, block {block.shape}, strides "
                          f"{block.strides}): pool +{(total - last) / 2**20:.1f} MB after {name}",
                          flush=True)
                last = max(last, total)
        return out
    return run


def main():
    for batch, m, n, dtype in [(256, 512, 256, "float64"), (2621, 160, 160, "float64")]:
        a = cupy.random.default_rng(1).standard_normal((batch, m, n), dtype=dtype)
        result = linalg.gebrd(a)
        for name, way in (("matmul", row_matmul), ("einsum", row_einsum), ("sum", row_sum)):
            pool.free_all_blocks()
            base = pool.total_bytes()
            print(f"{batch} x {m} x {n} {dtype}, w^H R by {name}:", flush=True)
            _bidiag._accumulate = accumulate(way, [0])
            linalg.gebrd_unpack(result)
            cupy.cuda.Device().synchronize()
            print(f"  pool grew {(pool.total_bytes() - base) / GB:.2f} GB", flush=True)


if __name__ == "__main__":
    main()
