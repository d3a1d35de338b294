"""GPU Cholesky family on strided batches: potrf, potrs, posv, potri, poti (docs/design.md).

float32/float64, n <= LEAF (32): one fused kernel launch per operation (kernels/potrf.cu
``chol_small`` for potrf/potri/poti, ``chol_solve`` for posv and potrs with several right-hand
sides, the fused two-solve leaf POTRS of triangular.solve_leaf for one), several matrices per
thread block, each matrix read and written once.
potrf for n > LEAF: float64 n = 33..128 (TENSOR_RANGE) in one launch of kernels/potrf.cu
``chol_tensor`` (the lower triangle in shared memory, DMMA trailing updates; input kept, or in
place from n = 36 or below TENSOR_IN_PLACE_BELOW matrices); small batches at n = 129..512 one
launch of ``chol_global`` / ``chol_cluster`` (GLOBAL_BATCHES); float64 n = 129..256, and
97..128 from 1000 matrices (LEFT_RULES, ahead of chol_tensor), one launch of ``chol_left``
(left-looking 32-wide panels, DMMA updates); else left-looking panels on the referenced
triangle (per 32-wide panel one cuBLAS GEMM with the finished panels, then kernels/potrf.cu
``chol_panel``: factor, solve below, zeros), in place or, for a kept input, reading it in the
panel kernel. posv and potrs with several right-hand sides, float64, from 100
matrices: kernels/potrf.cu ``chol_tensor_solve`` in one launch (POSV n = 33..64 below 10240
matrices factoring in shared memory, POTRS n = 33..128; TENSOR_SOLVE_RANGE, TENSOR_SOLVE_BELOW;
else POSV is potrf then potrs); else potrs with many right-hand sides: 33 <= n <=
64 one launch of kernels/tri_pair.cu (both solves), else recursive around the fused leaf POTRS
(64-leaves of tri_pair, 32-leaves below; above n = 128 its blocks on chol_tensor_trsm and
chol_tensor_solve where their rules take them). TRSM (either side) for triangular.py, float64
n = 33..128 from 100 matrices and the recursions' blocks: kernels/potrf.cu ``chol_tensor_trsm``
(``tensor_trsm``, TENSOR_TRSM_RULES); TRMM by ``chol_tensor_trmm`` on the same storage
(``tensor_trmm``, TENSOR_TRMM_RULES). TRTRI for triangular.py, n = 65..128 and the recursion's
blocks: kernels/potrf.cu ``chol_tensor_trtri`` (``tensor_trtri``, TENSOR_TRTRI_RANGE). potri
and poti, float64 n = 33..128 (poti from n = 65 below 1000 matrices only:
TENSOR_INVERSE_BELOW), float32 potri n = 64..128 (TENSOR_INVERSE_RANGE): one launch of
kernels/potrf.cu ``chol_tensor_inverse`` (POTI factoring in shared memory, then L^-1 and L^-T
L^-1 there); else potri = trtri + LAUUM
(linalg/_cuda/triangular.py: LAUUM by kernels up to n = 64, by tri_tile up to 256 where TILE_RULES
says, else one dense cuBLAS product), poti = potrf + potri. Small batches above n = 32
(triangular.small_batch): cuSOLVER potrf and cuBLAS triangular solves (linalg/_cuda/vendor.py).
potrs with one vector and n >= POTRS_WARP_FROM: both solves in one launch of kernels/trsv.cu
``trsv_warp`` (``trsv_staged`` in STAGED_POTRS_RANGE, ``trsv_block`` for batches below
trsv.BLOCK_BELOW above n = 32). Complex dtypes: a column-by-column factorization vectorized over
the batch (info without a host sync) and cuBLAS.

Every function returns (result, info) (docs/design.md): potrf/posv/poti info is potrf's (leading
minor not positive definite, NaN included); potrs/potri info is a zero or non-finite diagonal
entry of the given factor.
"""
import functools

import numpy

from . import triangular as tri
from . import trsv, vendor
from .._dispatch import cupy_module
from ._compile import (DEFAULT_SMEM, cbool, clusters, ctype, current_device, dtype_name,
                       grid_1d, info_array, kernel)

__all__ = ["potrf", "potrs", "posv", "potri", "poti"]

# (the leaf kernels used here are listed by linalg/_cuda/triangular.py)
COMPILE_CHECK = {"potrf.cu": [f"chol_panel<{t}, {o}>" for t in ("float", "double")
                              for o in ("false", "true")]
                 + [f"chol_solve<{t}, {c}, {o}>" for t in ("float", "double")
                    for c in tri.SIZE_CLASSES for o in ("false", "true")]
                 + [f"chol_tensor<{t}, {b}, {o}>" for t in ("float", "double")
                    for b in (2, 3, 4, 5, 6) for o in ("false", "true")]
                 + [f"chol_global<{t}, {o}>" for t in ("float", "double")
                    for o in ("false", "true")]}
# posv for n <= LEAF with at least POSV_FUSED_FROM right-hand sides: one launch of
# kernels/potrf.cu chol_solve (the factor never leaves shared memory). H100, batch 10240, against
# potrf + potrs: 2.0-2.3x faster for n right-hand sides (n = 2..32), 1.4-2.1x for one, except
# float32 n = 32 with one (0.92x) (reports/gpu_20261123/posv_fused.md).
POSV_FUSED_FROM = 1
# potrs for n <= LEAF with at least POTRS_SOLVE_FROM right-hand sides: chol_solve with the given
# factor instead of the leaf POTRS (triangular.solve_leaf): H100, batch 10240, n right-hand sides,
# 1.2-1.6x faster at n = 4-32 (reports/gpu_20261123/potrs_solve.md).
POTRS_SOLVE_FROM = 2
# potrs with one vector: the fused lane-group TRSV kernel (potrs_width lanes a matrix) from
# this n (H100, float64, batch 10240: 0.043 ms at n = 12 against 0.049 for tri_vec, 0.104 against
# 0.228 at n = 32; at n <= 8 tri_vec wins: 0.031 against 0.038 ms at n = 8).
POTRS_WARP_FROM = 9


def potrs_width(n, itemsize, vec=None):
    """Lanes per matrix of the fused one-vector POTRS. H100, batch 10240, GPU time, registers
    capped at 96 (scripts/probe_trsv_vec.py --potrs-grid, 2026-11-26, reports/gpu_20261126g/
    potrs_grid_all.md): float32 8 lanes up to n = 56 (n = 40 / 48: 0.037 / 0.049 ms against
    0.052 / 0.059 with 16), 16 to 128, 32 above (n = 256: 1.04 against 1.10 ms); float64 8 up to
    n = 40, then 16 (n = 128 / 256: 0.54 / 1.98 against 0.56 / 2.05 with 32, 0.60 / 2.54 with
    8). ``vec`` = 1 (a float32 factor that cannot take the vector: odd n, or misaligned): 8 lanes
    up to n = 128, then 32 (single loads: n = 96 / 128 / 256 0.218 / 0.400 / 1.33 ms against
    0.294 / 0.521 / 1.98 with 16 lanes capped at 96)."""
    if itemsize == 4 and vec == 1:
        return 8 if n <= 128 else 32
    if itemsize == 4:
        return 8 if n <= 56 else 16 if n <= 128 else 32
    return 8 if n <= 40 else 16


def potrs_vector_width(n, itemsize):
    """Elements a lane loads at once along the factor's rows in the fused one-vector POTRS
    (trsv_warp's VEC; the launcher narrows it where the factor is not aligned for it). Measured
    as potrs_width: float32 4 (2 with 32 lanes: n = 256 1.04 against 1.07 ms), against single
    loads 1.05-1.7x; float64 2 with 8 lanes from n = 24 (n = 40: 0.063 against 0.068 ms), else
    1 (2 lost with 16 lanes: 0.65-0.88x at n = 64-256)."""
    if itemsize == 4:
        return 2 if potrs_width(n, itemsize) == 32 else 4
    return 2 if 24 <= n <= 40 else 1


def potrs_register_cap(n, itemsize, vec=None):
    """Register cap of the fused one-vector POTRS's trsv_warp launch: 96, except for a float32
    factor on single loads (``vec`` = 1) with 32 lanes (n > 128): none (n = 192 / 256 0.795 /
    1.333 ms against 0.834 / 1.389 capped). Measured as potrs_width, these rules against the
    previous ones (8 lanes to n = 32, then 16, float32 32 above 64; float32 vec 4 from 64;
    registers uncapped): float64 n = 12-256 1.05-1.36x, float32 1.0-1.5x (potrs_grid.md)."""
    if itemsize == 4 and vec == 1 and n > 128:
        return None
    return 96


# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"potrs": ("l",)}
# Operands written over unless the function's ``keep`` names them (then the result is a new
# array: the kernels' out-of-place instantiations, or one copy on in-place-only paths;
# linalg/_cuda/triangular.py OUT_OF_PLACE).
OUT_OF_PLACE = {"potrf": ("a",), "potrs": ("b",), "posv": ("a", "b"), "potri": ("l",),
                "poti": ("a",)}
# A default POTRF call (its input kept) on the panel path runs the out-of-place panels
# (potrf_panels with src) from this n; below it, one whole copy first and the in-place panels
# (the out-of-place chol_panel takes more registers: float64 190 against 168, float32 238).
# H100, batch 10240, default-call ms, out-of-place panels against a copy first
# (reports/gpu_20261126b/ab_kept_inputs.md): float64 n = 33 0.98x, 48 1.09x, 64 1.24x,
# 96-256 1.12-1.15x; float32 n = 33 0.89x, 48 0.96x, 64 1.07x, 96-256 1.21-1.24x.
PANEL_OUT_FROM = {"float64": 48, "float32": 64}
# Shared elements a matrix of kernels/potrf.cu chol_panel (chol_panel_smem<32>()): two 32 x 33
# tiles (+ 1 each) and the inverted diagonal.
PANEL_SMEM_ELEMS = 2 * (32 * 33 + 1) + 32


def chol_panel(a, j0, lower, info, src=None):
    """kernels/potrf.cu chol_panel on the panel at column (row, for upper) j0 of the view ``a``;
    ``info`` None on the first panel (then allocated and returned). With ``src`` (a's shape and
    strides): the out-of-place instantiation, whose panel input is src's entries plus (j0 > 0)
    the -L L^T that the GEMM wrote to ``a``."""
    batch, n = a.shape[0], a.shape[1]
    fresh = src is not None
    if fresh:
        src = tri.check_twin(src, a)
    launcher, grid, threads, smem = _panel_config(current_device(), a.dtype, batch, fresh=fresh)
    first = info is None
    if first:
        info = info_array(batch)
    _, lda, sa = tri.view_args(a)
    launcher(grid, threads, (a, lda, sa, n, j0, batch, int(lower), int(first), info,
                             a if src is None else src), smem)
    return info


