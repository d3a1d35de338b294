"""gebrd_reg probe (device). Modes:
  check     every matrix of big batches: singular values of B (d, e) against numpy.linalg.svd of
            A, and d/e/tau/reflectors against gebrd_cols's (the same dgebd2 up to rounding)
  times     bench-style ms at batch 10240: gebrd_reg (per_block sweep) against the table's plan
            and torch svdvals(gesvda)
  sanitize  small batches of every gebrd_reg instantiation (run under compute-sanitizer)
  sanitize_shrink  the same for the shrink instantiations only
  sanitize_cols_options  small batches of gebrd_cols with shared_s, peel and both (groups,
            matrices per block, both register budgets, wide and tall)
  peel [n ...]  default calls with peel on / off everywhere (the tables' rows patched) at
            every size gebrd_cols serves, gebrd_blocked's too (its rest runs gebrd_cols)
  pick [KEY ...]  the candidates of PICK per (dtype, n) (only the keys given, e.g.
            float64:64:pb) timed twice, interleaved; the fastest (if 2%
            below the first, the table's row before) written into the "gebrd" rows of the tuning
            table of the GPU it runs on (linalg/tuning/<gpu>.json), with the numbers as its reason;
            the rows also to $OUT/gebrd_pick.json.
            Sizes that are not their own shape class (n = 48: the 64x64 row) are timed only
  check [JSON]  as check, gebrd_reg with the JSON's parameters added (e.g. '{"shrink": true}');
            with "kernel": "cols" in it, gebrd_cols on COLS_SHAPES instead"""
import os
import sys

import numpy
import cupy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from bench_blas import timeit  # noqa: E402
from linalg._cuda import bidiag  # noqa: E402
from tests.linalg.helpers import bidiagonal_singular_values  # noqa: E402

BATCH = 10240


REG_SHAPES = [(8, 8), (16, 16), (32, 32), (5, 3), (3, 5), (31, 17), (17, 31), (20, 20), (1, 1),
              (32, 1), (1, 32), (9, 9), (24, 7), (7, 24), (2, 2)]
COLS_SHAPES = [(64, 64), (48, 48), (33, 33), (63, 63), (64, 40), (40, 64), (100, 31), (31, 100),
               (128, 128), (32, 32), (16, 16), (5, 3), (64, 1), (1, 64)]
FULL_BATCH = ((8, 8), (16, 16), (32, 32), (64, 64), (48, 48))     # every matrix of 10240


def check(extra=None):
    extra = {"kernel": "reg", **(extra or {})}
    bad_total = 0
    shapes = COLS_SHAPES if extra["kernel"] == "cols" else REG_SHAPES
    for dtype in (numpy.float64, numpy.float32):
        eps = numpy.finfo(dtype).eps
        for m, n in shapes:
            batch = BATCH if (m, n) in FULL_BATCH else 1000
            a0 = cupy.random.standard_normal((batch, m, n)).astype(dtype)
            a = a0.copy()
            got = [cupy.asnumpy(x).astype(numpy.float64) for x in bidiag.gebrd(a, extra)]
            a = a0.copy()
            ref = [cupy.asnumpy(x).astype(numpy.float64)
                   for x in bidiag.gebrd(a, {"kernel": "cols", "fused": False})]
            an = cupy.asnumpy(a0).astype(numpy.float64)
            s_ref = numpy.linalg.svd(an, compute_uv=False)
            s = bidiagonal_singular_values(got[1], got[2])
            tol = 30 * max(m, n) * eps
            err_s = numpy.abs(s - s_ref).max(axis=1) / s_ref.max(axis=1)
            nbad = int((err_s > tol).sum())
            diffs = []
            for x, y in zip(got, ref):
                if x.size:
                    per = numpy.abs(x - y).reshape(batch, -1).max(axis=1)
                    scale = numpy.maximum(1, numpy.abs(y).reshape(batch, -1).max(axis=1))
                    diffs.append(per / scale)
                else:
                    diffs.append(numpy.zeros(batch))
            worst = [float(dd.max()) for dd in diffs]
            nbad_ref = int((numpy.max(diffs, axis=0) > 1e3 * max(m, n) * eps).sum())
            bad_total += nbad + nbad_ref
            print(f"check {numpy.dtype(dtype).name} {m}x{n} batch {batch}: sv bad {nbad} "
                  f"(max rel {err_s.max():.1e}), vs cols bad {nbad_ref} max "
                  + " ".join(f"{w:.1e}" for w in worst), flush=True)
            # per_block variants agree bit for bit with the default
            for pb in (1, 4):
                a = a0.copy()
                other = [cupy.asnumpy(x).astype(numpy.float64)
                         for x in bidiag.gebrd(a, {**extra, "per_block": pb})]
                same = all(numpy.array_equal(x, y) for x, y in zip(other, got))
                bad_total += not same
                if not same:
                    print(f"  per_block {pb}: DIFFERENT", flush=True)
    print("check failures:", bad_total, flush=True)


