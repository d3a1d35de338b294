"""GEBRD probe (device): gebd2_fused against gebd2_tall. Modes:
  check     fused outputs against gebd2_tall's (same reflectors up to rounding), shapes/groups
  times     ms at batch 10240 (restore subtracted), group sweeps at 80 and 128 registers,
            torch svdvals(gesvda)
  exp       16-byte against scalar broadcast loads, gebd2_tall group sweeps
  final     before/after table with torch svdvals and the seed-003 bound
  sanitize  small batches of every swept configuration (run under compute-sanitizer)
  unroll    variants of the trip loops (row pass unrolled by four, 64-byte trips) against the
            kernel, the table's rows with peel"""
import os
import sys

import numpy
import cupy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from bench_blas import timeit  # noqa: E402
from linalg._cuda import bidiag, _compile, blas  # noqa: E402

KDIR = os.path.join(HERE, "..", "kernels")
BATCH = 10240
SWEEP = {8: ((4, 0), (8, 0), (8, 32)), 16: ((4, 0), (8, 0), (16, 0), (8, 32)),
         32: ((8, 0), (16, 0), (32, 0), (32, 2), (16, 16)),
         64: ((16, 0), (32, 0), (32, 2), (64, 0), (64, 1), (64, 2)),
         128: ((64, 0), (128, 0), (256, 0))}
# load16 as scalar loads (broadcasts of 8/4 bytes instead of 16): does the 16-byte broadcast
# cost more wavefronts?
SCALAR = ("""    if constexpr (sizeof(T) == 4) {
        const float4 q = *reinterpret_cast<const float4*>(p);
        r[0] = q.x; r[1] = q.y; r[2] = q.z; r[3] = q.w;
    } else {
        const double2 q = *reinterpret_cast<const double2*>(p);
        r[0] = q.x; r[1] = q.y;
    }""", """    for (int z = 0; z < 16 / (int)sizeof(T); ++z) r[z] = p[z];""")


def _cols_expr(t, group, regs, shared_s=False, peel=False):
    b = lambda x: "true" if x else "false"           # noqa: E731
    return f"gebrd_cols<{t}, {b(group > 32)}, true, {regs}, {b(shared_s)}, {b(peel)}>"


def variant_module(subs, exprs=None):
    """gebrd.cu with the text substitutions subs ((old, new) pairs), compiled for exprs (default:
    gebrd_cols without shared_s and peel, both widths and register budgets)."""
    src = open(os.path.join(KDIR, "gebrd.cu")).read()
    for old, new in subs:
        assert old in src, old
        src = src.replace(old, new)
    exprs = exprs or [_cols_expr(t, g, r) for t in ("float", "double") for g in (32, 64)
                      for r in (80, 128)]
    return cupy.RawModule(code=src, options=("--std=c++17", f"-I{KDIR}"), name_expressions=exprs)


def launcher(a, params, module=None):
    """go() running one gebrd on a with plan(params) (module: a variant build of the kernel)."""
    from cupy_backends.cuda.api import driver
    batch, m, n = a.shape
    cfg = bidiag.plan(m, n, a.dtype, params)
    launch, grid, block, group, smem = bidiag._launch_for(cfg, a.dtype, batch)
    if module is not None:
        t = "double" if a.dtype == numpy.float64 else "float"
        fn = module.get_function(_cols_expr(t, group, cfg["regs"], cfg["shared_s"], cfg["peel"]))
        launch = _compile.Launcher(fn, "qiipppppi", cupy.ndarray, driver.launchKernel,
                                   cupy.cuda.get_current_stream)

    def go():
        d, e, tq, tp = bidiag._outputs(batch, min(m, n), a.dtype)
        launch(grid, block, (batch, m, n, a, d, e, tq, tp, group), smem)
        return a, d, e, tq, tp
    return go, cfg


def rel(x, y):
    x, y = cupy.asnumpy(x).astype(numpy.float64), cupy.asnumpy(y).astype(numpy.float64)
    if x.size == 0:
        return 0.0
    return float(numpy.abs(x - y).max() / max(1e-300, numpy.abs(y).max()))


def table(dtype, m, n):
    return dict(blas.params("gebrd", dtype, m, n))


