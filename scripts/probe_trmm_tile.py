"""Probe for kernels/trmm.cu tri_tile: every variant against NumPy (small batches, poisoned other
triangle), every matrix of a 10240 batch, and timings against the dense product (CUDA events).
Modes: all, check, time [SIZES], sweep ["BK,STAGES,BLOCKS;..." [SIZES]], rules [SIZES [DTYPES]]
(TILE_RULES: each variant by tri_tile and by the dense path), split [SIZES [BATCHES]] (GPU time
of tri_tile and tri_tile_split with 2 / 4 / 8 blocks an item on small batches, against the dense
products; each split's result against tri_tile's)."""
import itertools
import statistics
import sys
import time
from pathlib import Path

import numpy
import cupy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # the tree this script is in
from linalg._cuda import triangular as gtri  # noqa: E402
from tests.linalg.helpers import eps, poison_triangle, triangle_of  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

def resid(c, ref, scale, n, dtype):
    err = numpy.linalg.norm((c - ref).reshape(c.shape[0], -1), axis=1)
    return err / (scale * n * eps(dtype))


def check_variants(rng, out):
    worst = 0.0
    for dtype in (numpy.float64, numpy.float32):
        for n in (65, 100, 128, 129, 200, 256, 257, 512):
            batch = 3
            a = rng.standard_normal((batch, n, n)).astype(dtype)
            for side, lower, trans, unit in itertools.product(("left", "right"), (True, False),
                                                              "NT", (False, True)):
                nv = 37 if n != 128 else 128
                shape = (batch, n, nv) if side == "left" else (batch, nv, n)
                b = rng.standard_normal(shape).astype(dtype)
                t = triangle_of(a.astype(numpy.float64), lower, unit)
                op = t.swapaxes(1, 2) if trans == "T" else t
                ref = op @ b if side == "left" else b @ op
                res = gtri.trmm(cupy.asarray(poison_triangle(a, lower, unit)), cupy.asarray(b),
                                side, lower, trans, unit, 0.5)
                c = cupy.asnumpy(res).astype(numpy.float64)
                scale = numpy.linalg.norm(t.reshape(batch, -1), axis=1) * numpy.linalg.norm(
                    b.reshape(batch, -1).astype(numpy.float64), axis=1)
                r = resid(c, 0.5 * ref, 0.5 * scale, n, dtype).max()
                worst = max(worst, r)
                if not r < 10:
                    print("TRMM FAIL", dtype.__name__, n, side, lower, trans, unit, r, flush=True)
            # strided views: leading dimension > n
            big = rng.standard_normal((batch, n + 5, n + 7)).astype(dtype)
            bb = rng.standard_normal((batch, n + 3, 70)).astype(dtype)
            av, bv = big[:, 2:n + 2, 3:n + 3], bb[:, 1:n + 1, 4:60]
            res = gtri.trmm(cupy.asarray(big)[:, 2:n + 2, 3:n + 3], cupy.asarray(bb)[:, 1:n + 1, 4:60],
                            "left", True, "T", False, 1.0)
            ref = numpy.tril(av.astype(numpy.float64)).swapaxes(1, 2) @ bv
            r = resid(cupy.asnumpy(res), ref, numpy.linalg.norm(av.reshape(batch, -1), axis=1)
                      * numpy.linalg.norm(bv.reshape(batch, -1), axis=1), n, dtype).max()
            if not r < 10:
                print("TRMM view FAIL", dtype.__name__, n, r, flush=True)
            for lower in (True, False):
                t = triangle_of(a.astype(numpy.float64), lower, False)
                ref = t.swapaxes(1, 2) @ t if lower else t @ t.swapaxes(1, 2)
                res = cupy.asnumpy(gtri.lauum(cupy.asarray(poison_triangle(a, lower)), lower))
                r = resid(res, ref, numpy.linalg.norm(t.reshape(batch, -1), axis=1) ** 2, n, dtype).max()
                sym = bool((res == res.swapaxes(1, 2)).all())
                worst = max(worst, r)
                if not (r < 10 and sym):
                    print("LAUUM FAIL", dtype.__name__, n, lower, r, sym, flush=True)
    print(f"variants done, worst scaled residual {worst:.3g}", flush=True)