def bench_style(go, a, a0, reps=9):
    def run():
        a[...] = a0
        go()
    return timeit(run, reps, 2, 5) - timeit(lambda: a.__setitem__(Ellipsis, a0), reps, 2, 5)


def times(sizes):
    try:
        import torch
    except ImportError:
        torch = None
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            items = [f"table={bench_style(lambda: bidiag.gebrd(a), a, a0):.4f}"
                     f"({bidiag.plan(n, n, dtype)['kernel']})"]
            for pb in (0, 1, 2, 8):
                p = {"kernel": "reg", "per_block": pb}
                cfg = bidiag.plan(n, n, dtype, p)
                ms = bench_style(lambda: bidiag.gebrd(a, p), a, a0)
                items.append(f"reg{cfg['group']}x{cfg['per_block']}={ms:.4f}")
            vend = float("nan")
            if torch is not None and (n <= 32 or dtype == numpy.float64):
                ta = torch.as_tensor(a0, device="cuda")
                try:
                    vend = timeit(lambda: torch.linalg.svdvals(ta, driver="gesvda"), 3, 1)
                except Exception:
                    pass
            print(f"{numpy.dtype(dtype).name} n={n}: " + " ".join(items) + f" gesvda={vend:.4f}",
                  flush=True)
            del a, a0


BOUNDS_OLD = "__global__ void __launch_bounds__(256, 2)\ngebrd_reg"


def variant(bounds):
    """gebrd.cu with gebrd_reg's launch bounds replaced (a register budget sweep)."""
    from linalg._cuda import _compile
    from cupy_backends.cuda.api import driver
    kdir = os.path.join(HERE, "..", "kernels")
    src = open(os.path.join(kdir, "gebrd.cu")).read()
    assert BOUNDS_OLD in src
    src = src.replace(BOUNDS_OLD, f"__global__ void __launch_bounds__{bounds}\ngebrd_reg")
    exprs = [f"gebrd_reg<{t}, {nn}>" for t in ("float", "double") for nn in (8, 16, 32)]
    mod = cupy.RawModule(code=src, options=("--std=c++17", f"-I{kdir}"), name_expressions=exprs)

    def go_for(a, per_block=0):
        batch, m, n = a.shape
        cfg = bidiag.plan(m, n, a.dtype, {"kernel": "reg", "per_block": per_block})
        t = "double" if a.dtype == numpy.float64 else "float"
        fn = mod.get_function(f"gebrd_reg<{t}, {cfg['group']}>")
        launch = _compile.Launcher(fn, "qiipppppi", cupy.ndarray, driver.launchKernel,
                                   cupy.cuda.get_current_stream)
        grid = bidiag.grid_for(batch, cfg["per_block"])
        regs = fn.num_regs
        local = fn.local_size_bytes

        def go():
            d, e, tq, tp = bidiag._outputs(batch, min(m, n), a.dtype)
            launch(grid, cfg["group"] * cfg["per_block"],
                   (batch, m, n, a, d, e, tq, tp, cfg["group"]), cfg["smem"])
            return a, d, e, tq, tp
        return go, regs, local
    return go_for


def bounds_sweep():
    variants = {b: variant(b) for b in ("(256, 2)", "(256)", "(128, 3)", "(128, 4)", "(256, 1)")}
    for dtype in (numpy.float64, numpy.float32):
        for n in (8, 16, 32):
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            items = [f"table={bench_style(lambda: bidiag.gebrd(a), a, a0):.4f}"]
            for b, go_for in variants.items():
                for pb in ((0, 2) if n == 32 else (0,)):
                    if b.startswith("(128") and pb * n > 128:
                        continue
                    go, regs, local = go_for(a, pb)
                    items.append(f"{b}pb{pb}[r{regs},l{local}]={bench_style(go, a, a0):.4f}")
            print(f"bounds {numpy.dtype(dtype).name} n={n}: " + " ".join(items), flush=True)
            del a, a0


VARIANTS = ((False, False), (True, False), (False, True), (True, True))


