"""GPU SYRK on strided batches: C := alpha op(A) op(A)^T + beta C, returned full symmetric.

float32/float64 with op(A) and C small enough for shared memory: kernels/syrk.cu ``syrk_small``
(several matrices per block). Otherwise cuBLAS batched GEMM (``cupy.matmul``) and a mirror.
"""
import functools

from ._compile import ctype, current_device, grid_1d, kernel, register_cap
from . import triangular as tri

__all__ = ["syrk"]

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"syrk": ("a",)}

COMPILE_CHECK = {"syrk.cu": ["syrk_small<float>", "syrk_small<double>", "syrk_tile<float>",
                             "syrk_tile<double>"]}

# Tuned parameters (data): the kernel is used while one matrix's tiles fit SMEM_PER_MATRIX bytes
# and n <= MAX_N; a block holds about THREADS_PER_BLOCK output entries' worth of matrices.
# H100, batch 10240, GPU time (ms), kernel vs cuBLAS GEMM + mirror: float64 n = 24 0.082 vs 0.092,
# n = 32 0.144 vs 0.118, n = 48 0.44 vs 0.27; float32 n = 32 0.119 vs 0.110 (scratch probe
# 2026-11-23; a dense cupy.matmul A A^T: 0.101 / 0.160 / 0.364 in float64).
MAX_N = 24
SMEM_PER_MATRIX = 48 * 1024
THREADS_PER_BLOCK = 256


# kernels/syrk.cu syrk_tile (4 x 4 register blocks of C, op(A) staged 32 columns at a time) for
# TILE_RANGE[0] <= n <= TILE_RANGE[1] (at most TILE_MAX), with TILE_THREADS threads a block and
# NVRTC's register cap TILE_MAXREG (0: none; ptxas gives it 142 / 179 registers in float32 /
# float64 uncapped, 128 with 40 / 100 bytes of spills under a cap of 128). Off -- (0, 0) -- until
# `python3 scripts/probe_syrk.py` has measured it against syrk_small and the GEMM + mirror path
# on the device; the GPU tests force it on (test_syrk_tile_kernel).
TILE_MAX = 64
TILE_RANGE = (0, 0)
TILE_THREADS = 256
TILE_MAXREG = 0


def syrk(a, c=None, lower=True, trans="N", alpha=1, beta=0):
    """SYRK: op(A) = A (trans 'N', A is (batch, n, k)) or A^T (A is (batch, k, n)); plain transpose
    (symmetric, as BLAS), also for complex. Returns C (batch, n, n), full."""
    tr = trans in ("T", "C")
    n = a.shape[2] if tr else a.shape[1]
    kd = a.shape[1] if tr else a.shape[2]
    use_c = c is not None and beta != 0
    if not tri.is_real(a.dtype) or kd == 0:
        return _gemm_syrk(a, c, lower, tr, alpha, beta, use_c)
    if TILE_RANGE[0] <= n <= min(TILE_RANGE[1], TILE_MAX):
        return _tile_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd)
    tile = n * (kd | 1) + (n * (n | 1) if use_c else 0)
    if n > MAX_N or tile * a.itemsize > SMEM_PER_MATRIX:
        return _gemm_syrk(a, c, lower, tr, alpha, beta, use_c)
    return _kernel_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd, tile)


def tile_blocks(n):
    """The 4 x 4 blocks of C on and below the diagonal (threads a matrix) of syrk_tile."""
    nt = -(-n // 4)
    return nt * (nt + 1) // 2


def tile_launch(n, itemsize, threads=None):
    """(matrices a block, threads a block, shared bytes) of syrk_tile for order ``n``: about
    ``threads`` (TILE_THREADS) threads, a staged chunk of 32 columns a matrix within the shared
    budget of the triangular kernels (small n: many matrices a block)."""
    blocks = tile_blocks(n)
    chunk = 32 * (-(-n // 4) * 4 + 1) * itemsize           # kernels/syrk.cu SYRK_KC x lds
    per_block = max(1, min((threads or TILE_THREADS) // blocks, tri.SMEM_BUDGET // chunk))
    block_threads = -(-per_block * blocks // 32) * 32
    return per_block, block_threads, per_block * chunk


def _tile_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd):
    import cupy
    batch = a.shape[0]
    out = c if c is not None else cupy.empty((batch, n, n), dtype=a.dtype)
    launcher, per_block, threads, smem = _tile_config(current_device(), a.dtype, n, TILE_MAXREG)
    pa, lda, sa = tri.view_args(a)
    pc, ldc, sc = tri.view_args(out)
    launcher(grid_1d(batch, per_block), threads,
             (pa, lda, sa, pc, ldc, sc, n, kd, batch, per_block, int(tr), int(lower), int(use_c),
              alpha, beta), smem)
    return out


@functools.lru_cache(maxsize=1024)
def _tile_config(device_id, dtype, n, maxreg):
    """(launcher, matrices a block, threads a block, shared bytes) of one syrk_tile launch
    (cached: the host cost is most of a small call)."""
    launcher = kernel("syrk", f"syrk_tile<{ctype(dtype)}>", "pqqpqqiiqiiiiTT", dtype,
                      options=register_cap(maxreg))
    return (launcher,) + tile_launch(n, dtype.itemsize)


def _kernel_syrk(a, c, lower, tr, alpha, beta, use_c, n, kd, tile):
    import cupy
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
    import cupy
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
