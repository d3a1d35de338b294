"""GPU batched TRSV (one right-hand side): launcher of kernels/trsv.cu.

``trsv(a, x, lower, trans, unit_diagonal)`` solves op(a_k) x_k = b_k for a (batch, n, n) and
x (batch, n) (overwritten) and returns ``(x, info)``; info[k] is the first zero or non-finite
diagonal element (1-based), computed on the device, never synchronized (docs/design.md). The
``launch_*`` functions take x (and ``out``) as (batch, n), or as the (batch, n, 1) vector batch
of the one-vector POTRS: they read only its batch and element strides.
Four kernels: ``trsv_warp``, a group of 4, 8, 16 or 32 lanes per matrix (``group_width``, or the
tuning table's "width"), the triangle streamed once, coalesced, 2 or 4 adjacent entries a load
where the table's "vec" asks and the operand is aligned for it (``row_vector``); for the n of
STAGED_RANGE, ``trsv_staged``, a warp a matrix with the triangle copied to shared memory first;
above n = 32, for the smallest batches (at most SPLIT_BLOCKS blocks of 32 rows in all)
``trsv_split``, a block per 32-row block of a matrix, the blocks handing on each solved part of
x through global memory, and for batches below BLOCK_BELOW ``trsv_block``, a block of warps a
matrix sharing each panel GEMV. All four also serve the one-vector POTRS of
linalg/_cuda/cholesky.py (``potrs=True``; trsv_split in two launches). The batches the tables
name (triangular.small_batch; none below n = 513 on the H100), n > MAX_N_KERNEL and classes
where the table says ``use_vendor`` go to cuBLAS trsm(Batched) (linalg/_cuda/vendor.py; complex
dtypes through the triangular solves' cupyx path); info then comes from the diagonal check the
triangular solves share (triangular._diag_info, no sync). Empty problems never reach a kernel.
"""
import functools

import numpy

from . import _compile
from .._dispatch import cupy_module
from ._compile import info_array, is_real, kernel
from .blas import trans_flag, name_expr, grid_for, params, choose_vendor, cached_plan
from . import blas, vendor
from .triangular import (_diag_info, _vendor_trsm, result_array, small_batch, writable,
                         write_target)

__all__ = ["trsv", "COMPILE_CHECK"]

MAX_N_KERNEL = 4096       # x and a 32 x 33 tile per warp in shared memory: 41 KiB in float64
# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"trsv": ("a",)}
# Operands written over unless ``keep`` names them (then the solution is a new array, the
# kernels' out-of-place instantiations; linalg/_cuda/triangular.py OUT_OF_PLACE).
OUT_OF_PLACE = {"trsv": ("x",)}


def _vendor_trsv(a, x, lower, trans, unit_diagonal):
    """cuBLAS trsm(Batched) with one right-hand side: in place on x for real dtypes
    (linalg/_cuda/vendor.py), else the triangular solves' cupyx path."""
    if is_real(a.dtype) and a.strides[2] == a.itemsize:
        info = _diag_info(a, unit_diagonal)
        vendor.trsm(a, x[:, :, None], False, lower, trans_flag(trans, a.dtype) != 0, unit_diagonal)
        return x, info
    sol, info = _vendor_trsm(a, x[:, :, None], False, lower, str(trans).upper(), unit_diagonal, 1)
    return sol[:, :, 0], info


def trsv(a, x, lower=True, trans="N", unit_diagonal=False, _params=None, _path=None, keep=()):
    """Solve op(a) x = b (b given in x) for each matrix; returns (x, info), the solution a new
    array where ``keep`` names "x". ``_params`` forces kernel parameters, ``_path``
    ("kernel"/"vendor") the path (tests, tuner)."""
    cupy = cupy_module()
    batch, n, _ = a.shape
    t = trans_flag(trans, a.dtype)
    if batch == 0 or n == 0:
        return x, cupy.zeros(batch, dtype=numpy.int32)
    if not is_real(a.dtype) or n > MAX_N_KERNEL or (_path is None and small_batch("trsv", a)):
        return _vendor_trsv(a, writable(x, "x", keep), lower, trans, unit_diagonal)
    launch = small_batch_launch(a) if _params is None and _path is None else None
    if launch is not None:
        out = result_array(x, "x", keep)
        return out, launch(a, x, lower, t, unit_diagonal, out=out)
    plan = cached_plan(_plan, (a.dtype, n), _params, _path)
    if plan[0] == "vendor":
        return _vendor_trsv(a, writable(x, "x", keep), lower, trans, unit_diagonal)
    out = result_array(x, "x", keep)
    if _params is None and staged_serves(STAGED_RANGE, n, a.dtype):
        return out, launch_staged(a, x, lower, t, unit_diagonal, out=out)
    return out, launch_warp(a, x, lower, t, unit_diagonal, False, *plan[1:], out=out)