def variants(which=None):
    """gebrd_reg's shared-memory options (trs: y = C u by a transposition through shared memory
    instead of shuffles; stage: the output staged in shared memory, stored coalesced) against the
    table's plan and gebrd_cols; then every variant's singular values on all matrices."""
    try:
        import torch
    except ImportError:
        torch = None
    for dtype in (numpy.float64, numpy.float32):
        for n in (8, 16, 32):
            if which and f"{numpy.dtype(dtype).name[5:]}:{n}" not in which:
                continue
            a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
            a = a0.copy()
            cols = {"kernel": "cols"}
            cols.update({k: v for k, v in bidiag.params("gebrd", dtype, n, n).items()
                         if k in ("group", "per_block", "fused", "regs")})
            items = [f"table={bench_style(lambda: bidiag.gebrd(a), a, a0):.4f}",
                     f"cols={bench_style(lambda: bidiag.gebrd(a, cols), a, a0):.4f}"]
            an = cupy.asnumpy(a0).astype(numpy.float64)
            s_ref = numpy.linalg.svd(an, compute_uv=False)
            bad = []
            for trs, stage in VARIANTS:
                for pb in (0,):
                    p = {"kernel": "reg", "trs": trs, "stage": stage, "per_block": pb}
                    ms = bench_style(lambda: bidiag.gebrd(a, p), a, a0)
                    items.append(f"t{int(trs)}s{int(stage)}pb{pb}={ms:.4f}")
                a[...] = a0
                out = bidiag.gebrd(a, {"kernel": "reg", "trs": trs, "stage": stage})
                sv = bidiagonal_singular_values(cupy.asnumpy(out[1]).astype(numpy.float64),
                               cupy.asnumpy(out[2]).astype(numpy.float64))
                err = numpy.abs(sv - s_ref).max(axis=1) / s_ref.max(axis=1)
                bad.append(int((err > 30 * n * numpy.finfo(dtype).eps).sum()))
            vend = float("nan")
            if torch is not None:
                ta = torch.as_tensor(a0, device="cuda")
                try:
                    vend = timeit(lambda: torch.linalg.svdvals(ta, driver="gesvda"), 3, 1)
                except Exception:
                    pass
            print(f"variants {numpy.dtype(dtype).name} n={n}: " + " ".join(items)
                  + f" gesvda={vend:.4f} sv-bad={bad}", flush=True)
            del a, a0


def sanitize():
    for dtype in (numpy.float64, numpy.float32):
        for m, n in ((8, 8), (5, 3), (3, 5), (16, 16), (11, 9), (9, 11), (32, 32), (31, 17),
                     (17, 31), (1, 1), (32, 1), (1, 32)):
            for pb in (0, 1, 3):
                for trs, stage in VARIANTS:
                    a = cupy.random.standard_normal((7, m, n)).astype(dtype)
                    bidiag.gebrd(a, {"kernel": "reg", "per_block": pb, "trs": trs,
                                     "stage": stage})
            z = cupy.zeros((3, m, n), dtype)
            bidiag.gebrd(z, {"kernel": "reg"})
    cupy.cuda.Device().synchronize()
    print("sanitize run done", flush=True)


def sanitize_shrink():
    for dtype in (numpy.float64, numpy.float32):
        for m, n in ((16, 16), (11, 9), (9, 11), (32, 32), (31, 17), (17, 31), (20, 20), (32, 1),
                     (1, 32), (8, 8)):
            for pb in (0, 3):
                for trs, stage in VARIANTS:
                    a = cupy.random.standard_normal((7, m, n)).astype(dtype)
                    bidiag.gebrd(a, {"kernel": "reg", "per_block": pb, "trs": trs,
                                     "stage": stage, "shrink": True})
            z = cupy.zeros((3, m, n), dtype)
            bidiag.gebrd(z, {"kernel": "reg", "shrink": True})
    cupy.cuda.Device().synchronize()
    print("sanitize_shrink run done", flush=True)


def _cols(group, per_block, regs=128, **options):
    return {"kernel": "cols", "group": group, "per_block": per_block, "regs": regs, **options}


BOTH = {"shared_s": True, "peel": True}


def sanitize_cols_options():
    runs = [(0, 0, 128, {"shared_s": True}), (0, 0, 128, {"peel": True}), (0, 0, 128, BOTH),
            (0, 0, 80, BOTH), (32, 2, 128, BOTH), (16, 3, 80, BOTH), (0, 0, 128, {"peel": False}),
            (64, 2, 80, {"peel": False})]
    for dtype in (numpy.float64, numpy.float32):
        for m, n in ((64, 64), (48, 48), (33, 33), (40, 64), (64, 40), (17, 9), (100, 31),
                     (64, 1)):
            for group, pb, regs, options in runs:
                a = cupy.random.standard_normal((7, m, n)).astype(dtype)
                bidiag.gebrd(a, _cols(group, pb, regs, **options))
            z = cupy.zeros((3, m, n), dtype)
            bidiag.gebrd(z, {"kernel": "cols", **BOTH})
    cupy.cuda.Device().synchronize()
    print("sanitize_cols_options run done", flush=True)


