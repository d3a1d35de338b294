"""GPU SYRK on strided batches: C := alpha op(A) op(A)^T + beta C, returned full symmetric.

float32/float64, C not read (beta = 0), C-contiguous A and n up to GEMM_SMALL_UPTO: one launch
of kernels/gemm.cu ``gemm_small`` with B = A (op(B) = op(A)^T); each entry sums its products in
the same order with the factors swapped, so C comes out symmetric bit for bit without a mirror.
Above, where TILE_FROM admits n: one launch of kernels/trmm.cu ``tri_tile`` (TT_FULL).
Else with op(A) and C small enough for shared memory and n <= MAX_N (n <= SMALL_BATCH_MAX_N on
small batches, ``small_kernel_serves``): kernels/syrk.cu ``syrk_small`` (several matrices per
block). Otherwise cuBLAS batched GEMM (``cupy.matmul``) and a mirror.
"""
from .._dispatch import cupy_module
from ._compile import ctype, dtype_name, grid_1d, kernel
from . import blas
from . import triangular as tri

__all__ = ["syrk"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"syrk": ("a",)}

COMPILE_CHECK = {"syrk.cu": ["syrk_small<float>", "syrk_small<double>"]}

# Tuned parameters (data): the kernel is used while one matrix's tiles fit SMEM_PER_MATRIX bytes
# and n <= MAX_N; a block holds about THREADS_PER_BLOCK output entries' worth of matrices.
# H100, batch 10240, GPU time (ms), kernel vs cuBLAS GEMM + mirror: float64 n = 24 0.082 vs 0.092,
# n = 32 0.144 vs 0.118, n = 48 0.44 vs 0.27; float32 n = 32 0.119 vs 0.110 (scratch probe
# 2026-11-23; a dense cupy.matmul A A^T: 0.101 / 0.160 / 0.364 in float64).
MAX_N = 24
SMEM_PER_MATRIX = 48 * 1024
THREADS_PER_BLOCK = 256
# Small batches: syrk_small also serves MAX_N < n <= SMALL_BATCH_MAX_N while batch <
# SMALL_BATCH_BELOW[dtype] (one launch, against GEMM + mirror's two launches and cuBLAS's host
# cost). Measured by `python3 scripts/probe_syrk_small.py` (H100, 2026-11-25,
# reports/gpu_20261125c/probe_syrk_small.md), backend ms, GEMM + mirror -> syrk_small (dense
# cupy.matmul): float64 batch 8, n = 32 / 48 / 64: 0.090 -> 0.027 / 0.041 -> 0.025 / 0.043 ->
# 0.035 (0.040 / 0.036 / 0.041); batch 100: 0.039 -> 0.019, 0.046 -> 0.028, 0.054 -> 0.039. The
# first batch where syrk_small lost at some n: float64 300 (n = 64: 0.060 against 0.047), float32
# 1000 (n = 64: 0.104 against 0.094).
SMALL_BATCH_MAX_N = 64
SMALL_BATCH_BELOW = {"float32": 1000, "float64": 300}


