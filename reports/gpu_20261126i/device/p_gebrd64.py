"""Scratch: gebrd_cols at 64 x 64 (batch 10240): group 128 and other matrices-a-block counts
against the H100 table's row (group 64, 2 a block, 128 registers, peel), bench-style ms, best of
three interleaved rounds; then torch svdvals(gesvda) once for the ratio."""
import sys, os
sys.path.insert(0, "."); sys.path.insert(0, "scripts")
import numpy, cupy
from linalg._cuda import bidiag
from probe_gebrd_reg import bench_style, _cols
BATCH = 10240
P = {"peel": True}
cands = {"float64": [_cols(64, 2, **P), _cols(128, 1, **P), _cols(128, 2, **P), _cols(128, 3, **P),
                     _cols(128, 2, regs=80, **P), _cols(128, 4, regs=80, **P), _cols(64, 1, **P),
                     _cols(64, 3, **P), _cols(64, 4, regs=80, **P), _cols(256, 1, **P),
                     _cols(128, 2, shared_s=True, **P)],
         "float32": [{"kernel": "cols", "group": 64, "per_block": 4, "fused": False},
                     _cols(64, 4, **P), _cols(128, 2, **P), _cols(128, 1, **P), _cols(128, 4, regs=80, **P)]}
for dname, cs in cands.items():
    dtype = numpy.dtype(dname)
    a0 = cupy.random.standard_normal((BATCH, 64, 64)).astype(dtype)
    a = a0.copy()
    best = [float("inf")] * len(cs)
    for _ in range(3):
        for q, p in enumerate(cs):
            try:
                best[q] = min(best[q], bench_style(lambda: bidiag.gebrd(a, p), a, a0))
            except Exception as exc:
                print(dname, p, "failed", type(exc).__name__, exc, flush=True)
                best[q] = float("nan")
    for p, t in zip(cs, best):
        print(f"{dname} {p} {t:.4f} ms ({best[0] / t:.3f}x the table's row)", flush=True)