def every_matrix(rng):
    for dtype, n in itertools.product((numpy.float64, numpy.float32), (128, 256)):
        batch = 10240 if n == 128 else 4096
        a = cupy.asarray(rng.standard_normal((batch, n, n)).astype(dtype))
        b = cupy.asarray(rng.standard_normal((batch, n, n)).astype(dtype))
        for side, lower, trans in (("left", True, "N"), ("right", False, "T")):
            c = gtri.trmm(a, b, side, lower, trans, False, 1.0)
            t = cupy.tril(a) if lower else cupy.triu(a)
            op = t.swapaxes(1, 2) if trans == "T" else t
            ref = cupy.matmul(op.astype(numpy.float64), b.astype(numpy.float64)) if side == "left" \
                else cupy.matmul(b.astype(numpy.float64), op.astype(numpy.float64))
            err = cupy.linalg.norm((c - ref).reshape(batch, -1), axis=1) / (
                cupy.linalg.norm(t.reshape(batch, -1).astype(numpy.float64), axis=1)
                * cupy.linalg.norm(b.reshape(batch, -1).astype(numpy.float64), axis=1) * n * eps(dtype))
            bad = int((~(err < 10)).sum())
            print(f"every-matrix TRMM {dtype.__name__} n={n} {side}{lower}{trans}: batch {batch}, "
                  f"max {float(err.max()):.3g}, bad {bad}", flush=True)
        for lower in (True, False):
            c = gtri.lauum(a.copy(), lower)
            t = (cupy.tril(a) if lower else cupy.triu(a)).astype(numpy.float64)
            ref = cupy.matmul(t.swapaxes(1, 2), t) if lower else cupy.matmul(t, t.swapaxes(1, 2))
            err = cupy.linalg.norm((c - ref).reshape(batch, -1), axis=1) / (
                cupy.linalg.norm(t.reshape(batch, -1), axis=1) ** 2 * n * eps(dtype))
            bad = int((~(err < 10)).sum()) + int((c != c.swapaxes(1, 2)).any(axis=(1, 2)).sum())
            print(f"every-matrix LAUUM {dtype.__name__} n={n} lower={lower}: max {float(err.max()):.3g}, "
                  f"bad {bad}", flush=True)


def timeit(fn, reset=None, reps=15, warmup=3):
    times = []
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    for i in range(warmup + reps):
        if reset:
            reset()
        s.record()
        fn()
        e.record()
        e.synchronize()
        if i >= warmup:
            times.append(cupy.cuda.get_elapsed_time(s, e))
    return statistics.median(times)


def timings(sizes, batch=10240):
    rng = cupy.random.default_rng(3)
    for dtype, n in itertools.product((numpy.float64, numpy.float32), sizes):
        a = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        dense = timeit(lambda: cupy.matmul(a, b))
        row = [f"{dtype.__name__} n={n}: dense matmul {dense:.3f}"]
        for side, lower, trans in (("left", True, "N"), ("left", True, "T"), ("right", True, "N"),
                                   ("right", False, "T")):
            ms = timeit(lambda: gtri.trmm(a, b, side, lower, trans, False, 1.0))
            row.append(f"{side[0]}{'L' if lower else 'U'}{trans} {ms:.3f}")
        old = gtri.TILE_UPTO
        gtri.TILE_UPTO = 0
        row.append(f"old LLN {timeit(lambda: gtri.trmm(a, b, 'left', True, 'N', False, 1.0)):.3f}")
        gtri.TILE_UPTO = old
        print("TRMM", " | ".join(row), flush=True)
        if torch is not None:
            tl = torch.from_dlpack(a)
            dl = timeit(lambda: torch.matmul(tl.mT, tl))
        else:
            dl = float("nan")
        work = cupy.empty_like(a)
        row = [f"{dtype.__name__} n={n}: torch L^T L {dl:.3f}"]
        for lower in (True, False):
            row.append(f"{'lower' if lower else 'upper'} "
                       f"{timeit(lambda: gtri.lauum(work, lower), lambda: cupy.copyto(work, a)):.3f}")
        gtri.TILE_UPTO = 0
        row.append(f"old lower {timeit(lambda: gtri.lauum(work, True), lambda: cupy.copyto(work, a)):.3f}")
        gtri.TILE_UPTO = old
        print("LAUUM", " | ".join(row), flush=True)