# SYRK by gemm_small (A, A^T) up to n = GEMM_SMALL_UPTO[(dtype, op(A) = A^T)], inner dimension
# up to GEMM_SMALL_MAX_K. H100, k = n, backend ms syrk_small / gemm_small / GEMM + mirror / dense
# cupy.matmul(A, A^T) (`python3 scripts/probe_syrk_gemm.py`, reports/gpu_20261126d/syrk_gemm.md):
# float64 batch 10240 n = 16 0.046 / 0.037 / 0.093 / 0.075, n = 32 0.157 / 0.122 / 0.135 / 0.167,
# n = 48 0.46 / 0.36 / 0.29 (lost); batch 100000 n = 8 0.085 / 0.057, n = 32 1.36 / 0.99 / 1.10;
# float32 n = 32 0.131 / 0.064 (T: 0.086) / 0.125 / 0.124, n = 48 0.356 / 0.154 (T: 0.235) /
# 0.317, n = 64 0.70 / 0.256 (T: 0.415, lost) / 0.40 (T: 0.364). n = 8 float32 ties syrk_small.
# float32 op(A) = A from n = 57 to tri_tile (n = 64: 0.215 against 0.251 ms, n = 48 0.259 against
# 0.147; between, not measured). float64 op(A) = A to n = 47 since 2026-11-28 (reports/
# gpu_20261128c call 3, device/p_trmm_syrk.py, backend ms at batch 1000 / 10240, gemm_small
# against GEMM + mirror (tri_tile; cupy.matmul): n = 33 0.032 / 0.165 against 0.056 / 0.335 (0.043
# / 0.241; 0.057 / 0.290), n = 40 0.039 / 0.232 against 0.050 / 0.290 (0.042 / 0.260; 0.054 /
# 0.264), n = 44 0.041 / 0.257 against 0.052 / 0.278, n = 47 0.050 / 0.356 against 0.056 / 0.383
# (0.051 / 0.336; 0.067 / 0.430)); op(A) = A^T to n = 44 (call 5: n = 33 / 40 / 44 0.031 / 0.166,
# 0.039 / 0.238, 0.040 / 0.267 against 0.056 / 0.315, 0.053 / 0.263, 0.054 / 0.278; n = 47
# 0.050 / 0.353 against 0.058 / 0.342, tri_tile 0.299 at 10240: GEMM + mirror kept).
GEMM_SMALL_UPTO = {("float64", False): 47, ("float64", True): 44,
                   ("float32", False): 56, ("float32", True): 48}
GEMM_SMALL_MAX_K = 64
_GEMM_SMALL = {"kernel": "small"}


def gemm_small_serves(a, c, n, kd, tr):
    """Whether SYRK (C not read) of ``a`` is one gemm_small launch: a measured n, a short inner
    dimension, C-contiguous A and C (gemm_small reads no leading dimensions)."""
    return (n <= GEMM_SMALL_UPTO.get((dtype_name(a.dtype), tr), 0) and kd <= GEMM_SMALL_MAX_K
            and a.flags.c_contiguous and (c is None or c.flags.c_contiguous))


def _gemm_small_syrk(a, c, tr, alpha):
    """alpha op(A) op(A)^T by gemm_small with B = A, into ``c`` (or a new array)."""
    return blas.gemm(a, a, c, "T" if tr else "N", "N" if tr else "T", alpha, 0.0,
                     _params=_GEMM_SMALL, _path="kernel")


# SYRK by kernels/trmm.cu tri_tile (TT_FULL: 64 x 64 tiles of C on and below the diagonal, each
# entry stored to both triangles from one register) where C is not read, for the n of
# TILE_FROM[dtype name] = (first, last) that gemm_small does not take. H100, backend ms, k = n,
# current path (gemm_small / syrk_small / GEMM + mirror) -> tri_tile (dense cupy.matmul) (`python3
# scripts/probe_syrk_tile.py`, reports/gpu_20261126e/syrk_tile.md, 2026-11-26): float64 batch
# 10240 n = 32 0.118 -> 0.177 (gemm_small stays), n = 48 0.290 -> 0.286, n = 64 0.41 -> 0.26
# (0.62), n = 96 1.04 -> 1.06 (1.52; its tiles 75 % filled), n = 128 1.66 -> 1.10 (2.90), n = 256
# (batch 8192) 7.6 -> 5.0 (12.0); batch 1-100 n = 48-512 1.1-2.4x faster (n = 128 batch 8 0.035
# -> 0.020 (0.037)); float32 n = 48 0.147 -> 0.259 (gemm_small stays), n = 64 0.251 -> 0.215 (T
# 0.367 -> 0.211), n = 128 1.60 -> 0.95 (2.54), n = 512 (batch 2048) 12.6 -> 7.4 (15.7).
TILE_FROM = {"float64": (48, 512), "float32": (49, 512)}


