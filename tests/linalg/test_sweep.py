"""A seeded random sweep of the public API: sizes and batch counts drawn around the dispatch
rules' boundaries (TILE_RULES, the one-tile and chunked grids, the batch floors), every operation,
random variants and dtypes, checked with LAPACK-style scaled residuals computed in float64
(complex128) by the array module's own matrix product (cuBLAS on the GPU, NumPy's BLAS on the CPU).

The fixed-size tests run batches of 1, 3 and 1000; the kernels the rules choose only for large
batches (3000+ matrices) or at sizes between the tested ones are reached here. The unreferenced
triangles hold NaN (and the diagonal too with ``unit_diagonal``), a C not read (beta = 0) is all
NaN, and some POTRF / POSV / POTI batches hold one matrix that is not positive definite, which
must be reported by index with its neighbours right.

The CPU run (real and complex dtypes; complex cases conjugate every other transposed operand)
keeps every operand below 2^17 numbers; the GPU run (``-m gpu``) below 2^26, so that
n = 8 reaches 10^6 matrices and n = 512 256: a case holds up to ~6 GB of the GPU's memory at once
(its float64 references); 15 workers of a draw of 100 an operation peaked at 34 GB on an H200.

The layout draws (``test_sweep_layouts_*``, another seed) present every operand in another batch
form -- padded rows, spaced matrices, matrices by columns, pointer lists -- and set every
overwrite flag in half the calls; nothing around an operand may change, nor an operand the call
was not given to overwrite. The busy-stream draw runs on a non-blocking stream of the caller's
whose operands read NaN until a hold on it ends: a launch on any other stream reads NaN.
"""
import inspect
import math
import os
from collections import namedtuple

import numpy
import pytest

import linalg

from .helpers import THRESHOLD, eps

Case = namedtuple("Case", "op dtype n batch opts seed")

OPS = ("potrf", "potrs", "posv", "potri", "poti", "trsm", "trmm", "trtri", "lauum", "syrk",
       "gemm", "gemv", "trsv", "gebrd")
# Sizes at and beside the dispatch rules' bounds (linalg/_cuda/*.py), drawn half the time.
EDGES = (1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 24, 27, 31, 32, 33, 40, 47, 48, 49, 54, 55, 56, 57,
         59, 60, 62, 63, 64, 65, 66, 72, 76, 77, 80, 88, 96, 97, 100, 104, 112, 120, 127, 128, 129,
         144, 145, 146, 160, 192, 200, 255, 256, 257, 300, 384, 511, 512)
# Batch counts at and beside the rules' batch floors; capped by the element budget.
BATCHES = (1, 2, 3, 7, 64, 100, 200, 201, 299, 300, 1000, 2000, 2001, 2999, 3000, 4096, 10240,
           20000, 65536, 100000, 300000, 1000000)
HYDRO = ((18, 4), (32, 9), (81, 8), (192, 27), (375, 64))      # corner-force (rows, cols)
CPU_ELEMENTS, GPU_ELEMENTS = 1 << 17, 1 << 26
REAL = ("float32", "float64")
ALL_DTYPES = REAL + ("complex64", "complex128")


