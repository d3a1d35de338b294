"""tri_block probe (device): tri_block's buffer variants checked on poisoned inputs, then timed
against the dense cupy.matmul, the vendor paths and (where triblock_old.cu lies beside this
script: the version before cp.async, not in the repo) the synchronous kernel; H100, batch 10240.

python3 scripts/probe_tri_block.py small   # correctness, n = 47, 64, 2-block grids, no memory pool
                                          # (compute-sanitizer memcheck runs this)
python3 scripts/probe_tri_block.py tiny    # a few variants of float64 n = 47 (racecheck)
python3 scripts/probe_tri_block.py time    # correctness (also the resident grid), then timings
"""
import itertools
import statistics
import sys
from pathlib import Path

import cupy
import numpy

import linalg._cuda.cholesky as chol
import linalg._cuda.triangular as tri
from linalg._cuda._compile import kernel_dir
from tests.linalg.helpers import poison_triangle

TRMM_BUFS = ((1, 1), (1, 2), (2, 2))
LAUUM_BUFS = (1, 2)
SIDES = list(itertools.product(("left", "right"), (True, False), "NT", (False, True)))
NVECS = (5, 64, 130)
BATCH = 10240


def triangle(gen, batch, n, dt, lower, scale=1.0):
    """I + scale * a random strict-plus-diagonal triangle / sqrt(n) (norm near 1: repeated
    in-place calls stay finite)."""
    t = gen.standard_normal((batch, n, n)) * (scale / n ** 0.5)
    t = numpy.tril(t) if lower else numpy.triu(t)
    return (t + numpy.eye(n)).astype(dt)


def op_of(t, unit, trans):
    m = t.astype(numpy.float64)
    if unit:
        m[:, numpy.arange(m.shape[1]), numpy.arange(m.shape[1])] = 1.0
    return m.swapaxes(1, 2) if trans == "T" else m


def rel_err(got, ref, bound, dt):
    """max |got - ref| over max of the elementwise bound, in units of n eps."""
    err = numpy.abs(got.astype(numpy.float64) - ref).max() / max(bound.max(), 1e-300)
    return err / numpy.finfo(dt).eps


def check_trmm(dt, n, bufs, batch, cap, gen):
    tri.BLOCK_BUFFERS[("trmm", numpy.dtype(dt).name)] = bufs
    tri.BLOCK_GRID = cap
    worst = 0.0
    for (side, lower, trans, unit), nvec in itertools.product(SIDES, NVECS):
        t = triangle(gen, batch, n, dt, lower, 4.0)
        shape = (batch, n, nvec + 3) if side == "left" else (batch, nvec, n + 3)
        full = gen.standard_normal(shape).astype(dt)
        width = nvec if side == "left" else n
        dfull = cupy.asarray(full)
        flags = tri._flags(side == "right", lower, trans == "T", unit)
        tri.tri_block_trmm(cupy.asarray(poison_triangle(t, lower, unit)), dfull[:, :, :width],
                           flags, 1.5)
        got = dfull.get()
        m, b = op_of(t, unit, trans), full[:, :, :width].astype(numpy.float64)
        ref = 1.5 * (m @ b if side == "left" else b @ m)
        bound = 1.5 * (abs(m) @ abs(b) if side == "left" else abs(b) @ abs(m))
        e = rel_err(got[:, :, :width], ref, bound, dt)
        if not e < 4 * n or not numpy.array_equal(got[:, :, width:], full[:, :, width:]):
            print("FAIL trmm", numpy.dtype(dt).name, n, bufs, cap, side, lower, trans, unit, nvec, e)
            return None
        worst = max(worst, e)
    return worst


def check_lauum(dt, n, bufs, batch, cap, gen):
    tri.BLOCK_BUFFERS[("lauum", numpy.dtype(dt).name)] = bufs
    tri.BLOCK_GRID = cap
    worst = 0.0
    for lower in (True, False):
        t = triangle(gen, batch, n, dt, lower, 4.0)
        got = tri.tri_block_lauum(cupy.asarray(poison_triangle(t, lower)), lower).get()
        m = t.astype(numpy.float64)
        mt = m.swapaxes(1, 2)
        ref, bound = (mt @ m, abs(mt) @ abs(m)) if lower else (m @ mt, abs(m) @ abs(mt))
        e = rel_err(got, ref, bound, dt)
        if not e < 4 * n or not numpy.array_equal(got, got.swapaxes(1, 2)):
            print("FAIL lauum", numpy.dtype(dt).name, n, bufs, cap, lower, e)
            return None
        worst = max(worst, e)
    return worst


