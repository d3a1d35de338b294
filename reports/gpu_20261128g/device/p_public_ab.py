"""Probe (session 2026-11-28g, call 5): why the public TRMM at n = 112-120 came out slower with
TILE_CHUNKED across processes (call 4) when the tile kernel called directly was faster on it
(calls 1-2). In one process, TILE_CHUNKED's rule and none alternating three times, the best
kept: the public in-place call exactly as scripts/bench_cholesky.py times it (a Cholesky
factor, B reset before each call), tile_trmm on that factor, and tile_trmm on a full random A
(as p_tile_chunked.py)."""
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
import linalg  # noqa: E402
from bench_cholesky import spd_batch, timeit  # noqa: E402
from linalg._cuda import cholesky as gchol  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

rule = dict(gtri.TILE_CHUNKED)
cases = [("float64", n) for n in (88, 104, 112, 120)] + [("float32", n) for n in (96, 112, 120)]
for name, n in cases:
    dtype, batch = numpy.dtype(name), 10240
    a = spd_batch(batch, n, dtype)
    l, _ = gchol.potrf(a.copy(), True)
    gen = cupy.random.default_rng(1)
    b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
    full = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
    bw = cupy.empty_like(b)
    calls = {"public": (lambda: linalg.trmm(l, bw, overwrite_b=True), lambda: cupy.copyto(bw, b)),
             "tile(L)": (lambda: gtri.tile_trmm(l, b, False, True, False, False, 1.0), None),
             "tile(full)": (lambda: gtri.tile_trmm(full, b, False, True, False, False, 1.0),
                            None)}
    best = {}
    for _ in range(3):
        for on in (False, True):
            gtri.TILE_CHUNKED = rule if on else {}
            for label, (fn, reset) in calls.items():
                t = timeit(fn, reset)
                best[label, on] = min(t, best.get((label, on), t))
    gtri.TILE_CHUNKED = rule
    row = " | ".join(f"{label} item {best[label, False]:.4f} chunked {best[label, True]:.4f} "
                     f"({best[label, False] / best[label, True]:.2f}x)" for label in calls)
    print(f"| {name} | {n} | {row} |", flush=True)
    del a, l, b, full, bw