@functools.lru_cache(maxsize=4096)
def _panel_config(device_id, dtype, batch, options=(), fresh=False):
    """(launcher, grid, threads, shared bytes): one warp a matrix, as many a block (up to 4) as
    fit the default shared memory; ``options``: extra NVRTC options (scripts/probe_potrf_panels.py
    tries register caps); ``fresh``: the out-of-place instantiation."""
    per_matrix = PANEL_SMEM_ELEMS * dtype.itemsize
    per_block = 4
    while per_block > 1 and per_block * per_matrix > DEFAULT_SMEM:
        per_block //= 2
    launcher = kernel("potrf", f"chol_panel<{ctype(dtype)}, {cbool(fresh)}>", "pqqiiqiipp",
                      options=options)
    return launcher, grid_1d(batch, per_block), 32 * per_block, per_block * per_matrix


def potrf_panels(a, lower, src=None):
    """Left-looking blocked Cholesky in place on the view ``a`` (n > LEAF), lower or upper form:
    for each 32-wide panel, one GEMM with the finished panels, then one chol_panel launch
    (factor, solve below, zeros); returns info. With ``src`` (a's shape and strides), the factor
    of ``src`` is written to ``a`` and ``src`` is only read: each GEMM writes -L L^T with beta =
    0 and the panel kernel adds src's entries as it loads them, so a default call (its input
    kept) moves the bytes of the in-place one and copies nothing. H100, float64, batch 10240,
    against the right-looking recursion (A11, TRSM, GEMM, A22) it replaced: n = 64 0.42 against
    0.52 ms, 128 1.83 against 2.44, 256 8.5 against 10.7 (2.6x cuSOLVER potrfBatched, 43 % of
    copy bandwidth); batch 2048, n = 512: 10.0 against 10.9."""
    n = a.shape[1]
    info = None
    beta = 1.0 if src is None else 0.0
    for j0 in range(0, n, tri.LEAF):
        w = min(tri.LEAF, n - j0)
        if j0:
            if lower:        # A[j0:, panel] -= L[j0:, :j0] L[panel, :j0]^T
                tri.gemm(a[:, j0:, j0:j0 + w], a[:, j0:, :j0],
                         a[:, j0:j0 + w, :j0].swapaxes(1, 2), alpha=-1.0, beta=beta)
            else:            # A[panel, j0:] -= U[:j0, panel]^T U[:j0, j0:]
                tri.gemm(a[:, j0:j0 + w, j0:], a[:, :j0, j0:j0 + w].swapaxes(1, 2),
                         a[:, :j0, j0:], alpha=-1.0, beta=beta)
        info = chol_panel(a, j0, lower, info, src)
    return info


# kernels/potrf.cu chol_tensor: POTRF of LEAF < n <= TRIANGLE_MAX in one launch, a matrix's
# lower triangle in shared memory as 32 x 32 blocks of TENSOR_BLOCK_ELEMS doubles (rows
# TENSOR_LD apart), then 32 reciprocals; TENSOR_THREADS[NT] a block (NT = ceil(n / 32)).
TENSOR_MAX = 128
TENSOR_LD = 36
TENSOR_BLOCK_ELEMS = 32 * TENSOR_LD
# chol_tensor, chol_tensor_inverse and chol_tensor_trtri hold the lower form up to NT = 6 (n =
# TRIANGLE_MAX; 190 KiB of shared memory, one block an SM, kernels/potrf.cu ct_bound_threads);
# NT = 5-6 serve where their ranges reach past TENSOR_MAX.
TRIANGLE_MAX = 192
TENSOR_THREADS = {2: 64, 3: 128, 4: 256, 5: 384, 6: 384}
# The n (first, last) a dtype's POTRF takes chol_tensor for: every batch with the input kept (a
# default call, out of place), in place every batch from n = TENSOR_IN_PLACE_FROM and below
# TENSOR_IN_PLACE_BELOW matrices under it; ahead of the one-launch, small-batch and panel paths,
# behind chol_left's rows (LEFT_RULES: n = 97-128 from 1000 matrices). H100, float64, ms
# (scripts/probe_chol_tensor.py time, reports/gpu_20261127 calls 7-9): kept, n = 48-128,
# 1.12-1.33x the panels at batch 10240, 1.17-2.4x the one-launch / vendor paths at batch 1-500;
# in place 1.12-2.05x at batch 64-2000 (n = 48 at 64: 0.89x, 0.015 against 0.013 ms), but
# 0.86-0.96x at 10240 but for n = 96 (1.08x). Since ct_load / ct_store step their addresses a row
# at a time (reports/gpu_20261127i calls 6-7, 17-20 % faster), in place at batch 10240 / 100000:
# n = 64 1.12 / 1.09x, 96 1.31 / 1.43x, 112 1.13 / 1.11x, 128 1.14x; n = 48 1.01 / 0.94x (kept
# 1.26-1.74x at every n). With 64 threads a block at NT = 2 (reports/gpu_20261127j calls 1-2): in
# place at batch 10240 / 100000 n = 36 1.18 / 1.10x, 40 1.12 / 1.09x, 44 1.17 / 1.10x, 48
# 1.14-1.22 / 1.13x, n = 33 1.94 / 0.94x; kept n = 33-48 1.27-1.66x; so from n = 33 kept and from
# 36 in place.
# float32 lost everywhere measured (0.38-0.58x with plain loads widened on the way; since its
# loads are cp.async copies into staging slots, 0.58-0.86x at batch 10240 and 0.72-1.09x at 1000,
# n = 48-128, reports/gpu_20261127h call 5: the float32 panels move half the bytes).
# NT = 5-6 (one block an SM) lost to chol_left: n = 160 / 192 at batch 1000 and 10240
# 0.71-0.88x (`python3 scripts/probe_triangle_192.py`, reports/gpu_20261128b call 1; the
# factorization's diagonal steps run on one warp with no other block to overlap them).
TENSOR_RANGE = {"float64": (33, 128)}
TENSOR_IN_PLACE_FROM = 36
TENSOR_IN_PLACE_BELOW = 2048