def check_all(mode):
    """Every buffer variant, dtype, n = 33, 47, 64: a 2-block grid over 7 matrices (every buffer
    turn), and (mode "time") the resident grid over 1500 (a few turns a block); mode "tiny":
    float64 n = 47, two TRMM variants, 130 vectors."""
    global SIDES, NVECS
    gen = numpy.random.default_rng(1)
    ok = True
    dts, ns = (numpy.float64, numpy.float32), (33, 47, 64)
    if mode == "small":
        ns = (47, 64)
    if mode == "tiny":
        dts, ns = (numpy.float64,), (47,)
        SIDES, NVECS = [("left", True, "N", False), ("right", False, "T", True)], (130,)
    for dt, n in itertools.product(dts, ns):
        for cap, batch in ((2, 7),):
            for bufs in TRMM_BUFS:
                e = check_trmm(dt, n, bufs, batch, cap, gen)
                ok &= e is not None
                print("check trmm", numpy.dtype(dt).name, n, bufs, "grid", cap or "resident",
                      "batch", batch, "err/eps", e, flush=True)
            for bufs in LAUUM_BUFS:
                e = check_lauum(dt, n, bufs, batch, cap, gen)
                ok &= e is not None
                print("check lauum", numpy.dtype(dt).name, n, bufs, "grid", cap or "resident",
                      "batch", batch, "err/eps", e, flush=True)
    tri.BLOCK_GRID = 0
    return ok


def ms(f, reps=30):
    for _ in range(3):
        f()
    events = [(cupy.cuda.Event(), cupy.cuda.Event()) for _ in range(reps)]
    for s, e in events:
        s.record()
        f()
        e.record()
    events[-1][1].synchronize()
    return statistics.median(cupy.cuda.get_elapsed_time(s, e) for s, e in events)