def _options(op, n, gen):
    """Random variant of ``op`` at size n: a dict of the call's options and shapes."""
    pick = lambda *v: v[int(gen.integers(len(v)))]                     # noqa: E731
    lower = bool(gen.integers(2))
    if op in ("potrf", "poti", "posv"):
        opts = {"lower": lower, "bad": n > 1 and gen.random() < 0.3}
        if op == "posv":
            opts["nrhs"] = pick(0, 1, 2, n, int(gen.integers(1, 65)))
        return opts
    if op == "potrs":
        return {"lower": lower, "nrhs": pick(0, 1, 2, n, int(gen.integers(1, 65)))}
    if op in ("potri", "lauum"):
        return {"lower": lower}
    if op in ("trsm", "trmm"):
        return {"lower": lower, "side": pick("left", "right"), "trans": pick("N", "T"),
                "unit": bool(gen.integers(2)), "alpha": pick(1.0, -0.5),
                "nrhs": pick(1, 2, n, int(gen.integers(1, 65)))}
    if op == "trtri":
        return {"lower": lower, "unit": bool(gen.integers(2))}
    if op == "trsv":
        return {"lower": lower, "trans": pick("N", "T"), "unit": bool(gen.integers(2))}
    if op == "syrk":
        return {"lower": lower, "trans": pick("N", "T"),
                "k": pick(n, 1, 16, int(gen.integers(1, 200))), "alpha": pick(1.0, -0.5),
                "beta": pick(0.0, 0.0, 2.0)}
    rows, cols = HYDRO[int(gen.integers(len(HYDRO)))] if gen.random() < 0.3 else (n, n)
    if op == "gemm":
        return {"m": rows, "n": cols, "k": pick(rows, cols, int(gen.integers(1, 65))),
                "transa": pick("N", "T"), "transb": pick("N", "T"), "alpha": pick(1.0, -0.5),
                "beta": pick(0.0, 2.0)}
    if op == "gemv":
        return {"m": rows, "n": cols, "trans": pick("N", "T"), "alpha": pick(1.0, -0.5),
                "beta": pick(0.0, 2.0)}
    return {"m": rows, "n": pick(cols, max(1, cols // 2))}                # gebrd


def _elements(op, n, opts):
    """Numbers in the largest operand of one matrix of the case."""
    if op in ("gemm", "gemv", "gebrd"):
        m, c = opts["m"], opts["n"]
        return max(m, c) * max(m, c, opts.get("k", 1))
    return n * max(n, opts.get("nrhs", 0), opts.get("k", 0))


def _conjugate_half(op, opts, seed):
    """Complex cases: every other transposed operand (by the case's seed) conjugated too ('C');
    SYRK keeps 'T' (symmetric, not Hermitian, as BLAS ?syrk)."""
    out = dict(opts)
    for bit, key in enumerate(("trans", "transa", "transb")):
        if out.get(key) == "T" and op != "syrk" and (seed >> bit) & 1:
            out[key] = "C"
    return out


def make_cases(per_op, max_elements, seed, dtypes=REAL, layouts=False):
    """``per_op`` cases an operation, drawn with numpy's Generator(seed); dtype names from
    ``dtypes``. With ``layouts`` each case also gets a batch form and overwrite flag
    (:func:`_layout`), drawn from its own seed, so the rest of the draw is the one without."""
    gen = numpy.random.default_rng(seed)
    cases = []
    for op in OPS:
        for _ in range(per_op):
            if gen.random() < 0.5:
                n = EDGES[int(gen.integers(len(EDGES)))]
            else:
                n = int(round(math.exp(gen.uniform(0.0, math.log(512)))))
            opts = _options(op, n, gen)
            cap = max(1, max_elements // _elements(op, n, opts))
            batch = min(BATCHES[int(gen.integers(len(BATCHES)))], cap)
            dtype = dtypes[int(gen.integers(len(dtypes)))]
            case_seed = int(gen.integers(1 << 30))
            if dtype.startswith("complex"):
                opts = _conjugate_half(op, opts, case_seed)
            if layouts:
                opts.update(_layout(batch, case_seed))
            cases.append(Case(op, dtype, n, batch, opts, case_seed))
    return cases


LAYOUTS = ("padded", "spaced", "by_columns", "list")


def _layout(batch, seed):
    """A batch form for every operand of a case: "padded" (rows ``pad`` numbers longer than
    the matrix, NaN in the gap), "spaced" (every other matrix of a batch twice as long, NaN
    between), "by_columns" (each matrix stored by columns; vectors as "padded"), "list" (a
    pointer list of separate arrays; batches up to 1000); ``overwrite``: every overwrite_* flag
    of the call set."""
    pick = numpy.random.default_rng(seed ^ 0x5EED)
    forms = LAYOUTS if batch <= 1000 else LAYOUTS[:3]
    return {"layout": forms[int(pick.integers(len(forms)))], "pad": int(pick.integers(1, 5)),
            "overwrite": bool(pick.integers(2))}


def _present(xp, x, layout, pad):
    """(x in ``layout``, the NaN around it in its buffer as a view, or None)."""
    if layout == "list":
        return [x[i].copy() for i in range(x.shape[0])], None
    if layout == "by_columns" and x.ndim == 3:
        y = xp.empty((x.shape[0], x.shape[2], x.shape[1]), dtype=x.dtype).swapaxes(1, 2)
        y[...] = x
        return y, None
    if layout == "spaced":
        buffer = xp.full((2 * x.shape[0],) + x.shape[1:], numpy.nan, dtype=x.dtype)
        buffer[::2] = x
        return buffer[::2], buffer[1::2]
    buffer = xp.full(x.shape[:-1] + (x.shape[-1] + pad,), numpy.nan, dtype=x.dtype)
    buffer[..., :x.shape[-1]] = x
    return buffer[..., :x.shape[-1]], buffer[..., x.shape[-1]:]


def _stacked(xp, value):
    """A pointer list's arrays as one strided batch; anything else as it is."""
    return xp.stack(value) if isinstance(value, list) else value


# The busy-stream test's hook: a function that holds the current stream for a while (None:
# calls run as they come).
_BUSY = None


def _hold(xp, operands):
    """With _BUSY: every operand NaN (written and waited for) until the stream's hold ends, then
    its values again, so that a launch on another stream reads NaN. Returns the saved values,
    which the caller keeps until the call has returned: freed, their memory could serve the
    call's own copies, where a launch on another stream reading such a copy early would find
    the right values."""
    arrays = [a for v in operands for a in (v if isinstance(v, list) else [v])]
    saved = [a.copy() for a in arrays]
    for a in arrays:
        a.fill(numpy.nan)
    xp.cuda.get_current_stream().synchronize()
    _BUSY()
    for a, value in zip(arrays, saved):
        a[...] = value
    return saved


def _call(xp, case, fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, with the case's batch form and overwrite flag where it has one
    (:func:`_layout`): every batch operand presented so, and checked after the call -- nothing
    written around a padded or spaced operand, the values of operands not given to overwrite
    unchanged. With _BUSY the operands are held (:func:`_hold`). Returns fn's result with
    pointer lists stacked (the checks read strided batches)."""
    layout = case.opts.get("layout")
    if layout is None and _BUSY is None:
        return fn(*args, **kwargs)
    signature = inspect.signature(fn)
    if case.opts.get("overwrite"):
        kwargs.update({p: True for p in signature.parameters if p.startswith("overwrite_")})
    bound = signature.bind(*args, **kwargs)
    given, shown = dict(bound.arguments), {}
    for name, value in given.items():
        if hasattr(value, "ndim") and value.ndim >= 2:
            shown[name] = (_present(xp, value, layout, case.opts["pad"]) if layout
                           else (value, None))
            bound.arguments[name] = shown[name][0]
    held = _hold(xp, [value for value, _ in shown.values()]) if _BUSY is not None else None
    out = fn(*bound.args, **bound.kwargs)
    del held
    where = _case_id(case)
    for name, (value, gap) in shown.items():
        if gap is not None:
            assert bool(xp.isnan(gap).all()), f"{where}: wrote around {name}"
        if layout and not kwargs.get("overwrite_" + name):
            assert bool(xp.array_equal(_stacked(xp, value), given[name], equal_nan=True)), \
                f"{where}: {name} changed without overwrite_{name}"
    if isinstance(out, linalg.GebrdResult):
        return linalg.GebrdResult(*(_stacked(xp, v) for v in out))
    if isinstance(out, tuple):                                   # (result, info)
        return (_stacked(xp, out[0]),) + out[1:]
    return _stacked(xp, out)


def _case_id(case):
    extra = ",".join(f"{k}={v}" for k, v in sorted(case.opts.items()))
    return f"{case.op}-{case.dtype}-n{case.n}-b{case.batch}-{extra}"


# ---------------------------------------------------------------------------------------------
# Inputs and residuals, in the array module xp (numpy or cupy); residuals in float64.

def _t(x):
    return x.swapaxes(-1, -2)


def _h(x):
    """Conjugate transpose of each matrix (the transpose for real dtypes)."""
    return x.swapaxes(-1, -2).conj()


def _op(x, trans):
    """op(x) for a trans word: x, x^T or x^H."""
    return x if trans == "N" else (_t(x) if trans == "T" else _h(x))


def _wide(dtype):
    """The dtype of the references: complex128 for complex dtypes, else float64."""
    return numpy.dtype(numpy.complex128 if dtype.kind == "c" else numpy.float64)


def _randn(gen, shape, dtype):
    """Standard normal entries in ``dtype`` (complex: real and imaginary parts of variance 1/2)."""
    x = gen.standard_normal(shape)
    if dtype.kind == "c":
        x = (x + 1j * gen.standard_normal(shape)) * (0.5 ** 0.5)
    return x.astype(dtype)


def _fro(xp, x):
    """Frobenius norm of each matrix (or 2-norm of each vector) of a batch, float64."""
    return xp.sqrt((abs(x) ** 2).sum(axis=tuple(range(1, x.ndim))))


def _check(xp, name, residual, scale, n, dtype):
    """Assert every matrix's ||residual|| / (n scale eps) < THRESHOLD; name the worst."""
    r = _fro(xp, residual) / (max(n, 1) * xp.maximum(scale, 1e-300) * eps(dtype))
    r = numpy.asarray(r.get() if hasattr(r, "get") else r)
    assert numpy.isfinite(r).all(), f"{name}: non-finite result in matrices " \
                                   f"{numpy.flatnonzero(~numpy.isfinite(r))[:10].tolist()}"
    worst = int(r.argmax()) if r.size else 0
    assert r.size == 0 or r[worst] < THRESHOLD, f"{name}: residual {r[worst]:.3g} at matrix {worst}"


def _triangle(xp, n, lower):
    tri = xp.tri(n, dtype=bool)
    return tri if lower else tri.T


def _triangular(xp, gen, batch, n, lower, dtype, unit=False):
    """Well-conditioned triangular batch in _wide(dtype): off-diagonal N(0, 1/4n), diagonal
    +-[1, 2]."""
    a = _randn(gen, (batch, n, n), _wide(dtype)) * (0.5 / math.sqrt(n))
    a = xp.where(_triangle(xp, n, lower), a, 0.0)
    d = 1.0 + gen.random((batch, n))
    d = xp.where(gen.random((batch, n)) < 0.5, -d, d)
    idx = xp.arange(n)
    a[:, idx, idx] = 1.0 if unit else d
    return a


def _poisoned(xp, a, lower, dtype, unit=False):
    """``a`` in ``dtype`` with NaN in the triangle not referenced (and the diagonal if unit)."""
    n = a.shape[-1]
    keep = _triangle(xp, n, lower) & (~xp.eye(n, dtype=bool) if unit else True)
    return xp.where(keep, a, numpy.nan).astype(dtype)


def _factor(xp, gen, batch, n, dtype):
    """Lower triangular batch in _wide(dtype) with a positive diagonal: a Cholesky factor."""
    f = _triangular(xp, gen, batch, n, True, dtype)
    idx = xp.arange(n)
    f[:, idx, idx] = xp.abs(f[:, idx, idx])
    return f


def _spd(xp, gen, batch, n, lower, dtype):
    """(A in _wide(dtype) as the call sees it, the poisoned input): A = L L^H, L a _factor."""
    factor = _factor(xp, gen, batch, n, dtype)
    a = (factor @ _h(factor)).astype(dtype).astype(_wide(dtype))
    a = 0.5 * (a + _h(a))
    return a, _poisoned(xp, a, lower, dtype)


def _make_bad(a_in, seed):
    """Make one random matrix of the input batch not positive definite at its column j (its
    leading minors up to j stay those of L L^T, minor j + 1 is not): returns (index, j + 1)."""
    pick = numpy.random.default_rng(seed)
    bad, j = int(pick.integers(a_in.shape[0])), int(pick.integers(a_in.shape[-1]))
    a_in[bad, j, j] = -1.0
    return bad, j + 1


def _check_info(name, info, bad):
    """info zero except at ``bad = (index, first failing minor)``."""
    info = numpy.asarray(info.get() if hasattr(info, "get") else info)
    expect = numpy.zeros(info.shape, dtype=info.dtype)
    if bad is not None:
        expect[bad[0]] = bad[1]
    wrong = numpy.flatnonzero(info != expect)
    assert wrong.size == 0, f"{name}: info wrong at {wrong[:10].tolist()}: " \
                            f"{info[wrong[:10]].tolist()} (expected {expect[wrong[:10]].tolist()})"


def _good(xp, x, bad):
    """The batch without the bad matrix (its result is unspecified)."""
    if bad is None:
        return x
    keep = xp.ones(x.shape[0], dtype=bool)
    keep[bad[0]] = False
    return x[keep]


def _run_cholesky(xp, gen, c, name):
    o, n, dt = c.opts, c.n, numpy.dtype(c.dtype)
    lower, w = o["lower"], _wide(dt)
    if c.op in ("potrs", "potri"):
        fw = _factor(xp, gen, c.batch, n, dt).astype(dt).astype(w)
        fw = fw if lower else _h(fw).copy()
        aw = fw @ _h(fw) if lower else _h(fw) @ fw
        f_in = _poisoned(xp, fw, lower, dt)
        if c.op == "potri":
            inv, info = _call(xp, c, linalg.potri, f_in, lower, return_info=True)
            _check_info(name, info, None)
            invw = inv.astype(w)
            _check(xp, name, aw @ invw - xp.eye(n), _fro(xp, aw) * _fro(xp, invw), n, dt)
            return
        b = _rhs(gen, c.batch, n, o["nrhs"], dt)
        x, info = _call(xp, c, linalg.potrs, f_in, b, lower, return_info=True)
        _check_info(name, info, None)
        _check_solve(xp, name, aw, b, x, n, dt, None)
        return
    aw, a_in = _spd(xp, gen, c.batch, n, lower, dt)
    bad = _make_bad(a_in, c.seed) if o.get("bad") else None
    if c.op == "potrf":
        f, info = _call(xp, c, linalg.potrf, a_in, lower, return_info=True)
        _check_info(name, info, bad)
        fw = f.astype(w)
        other = ~_triangle(xp, n, lower)
        assert not bool(xp.any(_good(xp, xp.where(other, fw, 0.0), bad) != 0)), \
            f"{name}: the other triangle of the factor is not zero"
        prod = fw @ _h(fw) if lower else _h(fw) @ fw
        _check(xp, name, _good(xp, prod - aw, bad), _fro(xp, _good(xp, aw, bad)), n, dt)
    elif c.op == "poti":
        inv, info = _call(xp, c, linalg.poti, a_in, lower, return_info=True)
        _check_info(name, info, bad)
        invw = _good(xp, inv.astype(w), bad)
        a_ok = _good(xp, aw, bad)
        _check(xp, name, a_ok @ invw - xp.eye(n), _fro(xp, a_ok) * _fro(xp, invw), n, dt)
    else:                                                                  # posv
        b = _rhs(gen, c.batch, n, o["nrhs"], dt)
        x, info = _call(xp, c, linalg.posv, a_in, b, lower, return_info=True)
        _check_info(name, info, bad)
        _check_solve(xp, name, aw, b, x, n, dt, bad)


def _rhs(gen, batch, n, nrhs, dt):
    """(batch, n, nrhs) right-hand sides, or (batch, n) vectors for nrhs = 0."""
    return _randn(gen, (batch, n) if nrhs == 0 else (batch, n, nrhs), dt)


def _check_solve(xp, name, aw, b, x, n, dt, bad):
    """||A X - B|| / (||A|| ||X|| n eps) over the good matrices (aw: A in _wide(dt))."""
    assert x.shape == b.shape and x.dtype == b.dtype, f"{name}: result {x.shape} {x.dtype}"
    xw, bw = x.astype(aw.dtype), b.astype(aw.dtype)
    if xw.ndim == 2:
        xw, bw = xw[:, :, None], bw[:, :, None]
    a_ok, x_ok = _good(xp, aw, bad), _good(xp, xw, bad)
    _check(xp, name, a_ok @ x_ok - _good(xp, bw, bad), _fro(xp, a_ok) * _fro(xp, x_ok), n, dt)


def _run_triangular(xp, gen, c, name):
    o, n, dt = c.opts, c.n, numpy.dtype(c.dtype)
    lower, unit, w = o["lower"], o.get("unit", False), _wide(dt)
    tw = _triangular(xp, gen, c.batch, n, lower, dt, unit).astype(dt).astype(w)
    t_in = _poisoned(xp, tw, lower, dt, unit)
    op_t = _op(tw, o.get("trans", "N"))
    if c.op == "trtri":
        inv, info = _call(xp, c, linalg.trtri, t_in, lower, unit, return_info=True)
        _check_info(name, info, None)
        invw = inv.astype(w)
        assert not bool(xp.any(xp.where(_triangle(xp, n, lower), 0.0, invw) != 0)), \
            f"{name}: the other triangle of the inverse is not zero"
        _check(xp, name, tw @ invw - xp.eye(n), _fro(xp, tw) * _fro(xp, invw), n, dt)
    elif c.op == "lauum":
        y = _call(xp, c, linalg.lauum, t_in, lower).astype(w)
        ref = _h(tw) @ tw if lower else tw @ _h(tw)
        _check(xp, name, y - ref, _fro(xp, tw) ** 2, n, dt)
    elif c.op == "trsv":
        b = _randn(gen, (c.batch, n), dt)
        x, info = _call(xp, c, linalg.trsv, t_in, b, lower, o["trans"], unit, return_info=True)
        _check_info(name, info, None)
        xw = x.astype(w)[:, :, None]
        r = op_t @ xw - b.astype(w)[:, :, None]
        _check(xp, name, r, _fro(xp, tw) * _fro(xp, xw), n, dt)
    else:                                                                  # trsm, trmm
        left, alpha = o["side"] == "left", o["alpha"]
        b = _randn(gen, (c.batch, n, o["nrhs"]) if left else (c.batch, o["nrhs"], n), dt)
        bw = b.astype(w)
        args = (t_in, b, o["side"], lower, o["trans"], unit, alpha)
        if c.op == "trmm":
            y = _call(xp, c, linalg.trmm, *args).astype(w)
            ref = alpha * (op_t @ bw if left else bw @ op_t)
            _check(xp, name, y - ref, abs(alpha) * _fro(xp, tw) * _fro(xp, bw), n, dt)
            return
        x, info = _call(xp, c, linalg.trsm, *args, return_info=True)
        _check_info(name, info, None)
        xw = x.astype(w)
        r = (op_t @ xw if left else xw @ op_t) - alpha * bw
        _check(xp, name, r, _fro(xp, tw) * _fro(xp, xw), n, dt)


def _run_products(xp, gen, c, name):
    o, dt = c.opts, numpy.dtype(c.dtype)
    alpha, beta, w = o.get("alpha", 1.0), o.get("beta", 0.0), _wide(dt)
    rand = lambda *shape: _randn(gen, (c.batch,) + shape, dt)            # noqa: E731
    nan = lambda *shape: xp.full((c.batch,) + shape, numpy.nan, dtype=dt)  # noqa: E731
    if c.op == "syrk":                       # symmetric (plain transposes) for every dtype
        n, k = c.n, o["k"]
        a = rand(n, k) if o["trans"] == "N" else rand(k, n)
        aw = a.astype(w)
        prod = aw @ _t(aw) if o["trans"] == "N" else _t(aw) @ aw
        if beta:
            cw = rand(n, n).astype(w)
            cw = (cw + _t(cw)).astype(dt).astype(w)
            cin = _poisoned(xp, cw, o["lower"], dt)
        else:
            cw, cin = xp.zeros((c.batch, n, n), dtype=w), nan(n, n)
        y = _call(xp, c, linalg.syrk, a, cin, o["lower"], o["trans"], alpha, beta).astype(w)
        scale = abs(alpha) * _fro(xp, aw) ** 2 + abs(beta) * _fro(xp, cw)
        _check(xp, name, y - (alpha * prod + beta * cw), scale, max(k, 1), dt)
        return
    m, n = o["m"], o["n"]
    if c.op == "gemm":
        k = o["k"]
        a = rand(m, k) if o["transa"] == "N" else rand(k, m)
        b = rand(k, n) if o["transb"] == "N" else rand(n, k)
        c0 = rand(m, n) if beta else nan(m, n)
        aw, bw = a.astype(w), b.astype(w)
        cw = c0.astype(w) if beta else xp.zeros((c.batch, m, n), dtype=w)
        y = _call(xp, c, linalg.gemm, a, b, c0, o["transa"], o["transb"], alpha, beta).astype(w)
        ref = alpha * (_op(aw, o["transa"]) @ _op(bw, o["transb"])) + beta * cw
        scale = abs(alpha) * _fro(xp, aw) * _fro(xp, bw) + abs(beta) * _fro(xp, cw)
        _check(xp, name, y - ref, scale, max(k, 1), dt)
        return
    a = rand(m, n)                                                         # gemv
    rows, cols = (m, n) if o["trans"] == "N" else (n, m)
    x = rand(cols)
    y0 = rand(rows) if beta else nan(rows)
    aw, xw = a.astype(w), x.astype(w)
    y0w = y0.astype(w) if beta else xp.zeros((c.batch, rows), dtype=w)
    y = _call(xp, c, linalg.gemv, a, x, y0, o["trans"], alpha, beta).astype(w)
    ref = alpha * (_op(aw, o["trans"]) @ xw[:, :, None])[:, :, 0] + beta * y0w
    scale = abs(alpha) * _fro(xp, aw) * _fro(xp, xw) + abs(beta) * _fro(xp, y0w)
    _check(xp, name, y - ref, scale, max(cols, 1), dt)


def _run_gebrd(xp, gen, c, name):
    o, dt = c.opts, numpy.dtype(c.dtype)
    m, n, w = o["m"], o["n"], _wide(dt)
    a = _randn(gen, (c.batch, m, n), dt)
    q, b, pt = (x.astype(w) for x in linalg.gebrd_unpack(_call(xp, c, linalg.gebrd, a)))
    aw = a.astype(w)
    _check(xp, name, q @ b @ pt - aw, _fro(xp, aw), max(m, n), dt)
    k = min(m, n)
    _check(xp, name + " (Q^H Q)", _h(q) @ q - xp.eye(k), math.sqrt(k), max(m, n), dt)


def run_case(xp, case):
    """Build the case's inputs in xp, call the public API, check the result."""
    gen = xp.random.default_rng(case.seed)
    name = _case_id(case)
    if case.op in ("potrf", "potrs", "posv", "potri", "poti"):
        _run_cholesky(xp, gen, case, name)
    elif case.op in ("trsm", "trmm", "trtri", "lauum", "trsv"):
        _run_triangular(xp, gen, case, name)
    elif case.op == "gebrd":
        _run_gebrd(xp, gen, case, name)
    else:
        _run_products(xp, gen, case, name)


CPU_CASES = make_cases(6, CPU_ELEMENTS, seed=20261128, dtypes=ALL_DTYPES)
CPU_LAYOUT_CASES = make_cases(4, CPU_ELEMENTS, seed=20261130, dtypes=ALL_DTYPES, layouts=True)
# Another draw on the device: LINALG_SWEEP_SEED=<int> LINALG_SWEEP_PER_OP=<cases an operation>.
GPU_CASES = make_cases(int(os.environ.get("LINALG_SWEEP_PER_OP", 30)), GPU_ELEMENTS,
                       seed=int(os.environ.get("LINALG_SWEEP_SEED", 20261129)))
GPU_LAYOUT_CASES = make_cases(int(os.environ.get("LINALG_SWEEP_PER_OP", 30)), GPU_ELEMENTS // 4,
                              seed=int(os.environ.get("LINALG_SWEEP_SEED", 20261129)) + 1,
                              layouts=True)


@pytest.mark.parametrize("case", CPU_CASES, ids=_case_id)
def test_sweep_cpu(case):
    """Random sizes, batches and variants of every operation on the CPU backend, real and
    complex dtypes."""
    run_case(numpy, case)


@pytest.mark.parametrize("case", CPU_LAYOUT_CASES, ids=_case_id)
def test_sweep_layouts_cpu(case):
    """The CPU sweep with every batch form (padded rows, spaced matrices, matrices by columns,
    pointer lists) and in-place calls: nothing written around an operand, no operand changed
    that the call was not given to overwrite."""
    run_case(numpy, case)


@pytest.mark.gpu
@pytest.mark.parametrize("case", GPU_CASES, ids=_case_id)
def test_sweep_gpu(case):
    """Random sizes, batches (up to 10^6 matrices) and variants of every operation on the GPU."""
    cupy = pytest.importorskip("cupy")
    try:
        run_case(cupy, case)
    finally:                        # the next case's sizes differ: keep no cached blocks
        cupy.get_default_memory_pool().free_all_blocks()


@pytest.mark.gpu
@pytest.mark.parametrize("case", GPU_LAYOUT_CASES, ids=_case_id)
def test_sweep_layouts_gpu(case):
    """The GPU sweep with every batch form and in-place calls (:func:`test_sweep_layouts_cpu`);
    operands below 2^24 numbers (the padded or spaced buffers beside the references)."""
    cupy = pytest.importorskip("cupy")
    try:
        run_case(cupy, case)
    finally:
        cupy.get_default_memory_pool().free_all_blocks()


# A kernel that holds a stream for ``cycles`` clock cycles (one thread).
_SPIN = r"""extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) { }
}"""
BUSY_CASES = (make_cases(4, GPU_ELEMENTS // 16, seed=20261131)
              + make_cases(4, GPU_ELEMENTS // 16, seed=20261132, layouts=True))


def run_busy(cupy, case, spin):
    """The case once as it comes (its kernels compiled and loaded: loading a module waits for
    the device, hold included, and would hide a launch on another stream), then on a
    non-blocking stream with its operands held (:func:`_hold`) by ``spin`` (a RawKernel of
    _SPIN, ~5 ms)."""
    global _BUSY
    run_case(cupy, case)
    stream = cupy.cuda.Stream(non_blocking=True)
    _BUSY = lambda: spin((1,), (1,), (numpy.int64(10_000_000),))     # noqa: E731
    try:
        with stream:
            run_case(cupy, case)
        stream.synchronize()
    finally:
        _BUSY = None


@pytest.mark.gpu
@pytest.mark.parametrize("case", BUSY_CASES, ids=_case_id)
def test_sweep_busy_stream_gpu(case):
    """Every operation (contiguous batches and the other forms) on a non-blocking stream of the
    caller's whose operands read NaN until a hold on that stream ends (:func:`run_busy`): a
    launch, copy or library call that went to another stream (the legacy default one does not
    wait for a non-blocking stream) reads NaN and fails the residuals."""
    cupy = pytest.importorskip("cupy")
    try:
        run_busy(cupy, case, cupy.RawKernel(_SPIN, "spin"))
    finally:
        cupy.get_default_memory_pool().free_all_blocks()


DEVICE_CASES = make_cases(4, GPU_ELEMENTS // 16, seed=20261133)


@pytest.mark.gpu
@pytest.mark.parametrize("case", DEVICE_CASES, ids=_case_id)
def test_sweep_two_devices_gpu(case):
    """Every operation on the second GPU, then the first, then the second again (the launch
    caches, compiled modules, library handles and workspaces are per device: one made for
    another device would fail or read the wrong memory). Needs two GPUs."""
    cupy = pytest.importorskip("cupy")
    if cupy.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two GPUs (the nvidia-h200-x2 device kind)")
    for device in (1, 0, 1):
        with cupy.cuda.Device(device):
            try:
                run_case(cupy, case)
            finally:
                cupy.get_default_memory_pool().free_all_blocks()