def tile_serves(a, use_c, n, dtype):
    """Whether SYRK of ``a`` is one tri_tile launch: C not read, A's rows unit-stride, n in the
    measured range of its dtype."""
    first, last = TILE_FROM.get(dtype_name(dtype), (0, -1))
    return not use_c and first <= n <= last and a.strides[2] == a.itemsize


def small_kernel_serves(n, batch, dtype):
    """Whether syrk_small takes order ``n`` (shared memory permitting) at this batch count."""
    return n <= MAX_N or (n <= SMALL_BATCH_MAX_N
                          and batch < SMALL_BATCH_BELOW.get(dtype_name(dtype), 0))


def syrk(a, c=None, lower=True, trans="N", alpha=1, beta=0):
    """SYRK: op(A) = A (trans 'N', A is (batch, n, k)) or A^T (A is (batch, k, n)); plain transpose
    (symmetric, as BLAS), also for complex. Returns C (batch, n, n), full."""
    tr = trans in ("T", "C")
    n = a.shape[2] if tr else a.shape[1]
    kd = a.shape[1] if tr else a.shape[2]
    use_c = c is not None and beta != 0
    if not tri.is_real(a.dtype) or kd == 0:
        return _gemm_syrk(a, c, lower, tr, alpha, beta, use_c)
    if not use_c and gemm_small_serves(a, c, n, kd, tr):
        return _gemm_small_syrk(a, c, tr, alpha)
    if tile_serves(a, use_c, n, a.dtype):
        return tri.tile_syrk(a, tr, alpha, out=c)      # beta = 0: C is only where it goes
    tile = n * (kd | 1) + (n * (n | 1) if use_c else 0)
    if not small_kernel_serves(n, a.shape[0], a.dtype) or tile * a.itemsize > SMEM_PER_MATRIX:
        return _gemm_syrk(a, c, lower, tr, alpha, beta, use_c)
    return _kernel_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd, tile)


def _kernel_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd, tile):
    cupy = cupy_module()
    batch = a.shape[0]
    out = c if c is not None else cupy.empty((batch, n, n), dtype=a.dtype)
    per_block = max(1, min(THREADS_PER_BLOCK // (n * n) or 1, tri.SMEM_BUDGET // (tile * a.itemsize)))
    threads = min(THREADS_PER_BLOCK, max(32, (per_block * n * n + 31) // 32 * 32))
    smem = per_block * tile * a.itemsize
    pa, lda, sa = tri.view_args(a)
    pc, ldc, sc = tri.view_args(out)
    launcher = kernel("syrk", f"syrk_small<{ctype(a.dtype)}>", "pqqpqqiiqiiiiTT", a.dtype)
    launcher(grid_1d(batch, per_block), threads,
             (pa, lda, sa, pc, ldc, sc, n, kd, batch, per_block, int(tr), int(lower), int(use_c),
              alpha, beta), smem)
    return out


def _gemm_syrk(a, c, lower, tr, alpha, beta, use_c):
    cupy = cupy_module()
    m = a.swapaxes(1, 2) if tr else a
    n = m.shape[1]
    if use_c:
        prod = c
        if not lower:                              # make the referenced triangle the lower one
            tri.mirror(prod, keep_lower=False)
    else:
        prod = c if c is not None else cupy.empty((a.shape[0], n, n), dtype=a.dtype)
    if tri.is_real(a.dtype):
        tri.gemm(prod, m, m.swapaxes(1, 2), alpha, beta if use_c else 0.0)
    else:
        prod[...] = alpha * cupy.matmul(m, m.swapaxes(1, 2)) + (beta * prod if use_c else 0)
    # Mirror the lower triangle (symmetric, not conjugated) so both triangles are equal bit for bit.
    return tri.mirror(prod)
