"""GPU batched GEBRD (reduction to bidiagonal form): launcher of kernels/gebrd.cu.

``gebrd(a)`` takes a (batch, m, n), overwrites it with LAPACK's GEBRD output (B on the diagonal
and first super- (m >= n) or sub-diagonal (m < n), the Householder vectors of Q and P in the rest)
and returns the tuple ``(a, d, e, tauq, taup)`` with d, tauq, taup of shape (batch, min(m, n)) and
e of shape (batch, min(m, n) - 1), LAPACK conventions (dgebd2's reflectors, so results agree with
LAPACK to rounding). No failure mode, no info.

Four paths (``plan`` picks one by the tuning table's ``"kernel"``: "reg", "cols" (default),
"blocked" or "team"; ``_params`` forces one):

* ``gebrd_reg`` (max(m, n) <= 32, where the table asks for it: H100 float64 n <= 16, float32
  n = 16, 32): one group of N = 8, 16 or 32 lanes per matrix, lane j holding column j of the matrix
  (of A^T for m < n) in registers; the left update is local to a lane, the right update's
  product C u one reduce-scatter over the lanes (shuffles, or with ``trs`` a transposition
  through shared memory); row and column i go to memory at step i (with ``stage`` through a
  shared-memory copy of the output, stored coalesced at the end). Parameters ``per_block``
  (matrices per block, at most 128 threads a block), ``trs``, ``stage``, ``shrink``. Larger
  shapes asking for it run gebrd_cols. H100 batch 10240 (2026-11-23): float64 n = 16 0.094 ms
  (trs + stage) against 0.107 for gebrd_cols, float32 n = 32 0.281 against 0.319; float64
  n = 32 no faster than gebrd_cols without ``shrink`` (0.52: issue bound, ~1000 instructions a
  lane a step). ``shrink`` (default False; the H100 rows set it for float64 n = 16/32 and
  float32 n = 16/32): the steps with at most N / 2 rows left run a copy of the step code whose
  row loops, reduce-scatter and rotation cover N / 2 rows (then N / 4, down to 8), cutting the
  instructions of the late steps (kernels/gebrd.cu reg_steps): float64 n = 32 0.519 -> 0.473 ms.
* ``gebrd_cols`` (default, wherever the matrix fits in shared memory and max(m, n) <= 1024): one
  group of G threads per matrix (G = max(m, n) rounded up to a power of two, at most 512, several
  matrices per warp when G < 32), the matrix in shared memory. Each Householder update is done
  without any reduction across threads: for the left reflector each thread owns whole columns (w_j = v^T C_j
  and C_j -= tau w_j v in one thread), for the right one whole rows; only the norms of dlarfg
  are reduced (shuffles). Small matrices were latency bound on reductions and barriers, which
  this removes. A wide matrix is reduced as its transpose (LAPACK's m < n algorithm is the m >= n
  one on A^T with Q and P exchanged). Two step implementations: ``fused`` (default True) does a
  step's two updates as one rank-2 update in one pass over the columns, fused with the next
  step's column products, plus one pass over the rows (two passes a step, each trailing entry read
  twice and written once; H100 batch 10240: float64 n = 64 3.15 ms against 3.51, n = 128 42.8
  against 50.6, float32 n = 32 0.32 against 0.35); ``fused: False`` is gebd2_tall (four passes a
  step; faster at n <= 16 and float32 n = 64, where latency, not shared-memory traffic, limits).
  Parameters: ``group`` (threads per matrix, a power of two; fewer than max(m, n) is allowed: a
  thread then owns several rows/columns), ``per_block`` (matrices per block), ``fused``, ``regs``
  (80 or 128 registers a thread, fused only: see the kernel's launch bounds), and two options of
  the fused step: ``shared_s`` (default False; in the H100 float32 n = 64 row), the row pass's
  s = t^T u (the same scalar for every row) summed once per step by the column owners (a
  butterfly across the barrier before the row pass) instead of in every row thread's dot loop
  (one multiply-add per trailing entry and a broadcast load per 16 bytes fewer there); ``peel``
  (default True since 2026-11-27), the masked last trip of the row and column loops run after
  them instead of tested for in every trip (sm_90 SASS, one float64 trip of 4 entries: row pass
  34 instructions, 27 with ``shared_s``, 23 with ``peel``, 16 with both; column pass 52, 40 with
  ``peel``; at 80 registers 0-8 bytes spilled with ``peel``, 36-72 without). H100 batch 10240,
  ``peel`` against ``peel: False`` (reports/gpu_20261127f call 2): 9-25 % less time at every
  size from 40 to 200 in both dtypes (float64 n = 64 / 128 2.86 / 35.9 against 3.15 / 42.8
  ms), and 3 / 14 % at float64 / float32 n = 256 (gebrd_blocked's rest); within 4 % either way
  at n <= 12; an H200 alike (9-25 % at n = 48-160, call 10).
* ``gebrd_blocked`` (the default where gebrd_cols does not fit: float64 n > 167, float32 n >
  237 on the H100 (square), or more than 1024 rows or columns; min(m, n) must exceed the panel
  width): LAPACK's blocked dgebrd, the "classic setting" of seed 003/004 §6. Panels of nb
  columns by ``labrd_panel`` (kernels/labrd.cu, one launch a panel, one block of ``threads`` a
  matrix in global memory), each followed by one cuBLAS batched GEMM for the trailing matrix,
  A22 -= [V X] [Y U^T]^T with k = 2 nb, until the rest fits one gebrd_cols launch (on a
  contiguous copy).
  The panel kernel's "fused sweep" reads the trailing rows once per step instead of twice (the
  row sums of step i with the column sums of step i + 1; ``fuse: False`` runs the two passes).
  The batch runs in chunks whose workspaces stay near BLOCKED_WORKSPACE (256 MiB; at least 4
  matrices an SM a chunk). Parameters ``nb`` (1..32, default 32), ``threads`` (256 / 512 / 1024,
  default 512), ``fuse``, and ``tail`` / ``chunk`` (``_params`` only: panels until at most
  ``tail`` columns are left; matrices a chunk). H100
  2026-11-27 (scripts/probe_gebrd_blocked.py): float64 n = 256 batch 10240 36 us a matrix, n =
  512 251 (gebrd_team: 152 / 1677), float32 n = 256 18, n = 512 152 (gebrd_team: 105 / 1287).
* ``gebrd_team`` (the fallback): one team per matrix, GEMV device functions with reductions; the
  matrix in shared memory when it fits (the big-tile setting of seed 003), otherwise in global
  memory. Parameters ``team``, ``teams_per_block``, ``unroll`` (the tuned table's entries).

Complex dtypes have no kernel yet and no vendor routine: they are computed by the CPU backend on a
host copy (correct, slow).
"""
import functools

