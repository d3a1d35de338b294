"""GPU GEMM and GEMV on strided batches: launchers of kernels/gemm.cu and kernels/gemv.cu.

Backend contract (docs/design.md): C-contiguous CuPy arrays of one dtype, batch >= 1, sizes >= 1;
``gemm`` and ``gemv`` return the result (no info). Real dtypes run our kernels with the parameters
of ``linalg._tuning`` (tables in linalg/tuning/*.json, written by scripts/tune_blas.py); where the
table's crossover says ``use_vendor`` (``linalg._tuning.use_vendor``: the classes where the vendor measured faster
than our kernel, e.g. GEMV-N with every dim >= 32 and GEMM 81x8x64 float64 on the H100) and for
complex dtypes the call goes to ``cupy.matmul`` (cuBLAS gemmStridedBatched). Empty problems
never reach a kernel (zeros, or beta c when only the inner dimension is 0).

Extension used by the hydro corner forces: ``gemm`` accepts ``b`` with batch 1 and broadcasts it
over the batch of ``a`` (one B for all zones, read through the cache instead of copied).
"""
import functools
import itertools

import numpy

from . import _compile, vendor
from .._dispatch import cupy_module
from ._compile import dtype_name, is_real, kernel
from .. import _tuning

__all__ = ["gemm", "gemv", "syrk", "COMPILE_CHECK", "GEMM_CONFIGS", "choose_vendor"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"gemm": ("a", "b"), "gemv": ("a", "x")}

# The GEMM tile menu (BM, BN, BK, DX, DY) the tuner chooses from; names are what tables store.
GEMM_CONFIGS = {
    "t4": (4, 4, 4, 4, 4),
    "t8": (8, 8, 8, 8, 8),
    "t16": (16, 16, 16, 8, 8),
    "t32": (32, 32, 16, 16, 16),
    "t64": (64, 64, 16, 16, 16),
    "h32x4": (32, 4, 16, 4, 8),
    "h64x8": (64, 8, 16, 8, 16),
    "h32x16": (32, 16, 16, 16, 8),
    "h64x32": (64, 32, 16, 16, 16),
}


# ---------------------------------------------------------------------------------------------
# helpers shared with trsv.py and bidiag.py

def trans_flag(word, dtype):
    """'N' -> 0, 'T' -> 1, 'C' -> 1 for real dtypes (conjugation is the identity)."""
    w = str(word).upper()
    if w not in ("N", "T", "C"):
        raise ValueError(f"trans: expected 'N', 'T' or 'C', got {word!r}")
    return 0 if w == "N" else 1


def name_expr(func, *targs):
    """C++ name expression, e.g. name_expr("gemv_t_team", "double", 2, 4)."""
    return f"{func}<{', '.join(str(t) for t in targs)}>"


@functools.lru_cache(maxsize=None)
def device_attribute(device_id, name, default=None):
    """CUDA device attribute ``name`` (CuPy's Device.attributes key) of a device, cached; the
    default where the device does not report it."""
    cupy = cupy_module()
    return cupy.cuda.Device(device_id).attributes.get(name, default)


def sm_count():
    return device_attribute(_compile.current_device(), "MultiProcessorCount")


