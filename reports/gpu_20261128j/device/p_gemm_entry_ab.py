#!/usr/bin/env python3
"""A/B of the H200's float32 gemm entry for class 32x16x64 (the double-buffered k-contiguous
gemm_small of call 3) on the public call: the hydro 32x36 (9x36)^T forms the public API takes --
one tall A (with B^T by 32-row blocks: the rows rule) and a batch of 32x36 A with a B each (its
batch counts must agree: call 8 also asked for one B with a batch, which it refuses) -- both op(B), with
the entry against the same tables without it (two alternating turns each), results checked.

    python3 p_gemm_entry_ab.py > gemm_entry_ab.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
import linalg                                          # noqa: E402
from linalg import _tuning                             # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit                          # noqa: E402

GPU = _tuning.gpu_name()
CLASSES = _tuning.tables()[GPU]["gemm"]["float32"]
ENTRY = CLASSES["32x16x64"]


def entry(on):
    if on:
        CLASSES["32x16x64"] = ENTRY
    else:
        CLASSES.pop("32x16x64", None)
    blas._gemm_plan.cache_clear()
    blas._table_rows_rule.cache_clear()


def main():
    print(f"{GPU}; public linalg.gemm float32, ms (median of 20, CUDA events around 5 calls)\n")
    print("| form | op(B) | zones | with entry | without | speedup |")
    print("|---|---|---|---|---|---|")
    m, n, q = 32, 9, 36
    for zones in (40960, 262144):
        az = cupy.random.standard_normal((zones, m, q)).astype("float32")
        for form in ("T", "N"):
            shape = (n, q) if form == "T" else (q, n)
            one = cupy.random.standard_normal((1,) + shape).astype("float32")
            each = cupy.random.standard_normal((zones,) + shape).astype("float32")
            cases = (("tall A, one B", az.reshape(1, zones * m, q), one),
                     ("batch, a B each", az, each))
            for name, a, b in cases:
                c = cupy.empty(a.shape[:2] + (n,), "float32")
                opb = b.transpose(0, 2, 1) if form == "T" else b
                ref = cupy.matmul(a.reshape(zones, m, q), opb).reshape(c.shape)
                t = {True: [], False: []}
                for turn in range(2):
                    for on in (True, False):
                        entry(on)
                        c.fill(numpy.nan)
                        linalg.gemm(a, b, c, transb=form, overwrite_c=True)
                        err = float(abs(c - ref).max()) / float(abs(ref).max())
                        assert err < 1e-4, (name, form, on, err)
                        t[on].append(timeit(lambda: linalg.gemm(a, b, c, transb=form,
                                                                overwrite_c=True)))
                entry(True)
                on, off = min(t[True]), min(t[False])
                print(f"| {name} | {form} | {zones} | {on:.4f} | {off:.4f} | {off / on:.2f} |",
                      flush=True)
                del c, ref
            del one, each
        del az
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