# (dtype, n): candidates, the first the table's row before this probe (kept unless another is
# 2% faster). n = 48 shares the 64x64 row: timed only, to see whether the 64 choice holds there.
PICK = {
    ("float64", 32): [{"kernel": "cols", "group": 32, "per_block": 2},
                      {"kernel": "reg"},
                      {"kernel": "reg", "shrink": True},
                      {"kernel": "reg", "shrink": True, "per_block": 2},
                      {"kernel": "reg", "shrink": True, "stage": True}],
    ("float64", 16): [{"kernel": "reg", "trs": True, "stage": True},
                      {"kernel": "reg", "trs": True, "stage": True, "shrink": True},
                      {"kernel": "reg", "shrink": True}],
    ("float32", 16): [{"kernel": "reg"}, {"kernel": "reg", "shrink": True}],
    ("float32", 32): [{"kernel": "reg"}, {"kernel": "reg", "shrink": True},
                      {"kernel": "reg", "shrink": True, "stage": True}],
    ("float64", 64): [_cols(64, 2), _cols(32, 2), _cols(32, 4), _cols(64, 3),
                      _cols(64, 2, shared_s=True), _cols(64, 2, peel=True), _cols(64, 2, **BOTH),
                      _cols(64, 3, **BOTH), _cols(32, 2, **BOTH), _cols(32, 4, **BOTH),
                      _cols(64, 2, regs=80, **BOTH)],
    ("float64", 48): [_cols(64, 2), _cols(64, 2, shared_s=True), _cols(64, 2, peel=True),
                      _cols(64, 2, **BOTH), _cols(32, 2, **BOTH)],
    # 2026-11-27 (reports/gpu_20261127f call 2): matrices per block and 80 registers at float64
    # n = 64 with peel: pick float64:64:pb
    ("float64", 64, "pb"): [_cols(64, 2, peel=True), _cols(64, 1, peel=True),
                            _cols(64, 2, regs=80, peel=True)],
    # 2026-11-27, gebrd_cols with peel (now its default), its row pass unrolled and cp.async
    # staging against gebrd_reg at n = 32: pick float64:32:cols float32:32:cols
    ("float64", 32, "cols"): [{"kernel": "reg", "shrink": True, "per_block": 2}, _cols(32, 2),
                              _cols(32, 4), _cols(32, 1), _cols(32, 2, regs=80),
                              _cols(32, 2, shared_s=True)],
    ("float32", 32, "cols"): [{"kernel": "reg", "shrink": True, "stage": True}, _cols(32, 2),
                              _cols(32, 4), _cols(32, 8), _cols(32, 4, shared_s=True)],
    ("float32", 64): [{"kernel": "cols", "group": 64, "per_block": 4, "fused": False},
                      _cols(64, 4), _cols(64, 4, shared_s=True), _cols(64, 4, peel=True),
                      _cols(64, 4, **BOTH), _cols(64, 2, **BOTH), _cols(32, 4, **BOTH)],
    ("float32", 48): [{"kernel": "cols", "group": 64, "per_block": 4, "fused": False},
                      _cols(64, 4), _cols(64, 4, **BOTH)],
}


def _label(p):
    return ",".join(f"{k}={v}" for k, v in p.items())