from . import _compile
from .. import _tuning
from .._dispatch import cupy_module
from ._compile import is_real, kernel
from .blas import name_expr, grid_for, params, device_attribute, sm_count, _pow2_ceil

__all__ = ["gebrd", "plan", "COMPILE_CHECK"]

_SMEM_LIMIT = 200 * 1024        # gebrd_team's budget (tuned with it)
_COLS_MAX_ROWS = 1024           # max(m, n) gebrd_cols takes
_COLS_MAX_GROUP = 512           # threads per matrix (the kernel's launch bound is 768)
_KERNELS = ("reg", "cols", "blocked", "team")
_REG_MAX = 32                   # max(m, n) gebrd_reg takes (a lane holds a column in registers)
_COLS_REGS = (80, 128)          # gebrd_cols's register budgets (its REGS template argument)
_BLOCKED_NB = 32                # panel width of gebrd_blocked (labrd.cu: at most 32, lane = column)
_LABRD_THREADS = (256, 512, 1024)   # labrd_panel's block sizes (its THREADS template argument)
BLOCKED_WORKSPACE = 256 << 20   # gebrd_blocked's workspace bytes a chunk of the batch (about)


def default_team(m, n):
    """Untuned team size: one warp up to 32 x 32, then more threads with the matrix size (above
    64 a matrix fills most of an SM's shared memory, so the team is the occupancy: 256 threads
    measured 1.3-1.5x faster than 128 at n = 128 on the H100)."""
    size = max(m, n)
    if size <= 32:
        return 32
    return 64 if size <= 64 else 256