def tensor_blocks_a_side(n):
    """chol_tensor's NT at order n: ceil(n / 32) blocks of 32 rows."""
    return -(-n // tri.LEAF)


def tensor_smem_bytes(n):
    """Dynamic shared bytes of chol_tensor at order n (kernels/potrf.cu chol_tensor_smem)."""
    nt = tensor_blocks_a_side(n)
    return (nt * (nt + 1) // 2 * TENSOR_BLOCK_ELEMS + 32) * 8


def use_tensor(a, kept):
    """True where POTRF of the (batch, n, n) batch ``a`` runs on chol_tensor: n in its dtype's
    TENSOR_RANGE, and the input ``kept``, n from TENSOR_IN_PLACE_FROM or the batch below
    TENSOR_IN_PLACE_BELOW."""
    first, last = TENSOR_RANGE.get(dtype_name(a.dtype), (0, -1))
    batch, n = a.shape[0], a.shape[1]
    return first <= n <= last and (kept or n >= TENSOR_IN_PLACE_FROM
                                   or batch < TENSOR_IN_PLACE_BELOW)


def potrf_tensor(a, lower, src=None):
    """kernels/potrf.cu chol_tensor on the (batch, n, n) view ``a`` (LEAF < n <= TRIANGLE_MAX):
    the factor in one launch, one matrix a block (its lower triangle in shared memory, the
    trailing updates on the float64 tensor cores), zeros in the other triangle. In place, or
    with ``src`` (a's shape and strides) the factor of ``src`` written to ``a``, ``src`` only
    read. Returns info."""
    return _factor_a_block(_tensor_config, a, lower, src)


def _factor_a_block(config, a, lower, src, blocks=1):
    """Launch a one-matrix-a-block kernel with chol_tensor's parameters (chol_tensor,
    chol_tensor_inverse, chol_tensor_trtri, whose ``lower`` carries its flags, chol_tensor_lauum,
    chol_global;
    chol_cluster: one matrix a cluster of ``blocks`` blocks) on the view ``a``, in place or
    from ``src``;
    ``config(device_id, dtype, n, fresh)`` gives its (launcher, threads, shared bytes). Returns
    info."""
    batch, n = a.shape[0], a.shape[1]
    fresh = src is not None
    if fresh:
        src = tri.check_twin(src, a)
    launcher, threads, smem = config(current_device(), a.dtype, n, fresh)
    info = info_array(batch)
    _, lda, sa = tri.view_args(a)
    grid = grid_1d(batch, 1) if blocks == 1 else max(1, min(batch, CLUSTER_GRID_MAX)) * blocks
    launcher(grid, threads, (a, lda, sa, n, batch, int(lower), info, src if fresh else a), smem)
    return info


def rows_take(rules, a):
    """True where a row of ``rules`` (dtype name -> rows of (first n, last n, first batch) or
    (first n, last n, first batch, last batch)) holds the order and the batch count of the
    (batch, n, n) batch ``a``: LEFT_RULES, TENSOR_TRSM_RULES, TENSOR_LAUUM_RULES."""
    batch, n = a.shape[0], a.shape[1]
    return any(row[0] <= n <= row[1] and row[2] <= batch and (len(row) < 4 or batch <= row[3])
               for row in rules.get(dtype_name(a.dtype), ()))


def _factor_into(config, a, flags, out):
    """_factor_a_block's launch in place on ``a`` (``out`` None or ``a`` itself), or from ``a``
    into ``out`` (``a`` only read); ``flags`` in the kernel's lower slot. Returns info."""
    if out is None or out is a:
        return _factor_a_block(config, a, flags, None)
    return _factor_a_block(config, out, flags, a)


@functools.lru_cache(maxsize=1024)
def _tensor_config(device_id, dtype, n, fresh):
    """(launcher, threads, shared bytes) of chol_tensor at order n: NT = ceil(n / 32) blocks a
    side, TENSOR_THREADS[NT] threads. The kernel's 128-register bound (launch bound 256, 2)
    lets four 128-thread blocks share an SM where shared memory allows (NT = 3), eight
    64-thread blocks at NT = 2: the blocks an SM are what hide the diagonal steps' latency.
    H100, float64, batch 10240, ms: n = 64 128 threads 0.42, 256 0.60; n = 96 128 0.82, 192
    1.10, 256 1.09; at NT = 4 shared memory holds an SM to two blocks and 256 threads (1.67)
    beat 128 (2.00); a 255-register bound (launch bound 128, 2) lost 15 % at n = 64
    (reports/gpu_20261127, calls 5 and 6). NT = 2, 64 threads against 128 (`python3
    scripts/probe_chol_tensor.py time --threads 64`, reports/gpu_20261127j call 1, twice
    each): in place n = 40 / 48 / 56 / 64 at batch 10240 0.209-0.211 / 0.231-0.233 /
    0.256-0.257 / 0.282-0.286 against 0.248 / 0.273-0.278 / 0.307-0.309 / 0.334 ms (1.14-1.19x;
    batch 100000 1.19-1.22x, 1000 0.99-1.17x)."""
    nt = tensor_blocks_a_side(n)
    launcher = kernel("potrf", f"chol_tensor<{ctype(dtype)}, {nt}, {cbool(fresh)}>",
                      "pqqiqipp")
    return launcher, TENSOR_THREADS[nt], tensor_smem_bytes(n)


# kernels/potrf.cu chol_tensor_solve: POSV and POTRS with several right-hand sides for LEAF <
# n <= SOLVE_MAX in one launch, one matrix a block: the lower form as chol_tensor's blocks
# (POSV factors it there and never writes the factor), then the right-hand sides 32
# TENSOR_SOLVE_CHUNKS[NT] columns at a time in shared memory, both solves by 32-row block steps
# with DMMA updates; TENSOR_SOLVE_THREADS[NT] threads a block. A is only read, B read once.
# TENSOR_SOLVE_RANGE: the (op, dtype) -> (first, last) n it serves from TENSOR_SOLVE_NRHS_FROM
# right-hand sides on; TENSOR_SOLVE_OPERATORS: whether the op solves by the operators (inverted
# diagonal blocks, every step a DMMA product of all warps) or by substitution (a warp a column
# against each diagonal block). H100, in place, n right-hand sides, ms against the paths before
# (`python3 scripts/probe_chol_tensor.py solve`, reports/gpu_20261127g call 3), batch 10240:
# POTRS by operators n = 33 / 48 / 64 / 80 / 96 / 128 1.36 / 1.28 / 1.73 / 2.03 / 2.3 / 1.53x
# (n = 64 0.47 ms, 72 % of the copy bandwidth; substitution 0.58), batch 1000 1.3-5.7x;
# POSV by substitution n = 33 / 48 / 64 1.13 / 1.09 / 1.44x (operators 0.94-1.08x of it there,
# 1.02-1.03x at n = 80 / 96), n = 80 / 96 1.27 / 1.44x; POSV n = 128 0.92x (not taken); with
# 2 / 8 / 32 right-hand sides (call 4) POTRS 1.04-2.4x, POSV 1.4-2.0x. From
# TENSOR_SOLVE_FROM_BATCH matrices: at batch 100 1.00-4.7x (n = 40 / 64 / 96), at batch 1-10
# 0.90-1.41x (POSV n = 96 at batch 2 0.90x, POTRS 0.93x: one matrix's latency against the
# vendor's). float32 0.44-0.77x (call 1; with its loads as cp.async copies into staging slots,
# reports/gpu_20261127h call 5: POSV 0.54-0.86x, POTRS 0.74-1.19x at n = 40-128).
# Passes of 32 right-hand sides and
# threads by NT: one pass of 32 with 128 threads at NT = 2 (two passes: 1.1-1.5x slower, 65 KB
# of shared memory a block holds an SM to three blocks), 256 threads at NT = 3, two passes at
# NT = 4 (POTRS 10 % faster). At NT = 4 the two passes' 167 KB hold an SM to one block, so its
# launch bound there allows 512 threads: 512 against 256 (`python3
# scripts/probe_solve_threads.py`, reports/gpu_20261128a call 3, H100, in place, batch 10240 /
# 1000): POTRS with n vectors n = 112 / 128 1.18 / 1.12x and 1.10 / 1.12x, n = 256 (its
# recursion's halves) 1.08 / 1.10x; chol_tensor_trsm (these settings too) TRSM left n = 112 /
# 128 / 256 1.20 / 1.12 / 1.09x at 10240 and 1.10-1.14x at 1000, right 1.08-1.11x; 384 threads
# in between.
# The fused POSV against POTRF then POTRS once both had grown faster (chol_tensor, chol_left,
# chol_tensor_solve's POTRS by operators; `python3 scripts/probe_posv_rule.py`,
# reports/gpu_20261127l call 7, in place and kept alike, ms fused / two-step): batch 10240 n =
# 40 / 48 / 64 0.66 / 0.59, 0.70 / 0.62, 0.76 / 0.71 (two-step 1.08-1.13x), n = 80 / 96 2.52 /
# 1.74, 2.62 / 1.88 (1.39-1.45x); batch 1000 n = 40-64 fused 1.04-1.06x, n = 80 / 96 two-step
# 1.28-1.35x. So POSV keeps the fused kernel for n = 33-64 below TENSOR_SOLVE_BELOW's 10240
# matrices (batches between 1000 and 10240 not measured); TENSOR_SOLVE_BELOW: (op, dtype) ->
# (first n, last n, batch) as TENSOR_INVERSE_BELOW (below: leaves_fused). With 512 threads at NT
# = 4 the fused POSV still lost (reports/gpu_20261128b call 1, ms fused / two-step, in place and
# kept alike): n = 96 0.283 / 0.222 at batch 1000, 2.62 / 1.88 at 10240; n = 128 0.88 / 0.42,
# 8.3 / 3.8.
# NT = 5 (n = 129..SOLVE_MAX): the factor's 15 blocks and one pass of 32 vectors, 181 KiB, one
# block an SM with 512 threads (NT = 6 would need 243 KiB). Against the recursion before
# (`python3 scripts/probe_triangle_192.py --ops trsm,potrs,posv`, reports/gpu_20261128b call 4,
# H100, float64, in place, n vectors): POTRS n = 136 / 160 at batch 10240 6.95 -> 5.00 / 8.13 ->
# 5.10 ms (1.39 / 1.59x), at 1000 1.41 / 1.62x, at 100 4.3x, at 1 0.99x; POSV (POTRF, then this
# POTRS) 1.29-1.43x; POTRS n = 320 (its recursion's 160-blocks) 1.09x. chol_tensor_trsm there
# lost (0.79-0.92x at batch 1000-10240, n = 320's blocks 0.91x; 2.9x at batch 100): TRSM keeps
# to n = 128 but below 300 matrices (TENSOR_TRSM_RULES); the fused POSV n = 136-160 is not
# taken either (0.77-0.93x).
# float32 POTRS with n vectors on this kernel, its passes staged by cp.async and widened in shared
# memory, against the float32 paths before (H200, public in place, alternated in one process;
# reports/gpu_20261129f call 1): n = 64 1.12-1.18x from 300 matrices (0.98x at 100), n = 80 /
# 96 / 128 / 160 1.05-4.05x at 100-30 000 matrices, n = 112 1.04-3.10x to 3000 and 0.97 /
# 0.92x at 10 240 / 30 000 (TENSOR_SOLVE_BELOW), n = 144 1.00-2.85x; n = 33-48 0.79-0.96x (not
# taken).
SOLVE_MAX = 160
TENSOR_SOLVE_OPERATORS = {"posv": False, "potrs": True}
TENSOR_SOLVE_CHUNKS = {2: 1, 3: 1, 4: 2, 5: 1}
TENSOR_SOLVE_THREADS = {2: 128, 3: 256, 4: 512, 5: 512}
TENSOR_SOLVE_RANGE = {("posv", "float64"): (33, 64), ("potrs", "float64"): (33, SOLVE_MAX),
                      ("potrs", "float32"): (64, SOLVE_MAX)}
TENSOR_SOLVE_BELOW = {("posv", "float64"): (33, 64, 10240), ("potrs", "float32"): (97, 127, 10240)}
TENSOR_SOLVE_FROM_BATCH = 100
TENSOR_SOLVE_NRHS_FROM = 2
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_solve<{t}, {b}, {c}, {cbool(op == 'posv')}, "
                              f"{cbool(by_operators)}, {o}>"
                              for t in ("float", "double") for b, c in TENSOR_SOLVE_CHUNKS.items()
                              for op, by_operators in TENSOR_SOLVE_OPERATORS.items()
                              for o in ("false", "true")]


def use_tensor_solve(op, a, nrhs):
    """True where ``op`` ("posv" or "potrs") of the (batch, n, n) batch ``a`` with ``nrhs``
    right-hand sides runs on chol_tensor_solve (TENSOR_SOLVE_RANGE, TENSOR_SOLVE_NRHS_FROM,
    TENSOR_SOLVE_FROM_BATCH, TENSOR_SOLVE_BELOW)."""
    key = (op, dtype_name(a.dtype))
    first, last = TENSOR_SOLVE_RANGE.get(key, (0, -1))
    return (first <= a.shape[1] <= last and nrhs >= TENSOR_SOLVE_NRHS_FROM
            and a.shape[0] >= TENSOR_SOLVE_FROM_BATCH
            and not leaves_fused(TENSOR_SOLVE_BELOW, key, a))


def tensor_solve(a, b, lower, factored, out=None):
    """kernels/potrf.cu chol_tensor_solve on ``b`` (batch, n, nrhs), LEAF < n <= SOLVE_MAX,
    ``a`` only read: POSV of ``a`` (factored False; returns potrf's info) or POTRS with the
    factor ``a`` (factored True; returns its first zero or non-finite diagonal entry). In place,
    or with ``out`` (triangular.result_array) from ``b`` into ``out``, ``b`` unchanged."""
    batch, n, nrhs = b.shape
    dst, fresh = tri.write_target(out, b)
    launcher, threads, smem = _tensor_solve_config(current_device(), a.dtype, n, factored,
                                                   fresh)
    info = info_array(batch)
    _, lda, sa = tri.view_args(a)
    _, ldb, sb = tri.view_args(dst)
    launcher(grid_1d(batch, 1), threads,
             (a, lda, sa, dst, ldb, sb, n, nrhs, batch, int(lower), info, b), smem)
    return info


@functools.lru_cache(maxsize=1024)
def _tensor_solve_config(device_id, dtype, n, factored, fresh):
    """(launcher, threads, shared bytes) of chol_tensor_solve at order n: NT = ceil(n / 32),
    TENSOR_SOLVE_CHUNKS[NT] blocks of 32 right-hand sides a pass, TENSOR_SOLVE_THREADS[NT]
    threads."""
    nt = tensor_blocks_a_side(n)
    chunks, threads = TENSOR_SOLVE_CHUNKS[nt], TENSOR_SOLVE_THREADS[nt]
    if threads < 64 * max(nt, chunks):
        raise ValueError(f"chol_tensor_solve at NT = {nt} with {chunks} passes of 32 "
                         f"right-hand sides needs {64 * max(nt, chunks)} threads (a warp a "
                         f"16-row strip of each diagonal block and pass), not {threads}")
    operators = TENSOR_SOLVE_OPERATORS["potrs" if factored else "posv"]
    name = (f"chol_tensor_solve<{ctype(dtype)}, {nt}, {chunks}, {cbool(not factored)}, "
            f"{cbool(operators)}, {cbool(fresh)}>")
    return kernel("potrf", name, "pqqpqqiiqipp"), threads, tensor_solve_smem_bytes(nt, chunks)


def tensor_solve_smem_bytes(nt, chunks):
    """Dynamic shared bytes of chol_tensor_solve with NT = ``nt`` and ``chunks`` passes of 32
    right-hand sides (kernels/potrf.cu chol_tensor_solve_smem): the factor's blocks and NT x 32
    reciprocals (chol_tensor_inverse's layout), then the pass's blocks."""
    return tensor_inverse_smem_bytes(nt) + nt * chunks * TENSOR_BLOCK_ELEMS * 8


# kernels/potrf.cu chol_tensor_trsm: TRSM (either side since 2026-11-28: the right side's
# vectors are B's rows; right N / T 1.14-1.79x the recursion at batch 10240, n = 64-256,
# reports/gpu_20261128a call 1) for LEAF < n <= SOLVE_MAX in one launch,
# one matrix a block (chol_tensor_solve's storage, passes and threads: TENSOR_SOLVE_CHUNKS,
# TENSOR_SOLVE_THREADS), each diagonal block of the triangle inverted once a matrix, every step of
# every pass DMMA products; A read once, B read once and X written once. It serves
# linalg/_cuda/triangular.py trsm for a whole matrix and the blocks of its recursion (so POTRS's
# too) after tri_cols' and tri_pair's rules (TENSOR_TRSM_RULES: dtype -> rows of (first n, last
# n, first batch[, last batch]): rows_take), n = 33-128 from 100 matrices). H100, float64,
# in place, n vectors, ms before -> with it
# (`python3 scripts/probe_tensor_trsm.py`, reports/gpu_20261127l call 4; the recursion into
# tri_pair and cuBLAS GEMMs before): batch 10240 TRSM lower N n = 64 / 96 / 128 / 192 / 256
# 0.573 -> 0.349, 1.55 -> 0.985, 2.55 -> 2.35, 6.90 -> 5.70, 12.50 -> 11.54 (lower T 1.06-1.79x);
# batch 1000 n = 96 / 128 / 192 / 256 1.08-4.1x. It comes before the small-batch vendor rule
# (triangular.small_batch: cuBLAS trsmBatched below batch 768 at n = 65-128), which it beats from
# 100 matrices (call 5: batch 100 / 300, n = 96 0.094 / 0.168 -> 0.032 / 0.049 ms, n = 128 0.131 /
# 0.261 -> 0.052 / 0.100). float32: off (chol_tensor_solve's float32 lost to the paths before,
# 0.44-0.77x; with its passes staged by cp.async and widened in shared memory, H200, 10 240
# matrices, n vectors, public in place: TRSM left / right N n = 64 / 96 / 128 0.98 / 0.78-0.87 /
# 0.72x the float32 paths, reports/gpu_20261129e call 9).
# n = 129 to SOLVE_MAX (NT = 5) below 300 matrices only (the second row):
# H100, float64, n = 136 / 160, in place, n vectors, against the path before (`python3
# scripts/probe_triangle_192.py --ops trsm`, reports/gpu_20261128b calls 4-5): batch 100 2.9x
# (0.194 -> 0.068 ms at n = 160), 200 2.40 / 2.64x; 400 / 700 / 1000 / 10240 0.79-0.96x.
TENSOR_TRSM_RULES = {"float64": ((33, 128, 100), (129, SOLVE_MAX, 100, 299))}
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_trsm<{t}, {b}, {c}, {w}, {r}, {o}>"
                              for t in ("float", "double") for b, c in TENSOR_SOLVE_CHUNKS.items()
                              for w in ("false", "true") for r in ("false", "true")
                              for o in ("false", "true")]