def old_kernels(dt):
    """The synchronous tri_block (before cp.async), compiled from triblock_old.cu beside this script; None without it."""
    c = "double" if dt == numpy.float64 else "float"
    path = Path(__file__).parent / "triblock_old.cu"
    if not path.exists():
        return None
    code = path.read_text()
    names = [f"tri_block_trmm<{c}>", f"tri_block_lauum<{c}>"]
    mod = cupy.RawModule(code=code, options=("--std=c++17", f"-I{kernel_dir()}"),
                         name_expressions=names)
    trmm_k, lauum_k = (mod.get_function(x) for x in names)
    item = numpy.dtype(dt).itemsize
    s2, s1 = 2 * 64 * (64 + 16 // item) * item, 64 * (64 + 16 // item) * item
    trmm_k.max_dynamic_shared_size_bytes = s2
    lauum_k.max_dynamic_shared_size_bytes = s1
    i64, i32 = numpy.int64, numpy.int32

    def trmm(a, b, flags):
        nb = a.shape[0]
        args = (a, i64(a.shape[2]), i64(a.shape[1] * a.shape[2]), b, i64(b.shape[2]),
                i64(b.shape[1] * b.shape[2]), i32(a.shape[1]), i32(b.shape[2] if not flags & 1
                                                              else b.shape[1]),
                i64(nb), i32(flags), dt(1.0))
        trmm_k((nb,), (256,), args, shared_mem=s2)

    def lauum(a, lower):
        nb, n = a.shape[0], a.shape[1]
        lauum_k((nb,), (256,), (a, i64(n), i64(n * n), i32(n), i64(nb), i32(lower)), shared_mem=s1)
    return trmm, lauum


def time_small(dt, n, old):
    """TRMM (6 orientations, n vectors) and LAUUM at n <= 64: dense matmul, dense path (vendor),
    old kernel, each buffer variant."""
    name = numpy.dtype(dt).name
    g = cupy.random.default_rng(0)
    lo = (cupy.tril(g.standard_normal((BATCH, n, n), dtype=dt)) * (0.01 / n ** 0.5)
          + cupy.eye(n, dtype=dt))
    up = lo.swapaxes(1, 2).copy()
    b = g.standard_normal((BATCH, n, n), dtype=dt)
    row = {"dense_mm": ms(lambda: cupy.matmul(lo, b))}
    orients = [(side, lower, trans) for side in ("left", "right")
               for lower, trans in ((True, "N"), (True, "T"), (False, "N"))]
    for side, lower, trans in orients:
        a = lo if lower else up
        f = tri._flags(side == "right", lower, trans == "T", False)
        key = f"{side[0]}{'L' if lower else 'U'}{trans}"
        row[f"trmm_{key}_vendor"] = ms(lambda: tri._vendor_trmm(a, b, side == "right", lower,
                                                                 trans, False, 1.0))
        if old is not None:
            row[f"trmm_{key}_old"] = ms(lambda: old[0](a, b, f))
        for bufs in TRMM_BUFS:
            tri.BLOCK_BUFFERS[("trmm", name)] = bufs
            row[f"trmm_{key}_{bufs[0]}{bufs[1]}"] = ms(lambda: tri.tri_block_trmm(a, b, f, 1.0))
    row["dense_LtL"] = ms(lambda: cupy.matmul(lo.swapaxes(1, 2), lo))
    prod = cupy.empty_like(lo)                 # one cuBLAS call on the transposed view, no copy
    row["dense_LtL_gemm"] = ms(lambda: tri.gemm(prod, lo.swapaxes(1, 2), lo))
    del prod
    try:
        import torch
        tl = torch.from_dlpack(lo)
        row["dense_LtL_torch"] = ms(lambda: torch.matmul(tl.mT, tl))
    except Exception as exc:               # report, keep going
        print("torch failed:", type(exc).__name__, str(exc)[:100])
    w = lo.copy()
    for lower in (True, False):
        src = lo if lower else up
        key = "L" if lower else "U"
        rules, tri.BLOCK_RULES = tri.BLOCK_RULES, {}
        w[...] = src
        row[f"lauum_{key}_vendor"] = ms(lambda: tri.lauum(w, lower))
        tri.BLOCK_RULES = rules
        w[...] = src
        if old is not None:
            row[f"lauum_{key}_old"] = ms(lambda: old[1](w, lower))
        for bufs in LAUUM_BUFS:
            tri.BLOCK_BUFFERS[("lauum", name)] = bufs
            w[...] = src
            row[f"lauum_{key}_{bufs}"] = ms(lambda: tri.tri_block_lauum(w, lower))
    return row


def time_potri(dt, n):
    g = cupy.random.default_rng(2)
    lo = (cupy.tril(g.standard_normal((BATCH, n, n), dtype=dt)) * (0.01 / n ** 0.5)
          + cupy.eye(n, dtype=dt))
    w = lo.copy()
    row = {}
    rules, tri.BLOCK_RULES = tri.BLOCK_RULES, {}
    row["potri_dense"] = ms(lambda: chol.potri(w, True), 10)
    tri.BLOCK_RULES = rules
    w[...] = lo
    row["potri_block"] = ms(lambda: chol.potri(w, True), 10)
    try:                                    # the README's vendor: torch.cholesky_inverse[magma]
        import torch
        tl = torch.from_dlpack(lo)
        old = torch.backends.cuda.preferred_linalg_library()
        torch.backends.cuda.preferred_linalg_library("magma")
        row["potri_torch_magma"] = ms(lambda: torch.cholesky_inverse(tl), 10)
        torch.backends.cuda.preferred_linalg_library(old)
    except Exception as exc:               # report, keep going
        print("torch vendor failed:", type(exc).__name__, str(exc)[:100])
    return row


def time_large(dt, n):
    """n > 64: today's path (dense cuBLAS product + triangle passes) against the dense matmul."""
    g = cupy.random.default_rng(3)
    lo = (cupy.tril(g.standard_normal((BATCH, n, n), dtype=dt)) * (0.01 / n ** 0.5)
          + cupy.eye(n, dtype=dt))
    b = g.standard_normal((BATCH, n, n), dtype=dt)
    row = {"dense_mm": ms(lambda: cupy.matmul(lo, b), 10),
           "trmm_lLN_path": ms(lambda: tri.trmm(lo, b, "left", True, "N"), 10),
           "trmm_rLN_path": ms(lambda: tri.trmm(lo, b, "right", True, "N"), 10),
           "dense_LtL": ms(lambda: cupy.matmul(lo.swapaxes(1, 2), lo), 10)}
    del b
    w = lo.copy()
    row["lauum_L_path"] = ms(lambda: tri.lauum(w, True), 10)
    return row


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "small"
    if mode != "time":
        cupy.cuda.set_allocator(None)       # plain allocations: the sanitizer sees their bounds
    ok = check_all(mode)
    print("CHECK", mode, "OK" if ok else "FAILED", flush=True)
    if mode != "time":
        sys.exit(0 if ok else 1)
    x = cupy.empty(2 ** 28, dtype=numpy.float32)
    y = cupy.empty_like(x)
    copy = ms(lambda: cupy.copyto(y, x), 10)
    print(f"copy 1 GiB: {copy:.3f} ms = {2 * x.nbytes / copy / 1e9:.2f} TB/s (read + write)")
    del x, y
    for dt in (numpy.float64, numpy.float32):
        old = old_kernels(dt)
        for n in (48, 64):
            row = time_small(dt, n, old)
            print(numpy.dtype(dt).name, n, " ".join(f"{k}={v:.4f}" for k, v in row.items()),
                  flush=True)
        for n in (48, 64):
            row = time_potri(dt, n)
            print(numpy.dtype(dt).name, n, " ".join(f"{k}={v:.4f}" for k, v in row.items()),
                  flush=True)
        for n in (() if "nolarge" in sys.argv else (96, 128, 256)):
            row = time_large(dt, n)
            print(numpy.dtype(dt).name, n, " ".join(f"{k}={v:.4f}" for k, v in row.items()),
                  flush=True)
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