def pick(only=()):
    """The PICK entries whose key, joined by ':' (e.g. float64:64:pb), is in `only`
    (all of them if empty)."""
    import json
    from linalg import _tuning
    gpu = _tuning.gpu_name()
    rows = {}
    for key, cands in PICK.items():
        if only and ":".join(map(str, key)) not in only:
            continue
        dname, n = key[:2]
        dtype = numpy.dtype(dname)
        a0 = cupy.random.standard_normal((BATCH, n, n)).astype(dtype)
        a = a0.copy()
        best = [float("inf")] * len(cands)
        for _ in range(2):
            for q, p in enumerate(cands):
                best[q] = min(best[q], bench_style(lambda: bidiag.gebrd(a, p), a, a0))
        win = min(range(len(cands)), key=lambda q: best[q])
        if best[win] > 0.98 * best[0]:
            win = 0
        nums = ", ".join(f"{{{_label(p)}}} {t:.4f}" for p, t in zip(cands, best))
        print(f"pick {dname} {n}x{n}: {nums} -> {{{_label(cands[win])}}}", flush=True)
        del a, a0
        if _tuning.shape_class(n, n) != f"{n}x{n}":
            continue                    # timed only: another size's row
        row = dict(cands[win])
        row["reason"] = (f"GEBRD {gpu} batch 10240 {__import__('datetime').date.today()} "
                         f"(scripts/probe_gebrd_reg.py pick, bench-style ms, best of two, same "
                         f"run): {nums}")
        rows[f"{dname}:{n}x{n}"] = row
    table = {}
    for key, row in rows.items():
        dname, cls = key.split(":")
        table.setdefault(dname, {})[cls] = row
    _tuning.install(gpu, {"gebrd": table}, keep=("team", "teams_per_block", "unroll"))
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "gebrd_pick.json"), "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)


PEEL_SIZES = (8, 12, 24, 40, 48, 64, 80, 96, 128, 160, 200, 256, 384, 512)


def _with_peel(on):
    """The tuning tables' gebrd rows as they are (on=None) or with peel forced on / off, through
    _tuning.lookup, the launch caches emptied (gebrd_blocked's rest runs the default plan)."""
    from linalg import _tuning
    original = getattr(_tuning, "_lookup_unpatched", _tuning.lookup)
    _tuning._lookup_unpatched = original

    def lookup(op, dtype, cls, gpu=None):
        row = original(op, dtype, cls, gpu)
        return row if op != "gebrd" or on is None else {**row, "peel": on}
    _tuning.lookup = lookup
    bidiag._default_plan.cache_clear()
    bidiag._launch.cache_clear()


def peel_default(sizes=PEEL_SIZES):
    """Default gebrd calls with the tables' rows, with `peel` on everywhere and off everywhere
    (interleaved, best of two, bench-style ms), at every size class gebrd_cols serves and at
    gebrd_blocked's sizes (whose rest runs gebrd_cols); then singular values of the peel-on
    results against LAPACK's."""
    for dtype in (numpy.float64, numpy.float32):
        for n in sizes:
            batch = BATCH if n <= 128 else (2048 if n <= 256 else 256)
            a0 = cupy.random.standard_normal((batch, n, n)).astype(dtype)
            a = a0.copy()
            best = {}
            for _ in range(2):
                for name, on in (("table", None), ("peel", True), ("nopeel", False)):
                    _with_peel(on)
                    ms = bench_style(lambda: bidiag.gebrd(a), a, a0, reps=5)
                    best[name] = min(best.get(name, float("inf")), ms)
            _with_peel(None)
            cfg = bidiag.plan(n, n, dtype)
            _with_peel(True)
            a[...] = a0
            out = bidiag.gebrd(a)
            checked = min(batch, 256 if n <= 128 else 32)
            sv = bidiagonal_singular_values(
                cupy.asnumpy(out[1][:checked]).astype(numpy.float64),
                cupy.asnumpy(out[2][:checked]).astype(numpy.float64))
            s_ref = numpy.linalg.svd(cupy.asnumpy(a0[:checked]).astype(numpy.float64),
                                     compute_uv=False)
            err = numpy.abs(sv - s_ref).max(axis=1) / s_ref.max(axis=1)
            bad = int((err > 30 * n * numpy.finfo(dtype).eps).sum())
            _with_peel(None)
            print(f"peel {numpy.dtype(dtype).name} n={n} batch {batch} ({cfg['kernel']}, table "
                  f"peel={cfg.get('peel')}): " + " ".join(f"{k}={v:.4f}" for k, v in best.items())
                  + f" ratio nopeel/peel={best['nopeel'] / best['peel']:.3f}"
                  + f" sv-bad={bad}/{checked}",
                  flush=True)
            del a, a0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "times"
    if mode == "check":
        import json
        check(json.loads(sys.argv[2]) if len(sys.argv) > 2 else None)
    elif mode == "sanitize_shrink":
        sanitize_shrink()
    elif mode == "sanitize_cols_options":
        sanitize_cols_options()
    elif mode == "pick":
        pick(sys.argv[2:])
    elif mode == "peel":
        peel_default([int(x) for x in sys.argv[2:]] or PEEL_SIZES)
    elif mode == "variants":
        variants(sys.argv[2:])
    elif mode == "bounds":
        bounds_sweep()
    elif mode == "sanitize":
        sanitize()
    else:
        times([int(x) for x in sys.argv[2:]] or [8, 16, 32])