# kernels/trsv.cu trsv_staged (one warp a matrix: op(A)'s triangle copied to shared memory at
# memory rate, then solved from there) for first <= n <= last of STAGED_RANGE[dtype name] (at most
# STAGED_MAX), STAGED_WARPS warps a block; STAGED_POTRS_RANGE: the same for the one-vector POTRS of
# linalg/_cuda/cholesky.py (both solves from one staged factor). Measured by `python3
# scripts/probe_trsv_staged.py` (H100, 2026-11-25, reports/gpu_20261125c/), backend ms at batch
# 10240, trsv_warp -> staged at 4 warps. n = 32 (probe_trsv_staged.md): TRSV float64 LN 0.061 ->
# 0.045, UT 0.056 -> 0.044; float32 LN 0.081 (0.054 the run before) -> 0.044, UT 0.044 -> 0.039
# (batch 1000: 1.2-1.7x; batch 100000: 1.2-1.4x but float32 UT 0.93x); POTRS float64 lower 0.091 ->
# 0.058, upper 0.075 -> 0.059; float32 0.069 -> 0.045, 0.067 -> 0.063. n = 25-31
# (probe_trsv_staged_25_31.md, `--sizes 25,27,28,30,31,32`): float64 wins every cell, TRSV 1.1-1.5x
# (n = 27: LN 0.058 -> 0.045, UT 0.053 -> 0.046), POTRS 1.1-1.6x at batch 10240 and 1.5-2.0x at
# 100000 (n = 27 lower 0.508 -> 0.267); float32 does not (TRSV LN n = 25: 0.038 against 0.040,
# POTRS upper n = 25 0.037 against 0.039). At n = 24 float64 UT loses (0.037 against 0.046 in one
# run). 4 warps a block were as fast as 8 or faster in 10 of the 12 n = 32 TRSV cells. The GPU
# tests force every n <= 32 (tests/linalg/test_gpu_trsv.py test_trsv_staged_kernel).
# float32 n = 32 went back to trsv_warp once its rows were loaded 2 or 4 elements a lane (H100,
# 2026-11-26, `python3 scripts/probe_trsv_vec.py --small-grid`, reports/gpu_20261126h/
# small_grid.md, GPU time, batch 10240 / 102400: TRSV 8 lanes capped at 64 with vec 2 1.34-1.47x /
# 1.35-1.38x, POTRS on its rules' launch (8 lanes, vec 4) 1.19-1.22x / 1.02-1.12x); float64 keeps
# staged (the lower N solves 0.70x / 0.75x, POTRS 0.67-0.88x on trsv_warp at n = 32).
STAGED_MAX = 32
STAGED_RANGE = {"float64": (25, 32)}
STAGED_POTRS_RANGE = {"float64": (25, 32)}
STAGED_EVERY_N = {"float32": (1, STAGED_MAX), "float64": (1, STAGED_MAX)}   # tests, sanitizer
STAGED_WARPS = 4


def staged_serves(ranges, n, dtype):
    """Whether trsv_staged takes order ``n`` in ``dtype`` under ``ranges`` (STAGED_RANGE or
    STAGED_POTRS_RANGE: dtype name -> (first, last n); a dtype not listed: never)."""
    first, last = ranges.get(_compile.dtype_name(dtype), (0, 0))
    return first <= n <= min(last, STAGED_MAX)


def launch_staged(a, x, lower, trans, unit, potrs=False, warps=None, out=None):
    """kernels/trsv.cu ``trsv_staged`` on x (batch, n) (any strides), in place or with ``out``
    (triangular.result_array) from x into out, x unchanged; n <= STAGED_MAX, ``warps`` warps a
    block (default STAGED_WARPS), one matrix a warp; potrs=True adds POTRS's second
    (transposed) solve from the same staged factor (trans must then be 0 for lower, 1 for
    upper). Returns info (no sync)."""
    dst, fresh = write_target(out, x)
    config = _staged_config(_compile.current_device(), a.dtype, a.shape[0], warps or STAGED_WARPS,
                            fresh)
    return _launch(config, a, x, dst, lower, trans, unit, potrs)