def use_tensor_trsm(a):
    """True where a TRSM with the (batch, n, n) triangle ``a`` (a whole matrix or a recursion's
    block) runs on chol_tensor_trsm: a row of TENSOR_TRSM_RULES holds its n and batch."""
    return rows_take(TENSOR_TRSM_RULES, a)


def tensor_trsm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
    """kernels/potrf.cu chol_tensor_trsm: op(A) X = alpha B (left; ``b`` (batch, n, nrhs)) or X
    op(A) = alpha B (``right``; ``b`` (batch, nrhs, n)) for the (batch, n, n) triangle ``a``
    (lower or upper; only read, unit column stride), LEAF < n <= SOLVE_MAX. In place, or with
    ``out`` (triangular.result_array) from ``b`` into ``out``, ``b`` unchanged. Returns info
    (the first zero or non-finite diagonal entry, 0 with ``unit``)."""
    batch, n, nrhs = a.shape[0], a.shape[1], b.shape[1] if right else b.shape[2]
    dst, fresh = tri.write_target(out, b)
    # The kernel holds S, the lower form (A, or A^T for an upper A); the solve's operator, op(A)
    # (op(A)^T on the right), is S or S^T.
    backward = (lower == bool(trans)) != right
    launcher, threads, smem = _tensor_trsm_config(current_device(), a.dtype, n, backward, right,
                                                  fresh)
    info = info_array(batch)
    _, lda, sa = tri.view_args(a)
    _, ldb, sb = tri.view_args(dst)
    launcher(grid_1d(batch, 1), threads, (a, lda, sa, dst, ldb, sb, n, nrhs, batch, int(lower),
                                          int(unit), float(alpha), info, b), smem)
    return info


@functools.lru_cache(maxsize=1024)
def _tensor_trsm_config(device_id, dtype, n, backward, right, fresh):
    """(launcher, threads, shared bytes) of chol_tensor_trsm at order n (chol_tensor_solve's
    passes and threads at NT = ceil(n / 32))."""
    nt = tensor_blocks_a_side(n)
    chunks, threads = TENSOR_SOLVE_CHUNKS[nt], TENSOR_SOLVE_THREADS[nt]
    name = (f"chol_tensor_trsm<{ctype(dtype)}, {nt}, {chunks}, {cbool(backward)}, "
            f"{cbool(right)}, {cbool(fresh)}>")
    return kernel("potrf", name, "pqqpqqiiqiidpp"), threads, tensor_solve_smem_bytes(nt, chunks)


# kernels/potrf.cu chol_tensor_trmm: TRMM (either side) for LEAF < n <= SOLVE_MAX in one launch,
# one matrix a block, on chol_tensor_trsm's storage with a product in place of the solve: A's
# referenced triangle read once (a dense product reads all of A), B read once and the product
# written once, nothing padded past n in memory (tri_tile's 64-row tiles pad n = 65-128 to 128);
# the next pass's vectors in flight during a pass where two buffers fit. TENSOR_TRMM_SHAPES:
# NT -> (passes of 32 RC vectors: RC, buffers, threads). TENSOR_TRMM_RULES: dtype -> rows of
# (first n, last n, first batch[, last batch]) (rows_take), ahead of tri_tile's and tri_block's
# rules in triangular.trmm. Measured on an H200 (reports/gpu_20261129e calls 1-3, `python3
# reports/gpu_20261129e/device/p_trmm.py`: public calls in place, n vectors, against the rules
# before, left N and right N of a lower triangle; call 1 every variant at 10 240): NT = 3 (n =
# 65-96) at every batch measured (1-30 000) 1.09-1.80x, n = 65 / 81 / 95 at 10 240 1.51-1.80x
# (1.23-1.43x the dense product), n = 96 1.10-1.38x; two pass buffers 1.03-1.10x one there
# (call 2), the right side's transposed passes 1.08-1.10x. NT = 2 (n = 56-64) 1.00-1.49x at
# 300-1000 matrices (n = 60-64 1.10-1.24x at 2000), 0.80-0.92x at 10 240; NT = 4 (n = 112 /
# 128) 1.09-1.52x at 1-200 matrices, 0.90-1.13x at 300, 0.66-0.88x at 10 240; NT = 5 (n = 160)
# 1.01-1.42x at 100-200, 0.81-0.94x at 1-10. float32 (its passes staged by cp.async and widened
# in shared memory since call 7; plain loads widened on the way before, 0.34-1.03x): NT = 3
# left N / right N 1.61-1.75x at 100 matrices, 1.29-1.51x at 1000, 1.04-1.27x at 3000,
# 0.99-1.22x at 10 240 where left T read 0.96-0.99x; NT = 2 0.67-1.12x, NT = 4 0.62-0.85x
# from 1000 (call 7).
TENSOR_TRMM_SHAPES = {2: (1, 1, 128), 3: (1, 2, 256), 4: (2, 1, 512), 5: (1, 1, 512)}
TENSOR_TRMM_RULES = {"float64": ((56, 64, 300, 1000), (60, 64, 1001, 2000), (65, 96, 1),
                                 (97, 128, 1, 200), (129, SOLVE_MAX, 100, 200)),
                     "float32": ((65, 96, 100, 1000),)}
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_trmm<{t}, {nt}, {rc}, {buf}, {w}, {r}, {o}>"
                              for t in ("float", "double")
                              for nt, (rc, buf, _) in TENSOR_TRMM_SHAPES.items()
                              for w in ("false", "true") for r in ("false", "true")
                              for o in ("false", "true")]


def use_tensor_trmm(a):
    """True where a TRMM with the (batch, n, n) triangle ``a`` runs on chol_tensor_trmm: a row of
    TENSOR_TRMM_RULES holds its n and batch."""
    return rows_take(TENSOR_TRMM_RULES, a)


