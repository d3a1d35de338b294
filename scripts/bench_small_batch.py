"""Small batch counts: ours (the public backend path, crossovers included) against the best vendor.

    python3 scripts/bench_small_batch.py > small_batch.md

Every Cholesky-family / triangular operation of scripts/bench_cholesky.py at n = 8..512 and batch
1, 8, 100, float64, then TRSV and GEMV-N with the default dispatch; rows where the vendor is
faster are marked. The issue's rule is "never slower than the vendor at any size up to 512, for
any batch count": this script is how we check it.
"""
import sys
from pathlib import Path
import numpy
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "scripts"))
import bench_cholesky as bc
print("| op | n | batch | ours ms | vendor ms | vendor | ratio |\n|---|---|---|---|---|---|---|")
for op in bc.OPS:
    for n in (8, 32, 64, 128, 256, 512):
        for batch in (1, 8, 100):
            try:
                ours, vend, vname, _, _ = bc.case(op, n, batch, numpy.dtype(numpy.float64), 10)
                flag = " (vendor faster)" if vend < ours else ""
                print(f"| {op} | {n} | {batch} | {ours:.4f} | {vend:.4f} | {vname} | {vend / ours:.2f}{flag} |", flush=True)
            except Exception as e:
                print(f"| {op} | {n} | {batch} | failed {type(e).__name__}: {str(e)[:80]} | | | |", flush=True)
import cupy
import torch
from linalg._cuda import trsv as gtrsv, blas as gblas
print("\n| op (default dispatch) | n | batch | ours ms | vendor ms | ratio |\n|---|---|---|---|---|---|")
for n in (8, 32, 128, 512):
    for batch in (1, 8, 100):
        a = cupy.tril(cupy.random.standard_normal((batch, n, n))) / n
        idx = cupy.arange(n); a[:, idx, idx] = 1 + cupy.random.random((batch, n))
        x0 = cupy.random.standard_normal((batch, n)); x = x0.copy()
        ours = bc.timeit(lambda: gtrsv.trsv(a, x, lower=True), lambda: cupy.copyto(x, x0))
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x0, device="cuda")[..., None]
        vend = bc.timeit(lambda: torch.linalg.solve_triangular(ta, tb, upper=False))
        print(f"| trsv | {n} | {batch} | {ours:.4f} | {vend:.4f} | {vend / ours:.2f}{' (vendor faster)' if vend < ours else ''} |", flush=True)
        y = cupy.empty((batch, n))
        ours = bc.timeit(lambda: gblas.gemv(a, x0, y))
        vend = bc.timeit(lambda: cupy.matmul(a, x0[:, :, None]))
        print(f"| gemv_n | {n} | {batch} | {ours:.4f} | {vend:.4f} | {vend / ours:.2f}{' (vendor faster)' if vend < ours else ''} |", flush=True)