def check():
    bad = 0
    shapes = [(8, 8), (16, 16), (32, 32), (64, 64), (128, 128), (33, 17), (17, 33), (100, 31),
              (31, 100), (600, 3), (3, 600), (5, 1), (1, 5), (1, 1), (65, 65)]
    for dtype in (numpy.float64, numpy.float32):
        tol = 2e3 * numpy.finfo(dtype).eps
        for m, n in shapes:
            a0 = cupy.random.standard_normal((37, m, n)).astype(dtype)
            a = a0.copy()
            ref = [x.copy() for x in bidiag.gebrd(a, {**table(dtype, m, n), "fused": False})]
            groups = SWEEP.get(max(m, n), ((0, 0),)) + ((0, 0),)
            for g, pb in groups:
                a[...] = a0
                got = bidiag.gebrd(a, {"kernel": "cols", "group": g, "per_block": pb})
                errs = [rel(x, y) for x, y in zip(got, ref)]
                ok = max(errs) <= tol * max(m, n)
                bad += not ok
                if not ok or (g, pb) == (0, 0):
                    print(f"check {'ok' if ok else 'FAIL'} {numpy.dtype(dtype).name} {m}x{n} "
                          f"g{g}x{pb} " + " ".join(f"{x:.1e}" for x in errs), flush=True)
    print("check failures:", bad, flush=True)


def bench_style(go, a, a0, reps=7):
    out = []

    def run():
        a[...] = a0
        out[:] = [go()]
    ms = timeit(run, reps, 2, 5) - timeit(lambda: a.__setitem__(Ellipsis, a0), reps, 2, 5)
    return ms, [x.copy() for x in out[0]]


def times(sizes):
    try:
        import torch
    except ImportError:
        torch = None
    variants = (("regs128", None, 128),)
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            tab = table(dtype, n, n)
            before, ref = bench_style(launcher(a, {**tab, "fused": False})[0], a, a0)
            now, _ = bench_style(launcher(a, None)[0], a, a0)
            line = [f"{numpy.dtype(dtype).name} n={n}: before(tall,table)={before:.4f} "
                    f"fused(table)={now:.4f}"]
            worst = 0.0
            for name, mod, regs in (("regs80", None, 80),) + variants:
                items = []
                for g, pb in SWEEP[n]:
                    go, cfg = launcher(a, {"kernel": "cols", "group": g, "per_block": pb,
                                           "regs": regs}, mod)
                    ms, out = bench_style(go, a, a0)
                    worst = max(worst, rel(out[1], ref[1]))
                    items.append(f"g{cfg['group']}x{cfg['per_block']}:{ms:.4f}")
                line.append(f"  {name}: " + " ".join(items))
            vend = ""
            if torch is not None and n <= 64:
                ta = torch.as_tensor(a0, device="cuda")
                try:
                    vend = f"{timeit(lambda: torch.linalg.svdvals(ta, driver='gesvda'), 3, 1):.4f}"
                except Exception as exc:
                    vend = type(exc).__name__
            line.append(f"  svdvals(gesvda)={vend} max rel d diff vs before={worst:.1e}")
            print("\n".join(line), flush=True)
            del a0, a


EXP_FUSED = {16: ((8, 16), (8, 32), (4, 32), (16, 8)), 32: ((16, 8), (32, 2), (32, 4)),
             64: ((64, 2), (32, 2), (64, 4)), 128: ((128, 1),)}
EXP_TALL = {8: ((4, 0), (8, 0)), 16: ((4, 32), (8, 16), (8, 32), (16, 8)),
            32: ((16, 8), (32, 2), (32, 4)), 64: ((32, 2), (64, 2), (64, 4))}


def exp():
    """Fused with 16-byte against scalar broadcast loads (same run), tall group sweeps."""
    scal = variant_module([SCALAR])
    for dtype in (numpy.float64, numpy.float32):
        for n in (8, 16, 32, 64, 128):
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            line = [f"{numpy.dtype(dtype).name} n={n}:"]
            items = []
            for g, pb in EXP_TALL.get(n, ()):
                go, cfg = launcher(a, {"group": g, "per_block": pb, "fused": False})
                items.append(f"g{cfg['group']}x{cfg['per_block']}:{bench_style(go, a, a0)[0]:.4f}")
            line.append("  tall: " + " ".join(items))
            for regs in (80, 128):
                for name, mod in (("vec16", None), ("scalar", scal)):
                    items = []
                    for g, pb in EXP_FUSED.get(n, ()):
                        go, cfg = launcher(a, {"group": g, "per_block": pb, "regs": regs}, mod)
                        items.append(f"g{cfg['group']}x{cfg['per_block']}:"
                                     f"{bench_style(go, a, a0)[0]:.4f}")
                    line.append(f"  fused r{regs} {name}: " + " ".join(items))
            print("\n".join(line), flush=True)
            del a0, a