def tensor_trmm_smem_bytes(nt, chunks, buffers):
    """Dynamic shared bytes of chol_tensor_trmm (kernels/potrf.cu chol_tensor_trmm_smem): the
    triangle's blocks, then ``buffers`` passes of NT x ``chunks`` vector blocks."""
    return (nt * (nt + 1) // 2 + buffers * nt * chunks) * TENSOR_BLOCK_ELEMS * 8


def tensor_trmm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
    """kernels/potrf.cu chol_tensor_trmm: alpha op(A) B (left; ``b`` (batch, n, nvec)) or alpha B
    op(A) (``right``; ``b`` (batch, nvec, n)) for the (batch, n, n) triangle ``a`` (lower or
    upper; only read, its diagonal not with ``unit``; unit column stride), LEAF < n <= SOLVE_MAX.
    In place into ``b``, or with ``out`` (triangular.result_array) from ``b`` into ``out``,
    ``b`` unchanged. Returns the array written."""
    batch, n, nvec = a.shape[0], a.shape[1], b.shape[1] if right else b.shape[2]
    dst, fresh = tri.write_target(out, b)
    if batch == 0 or nvec == 0:
        return dst
    # As chol_tensor_trsm: the kernel holds S, the lower form, and the product's operator (op(A),
    # op(A)^T on the right) is S or S^T.
    backward = (lower == bool(trans)) != right
    launcher, threads, smem = _tensor_trmm_config(current_device(), a.dtype, n, backward, right,
                                                  fresh)
    _, lda, sa = tri.view_args(a)
    _, ldb, sb = tri.view_args(dst)
    launcher(grid_1d(batch, 1), threads, (a, lda, sa, dst, ldb, sb, n, nvec, batch, int(lower),
                                          int(unit), float(alpha), b), smem)
    return dst


@functools.lru_cache(maxsize=1024)
def _tensor_trmm_config(device_id, dtype, n, backward, right, fresh):
    """(launcher, threads, shared bytes) of chol_tensor_trmm at order n (NT = ceil(n / 32),
    TENSOR_TRMM_SHAPES[NT])."""
    nt = tensor_blocks_a_side(n)
    chunks, buffers, threads = TENSOR_TRMM_SHAPES[nt]
    name = (f"chol_tensor_trmm<{ctype(dtype)}, {nt}, {chunks}, {buffers}, {cbool(backward)}, "
            f"{cbool(right)}, {cbool(fresh)}>")
    return (kernel("potrf", name, "pqqpqqiiqiidp"), threads,
            tensor_trmm_smem_bytes(nt, chunks, buffers))


# kernels/potrf.cu chol_tensor_inverse: POTRI and POTI for LEAF < n <= TRIANGLE_MAX in one launch,
# one matrix a block: the lower form as chol_tensor's blocks (POTI factors it there), X = L^-1
# and then X^T X in place by 32-row block steps, every product on the float64 tensor cores; the
# triangle read once, A^-1 written once (the paths before: TRTRI and LAUUM launches, POTI a
# POTRF before them, each reading and writing the batch). TENSOR_INVERSE_RANGE: the (op, dtype)
# -> (first, last) n it serves, at every batch; TENSOR_INVERSE_THREADS[NT]: threads a block (at
# least 64 NT: the kernel's last LAUUM step is 2 NT strips, one a warp). H100, float64, in
# place, ms against the paths before (`python3 scripts/probe_chol_tensor.py inverse`,
# reports/gpu_20261127h calls 1-2): batch 10240 POTRI n = 33 / 64 / 96 / 128 1.14 / 1.54 / 1.75
# / 1.63x (n = 128 1.52 ms, 60 % of the copy bandwidth), POTI 1.18 / 1.60 / 1.10 / 1.13x; batch
# 100-1000 1.30-5.4x; batch 1 / 10 / 30 at n = 40 / 64 / 128 1.27-2.0x. Threads: 128 beat 256
# at NT = 2 from batch 1000 (256 won by 5-15 % at batch 1-100); at NT = 3 256 against 192: POTRI
# 6 % faster, POTI 1 % slower. float32 (its loads cp.async copies into staging slots since call
# 5; 0.67-0.88x before): POTRI n = 64 / 96 / 128 1.01 / 1.40 / 1.07x at batch 10240, 1.5-2.2x at
# 1000, n = 33 0.86x; POTI n = 96 / 128 0.85 / 0.76x at 10240 (the factor's share): POTRI only.
# NT = 5-6 (n = 129..192, one block an SM, 384 threads; `python3 scripts/probe_triangle_192.py`,
# reports/gpu_20261128b call 1, H100, in place, ms against the rules before): POTRI n = 160 /
# 192 at batch 10240 3.92 -> 2.34 / 5.39 -> 3.31 (1.67 / 1.63x; TRTRI on chol_tensor_trtri, then
# LAUUM: 1.27 / 1.30x), batch 1000 1.74 / 1.58x; POTI (POTRF on chol_left, then POTRI) n = 160
# / 192 at 10240 6.03 -> 4.51 / 8.91 -> 6.21 (1.34 / 1.43x; chol_tensor then the fused POTRI
# 1.13 / 1.22x), batch 1000 1.43 / 1.41x: POTI stays fused there (TENSOR_INVERSE_BELOW). At batch
# 1 / 10 / 100 (call 2) POTRI 1.29-1.73 / 1.33-1.65 / 7.5-7.8x, POTI 1.17-1.29 / 1.29-1.39 /
# 4.7x. float32 POTRI n = 160 / 192 (call 2) 1.61 / 1.46x at batch 1000, 1.49 / 1.39x at 10240.
TENSOR_INVERSE_RANGE = {("potri", "float64"): (33, TRIANGLE_MAX),
                        ("poti", "float64"): (33, TRIANGLE_MAX),
                        ("potri", "float32"): (64, TRIANGLE_MAX)}
TENSOR_INVERSE_THREADS = {2: 128, 3: 256, 4: 256, 5: 384, 6: 384}
# POTI fused against POTRF then POTRI once chol_left (POTRF n = 97..128 from 1000 matrices) and
# chol_tensor_trtri had come (`python3 scripts/probe_posv_rule.py --op poti`, reports/
# gpu_20261128a call 3, in place and kept alike, ms fused / two-step): batch 10240 n = 80 / 96 /
# 112 / 128 2.09 / 1.36, 2.24 / 1.50, 3.31 / 2.43, 3.49 / 2.71 (two-step 1.29-1.54x), batch
# 1000-3000 1.21-1.48x; n = 72 (call 4) 1.97 / 1.31 at 10240 (1.50x), 1.40x at 1000; n = 65
# (call 6) 1.83 / 1.23 (1.50x), 1.32-1.36x at 1000; n = 64 fused 1.03 / 1.09 / 2.9x at batch
# 10240 / 3000 / 1000. So POTI leaves the fused kernel for n = 65..128 (NT = 3-4) from 1000
# matrices (batches below 1000 not measured); at NT = 5-6 the fused kernel wins (above).
# TENSOR_INVERSE_BELOW: (op, dtype) -> (first n, last n, batch): for those n, the batch from
# which the op leaves chol_tensor_inverse (none: every n and batch in TENSOR_INVERSE_RANGE).
TENSOR_INVERSE_BELOW = {("poti", "float64"): (65, 128, 1000)}
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_inverse<{t}, {b}, {f}, {o}>"
                              for t in ("float", "double") for b in TENSOR_INVERSE_THREADS
                              for f in ("false", "true") for o in ("false", "true")]


def use_tensor_inverse(op, a):
    """True where ``op`` ("potri" or "poti") of the (batch, n, n) batch ``a`` runs on
    chol_tensor_inverse (n in TENSOR_INVERSE_RANGE, below TENSOR_INVERSE_BELOW's batch)."""
    key = (op, dtype_name(a.dtype))
    first, last = TENSOR_INVERSE_RANGE.get(key, (0, -1))
    return first <= a.shape[1] <= last and not leaves_fused(TENSOR_INVERSE_BELOW, key, a)


def leaves_fused(table, key, a):
    """True where ``table`` (TENSOR_SOLVE_BELOW, TENSOR_INVERSE_BELOW: (op, dtype) -> (first n,
    last n, batch)) sends the (batch, n, n) batch ``a`` from a fused kernel to the two-launch
    path: n from the first to the last n, from that many matrices."""
    first, last, from_batch = table.get(key, (1, 0, 0))
    return first <= a.shape[1] <= last and a.shape[0] >= from_batch


def tensor_inverse(a, lower, factored, out=None):
    """kernels/potrf.cu chol_tensor_inverse on the (batch, n, n) batch ``a``, LEAF < n <=
    TRIANGLE_MAX: A^-1 whole (both triangles, exactly symmetric) of POTI (``a`` the matrices,
    factored False; returns potrf's info) or POTRI (``a`` the Cholesky factors in the ``lower``
    or upper form, factored True; returns the first zero or non-finite diagonal entry of each).
    In place, or with ``out`` (triangular.result_array) from ``a`` into ``out``, ``a``
    unchanged. (chol_tensor's parameters: launched by _factor_a_block.)"""
    return _factor_into(_INVERSE_CONFIGS[factored], a, lower, out)


def _triangle_config(name, nt, threads, least, why):
    """(launcher, threads, shared bytes) of a kernel on chol_tensor_inverse's storage at NT =
    ``nt`` (chol_tensor_inverse, chol_tensor_trtri, chol_tensor_lauum) after checking that
    ``threads`` is a multiple of 32 and at least ``least`` (``why``: what its steps need)."""
    if threads < least or threads % 32:
        raise ValueError(f"{name.partition('<')[0]} at NT = {nt} needs a multiple of 32 threads, "
                         f"at least {least} ({why}), not {threads}")
    return kernel("potrf", name, "pqqiqipp"), threads, tensor_inverse_smem_bytes(nt)


@functools.lru_cache(maxsize=1024)
def _tensor_inverse_config(device_id, dtype, n, fresh, factored):
    """(launcher, threads, shared bytes) of chol_tensor_inverse at order n: NT = ceil(n / 32),
    TENSOR_INVERSE_THREADS[NT] threads."""
    nt = tensor_blocks_a_side(n)
    name = (f"chol_tensor_inverse<{ctype(dtype)}, {nt}, {cbool(not factored)}, "
            f"{cbool(fresh)}>")
    return _triangle_config(name, nt, TENSOR_INVERSE_THREADS[nt], 64 * nt,
                            "a warp a 16-row strip of each block of the last block row")


# _factor_a_block's config(device_id, dtype, n, fresh) for POTRI (factored) and POTI.
_INVERSE_CONFIGS = {factored: functools.partial(_tensor_inverse_config, factored=factored)
                    for factored in (True, False)}


def tensor_inverse_smem_bytes(nt):
    """Dynamic shared bytes of chol_tensor_inverse with NT = ``nt`` (kernels/potrf.cu
    chol_tensor_inverse_smem): the lower form's blocks, NT x 32 reciprocals."""
    return (nt * (nt + 1) // 2 * TENSOR_BLOCK_ELEMS + 32 * nt) * 8


# kernels/potrf.cu chol_tensor_trtri: TRTRI for LEAF < n <= TRIANGLE_MAX in one launch, one matrix
# a block, chol_tensor_inverse's steps up to X = L^-1 (the triangle read once, X written once;
# the recursion before reads and writes its blocks at every level around two GEMMs).
# TENSOR_TRTRI_RANGE: dtype -> (first, last) n it serves, at every batch (after tri_cols's
# small-batch rule) and for trtri_recursion's blocks (so POTRI / POTI above TENSOR_MAX too);
# TENSOR_TRTRI_THREADS[NT]: threads a block (at least 32 NT, a thread a column of the diagonal
# blocks, and 64 (NT - 1), a warp a 16-row strip of block column 0). chol_small<T, 64> keeps
# n <= 64. NT = 5-6 (n = 129..192; `python3 scripts/probe_triangle_192.py`, reports/
# gpu_20261128b call 1, H100, float64, in place, against the recursion into 96- and 64-blocks
# and two GEMMs): n = 160 / 192 at batch 10240 2.48 -> 1.65 / 3.52 -> 2.29 ms (1.51 / 1.54x, 89 /
# 92 % of the copy bandwidth), at 1000 1.65 / 1.54x, at 100 9.2 / 10.4x, at 1-10 1.01-1.07x
# (call 2); float32 (call 2) 1.43 / 1.49x at 1000, 1.25 / 1.40x at 10240.
TENSOR_TRTRI_RANGE = {"float64": (65, TRIANGLE_MAX), "float32": (65, TRIANGLE_MAX)}
TENSOR_TRTRI_THREADS = {2: 128, 3: 256, 4: 256, 5: 384, 6: 384}
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_trtri<{t}, {b}, {o}>"
                              for t in ("float", "double") for b in TENSOR_TRTRI_THREADS
                              for o in ("false", "true")]