@functools.lru_cache(maxsize=4096)
def _staged_config(device_id, dtype, batch, warps, fresh=False):
    """(launcher, grid, block, shared bytes) of one trsv_staged launch: a packed triangle of
    order STAGED_MAX a warp (kernels/trsv.cu TRSV_STAGED_TILE); ``fresh``: out of place."""
    name = name_expr("trsv_staged", _compile.ctype(dtype), _compile.cbool(fresh))
    launcher = kernel("trsv", name, "qipqqpqqpiiiip")
    smem = warps * (STAGED_MAX * (STAGED_MAX + 1) // 2) * dtype.itemsize
    return launcher, grid_for(batch, warps), 32 * warps, smem


# kernels/trsv.cu trsv_block (one block of warps a matrix, the panel GEMVs shared among them)
# for n > STAGED_MAX and batches below BLOCK_BELOW[dtype name]: at a small batch a lane group a
# matrix leaves the GPU idle and a call runs at the latency of one group (docs/design.md
# "TRSV at small batches"); block_warps(batch) warps a block, rows loaded BLOCK_VEC[dtype name]
# elements a lane where aligned. H100, n = 64-512, GPU time against the table's trsv_warp
# launch (`python3 scripts/probe_trsv_vec.py --block-grid`, reports/gpu_20261126h/
# block_grid_call3.md, block_grid_call4.md): batch 1-256 float64 1.1-8.5x, float32 1.3-4.2x
# (lower N, upper T, one-vector POTRS); batch 512 (2 warps) float64 1.02-3.9x, float32 0.85x
# (lower N, n = 512) to 3.7x; batch 1024 lost at n = 64 float64 and n = 256-512 float32 lower
# N, so the bound is 1024.
BLOCK_BELOW = {"float32": 1024, "float64": 1024}
BLOCK_VEC = {"float32": 2, "float64": 2}


def block_warps(batch):
    """Warps of a trsv_block block: 4 up to batch 256 (2 and 8 within 5 % or slower, n = 64-512
    float64), 2 above (batch 512 float64 n = 128: 0.024 against 0.041 ms with 4)."""
    return 4 if batch <= 256 else 2


def block_serves(a):
    """Whether trsv_block takes the (batch, n, n) batch ``a`` (n > STAGED_MAX, batch below
    BLOCK_BELOW for its dtype)."""
    return (a.shape[1] > STAGED_MAX
            and a.shape[0] < BLOCK_BELOW.get(_compile.dtype_name(a.dtype), 0))


def launch_block(a, x, lower, trans, unit, potrs=False, warps=None, vec=None, maxreg=None,
                 out=None):
    """kernels/trsv.cu ``trsv_block`` on x (batch, n) (any strides, a with unit column stride),
    in place or with ``out`` from x into out: one block of ``warps`` warps a matrix (default
    block_warps(batch)), rows loaded ``vec`` elements a lane (default BLOCK_VEC) where ``a`` is
    aligned for it, registers capped at ``maxreg`` (None: NVRTC's choice; trsv_block<float,
    ..., 4> takes 254 registers, so at most 8 warps a block without a cap). potrs=True adds
    the second solve of POTRS. Returns info (no sync)."""
    dst, fresh = write_target(out, x)
    n = a.shape[1]
    if vec is None:
        vec = BLOCK_VEC.get(_compile.dtype_name(a.dtype), 1)
    config = _block_config(_compile.current_device(), a.dtype, a.shape[0], n,
                           warps or block_warps(a.shape[0]), fresh, row_vector(a, vec), maxreg)
    return _launch(config, a, x, dst, lower, trans, unit, potrs)


@functools.lru_cache(maxsize=4096)
def _block_config(device_id, dtype, batch, n, warps, fresh=False, vec=1, maxreg=None):
    """(launcher, grid, block, shared bytes) of one trsv_block launch: x and a partial sum a
    thread in shared memory."""
    name = name_expr("trsv_block", _compile.ctype(dtype), _compile.cbool(fresh),
                     *((vec,) if vec > 1 else ()))
    launcher = kernel("trsv", name, "qipqqpqqpiiiip", options=_compile.register_cap(maxreg))
    return launcher, grid_for(batch, 1), 32 * warps, (n + 32 * warps) * dtype.itemsize


# kernels/trsv.cu trsv_split (a block a 32-row block of a matrix, the blocks of one matrix on
# different SMs, handing on each solved x_k through an exchange vector in global memory) for n >
# STAGED_MAX while the launch has at most SPLIT_BLOCKS[dtype name] blocks (batch * ceil(n / 32)):
# there trsv_block leaves most SMs idle and a call costs the latency of one block streaming the
# whole triangle. H100, GPU time of split against trsv_block (`python3 scripts/probe_trsv_vec.py
# --split-grid`, reports/gpu_20261126i/split_grid_call3.md), lower N / upper T / one-vector POTRS:
# float64 n = 512 batch 1 0.034 / 0.033 / 0.067 ms against 0.066 / 0.053 / 0.112, float32 0.032 /
# 0.031 / 0.064 against 0.096 / 0.057 / 0.138; n = 128-512 at batches 1-64 0.29-0.85x the time;
# n = 64 0.83-1.02x; at 1024 blocks mixed (n = 256 batch 128: 0.83 / 1.06 / 1.06x), at 2048 lost
# (n = 512 batch 128: 0.93 / 1.08 / 1.16x).
SPLIT_BLOCKS = {"float32": 1024, "float64": 1024}
SPLIT_WARPS = 4           # kernels/trsv.cu TRSV_SPLIT_WARPS


def split_serves(a):
    """Whether trsv_split takes the (batch, n, n) batch ``a``: n > STAGED_MAX and at most
    SPLIT_BLOCKS (for its dtype) blocks of 32 rows in all."""
    n = a.shape[1]
    return (n > STAGED_MAX
            and a.shape[0] * -(-n // 32) <= SPLIT_BLOCKS.get(_compile.dtype_name(a.dtype), 0))


def small_batch_launch(a):
    """The launcher of the kernels for small batches that takes the (batch, n, n) batch ``a``:
    launch_split where split_serves, else launch_block where block_serves, else None. Both take
    (a, x, lower, trans, unit, potrs=False, out=None) (TRSV and the one-vector POTRS)."""
    if split_serves(a):
        return launch_split
    return launch_block if block_serves(a) else None


def launch_split(a, x, lower, trans, unit, potrs=False, out=None):
    """kernels/trsv.cu ``trsv_split`` on x (batch, n) (any strides), in place or with ``out`` from
    x into out: one block of SPLIT_WARPS warps a 32-row block of a matrix. potrs=True adds POTRS's
    second (transposed) solve as a second launch, in place on the result (trans must then be 0
    for lower, 1 for upper). Returns info (no sync)."""
    dst, fresh = write_target(out, x)
    device, a = _compile.current_device(), unit_columns(a)
    workspace = _split_workspace(device, a.dtype, a.shape[0] * a.shape[1])
    info = info_array(a.shape[0])
    _launch_split(_split_config(device, a.dtype, fresh), a, x, dst, lower, trans, unit, info,
                  workspace)
    if potrs:
        _launch_split(_split_config(device, a.dtype, False), a, dst, dst, lower, 1 - trans, False,
                      info, workspace)
    return info


def _launch_split(config, a, x, dst, lower, trans, unit, info, workspace):
    """One trsv_split launch from x into dst (x itself unless ``config`` is an OUT
    instantiation), ``a`` with unit column stride; writes ``info``. ``workspace``:
    _split_workspace's (exchange, counter) of the current stream."""
    launcher, smem = config
    exchange, counter = workspace
    launcher(a.shape[0] * -(-a.shape[1] // 32), 32 * SPLIT_WARPS,
             vector_args(a, x, dst, info) + (int(lower), int(trans), int(unit), x, exchange,
                                             counter), smem)


@functools.lru_cache(maxsize=64)
def _split_config(device_id, dtype, fresh=False):
    """(launcher, shared bytes) of trsv_split: SPLIT_WARPS + 1 tiles of 32 x 33, then x_k and
    the partial sums, 32 a warp each."""
    name = name_expr("trsv_split", _compile.ctype(dtype), _compile.cbool(fresh))
    launcher = kernel("trsv", name, "qipqqpqqpiiippp")
    return launcher, ((SPLIT_WARPS + 1) * 32 * 33 + 2 * SPLIT_WARPS * 32) * dtype.itemsize


# kernels/trsv.cu SplitBits<T>::SENTINEL: an exchange entry not yet published.
SPLIT_SENTINEL = {"float32": (numpy.uint32, 0x7FA5A5A5),
                  "float64": (numpy.uint64, 0x7FF4A5A5A5A5A5A5)}
# (device, stream, dtype name) -> (exchange, counter, capacity): trsv_split's workspace, at rest
# (every exchange entry the sentinel, the counter 0) between launches: each launch leaves it so.
# One a stream, since launches on one stream never overlap. Grown by replacing it: a launch
# still running on the old one keeps it alive through the memory pool's stream ordering.
_SPLIT_WORKSPACES = {}


def _split_workspace(device_id, dtype, items):
    """(exchange of at least ``items`` values of ``dtype``, counter int32 (1,)) for the current
    stream, at rest."""
    cupy = cupy_module()
    name = _compile.dtype_name(dtype)
    key = (device_id, cupy.cuda.get_current_stream().ptr, name)
    ws = _SPLIT_WORKSPACES.get(key)
    if ws is None or ws[2] < items:
        capacity = max(items, 1 << 14, 2 * ws[2] if ws else 0)
        bits, sentinel = SPLIT_SENTINEL[name]
        exchange = cupy.full(capacity, sentinel, dtype=bits).view(dtype)
        ws = _SPLIT_WORKSPACES[key] = (exchange, cupy.zeros(1, dtype=numpy.int32), capacity)
    return ws[0], ws[1]


def group_width(n):
    """Untuned lanes per matrix of ``trsv_warp`` (the tables may set "width" per class): smaller
    groups keep more matrices in flight (H100, float64: 8 lanes beat 32 by 1.5x at n = 24-32 and
    4 lanes beat 8 by 1.1-1.3x at n = 8-32; 16 lanes beat 32 by 1.3-1.7x at n = 48-512 and 4 by
    1.2-1.4x at n = 64-128)."""
    return 4 if n <= 32 else 16


def launch_warp(a, x, lower, trans, unit, potrs, warps=4, width=None, maxreg=None, vec=1,
                scalar=None, out=None):
    """kernels/trsv.cu ``trsv_warp`` on x (batch, n) (any strides, a with unit column stride),
    in place or with ``out`` (triangular.result_array) from x into out, x unchanged: one group
    of ``width`` lanes per matrix (default ``group_width(n)``), ``warps`` warps a block,
    registers capped at ``maxreg`` (None: NVRTC's choice), rows (columns in the transposed
    solves) loaded ``vec`` elements a lane where ``a`` is aligned for it (``row_vector``);
    where it takes single loads only, ``scalar`` (warps, width, maxreg), if given, replaces the
    three settings tuned with the vector. potrs=True adds the second (transposed) solve of
    POTRS. Returns info (no sync)."""
    dst, fresh = write_target(out, x)
    vec = row_vector(a, vec)
    if vec == 1 and scalar is not None:
        warps, width, maxreg = scalar
    config = _warp_config(_compile.current_device(), a.dtype, a.shape[0], a.shape[1], warps,
                          width, maxreg, fresh, vec)
    return _launch(config, a, x, dst, lower, trans, unit, potrs)


def _launch(config, a, x, dst, lower, trans, unit, potrs):
    """Launch a trsv_warp or trsv_staged configuration (the same parameter list) from x into
    ``dst`` (x itself, or for an OUT instantiation a new array of x's strides: write_target);
    returns the new info array."""
    launcher, grid, block, smem = config
    a = unit_columns(a)
    info = info_array(a.shape[0])
    launcher(grid, block, vector_args(a, x, dst, info) + (int(lower), int(trans), int(unit),
                                                          int(potrs), x), smem)
    return info


def unit_columns(a):
    """``a``, or a copy of it with unit column stride where it has another (the kernels load
    rows)."""
    return a if a.strides[2] == a.itemsize else cupy_module().ascontiguousarray(a)


def vector_args(a, x, dst, info):
    """The leading parameters every kernels/trsv.cu kernel takes: (batch, n, A, lda, A's batch
    stride, X (``dst``), incx, X's batch stride, info), strides in elements from ``a`` (unit
    column stride) and ``x`` (read: (batch, n) or (batch, n, 1))."""
    item = a.itemsize
    ax, xx = a.strides, x.strides
    return (a.shape[0], a.shape[1], a, ax[1] // item, ax[0] // item, dst, xx[1] // item,
            xx[0] // item, info)


def row_vector(a, vec):
    """The widest power of two <= ``vec`` (and <= 16 bytes) for which trsv_warp's VEC-wide row
    loads are aligned on ``a`` (batch, n, n): unit column stride, and the base address, the row
    and batch strides and n multiples of it in elements (kernels/trsv.cu); 1 if none."""
    item = a.itemsize
    vec = min(int(vec), 16 // item)             # one 16-byte load at most
    s0, s1, s2 = a.strides
    if vec <= 1 or s2 != item:
        return 1
    ptr = blas.data_ptr(a)
    while vec > 1 and (a.shape[1] % vec or (s1 // item) % vec or (s0 // item) % vec
                       or ptr % (vec * item)):
        vec //= 2
    return vec


@functools.lru_cache(maxsize=4096)
def _warp_config(device_id, dtype, batch, n, warps, width, maxreg=None, fresh=False, vec=1):
    """(launcher, grid, block, shared bytes) of one trsv_warp launch (cached: the host cost is
    most of a small call); ``vec`` > 1 names the VEC instantiation."""
    item = dtype.itemsize
    width = int(width or group_width(n))
    tile = width * (width + 1) if item == 8 else 0     # kernels/trsv.cu trsv_tile<T, W>()
    per_group = (n + tile + 1) * item                   # + 1: the groups' parts in other banks
    groups = max(1, min(int(warps) * 32 // width, _compile.DEFAULT_SMEM // per_group))
    groups = max(32 // width, groups // (32 // width) * (32 // width))   # whole warps
    name = name_expr("trsv_warp", _compile.ctype(dtype), width, _compile.cbool(fresh),
                     *((vec,) if vec > 1 else ()))
    launcher = kernel("trsv", name, "qipqqpqqpiiiip", options=_compile.register_cap(maxreg))
    return launcher, grid_for(batch, groups), groups * width, groups * per_group


@functools.lru_cache(maxsize=1024)
def _plan(gpu, dtype, n, override=None, path=None):
    """('vendor',) or ('warp', warps per block, lanes per matrix or None, register cap or None,
    row vector width, scalar) for one TRSV class; scalar: (warps, lanes, cap) of the class's
    "scalar" entry, the launch for operands that cannot take the vector (the lanes and cap tuned
    with a vector can be far off without it: float32 n = 256, 16 lanes capped at 96, 1.34 ms
    against 0.82 with 8 lanes capped at 64, reports/gpu_20261126g/tune_log_call3.txt), or None."""
    if choose_vendor("trsv", dtype, (n,), override, path):
        return ("vendor",)
    p = params("trsv", dtype, n, override=override)
    s = p.get("scalar")
    scalar = None if not s else (int(s.get("warps") or 4), int(s.get("width") or 0) or None,
                                 int(s.get("maxreg") or 0) or None)
    return ("warp", int(p.get("warps") or 4), int(p.get("width") or 0) or None,
            int(p.get("maxreg") or 0) or None, int(p.get("vec") or 1), scalar)


COMPILE_CHECK = {"trsv.cu": [name_expr("trsv_warp", T, w, o) for T in ("float", "double")
                             for w in (4, 8, 16, 32) for o in ("false", "true")]
                 + [name_expr("trsv_warp", T, w, o, v) for T, vs in (("float", (2, 4)),
                                                                     ("double", (2,)))
                    for v in vs for w in (4, 8, 16, 32) for o in ("false", "true")]
                 + [name_expr("trsv_staged", T, o) for T in ("float", "double")
                    for o in ("false", "true")]
                 + [name_expr("trsv_block", T, o, *((v,) if v > 1 else ()))
                    for T, vs in (("float", (1, 2, 4)), ("double", (1, 2)))
                    for v in vs for o in ("false", "true")]
                 + [name_expr("trsv_split", T, o) for T in ("float", "double")
                    for o in ("false", "true")]}