def grid_for(work_items, per_block, waves=64):
    """Blocks for a grid-stride kernel: one per `per_block` items, capped at `waves` x SMs x 16
    (the kernels loop, so any batch count up to 10^6 and beyond works with a bounded grid)."""
    return max(1, min(-(-int(work_items) // per_block), waves * 16 * sm_count()))


def fit_vec(vec, arr, n_divisible=None):
    """Largest power of two <= vec for which arr's base is aligned (and n divisible, if given)."""
    item = arr.dtype.itemsize
    while vec > 1 and (data_ptr(arr) % (vec * item) or (n_divisible is not None
                                                       and n_divisible % vec)):
        vec //= 2
    return max(vec, 1)


def params(op, dtype, *dims, override=None):
    """Tuned parameters for op/dtype/shape class, or ``override`` (the tuner's candidates)."""
    if override is not None:
        return dict(override)
    return _tuning.lookup(op, dtype_name(dtype), _tuning.shape_class(*dims))


PATHS = (None, "kernel", "vendor")


def check_path(path):
    if path not in PATHS:
        raise ValueError(f"_path: expected None, 'kernel' or 'vendor', got {path!r}")


def choose_vendor(op, dtype, dims, override=None, path=None):
    """True where the vendor routine runs: forced by ``path``, by an override saying
    ``{"vendor": True}`` (the tuner's candidate), else the table's crossover for this class."""
    if path is not None:
        return path == "vendor"
    if override is not None:
        return bool(override.get("use_vendor") or override.get("vendor"))
    return _tuning.use_vendor(op, dtype_name(dtype), _tuning.shape_class(*dims))[0]


_OVERRIDE_PLANS = {}
_OVERRIDE_PLANS_MAX = 4096            # as _gemm_plan's lru_cache: emptied when full


def cached_plan(fn, key, override, path):
    """fn(gpu, *key, override, path), through fn's cache; with an override (a dict of hashable
    values: the tuner's candidates, a caller's fixed kernel) through a cache keyed by its items
    (a plan costs microseconds of host time a call: SYRK by gemm_small at n = 8 lost 0.006 ms)."""
    check_path(path)
    gpu = _tuning.gpu_name()
    if override is None:
        return fn(gpu, *key, None, path)
    okey = (fn.__name__, gpu, key, tuple(sorted(override.items())), path)
    try:
        plan = _OVERRIDE_PLANS.get(okey)
    except TypeError:                   # an unhashable value: plan it afresh
        return fn.__wrapped__(gpu, *key, override, path)
    if plan is None:
        if len(_OVERRIDE_PLANS) >= _OVERRIDE_PLANS_MAX:
            _OVERRIDE_PLANS.clear()
        plan = _OVERRIDE_PLANS[okey] = fn.__wrapped__(gpu, *key, override, path)
    return plan


def data_ptr(arr):
    return arr.data.ptr


def axpby(r, c, alpha, beta):
    """alpha r + beta c (c None or beta 0: c not read), one fused pass where both scale."""
    if c is None or beta == 0:
        if alpha != 1:
            r *= alpha
        return r
    if alpha == 1:
        c *= beta
        c += r
        return c
    return _axpby_kernel()(r, alpha, beta, c, c)


@functools.lru_cache(maxsize=None)
def _axpby_kernel():
    cupy = cupy_module()
    return cupy.ElementwiseKernel("T r, T alpha, T beta, T c", "T out",
                                  "out = alpha * r + beta * c", "linalg_axpby")


def _scalar(dtype, v):
    return numpy.dtype(dtype).type(v)


# ---------------------------------------------------------------------------------------------
# GEMV

def _vendor_gemv(a, x, y, trans, alpha, beta):
    """cuBLAS gemmStridedBatched with one column: in place on y for real dtypes (vendor.gemm, as
    _vendor_gemm), else cupy.matmul then alpha/beta."""
    cupy = cupy_module()
    w = str(trans).upper()
    op = a if w == "N" else (a.conj() if w == "C" else a).transpose(0, 2, 1)
    x3, y3 = x[:, :, None], None if y is None else y[:, :, None]
    if is_real(a.dtype) and gemm_views(op, x3, y3):
        if y is None or beta == 0:
            beta = 0
            y = cupy.empty(op.shape[:2], dtype=a.dtype) if y is None else y
        vendor.gemm(y[:, :, None], op, x3, alpha, beta)
        return y
    return axpby(cupy.matmul(op, x3)[:, :, 0], y, alpha, beta)


def _empty_result(shape, dtype, c, beta):
    """An empty product: zeros, or beta c when only the inner dimension is 0. No kernel runs."""
    cupy = cupy_module()
    if c is None or beta == 0 or 0 in shape:
        return cupy.zeros(shape, dtype=dtype)
    return c * beta


def gemv(a, x, y=None, trans="N", alpha=1, beta=0, _params=None, _path=None):
    """y = alpha op(a) x + beta y for each matrix; a (batch, m, n). Returns y (batch, len).
    ``_params`` forces kernel parameters, ``_path`` ("kernel"/"vendor") the path (tests, tuner)."""
    cupy = cupy_module()
    t = trans_flag(trans, a.dtype)
    batch, m, n = a.shape
    if a.size == 0:
        return _empty_result((batch, n if t else m), a.dtype, y, beta)
    if not is_real(a.dtype):
        return _vendor_gemv(a, x, y, trans, alpha, beta)
    key = (a.dtype, t, batch, m, n, data_ptr(a) % 16 == 0, data_ptr(x) % 16 == 0)
    plan = cached_plan(_gemv_plan, key, _params, _path)
    if plan[0] == "vendor":
        return _vendor_gemv(a, x, y, trans, alpha, beta)
    if y is None or beta == 0:
        beta = 0
        y = cupy.empty((batch, n if t else m), dtype=a.dtype) if y is None else y
    expr, grid, block, smem, extra, options = plan
    first = batch * m if expr.startswith("gemv_n_flat") else batch
    launcher = kernel("gemv", expr, "qiiTppTp" + "i" * len(extra), a.dtype, options)
    launcher(grid, block, (first, m, n, alpha, a, x, beta, y) + extra, smem)
    return y


# Small batches of big matrices: y = A x by the flat kernel (every row of the batch its own
# lane group, so one matrix spreads over the whole GPU) while batch * m < GEMV_N_FLAT_ROWS and
# both dimensions are >= GEMV_N_FLAT_MIN_DIM, whatever the table says for the class (it was tuned
# at batch 10240: one warp a matrix, or cuBLAS). H100 float64 backend ms, batch 1 / 100, flat
# against the table's path: n = 128 0.018 / 0.024 vs 0.038 / 0.038 (warp), n = 256 0.019 /
# 0.042 vs 0.028 / 0.046 (cuBLAS), n = 512 0.023 / 0.107 vs 0.032 / 0.120; about even at n = 128
# batch 3000, n = 256 batch 300, n = 512 batch 1000; behind at n <= 64 (warp 0.022 vs 0.025) and
# at batch 10240 (scripts/probe_gemv_syrk.py, reports/gpu_20261125b/probe_gemv_syrk.md; float32
# alike, probe_gemv_syrk_float32.md).
GEMV_N_FLAT_ROWS = 65536
GEMV_N_FLAT_MIN_DIM = 128
FLAT_PARAMS = {"kernel": "flat", "block": 256, "unroll": 4}


@functools.lru_cache(maxsize=4096)
def _gemv_plan(gpu, dtype, t, batch, m, n, aligned, x_aligned, override=None, path=None):
    """('vendor',) or (name expression, grid, block, shared bytes, trailing int arguments,
    compile options: the register cap "maxreg" of the class, if any). ``aligned``,
    ``x_aligned``: A's and x's base 16-byte aligned."""
    if not t and override is None and path is None and min(m, n) >= GEMV_N_FLAT_MIN_DIM \
            and batch * m < GEMV_N_FLAT_ROWS:
        return _gemv_kernel_plan(dtype, t, batch, m, n, aligned, FLAT_PARAMS) + ((),)
    op = "gemv_t" if t else "gemv_n"
    small = gemv_small_batch_params(op, dtype, m, n, batch, override, path)
    if small is not None:
        if small.get("use_vendor"):
            return ("vendor",)
        p = small
    elif choose_vendor(op, dtype, (m, n), override, path):
        return ("vendor",)
    else:
        p = params(op, dtype, m, n, override=override)
    if p.get("kernel") == "stream":
        plan = _gemv_stream_plan(dtype, t, batch, m, n, aligned and x_aligned, p)
        if plan is not None:
            return plan + ((),)
        p = {"kernel": "staged"}
    return _gemv_kernel_plan(dtype, t, batch, m, n, aligned, p) + \
        (_compile.register_cap(p.get("maxreg")),)


def gemv_small_batch_params(op, dtype, m, n, batch, override=None, path=None):
    """The class's parameters for batches below its entry's ``"below_batch"`` (its ``"below"``
    dict, which may choose the vendor), or None: no such bound, or a forced path or parameters.
    gemv_stream's persistent grid gives a block a tile or two at small batches, where its ring
    has nothing to overlap (H200, 10 240 matrices: float32 20x20 GEMV-T 0.76x the team kernel
    it replaced, public; reports/gpu_20261129a call 11); the bounds come from public A/Bs of
    the entries against the ones before (reports/gpu_20261129b call 9)."""
    if override is not None or path is not None:
        return None
    try:
        p = params(op, dtype, m, n)
    except KeyError:
        return None
    if batch < p.get("below_batch", 0):
        return dict(p["below"])
    return None


def _gemv_kernel_plan(dtype, t, batch, m, n, aligned, p):
    """(name expression, grid, block, shared bytes, trailing int arguments) of the GEMV kernel
    that the parameters ``p`` select."""
    item = numpy.dtype(dtype).itemsize
    T = _compile.ctype(dtype)
    if p.get("kernel") == "staged" and m * n * item <= STAGED_MAX_BYTES:
        return _gemv_staged_plan(dtype, t, batch, m, n, p)
    if not t and p.get("kernel") == "warp":
        warps = int(p.get("warps") or 4)
        vec = min(int(p.get("vec") or 1), 16 // item) if aligned else 1
        while vec > 1 and n % vec:          # rows of VEC-aligned loads (kernels/gemv.cu)
            vec //= 2
        expr = name_expr("gemv_n_warp", T, *((vec,) if vec > 1 else ()))
        return (expr, grid_for(batch, warps), 32 * warps, 0, (0,))
    vec = int(p.get("vec") or 16 // item) if aligned else 1
    unroll = int(p.get("unroll") or 4)
    if t or p.get("kernel") == "team":
        while vec > 1 and n % vec:
            vec //= 2
        team = int(p.get("team") or 0) or gemv_t_team_auto(m, n, vec)
        block = max(team, int(p.get("block") or 256))
        if team > 32:
            block = min(block, 15 * team)
        smem = block * vec * item if t else 0
        name = "gemv_t_team" if t else "gemv_n_team"
        return (name_expr(name, T, vec, unroll), grid_for(batch, block // team), block, smem,
                (team,))
    tx = int(p.get("tx") or 0) or min(32, _pow2_ceil(-(-n // vec)))
    block = int(p.get("block") or 256)
    warps = -(-(batch * m) // ((32 // tx) * unroll))
    return (name_expr("gemv_n_flat", T, vec, unroll), grid_for(warps, block // 32), block, 0,
            (tx,))


STAGED_MAX_BYTES = 48 * 1024    # gemv_staged: largest matrix it stages (one per block there)


def dot_lanes(t, m, n, item):
    """Default lanes a dot product of gemv_staged / gemv_stream (kernels/gemv.cu tile_gemv):
    the largest power of two <= 32 and <= the dot's steps -- its elements, or for GEMV-N on rows
    of whole 16-byte pieces those pieces (a lane a piece)."""
    vec = 16 // item
    steps = n // vec if not t and n % vec == 0 else (m if t else n)
    return min(32, _pow2_floor(steps))


def _gemv_staged_plan(dtype, t, batch, m, n, p):
    """kernels/gemv.cu gemv_staged: ``tile_bytes`` of matrices per block (default 16 KiB, at
    least one matrix), ``group`` lanes per dot product (default `dot_lanes`), ``block``
    threads."""
    item = numpy.dtype(dtype).itemsize
    tile = max(1, int(p.get("tile_bytes") or 16384) // (m * n * item))
    tile = int(min(tile, batch))
    group = int(p.get("group") or 0) or dot_lanes(t, m, n, item)
    block = int(p.get("block") or 256)
    smem = (-(-tile * m * n // 4) * 4 + tile * (m if t else n)) * item
    expr = name_expr("gemv_staged", _compile.ctype(dtype), _compile.cbool(t))
    return (expr, grid_for(-(-batch // tile), 1), block, smem, (tile, group))


# The ring of gemv_stream and gemm_stream (kernels/common.cuh): its mbarriers, 8 bytes each,
# take the first RING_BARRIER_BYTES of the block's shared memory, before the buffers.
RING_BARRIER_BYTES = 128
RING_STAGES_MAX = 16
GEMV_STREAM_SIGNATURE = "qiiTppTpiii"


def _gemv_stream_plan(dtype, t, batch, m, n, aligned, p):
    """kernels/gemv.cu gemv_stream (sm_90, A and x 16-byte aligned; else None): tiles of about
    ``tile_bytes`` of matrices (default 16 KiB; a multiple of 16 / itemsize matrices, so every
    tile starts on a 16-byte boundary), ``group`` lanes a dot product (default `dot_lanes`),
    ``block`` threads, ``stages`` buffers in the ring (default 2); a grid of the blocks resident
    at once."""
    if not (aligned and _compile.clusters(_compile.current_device())):
        return None
    item = numpy.dtype(dtype).itemsize
    vec = 16 // item
    tile = max(1, int(p.get("tile_bytes") or 16384) // (m * n * item)) // vec * vec or vec
    tile = min(tile, -(-batch // vec) * vec)
    xlen = m if t else n
    group = int(p.get("group") or 0) or dot_lanes(t, m, n, item)
    block = int(p.get("block") or 256)
    stages = max(2, min(RING_STAGES_MAX, int(p.get("stages") or 2)))
    limit = opt_in_smem()

    def smem(tile, stages):
        return RING_BARRIER_BYTES + stages * (-(-tile * m * n // vec) + -(-tile * xlen // vec)) \
            * vec * item
    while stages > 2 and smem(tile, stages) > limit:
        stages -= 1
    while tile > vec and smem(tile, stages) > limit:
        tile -= vec
    if smem(tile, stages) > limit:
        return None
    expr = name_expr("gemv_stream", _compile.ctype(dtype), _compile.cbool(t))
    regs = kernel_regs("gemv", expr, GEMV_STREAM_SIGNATURE, dtype, 32)
    grid = min(-(-batch // tile), sm_count() * resident_blocks(block, smem(tile, stages), regs))
    return (expr, max(1, grid), block, smem(tile, stages), (tile, group, stages))


def gemv_t_team_auto(m, n, vec):
    """Default team size for one matrix: about 8 vector loads per thread, 4..256 threads."""
    per = m * -(-n // vec)
    team = 4
    while team < 256 and team * 16 <= per:
        team *= 2
    return team


def _pow2_floor(v):
    p = 1
    while 2 * p <= v:
        p *= 2
    return p


def _pow2_ceil(v):
    p = 1
    while p < v:
        p *= 2
    return p


# ---------------------------------------------------------------------------------------------
# GEMM

def _op(arr, word):
    w = str(word).upper()
    if w == "N":
        return arr
    return (arr.conj() if w == "C" else arr).transpose(0, 2, 1)


def _vendor_gemm(a, b, c, transa, transb, alpha, beta, fold=True):
    """cuBLAS. Real dtypes on views it takes (gemm_views): one gemmStridedBatched call writing c
    in place, alpha and beta applied by it (cupy.matmul's result and an alpha/beta pass cost
    0.03 ms more at 32^3 float64, batch 10240: 0.76x cupy.matmul alone, H100 2026-11-23).
    Otherwise cupy.matmul, then alpha/beta. ``fold``: a batch of stacked A with one B runs as one
    tall GEMM (else as a batch, B's batch stride 0: :func:`_gemm_by_rows`)."""
    cupy = cupy_module()
    opa, opb = _op(a, transa), _op(b, transb)
    batch, m, n = a.shape[0], opa.shape[1], opb.shape[2]
    if is_real(a.dtype) and gemm_views(opa, opb, c):
        if c is None or beta == 0:
            beta = 0
            c = cupy.empty((batch, m, n), dtype=a.dtype) if c is None else c
        if fold and b.shape[0] == 1 and batch > 1 and _stacks_rows(opa) and _stacks_rows(c):
            # One B for the whole batch: one tall GEMM (batch*m x k) @ op(B), cuBLAS's fastest
            # form (the broadcast batched call is up to 1.3x slower on the hydro shapes).
            vendor.gemm(c.reshape(1, batch * m, n), opa.reshape(1, batch * m, opa.shape[2]), opb,
                        alpha, beta)
        else:
            if b.shape[0] == 1 and batch > 1:
                opb = cupy.broadcast_to(opb, (batch,) + opb.shape[1:])    # batch stride 0
            vendor.gemm(c, opa, opb, alpha, beta)
        return c
    if b.shape[0] == 1 and batch > 1 and str(transa).upper() == "N":
        r = cupy.matmul(a.reshape(batch * m, a.shape[2]), opb[0]).reshape(batch, m, -1)
    else:
        r = cupy.matmul(opa, opb)
    return axpby(r, c, alpha, beta)


def gemm_views(a, b, c):
    """True where vendor.gemm takes the 3-D views a, b (unit column or unit row stride, rows or
    columns apart by at least a row or column, batch stride >= 0) and c (None, or unit column
    stride), so that no copy is needed."""
    def ok(x, out=False):
        item = x.itemsize
        s0, s1, s2 = x.strides
        rows, cols = x.shape[1], x.shape[2]
        if s0 < 0 or s1 < 0 or s2 < 0:
            return False
        if s2 == item or cols == 1:
            return rows == 1 or s1 >= max(1, cols) * item
        return not out and (s1 == item or rows == 1) and s2 >= max(1, rows) * item
    return ok(a) and ok(b) and (c is None or ok(c, out=True))


def _stacks_rows(x):
    """True where the (batch, m, k) view x is C-contiguous: one (batch * m, k) matrix."""
    return (x.strides[2] == x.itemsize and x.strides[1] == x.shape[2] * x.itemsize
            and x.strides[0] == x.shape[1] * x.strides[1])


def rows_rule(dtype, m, n, k, tb, override=None):
    """(rows, vendor, kernel parameters) where one tall A (1, m, k) with one B runs as m // rows
    matrices of ``rows`` rows (the table's or the override's ``"rows"``: our kernel, with
    ``"rows_params"`` if given (else the row blocks' class entry), or cuBLAS's batched call with
    ``"rows_path": "vendor"``; ``"rows_transb"`` limits it to that op(B)); else None."""
    p = params("gemm", dtype, m, n, k, override=override)
    rows = int(p.get("rows") or 0)
    if rows <= 0 or m < 2 * rows or p.get("rows_transb", "NT"[tb]) != "NT"[tb]:
        return None
    return rows, p.get("rows_path", "kernel") == "vendor", p.get("rows_params")


@functools.lru_cache(maxsize=1024)
def _table_rows_rule(gpu, dtype, m, n, k, tb):
    """:func:`rows_rule` from the tables of ``gpu``, cached as the plans are."""
    return rows_rule(dtype, m, n, k, tb)


# A batch with one B folds into one tall A only from this many bytes of A: below it the
# folded call's extra host time (a second dispatch, ~6 us) outweighs its GPU time saved (H200,
# float32 18x16 (4x16)^T: 40 960 zones, 47 MB, 0.83x; 262 144 zones, 302 MB, 1.24x; 32x36
# (9x36)^T, 189 MB, 1.13x; reports/gpu_20261128k call 7).
FOLD_MIN_BYTES = 64 << 20


def _folds(a, c, n):
    """Whether the batch of A (batch, m, k) with one B (C: (batch, m, n) or None) runs as one
    tall A: rows stacked in A and C, and :func:`folds_by_shape`."""
    return (_stacks_rows(a) and (c is None or _stacks_rows(c))
            and folds_by_shape(a.dtype, *a.shape[:2], n, a.shape[2]))


def folds_by_shape(dtype, batch, m, n, k):
    """Whether a batch of stacked A (batch, m, k) of ``dtype`` (a NumPy dtype) with one B runs
    as one tall A: large enough (FOLD_MIN_BYTES) and a tall class that streams
    (:func:`_folds_to_tall`). scripts/bench_blas.py names the path by it."""
    return (batch * m * k * dtype.itemsize >= FOLD_MIN_BYTES
            and _folds_to_tall(_tuning.gpu_name(), dtype_name(dtype), batch * m, n, k))


@functools.lru_cache(maxsize=1024)
def _folds_to_tall(gpu, dtype, rows, n, k):
    """Whether a batch of stacked A (C-contiguous, rows = batch * m in all) with one B runs as
    one tall A (1, rows, k): where the tall class's entry picks gemm_stream or gemm_stream_mma,
    which the tuner measured against the same rows as a batch of matrices (tune_blas.py
    tall_class_entry; H200 float64 32x36 (9x36)^T, 40 960 zones: 0.137 against 0.155 ms as
    32-row matrices on gemm_small, reports/gpu_20261128k; 192x216 (27x216)^T 1.30-1.33 against
    1.64-1.69 by cuBLAS batched, reports/gpu_20261129f). A public call with one B for a batch of
    A comes here."""
    cls = _tuning.shape_class(rows, n, k)
    if _tuning.use_vendor("gemm", dtype, cls, gpu)[0]:
        return False
    try:
        return _tuning.lookup("gemm", dtype, cls, gpu).get("cfg") in ("stream", "mma")
    except KeyError:
        return False


def _gemm_by_rows(a, b, c, transa, transb, alpha, beta, n, rows, use_vendor, kernel_params):
    """C = alpha A op(B) + beta C for one tall C-contiguous A (1, m, k) and C (1, m, n) as a
    batch of m // rows matrices of ``rows`` rows (views: the rows are independent) and the
    m % rows rows left as one more call. The hydro corner force (the zones folded into the rows
    of one A, hydro/operators.py) then runs gemm_small (or cuBLAS's batched call), which moves
    the rows faster than gemm_tall (or cuBLAS's one tall GEMM) on some shapes: H200, 40 960
    zones, public float64 32x36 (9x36)^T 0.168-0.172 against 0.224-0.226 ms. ``kernel_params``
    (the rule's "rows_params"): gemm_small's parameters for the blocks where they differ from
    what the blocks' class entry serves elsewhere (float32 there: 0.085 against 0.097 ms). Where
    a call takes ~0.04 ms (18x16 (4x16)^T) the second call's host time lost more than the batch
    won (reports/gpu_20261128j/README.md). On the H200 gemm_stream has since taken those
    classes over (0.140 ms; reports/gpu_20261128k); the H100's table keeps its rules."""
    cupy = cupy_module()
    m, k = a.shape[1], a.shape[2]
    if c is None or beta == 0:
        beta = 0
        c = cupy.empty((1, m, n), dtype=a.dtype) if c is None else c
    count = m // rows
    whole = count * rows
    a3, c3 = a[:, :whole].reshape(count, rows, k), c[:, :whole].reshape(count, rows, n)
    if use_vendor:
        _vendor_gemm(a3, b, c3, transa, transb, alpha, beta, fold=False)
    else:
        gemm(a3, b, c3, transa, transb, alpha, beta, _params=kernel_params, _path="kernel")
    if whole < m:
        gemm(a[:, whole:], b, c[:, whole:], transa, transb, alpha, beta)
    return c


def default_gemm_config(m, n, k, shared_b=False):
    """Untuned choice: a params dict, or None for cuBLAS. The small shapes take gemm_small,
    except one B shared by a batch of short tall-skinny A (fewer than 1024 entries: the hydro
    18x16 (4x16)^T) which streams through gemm_tall; then the tiled kernel's skinny tiles."""
    tall_skinny = n <= 32 and m >= 2 * n and k <= 1024
    if small_fits(m, n, k) and not (shared_b and tall_skinny and m * k < 1024):
        return {"kernel": "small"}
    if shared_b and tall_skinny:    # H100: 18x16 (4x16)^T 1.06-1.16x faster than gemm_small
        return {"cfg": "tall", "nc": 4 if n <= 4 else 8, "rp": 64}
    if tall_skinny:
        for name, mpb in (("h32x4", 4), ("h64x8", 2), ("h32x16", 2), ("h64x32", 1)):
            if n <= GEMM_CONFIGS[name][1]:
                return {"cfg": name, "mpb": mpb}
    return None


# ---------------------------------------------------------------------------------------------
# gemm_small (kernels/gemm.cu): whole matrices staged in shared memory, mpb per block, each
# thread an RM x RN set of C entries. Parameters (all optional, tuning-table keys):
#   "kernel": "small", "rm"/"rn" (a pair of SMALL_TILES), "threads" (block size, <= 256),
#   "mpb" (matrices per block), "smem_target" (bytes of staged operands per block when mpb is
#   not given: the default mpb fills the block's threads, capped by it), "stages" (1, the
#   default: one block per group; 2: a persistent grid of the blocks resident at once, each
#   loading its next group while computing one -- slower on the H100 for every shape measured),
#   "waves" (grid cap: waves x the blocks resident at once, the blocks looping over groups),
#   "kc" (the k-contiguous variant where it applies, A "N" with B "T"; default: float32 only).
# Defaults measured on the H100 (scratch probe, batch 10240 squares / 40960 hydro shapes).

SMALL_TILES = tuple((rm, rn) for rm in (1, 2, 4) for rn in (1, 2, 4, 8))
SMALL_SMEM_MAX = 100 * 1024     # one stage of staged operands at most (one matrix must fit)
SMALL_SMEM_TARGET = 48 * 1024
SMALL_SIGNATURE = "qiiiTpipiiTpiii"
SMALL_THREADS = 256             # block size cap: every instantiation's registers fit (gemm.cu)


def small_fits(m, n, k):
    """Shapes gemm_small is the default for: every dim <= 32, or the skinny products (one of
    m, n <= 32, both <= 96, k <= 64) such as the hydro corner forces 81x64 (8x64)^T."""
    return max(m, n, k) <= 32 or (max(m, n) <= 96 and min(m, n) <= 32 and k <= 64)


def small_tile(m, n, item):
    """Default RM x RN per thread (H100, batch 10240: 4^3 2x2, 8^3 4x2, 16^3 float64 4x2,
    float32 4x4 measured best or within 3 %)."""
    rm = 1 if m <= 2 else (2 if m <= 4 else 4)
    rn = 1 if n <= 2 else (2 if n <= 8 or item == 8 else 4)
    return rm, rn


def _staged_size(rows, cols, ld=0):
    """Elements of one staged operand in shared memory (row stride ld, default cols | 1: see
    gemm.cu)."""
    return rows * (ld or cols | 1)


def small_kc(ta, tb, k, item):
    """gemm_small's k-contiguous variant applies: op(A) = A, op(B) = B^T (both read along k,
    the hydro A_z B^T form) and k a multiple of the 16-byte vector."""
    return ta == 0 and tb == 1 and k % (16 // item) == 0


def kc_ld(k, item):
    """Staged row stride of the k-contiguous variant (gemm.cu kc_ld): a multiple of the 16-byte
    vector with an odd number of vectors."""
    vec = 16 // item
    return (-(-k // vec) | 1) * vec


def _small_plan(dtype, batch, m, n, k, ta, tb, shared_b, p):
    """('small', expr, grid, block, shared bytes, (mpb, stages)), or None where one matrix does
    not fit. The grid: one block per group of mpb matrices (stages 1), or a persistent grid of
    the blocks resident at once, double-buffered (stages 2), or ``waves`` times that."""
    item = numpy.dtype(dtype).itemsize
    rm, rn = int(p.get("rm") or 0), int(p.get("rn") or 0)
    if (rm, rn) not in SMALL_TILES:
        rm, rn = small_tile(m, n, item)
    kc = small_kc(ta, tb, k, item) and p.get("kc", item == 4)   # H100: float64 3-9 % slower
    ld = kc_ld(k, item) if kc else 0
    size_a = _staged_size(*((k, m) if ta else (m, k)), ld)
    size_b = _staged_size(*((n, k) if tb else (k, n)), ld)
    fixed, per = (size_b, size_a) if shared_b else (0, size_a + size_b)
    if (fixed + per) * item > SMALL_SMEM_MAX:
        return None
    team = -(-m // rm) * -(-n // rn)
    threads = int(p.get("threads") or (256 if team > 32 else 128))
    mpb = int(p.get("mpb") or 0)
    if mpb <= 0:            # enough matrices for the block's threads, within the byte target
        target = int(p.get("smem_target") or SMALL_SMEM_TARGET)
        mpb = min(-(-threads // team), (target // item - fixed) // per)
    mpb = max(1, min(mpb, batch, (SMALL_SMEM_MAX // item - fixed) // per))
    threads = max(32, min(threads, -(-mpb * team // 32) * 32, SMALL_THREADS))
    expr = name_expr("gemm_small", _compile.ctype(dtype), rm, rn, _compile.cbool(kc))
    groups = -(-batch // mpb)
    stages = 2 if int(p.get("stages") or 1) == 2 else 1
    smem = (fixed + stages * mpb * per) * item
    waves = int(p.get("waves") or 0)
    grid = groups
    if stages == 2 or waves:    # a grid of what is resident at once (registers from the kernel)
        regs = kernel_regs("gemm", expr, SMALL_SIGNATURE, dtype)
        grid = min(groups, sm_count() * resident_blocks(threads, smem, regs) * max(waves, 1))
    return ("small", expr, grid, threads, smem, (mpb, stages))


SM_THREADS, SM_REGISTERS, SM_BLOCKS = 2048, 65536, 32    # sm_70 .. sm_90 limits per SM


def kernel_regs(family, expr, signature, dtype, default=64):
    """Registers a thread of one kernel instantiation holds (compiled on first use); ``default``
    where the launcher does not report it (the CPU tests' stand-in)."""
    return getattr(getattr(kernel(family, expr, signature, dtype), "function", None),
                   "num_regs", default)


def opt_in_smem():
    """Shared memory one block may have on the current device, after the opt-in."""
    return device_attribute(_compile.current_device(), "MaxSharedMemoryPerBlockOptin", 48 * 1024)


def warp_registers(regs):
    """Registers a warp of threads holding ``regs`` each takes (allocated in units of 256)."""
    return -(-max(int(regs), 1) * 32 // 256) * 256


def resident_blocks(threads, smem, regs):
    """Blocks of `threads` threads, `smem` bytes of dynamic shared memory and `regs` registers
    per thread that one SM holds at once (at least 1)."""
    warps = -(-threads // 32)
    by_regs = SM_REGISTERS // (warps * warp_registers(regs))
    by_smem = sm_shared_bytes() // (smem + 1024)        # 1 KiB per block reserved (sm_80+)
    return max(1, min(SM_THREADS // (32 * warps), by_regs, by_smem, SM_BLOCKS))


def sm_shared_bytes():
    return device_attribute(_compile.current_device(), "MaxSharedMemoryPerMultiprocessor")


TALL_NC = (4, 8, 16)
_TALL_SMEM = 160 * 1024


def _tall_plan(dtype, rows, n, k, aligned, p):
    item = numpy.dtype(dtype).itemsize
    nc = int(p.get("nc", 8))
    nc = nc if nc in TALL_NC else 8
    vec = 16 // item if aligned else 1
    while vec > 1 and k % vec:
        vec //= 2
    ncg = -(-n // nc)
    rp = int(p.get("rp", 128))
    while rp > 32 and (rp * ncg > 1024 or (k * ncg * nc + rp * (k + 1)) * item > _TALL_SMEM):
        rp //= 2
    smem = (k * ncg * nc + rp * (k + 1)) * item
    if smem > _TALL_SMEM or rp * ncg > 1024:
        return None
    lg = min(32, _pow2_ceil(-(-k // vec)))
    expr = name_expr("gemm_tall", _compile.ctype(dtype), nc, vec)
    return ("tall", expr, grid_for(-(-rows // rp), 1, waves=8), rp * ncg, smem, (rp, lg))


STREAM_NC = (3, 4, 8, 9, 16)
STREAM_SIGNATURE = "qiiTppiTpiii"


def _stream_plan(dtype, rows, n, k, aligned, p):
    """('stream', expr, grid, block, shared bytes, (rp, lds, stages)) of gemm_stream, or None
    where it does not apply: before sm_90 (no bulk copy engine), rows of k elements not a
    whole number of 16-byte pieces, A not 16-byte aligned, or a chunk of rp rows x stages that
    does not fit. Parameters: "nc" (columns per thread, STREAM_NC), "rp" (rows per chunk),
    "stages" (buffers in the ring, 2-16), "pad" (rows kc_ld(k) apart, one copy per row; false:
    one copy per chunk, rows k apart), "wide" (B^T's rows read by 16-byte loads with their
    padding where n <= nc and nc is not whole 16-byte pieces). The grid: the blocks resident at
    once."""
    item = numpy.dtype(dtype).itemsize
    if not (aligned and (k * item) % 16 == 0 and _compile.clusters(_compile.current_device())):
        return None
    nc = int(p.get("nc", 4))
    nc = nc if nc in STREAM_NC else 4
    ncg = -(-n // nc)
    rp = int(p.get("rp", 64))
    stages = max(2, min(RING_STAGES_MAX, int(p.get("stages", 4))))
    lds = kc_ld(k, item) if p.get("pad", True) else k
    vec = 16 // item
    fixed = RING_BARRIER_BYTES + k * -(-ncg * nc // vec) * vec * item     # B^T, rows 16-byte
    limit = opt_in_smem()
    # "wide": one column group whose columns are not whole 16-byte pieces read with its rows'
    # padding (fewer shared loads, more registers; H200 float64 32x36 (9x36) 0.93-0.94x at
    # 40 960 zones, 1.04-1.13x at 262 144: a table choice)
    wide = bool(p.get("wide", False)) and ncg == 1 and nc % vec != 0
    expr = name_expr("gemm_stream", _compile.ctype(dtype), nc, _compile.cbool(wide))
    regs = kernel_regs("gemm", expr, STREAM_SIGNATURE, dtype)
    max_threads = min(1024, 32 * (SM_REGISTERS // warp_registers(regs)))
    while rp > 32 and (rp * ncg > max_threads or fixed + stages * rp * lds * item > limit):
        rp //= 2
    while stages > 2 and fixed + stages * rp * lds * item > limit:
        stages -= 1
    smem = fixed + stages * rp * lds * item
    threads = rp * ncg
    if smem > limit or threads > max_threads:
        return None
    grid = max(1, min(-(-rows // rp), resident_blocks(threads, smem, regs) * sm_count()))
    return ("stream", expr, grid, threads, smem, (rp, lds, stages))


# (MT, NBW, CH) of gemm_stream_mma instantiated: m tiles and n tiles a warp, independent sums
MMA_SHAPES = ((1, 2, 1), (1, 2, 2), (1, 4, 1), (1, 4, 2), (2, 2, 1), (2, 2, 2), (2, 4, 1))
# gemm_stream_mma's launch bound (__launch_bounds__ in kernels/gemm.cu): any register count its
# instantiations take (118-188 with nvcc 13) then fits a block; float32 (1, 2, 2) with 512
# threads failed to launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, reports/gpu_20261129f call 3)
MMA_MAX_THREADS = 256


def _mma_plan(dtype, rows, n, k, aligned, p):
    """('mma', expr, grid, block, shared bytes, (rb, kc, stages)) of gemm_stream_mma, or None
    where it does not apply: before sm_90, k not a multiple of 8, A not 16-byte aligned, or
    op(B)'s fragments and two items that do not fit. Parameters: "mt" / "nbw" / "ch" (m tiles
    of 16 and n tiles of 8 a warp, independent sums: MMA_SHAPES), "rb" (rows an item, a
    multiple of 16 * mt), "kc" (k steps of 8 an item, made odd: the rows' fragment loads then
    hit distinct banks), "stages" (buffers in the ring). The grid: the blocks resident at
    once."""
    item = numpy.dtype(dtype).itemsize
    if not (aligned and k % 8 == 0 and _compile.clusters(_compile.current_device())):
        return None
    shape = (int(p.get("mt", 1)), int(p.get("nbw", 2)), int(p.get("ch", 2)))
    mt, nbw, ch = shape if shape in MMA_SHAPES else (1, 2, 2)
    steps = k // 8
    kc = max(1, min(int(p.get("kc", 27)), steps))
    kc -= 1 - kc % 2                        # odd: rows kc * 8 elements apart
    tiles = -(-n // 8)                      # n tiles of 8 columns, NBW a warp
    groups = -(-tiles // nbw)
    rb = max(16 * mt, int(p.get("rb", 64)) // (16 * mt) * 16 * mt)
    stages = max(2, min(RING_STAGES_MAX, int(p.get("stages", 2))))
    fixed = RING_BARRIER_BYTES + steps * groups * nbw * 64 * 8           # Bf, float64
    limit = opt_in_smem()
    expr = name_expr("gemm_stream_mma", _compile.ctype(dtype), mt, nbw, ch)

    def threads(rows_an_item):
        return 32 * rows_an_item // (16 * mt) * groups

    def smem(rows_an_item, buffers):
        return fixed + buffers * rows_an_item * kc * 8 * item
    while rb > 16 * mt and (threads(rb) > MMA_MAX_THREADS or smem(rb, stages) > limit):
        rb -= 16 * mt
    while stages > 2 and smem(rb, stages) > limit:
        stages -= 1
    if smem(rb, stages) > limit or threads(rb) > MMA_MAX_THREADS:
        return None
    regs = kernel_regs("gemm", expr, STREAM_SIGNATURE, dtype)
    grid = max(1, min(-(-rows // rb), resident_blocks(threads(rb), smem(rb, stages), regs)
                      * sm_count()))
    return ("mma", expr, grid, threads(rb), smem(rb, stages), (rb, kc, stages))


@functools.lru_cache(maxsize=4096)
def _gemm_plan(gpu, dtype, batch, m, n, k, ta, tb, shared_b, aligned, override=None, path=None):
    """('vendor',) or (kind, name expression, grid, block, shared bytes, extra) of one GEMM."""
    if choose_vendor("gemm", dtype, (m, n, k), override, path):
        return ("vendor",)
    p = params("gemm", dtype, m, n, k, override=override)
    if "cfg" not in p and "kernel" not in p:
        p = default_gemm_config(m, n, k, shared_b)
        if p is None:       # no kernel configuration for this shape: cuBLAS unless forced
            if path != "kernel":
                return ("vendor",)
            p = {"cfg": "t32", "mpb": 1}
    if p.get("cfg") == "mma":
        plan = _mma_plan(dtype, batch * m, n, k, aligned, p) if ta == 0 and shared_b else None
        if plan is not None:
            return plan
        if path != "kernel":    # the class's other shapes: cuBLAS beat gemm_stream on them
            return ("vendor",)
        p = {"cfg": "stream"}
    if p.get("cfg") == "stream":
        plan = _stream_plan(dtype, batch * m, n, k, aligned, p) if ta == 0 and shared_b else None
        if plan is not None:
            return plan
        p = {"cfg": "tall"}         # gemm_tall's defaults: its "nc" values differ
    if p.get("cfg") == "tall":
        plan = _tall_plan(dtype, batch * m, n, k, aligned, p) if ta == 0 and shared_b else None
        if plan is not None:
            return plan
        p = default_gemm_config(m, n, k, False) or {"cfg": "t32", "mpb": 1}
    if p.get("kernel") == "small":
        plan = _small_plan(dtype, batch, m, n, k, ta, tb, shared_b, p)
        if plan is not None:
            return plan
    if p.get("cfg") not in GEMM_CONFIGS:      # a matrix too large to stage, an unknown kernel
        p = {"cfg": "t32", "mpb": 1}
    bm, bn, bk, dx, dy = GEMM_CONFIGS[p["cfg"]]
    mpb = int(p.get("mpb", 1))
    tiles = -(-m // bm) * -(-n // bn)
    smem = mpb * bk * (bm + 1 + bn + 1) * numpy.dtype(dtype).itemsize
    expr = name_expr("gemm_tiled", _compile.ctype(dtype), bm, bn, bk, dx, dy)
    return ("tiled", expr, grid_for(batch * tiles, mpb), (dx * dy, 1, mpb), smem, None)


def gemm(a, b, c=None, transa="N", transb="N", alpha=1, beta=0, _params=None, _path=None):
    """c = alpha op(a) op(b) + beta c for each matrix. b may have batch 1 (broadcast).
    ``_params`` forces kernel parameters, ``_path`` ("kernel"/"vendor") the path (tests, tuner)."""
    cupy = cupy_module()
    ta, tb = trans_flag(transa, a.dtype), trans_flag(transb, b.dtype)
    batch = a.shape[0]
    m, k = (a.shape[2], a.shape[1]) if ta else (a.shape[1], a.shape[2])
    n = b.shape[1] if tb else b.shape[2]
    if batch * m * n * k == 0:
        return _empty_result((batch, m, n), a.dtype, c, beta)
    if not is_real(a.dtype):
        return _vendor_gemm(a, b, c, transa, transb, alpha, beta)
    shared_b = b.shape[0] == 1
    if shared_b and batch > 1 and not ta and _path is None and _params is None \
            and _folds(a, c, n):
        c2 = None if c is None else c.reshape(1, batch * m, n)
        out = gemm(a.reshape(1, batch * m, k), b, c2, transa, transb, alpha, beta)
        return out.reshape(batch, m, n)
    if batch == 1 and shared_b and not ta and _path is None:
        rule = (_table_rows_rule(_tuning.gpu_name(), dtype_name(a.dtype), m, n, k, tb)
                if _params is None else rows_rule(dtype_name(a.dtype), m, n, k, tb, _params))
        if rule and _stacks_rows(a) and (c is None or _stacks_rows(c)):
            return _gemm_by_rows(a, b, c, transa, transb, alpha, beta, n, *rule)
    key = (a.dtype, batch, m, n, k, ta, tb, shared_b, data_ptr(a) % 16 == 0)
    plan = cached_plan(_gemm_plan, key, _params, _path)
    if plan[0] == "vendor":
        return _vendor_gemm(a, b, c, transa, transb, alpha, beta)
    kind, expr, grid, block, smem, extra = plan
    if c is None or beta == 0:
        beta = 0
        c = cupy.empty((batch, m, n), dtype=a.dtype) if c is None else c
    if kind == "tall":
        launcher = kernel("gemm", expr, "qiiTppiTpii", a.dtype)
        args = (batch * m, n, k, alpha, a, b, tb, beta, c, extra[0], extra[1])
    elif kind in ("stream", "mma"):
        launcher = kernel("gemm", expr, STREAM_SIGNATURE, a.dtype)
        args = (batch * m, n, k, alpha, a, b, tb, beta, c) + extra
    elif kind == "small":
        launcher = kernel("gemm", expr, SMALL_SIGNATURE, a.dtype)
        vec_copy = int(data_ptr(a) % 16 == 0 and data_ptr(b) % 16 == 0)   # 16-byte pieces
        args = (batch, m, n, k, alpha, a, ta, b, tb, int(shared_b), beta, c) + extra + (vec_copy,)
    else:
        sb = 0 if shared_b and batch > 1 else b.shape[1] * b.shape[2]
        launcher = kernel("gemm", expr, "qiiiTpqiipqiiTpqi", a.dtype)
        args = (batch, m, n, k, alpha, a, a.shape[1] * a.shape[2], a.shape[2], ta, b, sb,
                b.shape[2], tb, beta, c, m * n, n)
    launcher(grid, block, args, smem)
    return c


def syrk(*args, **kwargs):
    """SYRK lives in linalg/_cuda/syrk.py; forwarded for a public layer that looks in 'blas'."""
    from .syrk import syrk as _syrk
    return _syrk(*args, **kwargs)


# ---------------------------------------------------------------------------------------------
# Instantiations for the compile check (tests/linalg/test_kernels_compile.py)

def _compile_check():
    exprs = {"gemv.cu": [], "gemm.cu": []}
    for T in ("float", "double"):
        for vec in (1, 2, 4):
            for unroll in (1, 2, 4):
                exprs["gemv.cu"].append(name_expr("gemv_n_flat", T, vec, unroll))
                exprs["gemv.cu"].append(name_expr("gemv_t_team", T, vec, unroll))
            for unroll in (1, 2, 4):
                exprs["gemv.cu"].append(name_expr("gemv_n_team", T, vec, unroll))
        exprs["gemv.cu"] += [name_expr("gemv_n_warp", T, *((v,) if v > 1 else ()))
                             for v in ((1, 2, 4) if T == "float" else (1, 2))]
        exprs["gemv.cu"] += [name_expr(k, T, t) for k in ("gemv_staged", "gemv_stream")
                             for t in ("false", "true")]
        for cfg in GEMM_CONFIGS.values():
            exprs["gemm.cu"].append(name_expr("gemm_tiled", T, *cfg))
        for nc in TALL_NC:
            for vec in (1, 2, 4):
                exprs["gemm.cu"].append(name_expr("gemm_tall", T, nc, vec))
        exprs["gemm.cu"] += [name_expr("gemm_stream", T, nc, _compile.cbool(wide))
                             for nc in STREAM_NC for wide in (False, True)]
        exprs["gemm.cu"] += [name_expr("gemm_stream_mma", T, *shape) for shape in MMA_SHAPES]
        for (rm, rn), kc in itertools.product(SMALL_TILES, ("false", "true")):
            exprs["gemm.cu"].append(name_expr("gemm_small", T, rm, rn, kc))
    return exprs


COMPILE_CHECK = _compile_check()