# HEAD's configurations (gebd2_tall; groups from linalg/tuning/nvidia_h100_80gb_hbm3.json)
HEAD = {("float32", 16): (8, 0), ("float32", 32): (16, 0), ("float32", 64): (64, 4),
        ("float64", 32): (32, 2)}
# gebrd rows proposed for nvidia_h100_80gb_hbm3.json (its rows shadow default.json's there)
REC_H100 = {("float32", 16): {"kernel": "cols", "group": 8, "fused": False},
            ("float32", 64): {"kernel": "cols", "group": 64, "per_block": 4, "fused": False},
            ("float32", 128): {"kernel": "cols", "regs": 128},
            ("float64", 128): {"kernel": "cols", "regs": 128}}


def final():
    """Before (HEAD's plan) / after (the tables' plan as delivered, and with REC_H100), torch
    svdvals(gesvda), and the seed-003 bound from our GEMV-T and cuBLAS batched GEMM rates."""
    try:
        import torch
    except ImportError:
        torch = None
    for dtype in (numpy.float64, numpy.float32):
        name = numpy.dtype(dtype).name
        for n in (8, 16, 32, 64, 128):
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            g, pb = HEAD.get((name, n), (0, 0))
            before = bench_style(launcher(a, {"group": g, "per_block": pb, "fused": False})[0],
                                 a, a0, 9)[0]
            go, cfg = launcher(a, None)
            after = bench_style(go, a, a0, 9)[0]
            rec = REC_H100.get((name, n))
            after_rec = bench_style(launcher(a, rec)[0], a, a0, 9)[0] if rec else after
            x = cupy.random.standard_normal((BATCH, n)).astype(dtype)
            gemv = 2 * n * n * BATCH / timeit(lambda: blas.gemv(a0, x, trans="T"), 9) / 1e6
            gemm = 2 * n ** 3 * BATCH / timeit(lambda: cupy.matmul(a0, a0), 9) / 1e6
            flop = 4 * n ** 3 / 3 * BATCH
            bound = flop / (gemv * 1e6) + flop / (gemm * 1e6)
            vend = float("nan")
            if torch is not None and n <= 64:
                ta = torch.as_tensor(a0, device="cuda")
                try:
                    vend = timeit(lambda: torch.linalg.svdvals(ta, driver="gesvda"), 3, 1)
                except Exception:
                    pass
            best = min(after, after_rec)
            print(f"{name} n={n:3d} before={before:.4f} after={after:.4f} "
                  f"(plan g{cfg['group']}x{cfg['per_block']} fused={cfg.get('fused')} "
                  f"regs={cfg.get('regs')}) after_rec={after_rec:.4f} gesvda={vend:.4f} "
                  f"x={vend / best:.1f} bound={bound:.4f} ({100 * bound / best:.0f}%) "
                  f"gemv={gemv:.0f} gemm={gemm:.0f} GF/s", flush=True)
            del a0, a