def sweep(sizes, shapes, batch=10240, dtypes=(numpy.float64, numpy.float32)):
    """tri_tile's (k tile, stages, blocks) by timing: TRMM left lower N, LAUUM lower."""
    rng = cupy.random.default_rng(4)
    keep = dict(gtri.TILE_SHAPE)
    for dtype, n in itertools.product(dtypes, sizes):
        a = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        row = [f"{dtype.__name__} n={n}:"]
        for shape in shapes:
            gtri.TILE_SHAPE[numpy.dtype(dtype).name] = shape
            t1 = timeit(lambda: gtri.trmm(a, b, "left", True, "N", False, 1.0))
            t2 = timeit(lambda: gtri.trmm(a, b, "right", True, "N", False, 1.0))
            t3 = timeit(lambda: gtri.lauum(a, True))
            row.append(f"{shape} lLN {t1:.3f} rLN {t2:.3f} lauum {t3:.3f}")
        gtri.TILE_SHAPE.update(keep)
        print("SWEEP", " | ".join(row), flush=True)


def rules(dtypes, sizes, batch=10240):
    """TILE_RULES by timing: every TRMM variant and both LAUUM triangles, tri_tile forced (the
    rule widened to every n) against the dense path (TILE_UPTO = 0) and one dense product; the
    batch is cut to keep an operand within 4 GiB (n = 512: 2048 matrices)."""
    rng = cupy.random.default_rng(6)
    keep, old = {k: dict(v) for k, v in gtri.TILE_RULES.items()}, gtri.TILE_UPTO
    trmm_variants = (("left", "N"), ("left", "T"), ("right", "N"), ("right", "T"))
    for dtype, n in itertools.product(dtypes, sizes):
        name = numpy.dtype(dtype).name
        everywhere = ((65, 512, 0.0, 0),)
        gtri.TILE_RULES[("trmm", name)] = {s + ("_t" if t == "T" else ""): everywhere
                                           for s, t in trmm_variants}
        gtri.TILE_RULES[("lauum", name)] = {"lower": everywhere, "upper": everywhere}
        nb = min(batch, (1 << 29) // (n * n))          # at most 4 GiB of float64 an operand
        a = rng.standard_normal((nb, n, n), dtype=numpy.float64).astype(dtype)
        b = rng.standard_normal((nb, n, n), dtype=numpy.float64).astype(dtype)
        row = [f"{name} n={n} batch {nb}: dense matmul {timeit(lambda: cupy.matmul(a, b)):.3f}"]
        for side, trans in trmm_variants:
            ms = []
            for upto in (old, 0):
                gtri.TILE_UPTO = upto
                ms.append(timeit(lambda: gtri.trmm(a, b, side, True, trans, False, 1.0)))
            row.append(f"{side[0]}{trans} tile {ms[0]:.3f} dense {ms[1]:.3f}")
        work = cupy.empty_like(a)
        for lower in (True, False):
            ms = []
            for upto in (old, 0):
                gtri.TILE_UPTO = upto
                ms.append(timeit(lambda: gtri.lauum(work, lower), lambda: cupy.copyto(work, a)))
            row.append(f"lauum {'lower' if lower else 'upper'} tile {ms[0]:.3f} dense {ms[1]:.3f}")
        gtri.TILE_UPTO = old
        gtri.TILE_RULES.clear()
        gtri.TILE_RULES.update({k: dict(v) for k, v in keep.items()})
        print("RULES", " | ".join(row), flush=True)


def gpu_time(fn, reps=20):
    """Median GPU milliseconds of fn()'s launches: each timed call is queued behind a ~1 ms
    memset, so its start event is stamped after the host has queued the whole call (host time
    out of the measurement, which events around a lone small call would hold). Not
    bench_blas.timeit_gpu: its CUDA-graph capture cannot take the tile paths' output allocation
    (it falls back to host-inclusive events there)."""
    busy = cupy.empty(1 << 28, dtype=numpy.uint8)
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for i in range(3 + reps):
        busy.fill(i & 255)
        s.record()
        fn()
        e.record()
        e.synchronize()
        if i >= 3:
            times.append(cupy.cuda.get_elapsed_time(s, e))
    return statistics.median(times)


def split(sizes, batches):
    """tri_tile (1) and tri_tile_split (2 / 4 / 8 blocks an item) forced, GPU time in us: TRMM
    left lower N with n vectors, LAUUM lower, SYRK (n x n), float64 and float32, against the dense
    products (cupy.matmul; torch.matmul(L^T, L)); "err": the largest difference from tri_tile's
    result over the largest entry (each split sums its runs in another order)."""
    rng = cupy.random.default_rng(8)
    keep = gtri.TILE_SPLIT
    for dtype, n, batch in itertools.product((numpy.float64, numpy.float32), sizes, batches):
        a = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = rng.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        calls = {"trmm": lambda: gtri.tile_trmm(a, b, False, True, False, False),
                 "lauum": lambda: gtri.tile_lauum(a, True),
                 "syrk": lambda: gtri.tile_syrk(a, False)}
        dense = {"trmm": lambda: cupy.matmul(a, b), "syrk": lambda: cupy.matmul(a, a.mT)}
        if torch is not None:
            ta = torch.from_dlpack(a)
            dense["lauum"] = lambda: torch.matmul(ta.mT, ta)
        for op, fn in calls.items():
            row = [f"{numpy.dtype(dtype).name} n={n} batch={batch} {op}:"]
            if op in dense:
                row.append(f"dense {1e3 * gpu_time(dense[op]):.1f}")
            ref = None
            for s_ in (1,) + gtri.TILE_SPLITS:
                gtri.TILE_SPLIT = s_
                out = fn()
                if ref is None:
                    ref = out
                    err = 0.0
                else:
                    err = float(abs(out - ref).max() / abs(ref).max())
                row.append(f"s{s_} {1e3 * gpu_time(fn):.1f}" + (f" (err {err:.1e})" if s_ > 1 else ""))
            gtri.TILE_SPLIT = keep
            items = gtri.tile_items(n, n, batch, op != "trmm")
            row.append(f"rule s{gtri.tile_split(items, n, 0)}")
            print("SPLIT", " | ".join(row), flush=True)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    t0 = time.time()
    if what in ("all", "check"):
        check_variants(numpy.random.default_rng(0), None)
        gtri.TILE_GRID = 2                  # two blocks walk every item: streams cross items
        check_variants(numpy.random.default_rng(5), None)
        gtri.TILE_GRID = 0
        every_matrix(numpy.random.default_rng(1))
    if what in ("all", "time"):
        timings([int(s) for s in (sys.argv[2] if len(sys.argv) > 2 else "128,256").split(",")])
    if what == "rules":
        rules([numpy.dtype(d) for d in (sys.argv[3] if len(sys.argv) > 3 else "float32").split(",")],
              [int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "96,128,192,256").split(",")])
    if what in ("all", "sweep"):
        shapes = [(32, 2, 3), (16, 3, 4), (16, 4, 3), (32, 3, 2), (32, 2, 4)]
        if what == "sweep" and len(sys.argv) > 2:       # sweep "BK,STAGES,BLOCKS;..." [SIZES]
            shapes = [tuple(int(v) for v in s.split(",")) for s in sys.argv[2].split(";")]
        sizes = [int(n) for n in sys.argv[3].split(",")] if len(sys.argv) > 3 else [128, 256]
        sweep(sizes, shapes)
    if what == "split":
        split([int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "128,256,384,512").split(",")],
              [int(b) for b in (sys.argv[3] if len(sys.argv) > 3 else "1,2,8,32").split(",")])
    print(f"probe {time.time() - t0:.1f} s")
