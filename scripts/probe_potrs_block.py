"""(python3 scripts/probe_potrs_block.py [small]) POTRS 33..64 with nrhs = n, batch 10240: tri_pair_potrs (block) vs tri_pair POTRS (pair), the
recursion (PAIR_UPTO = 0) and torch.cholesky_solve, same run; argv[1] == "small": sanitizer run."""
import statistics, sys
import numpy, cupy
from linalg._cuda import triangular as tri, cholesky as chol
ALL = frozenset((numpy.dtype(numpy.float64), numpy.dtype(numpy.float32)))

def timeit(fn, reset, reps=15):
    s, e = cupy.cuda.Event(), cupy.cuda.Event(); out = []
    for i in range(reps + 3):
        reset(); s.record(); fn(); e.record(); e.synchronize()
        if i >= 3: out.append(cupy.cuda.get_elapsed_time(s, e))
    return statistics.median(out)

def setup(dtype, n, batch, nrhs, lower=True):
    g = cupy.random.default_rng(n)
    x = g.standard_normal((batch, n, n), dtype=numpy.float64)
    a = (x @ x.swapaxes(1, 2) / n + cupy.eye(n)).astype(dtype)
    l, _ = chol.potrf(a.copy(), lower)
    b = g.standard_normal((batch, n, nrhs), dtype=numpy.float64).astype(dtype)
    return a, l, b

def small():
    for dtype in (numpy.float64, numpy.float32):
        for n, nrhs, lower in ((64, 7, True), (47, 100, False), (33, 64, True), (64, 65, False)):
            a, l, b = setup(dtype, n, 5, nrhs, lower)
            bw = b.copy(); info = tri.tri_pair(l, bw, tri.TRI_LOWER if lower else 0, tri.TRI_WARP_POTRS)
            err = float(cupy.abs(a @ bw - b).max())
            print(numpy.dtype(dtype).name, n, nrhs, lower, "resid", err, "info", int(info.max()))

def bench():
    for dtype in (numpy.float64, numpy.float32):
        for n in (33, 48, 64):
            a, l, b = setup(dtype, n, 10240, n)
            bw = cupy.empty_like(b); reset = lambda: cupy.copyto(bw, b)
            fn = lambda: chol.potrs(l, bw, True)
            res = {}
            for name, potrs_kind, upto in (("block", "block", 64), ("pair", "pair", 64), ("recursion", "block", 0)):
                tri.PAIR_POTRS_BLOCK, tri.PAIR_UPTO = (ALL if potrs_kind == "block" else frozenset()), upto
                rules = dict(tri.PAIR_RULES); tri.PAIR_RULES[("potrs", numpy.dtype(dtype).name)] = "all"
                reset(); fn(); r = bw.copy()
                res[name] = (timeit(fn, reset), float(cupy.abs(r - cupy.linalg.solve(a, b)).max()))
                tri.PAIR_RULES.clear(); tri.PAIR_RULES.update(rules)
            tri.PAIR_POTRS_BLOCK, tri.PAIR_UPTO = ALL, 64
            try:
                import torch
                tl, tb = torch.as_tensor(l, device="cuda"), torch.as_tensor(b, device="cuda")
                tv = timeit(lambda: torch.cholesky_solve(tb, tl), lambda: None)
            except ImportError:
                tv = float("nan")
            print(numpy.dtype(dtype).name, f"n={n}", "; ".join(f"{k} {t:.3f} ms (err {e:.1e})" for k, (t, e) in res.items()),
                  f"; torch {tv:.3f} ms; speedup vs torch {tv / res['block'][0]:.2f}x", flush=True)
    for kind in ("block", "pair"):
        tri.PAIR_POTRS_BLOCK = ALL if kind == "block" else frozenset()
        a, l, b = setup(numpy.float64, 64, 10240, 64)
        aw, bw = cupy.empty_like(a), cupy.empty_like(b)
        t = timeit(lambda: chol.posv(aw, bw, True), lambda: (cupy.copyto(aw, a), cupy.copyto(bw, b)))
        print(f"posv float64 n=64 nrhs=64 {kind} {t:.3f} ms", flush=True)

small() if sys.argv[1:] == ["small"] else bench()