def sanitize():
    for dtype in (numpy.float64, numpy.float32):
        for n, groups in SWEEP.items():
            for m in ((n, n // 2 + 1, 2 * n + 1) if n < 128 else (n,)):
                a = cupy.random.standard_normal((7, m, n)).astype(dtype)
                bidiag.gebrd(a)                               # the table's plan
                bidiag.gebrd(a, REC_H100.get((numpy.dtype(dtype).name, n)))
                for g, pb in groups + ((0, 0),):
                    for regs in (80, 128):
                        a = cupy.random.standard_normal((7, m, n)).astype(dtype)
                        bidiag.gebrd(a, {"kernel": "cols", "group": g, "per_block": pb,
                                         "regs": regs})
    cupy.cuda.Device().synchronize()
    print("sanitize run done", flush=True)


# Variants of the trip loops (the kernel has since call 3 of reports/gpu_20261127f the row
# pass's full trips unrolled by two and cp.async staging; the column pass unrolled by two was
# slower there): the row pass unrolled by four; trips of 64 bytes instead of 32 in the column
# pass (all loads of a trip before its stores), in the row pass, in both.
ROW4 = ("""#pragma unroll 2
        for (; q + U <= L; q += U) row_dots_trip""", """#pragma unroll 4
        for (; q + U <= L; q += U) row_dots_trip""")
COL64 = [("""    constexpr int U = 32 / sizeof(T), V = 16 / sizeof(T);
    T vv[U], aa[U], xx[U], cc[U];""", """    constexpr int U = 64 / sizeof(T), V = 16 / sizeof(T);
    T vv[U], aa[U], xx[U], cc[U];"""), ("""    constexpr int U = 32 / sizeof(T);
    T w[U];""", """    constexpr int U = 64 / sizeof(T);
    T w[U];""")]
ROW64 = [("""    constexpr int U = 32 / sizeof(T), V = 16 / sizeof(T);
    T uu[U], tt[U], cc[U];""", """    constexpr int U = 64 / sizeof(T), V = 16 / sizeof(T);
    T uu[U], tt[U], cc[U];"""), ("""    constexpr int U = 32 / sizeof(T);
    T yw[U], sw[U];""", """    constexpr int U = 64 / sizeof(T);
    T yw[U], sw[U];""")]
# Up to 168 registers a thread where the group is wider than a warp (blocks of at most 384
# threads; the UNROLL_CASES launch 128): shared memory, not registers, bounds their occupancy.
REGS168 = ("""__launch_bounds__(REGS == 128 ? (WIDE ? 512 : 256)""",
           """__launch_bounds__(REGS == 128 ? (WIDE ? 384 : 256)""")
UNROLL_CASES = (("float64", 64), ("float64", 48), ("float64", 128), ("float32", 128),
                ("float32", 64))


def unroll():
    """The table's gebrd_cols row (peel on) with ROW4, COL64, ROW64, both 64-byte trips, REGS168
    and REGS168 with both against the kernel as it is, interleaved, best of two; results
    compared with the kernel's (relative max difference of d). Calls 2 and 3 of
    reports/gpu_20261127f timed the variants the kernel took (and the column pass unrolled by
    two) the same way."""
    cfgs = {}
    for dname, n in UNROLL_CASES:
        dtype = numpy.dtype(dname)
        cfgs[dname, n] = bidiag.plan(n, n, dtype, {**table(dtype, n, n), "peel": True})
    exprs = sorted({_cols_expr("double" if d == "float64" else "float", c["group"], c["regs"],
                               c["shared_s"], c["peel"]) for (d, _), c in cfgs.items()})
    mods = {"row4": variant_module([ROW4], exprs), "col64": variant_module(COL64, exprs),
            "row64": variant_module(ROW64, exprs), "both64": variant_module(COL64 + ROW64, exprs),
            "regs168": variant_module([REGS168], exprs),
            "both64regs168": variant_module(COL64 + ROW64 + [REGS168], exprs)}
    for dname, n in UNROLL_CASES:
        dtype = numpy.dtype(dname)
        a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
        a = a0.copy()
        params = {**table(dtype, n, n), "peel": True}
        best, diff = {}, {}
        for _ in range(2):
            ms, ref = bench_style(launcher(a, params)[0], a, a0)
            best["base"] = min(best.get("base", float("inf")), ms)
            for name, mod in mods.items():
                ms, out = bench_style(launcher(a, params, mod)[0], a, a0)
                best[name] = min(best.get(name, float("inf")), ms)
                diff[name] = rel(out[1], ref[1])
        print(f"unroll {dname} n={n} ({cfgs[dname, n]['group']}x{cfgs[dname, n]['per_block']}, "
              f"regs {cfgs[dname, n]['regs']}): " + " ".join(f"{k}={v:.4f}" for k, v in
                                                          best.items())
              + " d diff " + " ".join(f"{k}={v:.1e}" for k, v in diff.items()), flush=True)
        del a, a0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "times"
    if mode == "check":
        check()
    elif mode == "exp":
        exp()
    elif mode == "final":
        final()
    elif mode == "sanitize":
        sanitize()
    elif mode == "unroll":
        unroll()
    else:
        times([int(x) for x in sys.argv[2:]] or [8, 16, 32, 64, 128])