def use_tensor_trtri(a):
    """True where TRTRI of the (batch, n, n) triangle ``a`` (a whole matrix or a recursion's
    block) runs on chol_tensor_trtri (TENSOR_TRTRI_RANGE)."""
    first, last = TENSOR_TRTRI_RANGE.get(dtype_name(a.dtype), (0, -1))
    return first <= a.shape[1] <= last


def tensor_trtri(a, lower, unit, out=None):
    """kernels/potrf.cu chol_tensor_trtri: X = T^-1 for the (batch, n, n) triangle ``a`` (lower
    or upper, unit column stride; with ``unit`` its diagonal is not read), LEAF < n <=
    TRIANGLE_MAX, the other triangle of X zero. In place, or with ``out`` (triangular.result_array)
    from ``a`` into ``out``, ``a`` unchanged. Returns info (the first zero or non-finite
    diagonal entry, 0 with ``unit``)."""
    flags = int(bool(lower)) | 2 * int(bool(unit))             # the kernel's lower slot
    return _factor_into(_tensor_trtri_config, a, flags, out)


@functools.lru_cache(maxsize=1024)
def _tensor_trtri_config(device_id, dtype, n, fresh):
    """(launcher, threads, shared bytes) of chol_tensor_trtri at order n: NT = ceil(n / 32),
    TENSOR_TRTRI_THREADS[NT] threads, chol_tensor_inverse's shared memory."""
    nt = tensor_blocks_a_side(n)
    name = f"chol_tensor_trtri<{ctype(dtype)}, {nt}, {cbool(fresh)}>"
    return _triangle_config(name, nt, TENSOR_TRTRI_THREADS[nt], max(32 * nt, 64 * (nt - 1)),
                            "a thread a column of the diagonal blocks, a warp a 16-row strip "
                            "of block column 0")


# kernels/potrf.cu chol_tensor_lauum: LAUUM for LEAF < n <= TRIANGLE_MAX in one launch, one
# matrix a block, chol_tensor_inverse's second half (cti_lauum) on the triangle itself (read
# once, the symmetric product written once). TENSOR_LAUUM_RULES: dtype -> rows of (first n, last
# n, first batch) it serves, ahead of chol_small's one-launch small batches, tri_tile and the
# dense product (chol_small keeps n <= LEAF); threads: TENSOR_INVERSE_THREADS (2 NT warps,
# cti_lauum's last block row). H100, lower, in place, against the committed paths (chol_small, tri_tile;
# `python3 scripts/probe_triangle_192.py --ops lauum`, reports/gpu_20261128b call 8, one round):
# float64 n = 96 / 128 at batch 100 / 1000 / 10240 1.84 / 1.39 / 1.67x and 1.44 / 1.19 / 1.30x
# (n = 128 1.007 -> 0.772 ms); n = 64 0.90 / 1.25 / 1.24x; n = 48 0.88-1.08x; n = 160 1.35 /
# 0.95 / 1.04x, 192 1.20 / 0.86 / 0.93x (one block an SM); float32 n = 128 1.20-1.23x, n = 64
# 0.78-0.88x, 192 0.96-0.97x. At n = 56-64 the kernel wins only from 1000 matrices (reports/
# gpu_20261128c call 1, two rounds: n = 56 / 64 at batch 300 / 1000 / 3000 / 10240 0.96 / 1.22 /
# 1.09 / 1.13x and 0.87 / 1.23 / 1.18 / 1.23x; n = 48 0.96-1.11x, not taken).
TENSOR_LAUUM_RULES = {"float64": ((56, 64, 1000), (65, 128, 1)), "float32": ((97, 128, 1),)}
COMPILE_CHECK["potrf.cu"] += [f"chol_tensor_lauum<{t}, {b}, {o}>"
                              for t in ("float", "double") for b in TENSOR_INVERSE_THREADS
                              for o in ("false", "true")]


def use_tensor_lauum(a):
    """True where LAUUM of the (batch, n, n) triangle ``a`` runs on chol_tensor_lauum
    (a row of TENSOR_LAUUM_RULES holds its n and batch)."""
    return rows_take(TENSOR_LAUUM_RULES, a)


def tensor_lauum(a, lower, out=None):
    """kernels/potrf.cu chol_tensor_lauum: L^T L (``lower``) or U U^T of the (batch, n, n)
    triangle ``a`` (unit column stride; the other triangle not read), LEAF < n <= TRIANGLE_MAX,
    the product whole (exactly symmetric). In place, or with ``out`` (triangular.result_array)
    from ``a`` into ``out``, ``a`` unchanged. Returns ``out`` (or ``a``)."""
    _factor_into(_tensor_lauum_config, a, int(bool(lower)), out)
    return a if out is None else out


@functools.lru_cache(maxsize=1024)
def _tensor_lauum_config(device_id, dtype, n, fresh):
    """(launcher, threads, shared bytes) of chol_tensor_lauum at order n: NT = ceil(n / 32),
    TENSOR_INVERSE_THREADS[NT] threads, chol_tensor_inverse's shared memory."""
    nt = tensor_blocks_a_side(n)
    name = f"chol_tensor_lauum<{ctype(dtype)}, {nt}, {cbool(fresh)}>"
    return _triangle_config(name, nt, TENSOR_INVERSE_THREADS[nt], 64 * nt,
                            "a warp a 16-row strip of each block of cti_lauum's last block row")


# kernels/potrf.cu chol_global: POTRF of TENSOR_MAX < n <= GLOBAL_MAX in one launch, one matrix
# a block of GLOBAL_THREADS (the matrix in global memory, its current block column of 32 and the
# next diagonal block in shared memory, rows GLOBAL_LD apart); chol_cluster: the same steps with
# one matrix a thread-block cluster of CLUSTER_SIZES blocks (compute capability 9.0 on), the
# trailing updates shared by the cluster's SMs; grids of at most CLUSTER_GRID_MAX clusters.
GLOBAL_MAX = 512
GLOBAL_LD = 36
GLOBAL_THREADS = 512
CLUSTER_SIZES = (2, 4, 8)
CLUSTER_GRID_MAX = 4096
COMPILE_CHECK["potrf.cu"] += [f"chol_cluster<{t}, {o}, {c}>" for t in ("float", "double")
                              for o in ("false", "true") for c in CLUSTER_SIZES]
# Where a dtype's POTRF at GLOBAL_FROM <= n <= GLOBAL_MAX takes chol_global / chol_cluster, ahead
# of the vendor and panel paths: rows (last n, first batch, batch bound, blocks a matrix), the
# first row with n <= last n and first batch <= batch < bound (rows of clusters skipped before
# compute capability 9.0).
# chol_global, H100, ms against the default path without it (input kept / in place;
# scripts/probe_chol_tensor.py time --kernel global, reports/gpu_20261127b calls 3-4): float64
# n = 160 batch 1-264 1.5-6.3x, 500 1.33-1.58 / 0.93-1.14x; n = 256-512 batch 2-264 1.0-4.1x,
# batch 1 0.37-0.99x (one SM a matrix), 500 0.96-1.34x kept but 0.73-0.97x in place; float32
# alike but for n = 512 batch 8 in place (0.88x) and 264 (0.79x).
# chol_cluster, H200, ms, input kept (scripts/probe_chol_tensor.py clusters, reports/
# gpu_20261127c call 2): float64 n = 256 / 384 / 512 batch 1-12 on 8 blocks 0.083-0.086 /
# 0.143-0.150 / 0.235-0.240 against chol_global's 0.097-0.101 / 0.231-0.239 / 0.483-0.488 and
# torch.linalg.cholesky_ex's 0.111 / 0.168 / 0.230 at batch 1 (1.32 / 1.17 / 0.98x); 4 blocks
# at 16-24, 2 at 32-64 (n = 512 0.33-0.35 against 0.48); 8 blocks at 16 or 4 at 32 (128 blocks)
# took twice as long: the clusters did not all fit at once. n = 160 the same on every count of
# blocks (0.045-0.048): chol_global. float32 alike, but at batch 1 torch.linalg.cholesky_ex
# (cuSOLVER) beats 8 blocks at n = 384 and 512 (0.134 / 0.180 against 0.138 / 0.214 ms, call 5),
# as it beats our vendor path there (public calls 0.170 / 0.214 against 0.153 / 0.198): 8 blocks
# to n = 384, the vendor path at 512.
GLOBAL_FROM = TENSOR_MAX + 1
GLOBAL_BATCHES = {"float64": ((192, 1, 400, 1), (512, 1, 13, 8), (512, 13, 25, 4),
                              (512, 25, 65, 2), (384, 2, 400, 1), (512, 2, 300, 1)),
                  "float32": ((192, 1, 300, 1), (384, 1, 13, 8), (512, 2, 13, 8),
                              (512, 13, 25, 4), (512, 25, 65, 2), (384, 2, 300, 1),
                              (512, 32, 200, 1))}


def global_smem_bytes(n):
    """Dynamic shared bytes of chol_global at order n (kernels/potrf.cu chol_global_smem)."""
    return ((tensor_blocks_a_side(n) + 1) * tri.LEAF * GLOBAL_LD + 32) * 8


def global_blocks(a):
    """Blocks a matrix of the chol_global / chol_cluster launch that POTRF of the (batch, n, n)
    batch ``a`` takes (1: chol_global), by GLOBAL_BATCHES; 0 where it takes neither."""
    batch, n = a.shape[0], a.shape[1]
    if not GLOBAL_FROM <= n <= GLOBAL_MAX:
        return 0
    for last, first, below, blocks in GLOBAL_BATCHES.get(dtype_name(a.dtype), ()):
        if n <= last and first <= batch < below and (blocks == 1 or clusters(current_device())):
            return blocks
    return 0