def _cpu_gebrd(a):
    cupy = cupy_module()
    from .._cpu import bidiag as cpu_bidiag
    res = cpu_bidiag.gebrd(cupy.asnumpy(a))
    return tuple(cupy.asarray(r) for r in res)


def _smem_per_team(m, n, team, in_smem, item):
    return ((m * (n + 1) if in_smem else 0) + 2 * max(m, n) + team + 40) * item


def _pad4(x):
    return (x + 3) & ~3


def _cols_smem_elems(rows, cols, group, fused=True):
    """Elements of shared memory per matrix of gebrd_cols, as kernels/gebrd.cu fused_smem_elems
    (fused: six vector buffers, three of pad4(R), three of pad4(C)) or cols_smem_elems (two
    reflector buffers of pad4(R), d/e/tauq/taup), with the R x (C | 1) matrix (R = max(m, n),
    C = min(m, n)) and the reduction slots, rounded up to 4 elements (16-byte alignment)."""
    warps = group // 32 if group > 32 else 1
    if fused:
        return _pad4(3 * _pad4(rows) + 3 * _pad4(cols) + rows * (cols | 1) + 4 * warps + 4)
    return _pad4(2 * _pad4(rows) + rows * (cols | 1) + 4 * cols + 4 * warps + 4)


def cols_config(m, n, item, smem_limit, group=0, per_block=0, fused=True):
    """``(group, per_block, shared bytes per block)`` of gebrd_cols for m x n matrices of
    ``item``-byte reals, or None where they do not fit it (then gebrd_team runs). ``group`` and
    ``per_block`` 0 take the defaults: a power of two >= max(m, n) (at least 4, at most 512: a
    thread then owns several rows/columns) and 128 threads a block."""
    rows, cols = max(m, n), min(m, n)
    if rows > _COLS_MAX_ROWS:
        return None
    group = min(_pow2_ceil(max(int(group) or rows, 4)), _COLS_MAX_GROUP)
    per_matrix = _cols_smem_elems(rows, cols, group, fused) * item
    if per_matrix > smem_limit:
        return None
    # one warp: up to 256 threads a block (the kernel's launch bound); wider: 512 threads and
    # one named barrier per group (ids 1..15)
    cap = 256 // group if group <= 32 else min(_COLS_MAX_GROUP // group, 15)
    per_block = max(1, min(int(per_block) or max(1, 128 // group), cap))
    while per_block > 1 and per_matrix * per_block > smem_limit:
        per_block //= 2
    return group, per_block, per_matrix * per_block


def reg_config(m, n, item, per_block=0, trs=False, stage=False):
    """``(lanes, per_block, shared bytes per block)`` of gebrd_reg for m x n matrices of
    ``item``-byte reals, or None where max(m, n) > 32 (then gebrd_cols runs): lanes N = 8, 16 or
    32 >= max(m, n) per matrix, ``per_block`` matrices per block (0: 128 threads a block, the
    kernel's launch bound), as kernels/gebrd.cu reg_smem_elems: 2N elements of shared memory per
    matrix, plus N (N + 16 / item) with ``trs`` (the transposition buffer)."""
    size = max(m, n)
    if size > _REG_MAX:
        return None
    lanes = max(8, _pow2_ceil(size))
    per_block = max(1, min(int(per_block) or 128 // lanes, 128 // lanes))
    elems = (2 * lanes + (lanes * (lanes + 16 // item) if trs else 0)
             + (lanes * (lanes + 1) if stage else 0))
    return lanes, per_block, per_block * elems * item


def labrd_smem(m, n, item, threads):
    """Shared bytes of a labrd_panel block of ``threads`` for an m x n (m >= n) matrix, as
    kernels/labrd.cu labrd_smem_elems."""
    r32 = (n + 31) // 32 * 32
    return (2 * m + n + (threads // 32) * (r32 + 32) + 9 * 32 + 35 * (threads // 32)) * item


def blocked_config(m, n, item, smem_limit, nb=0, threads=0):
    """``(nb, threads, shared bytes)`` of gebrd_blocked for m x n matrices (either orientation: a
    wide matrix is reduced as its transpose), or None where it does not apply: min(m, n) must
    exceed the panel width nb (1..32, default 32) and a panel block's vectors must fit in shared
    memory. ``threads``: labrd_panel's block (256, 512 or 1024; default 512: H100 2026-11-27,
    ``scripts/probe_gebrd_blocked.py threads``, us a matrix with 256 / 512 / 1024 threads:
    float64 n = 256 batch 10240 36.8 / 36.4 / 41.7, n = 512 batch 256 320 / 251 / 269; float32
    n = 256 18.5 / 17.6 / 17.1, n = 512 225 / 153 / 164). Where the column sums of 512 threads
    do not fit in shared memory, 256."""
    rows, cols = max(m, n), min(m, n)
    nb = int(nb) or _BLOCKED_NB
    if not 1 <= nb <= 32:
        raise ValueError(f"gebrd nb: expected 1 .. 32, got {nb!r}")
    threads = int(threads) or 512
    if threads not in _LABRD_THREADS:
        raise ValueError(f"gebrd threads: expected one of {_LABRD_THREADS}, got {threads!r}")
    smem = labrd_smem(rows, cols, item, threads)
    if smem > smem_limit and threads > _LABRD_THREADS[0]:     # fewer warps, fewer column sums
        threads = _LABRD_THREADS[0]
        smem = labrd_smem(rows, cols, item, threads)
    if cols <= nb or smem > smem_limit:
        return None
    return nb, threads, smem


def _blocked_plan(m, n, item, smem_limit, p):
    """plan()'s gebrd_blocked entry for the parameters ``p``, or None where it does not apply."""
    cfg = blocked_config(m, n, item, smem_limit, p.get("nb") or 0, p.get("threads") or 0)
    if cfg is None:
        return None
    return {"kernel": "blocked", "nb": cfg[0], "threads": cfg[1], "smem": cfg[2],
            "fuse": bool(p.get("fuse", True))}


def _optin_smem(device_id):
    """Largest dynamic shared memory a block may opt in to on this device."""
    return int(device_attribute(device_id, "MaxSharedMemoryPerBlockOptin", _SMEM_LIMIT))


def plan(m, n, dtype, _params=None):
    """The kernel and launch configuration ``gebrd`` uses for real m x n matrices of ``dtype``:
    ``{"kernel": "reg", "group", "per_block", "smem", "trs", "stage", "shrink"}`` (max(m, n)
    <= 32 only; larger shapes asking for it get gebrd_cols), ``{"kernel": "cols", "group",
    "per_block", "smem", "fused", "regs", "shared_s", "peel"}``, ``{"kernel": "blocked", "nb",
    "threads", "smem", "fuse"}`` (where gebrd_cols does not fit, or asked for; shapes it does not
    take fall to gebrd_cols) or ``{"kernel": "team", "team", "per_block", "smem", "in_smem",
    "unroll"}`` (needs the current device for its limits)."""
    import numpy
    item = numpy.dtype(dtype).itemsize
    p = params("gebrd", dtype, m, n, override=_params)
    which = p.get("kernel") or "cols"
    if which not in _KERNELS:
        raise ValueError(f"gebrd kernel: expected one of {_KERNELS}, got {which!r}")
    if which == "reg":
        trs, stage = bool(p.get("trs", False)), bool(p.get("stage", False))
        shrink = bool(p.get("shrink", False))
        cfg = reg_config(m, n, item, p.get("per_block") or 0, trs, stage)
        if cfg is not None:
            lanes, per_block, smem = cfg
            return {"kernel": "reg", "group": lanes, "per_block": per_block, "smem": smem,
                    "trs": trs, "stage": stage, "shrink": shrink}
        which = "cols"                  # larger matrices: gebrd_cols (or gebrd_team)
    smem_limit = _optin_smem(_compile.current_device()) if which != "team" else 0
    if which == "blocked":
        cfg = _blocked_plan(m, n, item, smem_limit, p)
        if cfg is not None:
            return cfg
        which = "cols"
    if which == "cols":
        fused = bool(p.get("fused", True))
        regs = int(p.get("regs") or 80)
        if regs not in _COLS_REGS:
            raise ValueError(f"gebrd regs: expected one of {_COLS_REGS}, got {regs!r}")
        regs = regs if fused else 80        # gebd2_tall: 80 (measured; no spills there)
        shared_s = fused and bool(p.get("shared_s", False))
        peel = fused and bool(p.get("peel", True))
        cfg = cols_config(m, n, item, smem_limit, p.get("group") or 0, p.get("per_block") or 0,
                          fused)
        if cfg is not None:
            group, per_block, smem = cfg
            return {"kernel": "cols", "group": group, "per_block": per_block, "smem": smem,
                    "fused": fused, "regs": regs, "shared_s": shared_s, "peel": peel}
        cfg = _blocked_plan(m, n, item, smem_limit, p)
        if cfg is not None:             # too large for shared memory: panels and GEMMs
            return cfg
    team = int(p.get("team") or 0) or default_team(m, n)
    in_smem = _smem_per_team(m, n, team, True, item) <= _SMEM_LIMIT
    per_team = _smem_per_team(m, n, team, in_smem, item)
    per_block = int(p.get("teams_per_block") or 0) or max(1, 128 // team)
    per_block = min(per_block, 15 if team > 32 else 32)
    while per_block > 1 and per_team * per_block > _SMEM_LIMIT:
        per_block //= 2
    return {"kernel": "team", "team": team, "per_block": per_block, "smem": per_team * per_block,
            "in_smem": in_smem, "unroll": int(p.get("unroll") or 2)}


@functools.lru_cache(maxsize=256)
def _default_plan(device_id, m, n, dtype, gpu):
    """plan(m, n, dtype), cached per device, shape, dtype and tuning GPU."""
    return plan(m, n, dtype)


@functools.lru_cache(maxsize=256)
def _launch(device_id, m, n, dtype, batch, gpu):
    """(Launcher, grid, block, group, shared bytes) of the default plan, cached per device,
    shape, dtype, batch and tuning GPU: a call is then a lookup, one allocation and one launch
    (small batched calls are host bound, docs/design.md "Launch overhead")."""
    return _launch_for(_default_plan(device_id, m, n, dtype, gpu), dtype, batch)


def _launch_for(cfg, dtype, batch):
    ctype = _compile.ctype(dtype)
    cbool = _compile.cbool
    if cfg["kernel"] == "reg":         # lanes per matrix
        group = cfg["group"]
        expr = name_expr("gebrd_reg", ctype, group, cbool(cfg["trs"]), cbool(cfg["stage"]),
                         cbool(cfg.get("shrink")))
    elif cfg["kernel"] == "cols":      # threads per matrix; WIDE: more than one warp
        group = cfg["group"]
        expr = name_expr("gebrd_cols", ctype, cbool(group > 32), cbool(cfg["fused"]), cfg["regs"],
                         cbool(cfg["shared_s"]), cbool(cfg["peel"]))
    else:
        group = cfg["team"]
        expr = name_expr("gebrd_team", ctype, cfg["unroll"], cbool(cfg["in_smem"]))
    per_block = cfg["per_block"]
    return (kernel("gebrd", expr, "qiipppppi"), grid_for(batch, per_block), group * per_block,
            group, cfg["smem"])


def _outputs(batch, mn, dtype):
    """d, e, tauq, taup as views of one allocation: (batch, mn), (batch, mn - 1), (batch, mn),
    (batch, mn), each contiguous (the kernels write e with row stride mn - 1)."""
    cupy = cupy_module()
    buf = cupy.empty(batch * (4 * mn - 1), dtype=dtype)
    item = buf.itemsize
    ptr = buf.data
    d = cupy.ndarray((batch, mn), dtype, ptr)
    e = cupy.ndarray((batch, mn - 1), dtype, ptr + batch * mn * item)
    tauq = cupy.ndarray((batch, mn), dtype, ptr + batch * (2 * mn - 1) * item)
    taup = cupy.ndarray((batch, mn), dtype, ptr + batch * (3 * mn - 1) * item)
    return d, e, tauq, taup


def gebrd(a, _params=None):
    """Bidiagonalize each matrix of a (batch, m, n) real CuPy array (C-contiguous) in place.

    Returns (a, d, e, tauq, taup): d, tauq, taup (batch, min(m, n)), e (batch, min(m, n) - 1), of
    a's dtype. ``_params`` overrides the tuned parameters (the tuner's and the tests' candidates)."""
    cupy = cupy_module()
    batch, m, n = a.shape
    mn = min(m, n)
    if a.size == 0:         # empty never reaches a kernel
        vec = cupy.zeros((batch, mn), dtype=a.dtype)
        return a, vec, vec[:, :max(mn - 1, 0)].copy(), vec.copy(), vec.copy()
    if not is_real(a.dtype):
        return _cpu_gebrd(a)
    device, gpu = _compile.current_device(), _tuning.gpu_name()
    cfg = _default_plan(device, m, n, a.dtype, gpu) if _params is None else plan(m, n, a.dtype,
                                                                                 _params)
    if cfg["kernel"] == "blocked":
        options = _params or {}
        end = _panels_end(m, n, a.dtype, cfg["nb"], options.get("tail"), device, gpu)
        return _gebrd_blocked(a, cfg, end, options.get("chunk"))
    if _params is None:
        launcher, grid, block, group, smem = _launch(device, m, n, a.dtype, batch, gpu)
    else:
        launcher, grid, block, group, smem = _launch_for(cfg, a.dtype, batch)
    d, e, tauq, taup = _outputs(batch, mn, a.dtype)
    launcher(grid, block, (batch, m, n, a, d, e, tauq, taup, group), smem)
    return a, d, e, tauq, taup


def _panels_end(m, n, dtype, nb, tail, device, gpu):
    """The column where gebrd_blocked's panels stop for m x n matrices (either orientation): a
    multiple of nb, where at most nb columns are left, or the rest fits one launch of its default
    plan (``tail`` given, the tests' handle: where at most ``tail`` columns are left)."""
    rows, cols = max(m, n), min(m, n)
    p = 0
    while cols - p > nb and (cols - p > tail if tail is not None else
                             _default_plan(device, rows - p, cols - p, dtype,
                                           gpu)["kernel"] == "blocked"):
        p += nb
    return p


def _gebrd_blocked(a, cfg, end, chunk=None):
    """gebrd_blocked: LAPACK's blocked dgebrd on the GPU (see the module doc), panels up to
    column ``end`` (:func:`_panels_end`). The batch runs in chunks whose workspaces (X, Y and the
    reflectors' copies: (m + n) 2 nb numbers a matrix) stay near BLOCKED_WORKSPACE bytes -- a
    batch that fills the GPU's memory adds no more than that -- but never fewer than 4 matrices
    an SM. A wide matrix is reduced as its transpose (Q and P exchanged), chunk by chunk.
    ``chunk`` is the tests' handle (matrices a chunk). Returns gebrd's tuple."""
    cupy = cupy_module()
    batch, m, n = a.shape
    rows, cols = max(m, n), min(m, n)
    nb = cfg["nb"]
    d, e, tauq, taup = _outputs(batch, cols, a.dtype)
    per_matrix = (rows + cols) * 2 * nb * a.itemsize
    chunk = min(batch, int(chunk or max(4 * sm_count(), BLOCKED_WORKSPACE // per_matrix)))
    w = cupy.empty((chunk, rows, 2 * nb), dtype=a.dtype)
    z = cupy.empty((chunk, cols, 2 * nb), dtype=a.dtype)
    for k0 in range(0, batch, chunk):
        k = slice(k0, min(batch, k0 + chunk))
        size = k.stop - k.start
        if m >= n:
            _blocked_tall(a[k], cfg, end, d[k], e[k], tauq[k], taup[k], w[:size], z[:size])
        else:
            at = cupy.ascontiguousarray(a[k].transpose(0, 2, 1))
            _blocked_tall(at, cfg, end, d[k], e[k], taup[k], tauq[k], w[:size], z[:size])
            a[k] = at.transpose(0, 2, 1)
    return a, d, e, tauq, taup


def _blocked_tall(a, cfg, end, d, e, tauq, taup, w, z):
    """gebrd_blocked on a C-contiguous (batch, m, n) a with m >= n, writing d, e, tauq, taup
    (contiguous views) with workspaces w (batch, m, 2 nb) and z (batch, n, 2 nb): labrd_panel
    (kernels/labrd.cu) a panel of nb columns, each followed by one batched GEMM for the trailing
    matrix, A(p+nb:, p+nb:) -= [V X] [Y U^T]^T (cuBLAS, k = 2 nb), for p < ``end``; then one
    gebrd launch reduces a contiguous copy of the rest."""
    from . import vendor
    cupy = cupy_module()
    batch, m, n = a.shape
    nb, threads, smem = cfg["nb"], cfg["threads"], cfg["smem"]
    launch = kernel("labrd", name_expr("labrd_panel", _compile.ctype(a.dtype), threads),
                    "qiiiipppppppi")
    grid = grid_for(batch, 1)
    for p in range(0, end, nb):
        launch(grid, threads, (batch, m, n, p, nb, a, w, z, d, e, tauq, taup, int(cfg["fuse"])),
               smem)
        vendor.gemm(a[:, p + nb:, p + nb:], w[:, nb:m - p, :],
                    z[:, nb:n - p, :].transpose(0, 2, 1), alpha=-1.0, beta=1.0)
    rest = cupy.ascontiguousarray(a[:, end:, end:])      # end < n: at least one column left
    _, dt, et, tqt, tpt = gebrd(rest)
    a[:, end:, end:] = rest
    d[:, end:], tauq[:, end:], taup[:, end:] = dt, tqt, tpt
    if n - end > 1:
        e[:, end:] = et


COMPILE_CHECK = {"gebrd.cu": [name_expr("gebrd_team", T, u, s) for T in ("float", "double")
                              for u in (1, 2, 4) for s in ("true", "false")]
                 + [name_expr("gebrd_cols", T, w, "true", r, s, p) for T in ("float", "double")
                    for w in ("true", "false") for r in _COLS_REGS for s in ("true", "false")
                    for p in ("true", "false")]
                 + [name_expr("gebrd_cols", T, w, "false", 80, "false", "false")
                    for T in ("float", "double") for w in ("true", "false")]
                 + [name_expr("gebrd_reg", T, lanes, trs, stage, shrink)
                    for T in ("float", "double") for lanes in (8, 16, 32)
                    for trs in ("true", "false") for stage in ("true", "false")
                    for shrink in ("true", "false")],
                 "labrd.cu": [name_expr("labrd_panel", T, t) for T in ("float", "double")
                              for t in _LABRD_THREADS]}