def potrf_global(a, lower, src=None, blocks=1):
    """kernels/potrf.cu chol_global (``blocks`` 1) or chol_cluster (``blocks`` a matrix, one of
    CLUSTER_SIZES; compute capability 9.0 on) on the (batch, n, n) view ``a`` (LEAF < n <=
    GLOBAL_MAX): the factor in one launch (right-looking by 32-wide block columns, the trailing
    updates on the float64 tensor cores, the matrix in global memory), zeros in the other
    triangle. In place, or with ``src`` (a's shape and strides) the factor of ``src`` written to
    ``a``, ``src`` only read. Returns info."""
    if blocks != 1 and blocks not in CLUSTER_SIZES:
        raise ValueError(f"blocks must be 1 or one of {CLUSTER_SIZES}, got {blocks!r}")
    if blocks != 1 and not clusters(current_device()):
        raise RuntimeError("chol_cluster needs thread-block clusters (compute capability 9.0)")
    return _factor_a_block(functools.partial(_global_config, blocks=blocks), a, lower, src,
                           blocks)


@functools.lru_cache(maxsize=1024)
def _global_config(device_id, dtype, n, fresh, blocks):
    """(launcher, threads, shared bytes) of chol_global (blocks 1) or chol_cluster at order n."""
    name = (f"chol_global<{ctype(dtype)}, {cbool(fresh)}>" if blocks == 1 else
            f"chol_cluster<{ctype(dtype)}, {cbool(fresh)}, {blocks}>")
    return kernel("potrf", name, "pqqiqipp"), GLOBAL_THREADS, global_smem_bytes(n)


# kernels/potrf.cu chol_left: POTRF of LEAF < n <= GLOBAL_MAX in one launch at large batches,
# one matrix a block of 32 ceil(n / 32) threads, left-looking by 32-wide panels (each panel's
# DMMA updates from tiles of the finished columns in shared memory): A read once, the factor
# written once.
COMPILE_CHECK["potrf.cu"] += [f"chol_left<{t}, {o}>" for t in ("float", "double")
                              for o in ("false", "true")]


# Where a dtype's POTRF takes chol_left, input kept or in place: rows (first n, last n, first
# batch), after chol_global's rows and ahead of chol_tensor's. H100, float64, ms against the
# default path without it (`python3 scripts/probe_chol_tensor.py time --kernel left`,
# reports/gpu_20261127k calls 1-4, since chol_left takes each panel's update by the column
# before from shared memory). n = 160-256, against the panels: kept, batch 2000 / 10240
# 1.39-1.56 / 1.27-1.48x; in place 1.26-1.39 / 1.10-1.26x (n = 192 at 10240 1.11x: 3.52-3.54
# against 3.90-3.92 ms). n = 97-128, against chol_tensor: batch 1000-40960 1.13-1.28x (kept and
# in place), batch 1-100 0.73-0.93x (one matrix's latency, 0.03-0.04 against 0.02-0.03 ms;
# 101-999 not measured: chol_tensor keeps them); n = 64 / 96 0.89-1.02x. n = 320-512 at batch
# 2000-4096 0.74-0.91x (512 threads, one block an SM; reports/gpu_20261127j call 2, before the
# change). float32 0.59-0.84x (the float32 panels move half the bytes; chol_left widens every
# entry to double): none.
LEFT_RULES = {"float64": ((97, TENSOR_MAX, 1000), (GLOBAL_FROM, 256, 1))}


def use_left(a):
    """True where POTRF of the (batch, n, n) batch ``a`` runs on chol_left (a row of
    LEFT_RULES holds its n and batch)."""
    return rows_take(LEFT_RULES, a)


def left_smem_bytes(n):
    """Dynamic shared bytes of chol_left at order n (kernels/potrf.cu chol_left_smem)."""
    return (tensor_blocks_a_side(n) * tri.LEAF * GLOBAL_LD + 32) * 8


def left_threads(n):
    """Threads a block of chol_left at order n: a warp a 32-row block of the panel
    (kernels/potrf.cu CL_STRIPS strips of 16 rows)."""
    return tri.LEAF * tensor_blocks_a_side(n)


def potrf_left(a, lower, src=None):
    """kernels/potrf.cu chol_left on the (batch, n, n) view ``a`` (LEAF < n <= GLOBAL_MAX): the
    factor in one launch (left-looking by 32-wide panels, their updates on the float64 tensor
    cores), zeros in the other triangle. In place, or with ``src`` (a's shape and strides) the
    factor of ``src`` written to ``a``, ``src`` only read. Returns info."""
    return _factor_a_block(_left_config, a, lower, src)


@functools.lru_cache(maxsize=1024)
def _left_config(device_id, dtype, n, fresh):
    """(launcher, threads, shared bytes) of chol_left at order n."""
    name = f"chol_left<{ctype(dtype)}, {cbool(fresh)}>"
    return kernel("potrf", name, "pqqiqipp"), left_threads(n), left_smem_bytes(n)


# Whether potrs_inplace's blocks (of n > TENSOR_MAX) run chol_tensor_solve where its rules take
# their order, batch and right-hand sides. With chol_tensor_trsm on the recursion's other
# blocks (call 4 above), POTRS with n vectors n = 192 / 256: batch 10240 13.74 -> 9.85 / 25.24
# -> 20.24 ms, batch 1000 1.55 / 1.26x.
NESTED_TENSOR_SOLVE = True


def potrs_inplace(l, b, lower, src=None):
    """Solve A X = B over ``b`` (batch, n, nrhs) from the Cholesky factor ``l`` (L L^T or U^T U),
    recursively: the diagonal blocks' forward and backward solves meet in the middle block, whose
    two solves are one leaf launch (the fused POTRS) whatever n. Real dtypes. With ``src`` (b's
    shape and strides), B is read from ``src`` and X written to ``b`` (src unchanged): the first
    block's solve reads src, only the second block's rows are copied (triangular.trsm_inplace)."""
    n = l.shape[1]
    flags = tri.TRI_LOWER if lower else 0
    if n <= tri.LEAF:
        tri.solve_leaf(l, b if src is None else src, tri.TRI_POTRS | flags, out=b)
        return
    if tri.use_pair("potrs", l.dtype, n, nested=True):
        tri.tri_pair(l, b if src is None else src, flags, tri.TRI_WARP_POTRS, out=b)
        return
    if NESTED_TENSOR_SOLVE and use_tensor_solve("potrs", l, b.shape[2]):
        tensor_solve(l, b if src is None else src, lower, factored=True,
                     out=None if src is None else b)
        return
    n1 = tri.split(n)
    l11, l22, b1, b2 = l[:, :n1, :n1], l[:, n1:, n1:], b[:, :n1], b[:, n1:]
    # lower: T = L21, op(T11) = L11 then L11^T; upper: T = U12^T, op(T11) = U11^T then U11.
    t21 = l[:, n1:, :n1] if lower else l[:, :n1, n1:].swapaxes(1, 2)
    tri.trsm_inplace(l11, b1, False, lower, not lower, False, 1.0, True,   # Y1 = T11^-1 B1
                     None if src is None else src[:, :n1])
    if src is not None:
        tri.copy_into(b2, src[:, n1:])
    tri.gemm(b2, t21, b1, alpha=-1.0, beta=1.0)                       # B2 -= T21 Y1
    potrs_inplace(l22, b2, lower)                                     # X2 = A22^-1 B2
    tri.gemm(b1, t21.swapaxes(1, 2), b2, alpha=-1.0, beta=1.0)        # Y1 -= T21^T X2
    tri.trsm_inplace(l11, b1, False, lower, lower, False, 1.0, True)  # X1 = T11^-T Y1


def _one_block_factor(a, kept):
    """The one-launch POTRF that serves the batch ``a`` (input kept or not): potrf_global with
    its blocks a matrix, potrf_left, potrf_tensor, or None (in that order; chol_global's rows
    start above chol_tensor's sizes)."""
    blocks = global_blocks(a)
    if blocks == 1:
        return potrf_global
    if blocks:
        return functools.partial(potrf_global, blocks=blocks)
    if use_left(a):
        return potrf_left
    if a.shape[1] > tri.LEAF and use_tensor(a, kept):
        return potrf_tensor
    return None


def potrf(a, lower=True, keep=()):
    """Cholesky factor of each matrix; returns (factor, info); the factor is a new array where
    ``keep`` names "a"."""
    if not tri.is_real(a.dtype):
        return _vendor_potrf(a, lower)                            # a only read
    one_block = _one_block_factor(a, "a" in keep)
    if one_block is not None:                 # a kept input is read, not copied
        factor = tri.result_array(a, "a", keep)
        return factor, one_block(factor, lower, src=None if factor is a else a)
    if a.shape[1] <= tri.LEAF or tri.one_launch("potrf", a):
        factor = tri.result_array(a, "a", keep)
        return factor, tri.chol_small(a, tri.CHOL_POTRF, lower, out=factor)
    if tri.small_batch("potrf", a):
        return _cusolver_potrf(tri.writable(a, "a", keep), lower)
    if "a" in keep and a.shape[1] >= PANEL_OUT_FROM[dtype_name(a.dtype)]:
        factor = tri.result_array(a, "a", keep)
        return factor, potrf_panels(factor, lower, src=a)
    a = tri.writable(a, "a", keep)
    return a, potrf_panels(a, lower)


def potrs_vector(l, b, lower, keep=()):
    """POTRS with one vector (b (batch, n, 1)) by a kernels/trsv.cu kernel running both solves
    (the factor streamed once per solve): trsv_split (two launches) or trsv_block for small
    batches (trsv.small_batch_launch), trsv_staged for the n of STAGED_POTRS_RANGE, else
    trsv_warp with potrs_warp_launch's settings, in one launch.
    b is read and x written (b itself unless ``keep`` names "b"); returns (x, info). The
    launchers get the (batch, n, 1) arrays as they are: they read a vector batch's batch and
    element strides only (a CuPy view b[:, :, 0] cost ~1.5 us of host time each)."""
    x = tri.result_array(b, "b", keep)
    trans = 0 if lower else 1
    launch = trsv.small_batch_launch(l)
    if launch is not None:
        return x, launch(l, b, lower, trans, False, True, out=x)
    if trsv.staged_serves(trsv.STAGED_POTRS_RANGE, l.shape[1], l.dtype):
        return x, trsv.launch_staged(l, b, lower, trans, False, True, out=x)
    width, maxreg, vec, scalar = potrs_warp_launch(l.shape[1], l.itemsize)
    return x, trsv.launch_warp(l, b, lower, trans, False, True, width=width, maxreg=maxreg,
                               vec=vec, scalar=scalar, out=x)


@functools.lru_cache(maxsize=1024)
def potrs_warp_launch(n, itemsize):
    """(lanes, register cap, vector width, single-load (warps, lanes, cap)) of the one-vector
    POTRS on trsv_warp for order n: potrs_width, potrs_register_cap, potrs_vector_width (cached:
    a small call's host time)."""
    return (potrs_width(n, itemsize), potrs_register_cap(n, itemsize),
            potrs_vector_width(n, itemsize),
            (4, potrs_width(n, itemsize, 1), potrs_register_cap(n, itemsize, 1)))


def potrs(l, b, lower=True, keep=()):
    """Solve A X = B given the Cholesky factor of A (L L^T or U^T U); returns (X, info), X may
    be ``b`` unless ``keep`` names "b"; info: the first zero or non-finite diagonal entry of
    the factor."""
    if not tri.is_real(l.dtype):
        return _vendor_potrs(l, b, lower), tri._diag_info(l, False)           # b only read
    n, nrhs = l.shape[1], b.shape[2]
    if use_tensor_solve("potrs", l, nrhs):
        x = tri.result_array(b, "b", keep)
        return x, tensor_solve(l, b, lower, factored=True, out=x)
    if nrhs > 1 and tri.use_cols("potrs", l, nrhs):
        x = tri.result_array(b, "b", keep)
        return x, tri.tri_cols(l, b, False, lower, not lower, False, mode=tri.COLS_POTRS, out=x)
    if nrhs > 1 and tri.pair_launch("potrs", l):
        x = tri.result_array(b, "b", keep)
        return x, tri.tri_pair(l, b, tri.TRI_LOWER if lower else 0, tri.TRI_WARP_POTRS, out=x)
    if tri.small_batch("potrs_vector" if nrhs == 1 else "potrs", l):
        info = tri._diag_info(l, False)
        return vendor.potrs(l, tri.writable(b, "b", keep), lower), info
    if nrhs == 1 and (POTRS_WARP_FROM <= n <= trsv.MAX_N_KERNEL
                      or trsv.staged_serves(trsv.STAGED_POTRS_RANGE, n, l.dtype)):
        return potrs_vector(l, b, lower, keep)
    if n <= tri.LEAF:
        x = tri.result_array(b, "b", keep)
        if nrhs >= POTRS_SOLVE_FROM:
            return x, chol_solve(l, b, lower, factored=True, out=x)
        return x, tri.solve_leaf(l, b, tri.TRI_POTRS | (tri.TRI_LOWER if lower else 0), out=x)
    if tri.use_pair("potrs", l.dtype, n):
        x = tri.result_array(b, "b", keep)
        return x, tri.tri_pair(l, b, tri.TRI_LOWER if lower else 0, tri.TRI_WARP_POTRS, out=x)
    info = tri._diag_info(l, False)
    b, src = tri.recursion_target(b, "b", keep)
    potrs_inplace(l, b, lower, src=src)
    return b, info


def chol_solve(a, b, lower, factored, out=None):
    """kernels/potrf.cu chol_solve on ``b`` (batch, n, nrhs), n <= LEAF, ``a`` only read: in
    place, or with ``out`` (triangular.result_array) from ``b`` into ``out``, ``b`` unchanged.
    POSV of ``a`` (factored False; returns potrf's info) or POTRS with the factor ``a`` (factored
    True; returns its first zero or non-finite diagonal entry)."""
    batch, n, nrhs = b.shape
    dst, fresh = tri.write_target(out, b)
    launcher, grid, threads, smem = _solve_config(current_device(), a.dtype, n, batch, fresh)
    info = info_array(batch)
    _, lda, sa = tri.view_args(a)
    _, ldb, sb = tri.view_args(dst)
    launcher(grid, threads,
             (a, lda, sa, dst, ldb, sb, n, nrhs, batch, int(lower), int(factored), info, b), smem)
    return info


@functools.lru_cache(maxsize=4096)
def _solve_config(device_id, dtype, n, batch, fresh=False):
    """(launcher, grid, threads, shared bytes) of one chol_solve launch: chol_small's matrices
    per block and tile, plus the inverted diagonal; ``fresh``: the out-of-place instantiation."""
    nmax = tri.size_class(n)
    per_block, threads, smem = tri.launch_config(nmax, nmax * (nmax + 1) + 1 + nmax,
                                                 dtype.itemsize)
    launcher = kernel("potrf", f"chol_solve<{ctype(dtype)}, {nmax}, {cbool(fresh)}>",
                      "pqqpqqiiqiipp")
    return launcher, grid_1d(batch, per_block), threads, smem


def posv(a, b, lower=True, keep=()):
    """Factor and solve; returns (X, info) with potrf's info. X is a new array where ``keep``
    names "b"; ``a`` is work space unless ``keep`` names it."""
    if tri.is_real(a.dtype) and a.shape[1] <= tri.LEAF and b.shape[2] >= POSV_FUSED_FROM:
        x = tri.result_array(b, "b", keep)                       # a only read
        return x, chol_solve(a, b, lower, factored=False, out=x)
    if tri.is_real(a.dtype) and use_tensor_solve("posv", a, b.shape[2]):
        x = tri.result_array(b, "b", keep)                       # a only read
        return x, tensor_solve(a, b, lower, factored=False, out=x)
    factor, info = potrf(a, lower, keep=keep)      # each looks for its own operand's name
    x, _ = potrs(factor, b, lower, keep=keep)
    return x, info


def potri(l, lower=True, keep=()):
    """Inverse of A from its Cholesky factor, full symmetric; returns (inverse, info) where info
    is trtri's (a zero or non-finite diagonal entry of the factor); the inverse is a new array
    where ``keep`` names "l"."""
    if not tri.is_real(l.dtype):
        inv, info = tri._vendor_trtri(l, lower, False)
        return tri.lauum(inv, lower), info
    if use_tensor_inverse("potri", l):
        x = tri.result_array(l, "l", keep)
        return x, tensor_inverse(l, lower, factored=True, out=x)
    if l.shape[1] <= tri.LEAF or tri.one_launch("potri", l):
        x = tri.result_array(l, "l", keep)
        return x, tri.chol_small(l, tri.CHOL_TRTRI | tri.CHOL_LAUUM, lower, out=x)
    if tri.small_batch("potri", l) and not tri.use_cols("trtri", l):
        # A^-1 = the solution of A X = I by the two vendor solves, its lower triangle mirrored
        # (exactly symmetric, as the recursion's result). Where TRTRI is one tri_cols launch,
        # TRTRI + LAUUM below beats them.
        info = tri._diag_info(l, False)
        inv = vendor.potrs(l, tri.identity(l.shape[0], l.shape[1], l.dtype), lower)
        return tri.mirror(inv), info
    inv, info = tri.trtri(l, lower, keep=("a",) if "l" in keep else ())
    return tri.lauum(inv, lower, zeroed=True), info


def poti(a, lower=True, keep=()):
    """Inverse of symmetric positive definite matrices (potrf + potri fused); (inverse, info);
    the inverse is a new array where ``keep`` names "a"."""
    if tri.is_real(a.dtype) and use_tensor_inverse("poti", a):
        x = tri.result_array(a, "a", keep)
        return x, tensor_inverse(a, lower, factored=False, out=x)
    if tri.is_real(a.dtype) and (a.shape[1] <= tri.LEAF or tri.one_launch("poti", a)):
        x = tri.result_array(a, "a", keep)
        return x, tri.chol_small(a, tri.CHOL_POTRF | tri.CHOL_TRTRI | tri.CHOL_LAUUM, lower,
                                 out=x)
    factor, info = potrf(a, lower, keep=keep)
    inv, _ = potri(factor, lower)
    return inv, info


# --------------------------------------------------------------------------- vendor

def _cusolver_potrf(a, lower):
    """cuSOLVER potrf in place on a real (batch, n, n) batch (small batches, see
    triangular.small_batch), the other triangle zeroed. info: cuSOLVER's (the leading minor that
    is not positive definite), else the first non-finite diagonal entry of the factor -- LAPACK's
    index for NaN input, which cuSOLVER does not report."""
    cupy = cupy_module()
    if a.strides[2] != a.itemsize:
        a = cupy.ascontiguousarray(a)
    if lower:
        # cuSOLVER factors its lower fill (our row-major upper triangle) faster than its upper
        # fill (H100 float64, one matrix: n = 256 0.11 against 0.20 ms, 512 0.22 against 0.39);
        # the lower triangle mirrored first makes both hold A, the factor U = L^T then moves
        # back transposed (the move also writes the diagonal's info). This path against the
        # upper-fill one it replaced, ms, two runs: n = 256 batch 1 0.161/0.162 against
        # 0.223/0.229, batch 100 0.391/0.380 against 0.438/0.444; n = 512 batch 1 0.271/0.291
        # against 0.427/0.441 (run 1 with the info in a launch of its own; scripts/
        # probe_cusolver_fill.py, reports/gpu_20261125/cusolver_fill*.md).
        tri.triangle_fix(a, True, zero=False)
        info = vendor.potrf(a, False)
        tri.triangle_transpose(a, to_lower=True, info=info)
        return a, info
    info = vendor.potrf(a, False)
    tri.triangle_fix(a, False, zero=True)
    return a, tri._diag_info(a, False, prior=info)


# --------------------------------------------------------------------------- vendor (complex)

def _vendor_potrf(a, lower):
    """Right-looking factorization vectorized over the batch (column by column); info without a
    host sync: the first non-positive (or NaN) pivot of each matrix."""
    cupy = cupy_module()
    n = a.shape[1]
    work = tri.hermitize(cupy.tril(a) if lower else cupy.conj(cupy.triu(a).swapaxes(1, 2)))
    info = cupy.zeros(a.shape[0], dtype=numpy.int32)
    failed = cupy.zeros(a.shape[0], dtype=bool)
    for j in range(n):
        d = work[:, j, j].real
        newly = ~failed & ~(d > 0)
        info = cupy.where(newly, j + 1, info).astype(numpy.int32)
        failed |= newly
        piv = cupy.sqrt(cupy.where(failed, 1.0, d)).astype(work.dtype)
        col = work[:, j + 1:, j] / piv[:, None]
        work[:, j + 1:, j + 1:] -= col[:, :, None] * cupy.conj(col[:, None, :])
        work[:, j + 1:, j] = col
        work[:, j, j] = piv
    factor = cupy.tril(work)
    if not lower:
        factor = cupy.conj(factor.swapaxes(1, 2))
    return cupy.ascontiguousarray(factor), info


def _vendor_potrs(l, b, lower):
    x, _ = tri._vendor_trsm(l, b, False, lower, "N" if lower else "C", False, 1)
    x, _ = tri._vendor_trsm(l, x, False, lower, "C" if lower else "N", False, 1)
    return x
