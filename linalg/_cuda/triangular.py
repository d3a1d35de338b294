"""GPU triangular BLAS on strided batches: trsm, trmm, trtri, lauum (docs/design.md contract).

float32/float64, n <= LEAF (32): one launch of our kernels (kernels/trsm.cu ``tri_vec`` below
TRI_WARP_FROM, kernels/tri_warp.cu ``tri_warp`` from there, kernels/potrf.cu ``chol_small``),
several matrices per thread block. n > LEAF: recursion on the triangle (lower or upper in
place, two-sided for trsm/trtri) down to those kernels, with the off-diagonal work done by cuBLAS
batched GEMM on views (vendor.gemm), and kernels/tri_pair.cu for 33 <= n <= 64 where PAIR_RULES
says (potrs, float64 trsm blocks of the recursion and kept B from PAIR_KEPT_FROM). A kept
(float64 B for trsm, any real A for trtri) input is read by the recursion's first blocks in
place of a copy (``src``). trmm and lauum: kernels/tri_block.cu
(register tiles, one block a matrix, in place) for 33 <= n <= 64 where BLOCK_RULES says,
kernels/trmm.cu ``tri_tile`` (64 x 64 output tiles, out of place: a new array is returned) for
64 < n <= 512 where TILE_RULES says (and float64 TRMM at n = 56..64 on large batches, a
persistent grid: TILE_ONE_TILE), else one dense cuBLAS product of the triangle, the triangle
copied/zeroed/mirrored by kernels/triangle.cu. Small batches above LEAF: trsm/trtri (and the
Cholesky module's potrs with several vectors) as one launch of kernels/tri_cols.cu, the
right-hand sides split over blocks, where COLS_BELOW says (``use_cols``); else by one cuBLAS
call (linalg/_cuda/vendor.py) where ``small_batch`` (rules in linalg/tuning/*.json) says. TRSM
on the left, float64 33 <= n <= 128 from 100 matrices (and the recursion's left blocks of those
sizes): one launch of kernels/potrf.cu ``chol_tensor_trsm`` (linalg/_cuda/cholesky.py
``tensor_trsm``). TRMM where cholesky.TENSOR_TRMM_RULES take n and the batch (float64 n = 65..96
at every batch, among others): one launch of kernels/potrf.cu ``chol_tensor_trmm`` (the triangle
in shared memory, ahead of tri_tile and tri_block; ``tensor_trmm``).
Complex dtypes: vendor (cuBLAS through cupyx / cupy.matmul).

This module also holds the launch helpers that linalg/_cuda/cholesky.py shares.
"""
import functools
import os

import numpy

from . import blas, vendor
from .vendor import gemm      # cuBLAS on strided views (the recursions' products)
from .. import _tuning
from .._dispatch import cupy_module
from ._compile import (cbool, clusters, ctype, current_device, dtype_name, grid_1d,
                       info_array, is_real, kernel, register_cap)

__all__ = ["trsm", "trmm", "trtri", "lauum"]

# Leaf kernels exist for n <= LEAF; their template parameter is the size class NMAX >= n.
# Measured on the H100 (reports/gpu_cholesky_2026-11-22.md): recursing 33..64 into 32-leaves beat
# a 64-leaf kernel (2 warps a matrix, 166-255 registers, low occupancy) for potrf, trsm and potrs
# on large batches (small batches: ONE_LAUNCH_BELOW below).
# LINALG_CUDA_LEAF (8, 16 or 32) overrides it for measurements.
LEAF = int(os.environ.get("LINALG_CUDA_LEAF", "32"))
SIZE_CLASSES = (8, 16, 32)
# Leaves from TRI_WARP_FROM to LEAF run kernels/tri_warp.cu (one warp a matrix, vectors in
# registers, coalesced) instead of tri_vec (H100, float64, batch 10240, TRMM n = 32: 0.10 ms
# against 0.36; n <= 16: tri_vec 0.02-0.035 ms against 0.055-0.06). trmm above LEAF: one dense
# cuBLAS product of the triangle (a 64-class tri_warp spilled and lost to it).
TRI_WARP_FROM = 17
TRI_WARP_MUL, TRI_WARP_SOLVE, TRI_WARP_POTRS = 0, 1, 2      # kernels/tri_warp.cu MODE
# kernels/tri_pair.cu (one block a matrix, each vector in a pair of lanes) serves LEAF < n <=
# PAIR_MAX, where PAIR_RULES has a rule for (op, dtype): "all" -- every such n, also the
# recursion's blocks -- or "nested" -- only the blocks of a larger matrix's recursion. Elsewhere
# the recursion into 32-leaves (trsm, potrs) or the dense cuBLAS product (trmm) runs. H100, batch
# 10240, n vectors (docs/design.md "tri_pair"), ms tri_pair / previous path:
#   float64 potrs n = 33/47/64: 0.61/0.67, 0.77/0.89, 1.02/1.17; n = 100/128 (64-leaves): 4.32/4.85,
#           5.21/5.81;
#   float64 trsm left n = 33/64: 0.40/0.30, 0.71/0.67 (lost); n = 100/128 as leaves: 2.18/2.31,
#           2.84/3.04 (right side 2.51/2.73, 3.32/3.45);
#   float64 trmm n = 64: 0.57 against 0.54 (lost); float32: lost everywhere (trsm n = 64 0.59/0.43,
#           potrs 0.86/0.75, n = 128 leaves 2.07/1.88) -- before tri_pair_potrs (below), which
#           measured float32 potrs n = 64 0.50 against 0.75 for the recursion (float32 potrs
#           routed here since 2026-11-23, after the device suite ran it).
# PAIR_UPTO (LINALG_CUDA_PAIR_UPTO, default PAIR_MAX; 0 turns it off) is for measurements.
PAIR_MAX = 64
PAIR_UPTO = int(os.environ.get("LINALG_CUDA_PAIR_UPTO", str(PAIR_MAX)))
PAIR_RULES = {("potrs", "float64"): "all", ("potrs", "float32"): "all",
              ("trsm", "float64"): "nested"}
# RECURSION_PAIR_BLOCKS[(op, dtype)] = (n, batch): TRSM's own recursion (not POTRS's, not a kept
# B's top-level tri_pair) runs tri_pair on its blocks of LEAF < n <= PAIR_MAX as PAIR_RULES'
# "nested" would, except for a whole matrix of order <= n on at least that many matrices (trsm's
# pair_blocks). float32 since 2026-11-27 (reports/gpu_20261127d calls 6-7,
# scripts/probe_trsm_recursion.py, H100, left N, n vectors, ms with 32-leaves / tri_pair blocks):
# n = 512 batch 100 / 300 / 1000 / 2048 2.27 / 3.24 / 6.10 / 10.97 -> 1.07 / 1.89 / 5.09 / 9.94
# (torch 1.50 / 3.99 / 12.3 / 25.0), n = 256 batch 300 / 1000 / 10240 0.76 / 1.21 / 9.06 -> 0.42
# / 0.94 / 8.56, n = 128 batch 1000 0.38 -> 0.22 but batch 3000 / 10240 0.554 / 1.72 -> 0.568 /
# 1.81 (hence the bound); batches 32-100 below n = 512 within 4 %.
RECURSION_PAIR_BLOCKS = {("trsm", "float32"): (128, 2048)}
PAIR_THREADS = 128
# TRSM with a kept B: the recursion reads B in place of a copy (trsm_inplace with src) for the
# dtypes of RECURSION_SRC_DTYPES, and where PAIR_RULES says "nested", tri_pair runs out of place
# from PAIR_KEPT_FROM. H100, batch 10240, default-call ms, same calls
# (reports/gpu_20261126b/ab_kept_inputs.md, ab_trsm_kept_recursion.md): float64, against a copy
# and the in-place recursion: out-of-place recursion n = 33 / 40 / 96 / 128 / 256 1.05 / 1.11 /
# 1.16 / 1.13 / 1.05x, tri_pair n = 64 1.42x (n = 33 0.80x); tri_pair against the out-of-place
# recursion n = 48 0.51 / 0.48, 64 0.60 / 0.79 (the bound: the middle of the two). float32 lost
# with the out-of-place recursion (TRSM 0.87-0.92x from n = 40, POTRS 0.94-0.96x at n = 96 / 128,
# ab_pitched_copy.md) and keeps the copy. POTRS's recursion (linalg/_cuda/cholesky.py) follows
# the same rule (float64 n = 96 / 128 1.05 / 1.01x).
RECURSION_SRC_DTYPES = frozenset((numpy.dtype(numpy.float64),))
PAIR_KEPT_FROM = int(os.environ.get("LINALG_CUDA_PAIR_KEPT_FROM", "56"))  # (for measurements)
# POTRS in tri_pair.cu for the dtypes in PAIR_POTRS_BLOCK: tri_pair_potrs (helper-written;
# 16-row blocks, inverted diagonal blocks, register tiles, 256 threads a matrix); otherwise
# tri_pair's POTRS mode (the two sweeps). H100, batch 10240, nrhs = n, ms, block / pair /
# recursion / torch.cholesky_solve (scripts/probe_potrs_block.py, after the barrier fix):
# float64 n = 33 0.549/0.615/0.619/0.945, 48 0.556/0.758/0.776/1.187, 64 0.814/1.026/1.166/1.719
# (2.1x); float32 n = 33 0.330/0.480/0.433/1.099, 48 0.333/0.596/0.538/1.499, 64
# 0.504/0.868/0.753/2.636 (5.2x); errors 3-5e-15 / 2-3e-6 as the
# other paths; racecheck clean.
PAIR_POTRS_BLOCK = frozenset((numpy.dtype(numpy.float64), numpy.dtype(numpy.float32)))
# kernels/tri_block.cu (one block of 256 threads a matrix at a time, a 4 x 4 register tile of the
# output each, the operands staged in shared memory by cp.async, LAUUM and left TRMM stored from
# registers) serves LEAF < n <= BLOCK_MAX for TRMM and LAUUM where BLOCK_RULES[(op, dtype)] gives
# the variant ("left"/"right": TRMM side, "lower"/"upper": LAUUM) a first n; elsewhere the dense
# cuBLAS product runs. BLOCK_UPTO (LINALG_CUDA_BLOCK_UPTO, default BLOCK_MAX; 0 turns it off) is
# for measurements. H100, batch 10240, n vectors, ms (scripts/probe_tri_block.py, 2026-11-23), n =
# 48 / 64, tri_block, the synchronous tri_block before it, the dense path (triangle copy or
# zeroing + cuBLAS), one dense cuBLAS product of the same shape (cupy.matmul(L, B); L^T L as one
# gemm on the transposed view; cupy.matmul(L^T, L) copies the transpose first: float64 0.34 / 0.60,
# float32 0.28 / 0.42):
#   float64 TRMM (6 orientations) 0.23-0.27 / 0.35-0.37, 0.29-0.30 / 0.41-0.44, 0.33 / 0.54,
#           0.19 / 0.34; LAUUM 0.155-0.160 / 0.233-0.237, 0.24-0.26 / 0.33-0.38, 0.34 / 0.52,
#           0.141 / 0.227;
#   float32 TRMM 0.18-0.21 / 0.22-0.25, 0.23 / 0.31-0.33, 0.26-0.29 / 0.37-0.38, 0.16 / 0.22;
#           LAUUM 0.115-0.120 / 0.149-0.158, 0.16-0.19 / 0.24-0.26, 0.30-0.31 / 0.37-0.40, 0.143 /
#           0.182.
BLOCK_MAX = 64
BLOCK_UPTO = int(os.environ.get("LINALG_CUDA_BLOCK_UPTO", str(BLOCK_MAX)))
BLOCK_RULES = {("lauum", "float64"): {"lower": 33, "upper": 33},
               ("lauum", "float32"): {"lower": 33, "upper": 33},
               ("trmm", "float64"): {"left": 33, "right": 33},
               ("trmm", "float32"): {"left": 33, "right": 33}}
BLOCK_THREADS = 256
# Shared-memory buffers of tri_block's staged operands, by (op, dtype): TRMM (P: the triangle, Q:
# the vectors) (1, 1), (1, 2) or (2, 2); LAUUM 1 or 2. Two buffers let the next matrix's copy run
# during this one's product, but fewer blocks fit an SM (float64, 33 KB an operand: TRMM (2, 2)
# 1 block, (1, 2) 2, (1, 1) 3). H100, batch 10240, ms n = 48 / 64 (same run as above): float64
# TRMM left LN (1, 1) 0.249 / 0.349, (1, 2) 0.287 / 0.356, (2, 2) 0.364 / 0.404; LAUUM lower 1
# 0.168 / 0.247, 2 0.155 / 0.233; float32 TRMM (1, 1) 0.198 / 0.227, (1, 2) 0.209 / 0.237, (2, 2)
# 0.201 / 0.224 (other orientations: the same order); LAUUM 1 0.116 / 0.154, 2 0.115 / 0.149.
BLOCK_BUFFERS = {("trmm", "float64"): (1, 1), ("trmm", "float32"): (1, 1),
                 ("lauum", "float64"): 2, ("lauum", "float32"): 2}
# tri_block's grid: the blocks resident at once (each loops over the batch); BLOCK_GRID > 0 caps it
# (tests: a few blocks walk a small batch through every buffer turn).
BLOCK_GRID = 0
# kernels/trmm.cu tri_tile (64 x 64 output tiles out of place, k tiles of 32 over the triangle
# only, two cp.async stages -- 16-byte copies where an operand's rows run along the tile --; a
# DMMA mma.sync m16n8k8 product, float32 widened to double on the way) serves BLOCK_MAX < n <=
# TILE_MAX for TRMM and LAUUM where one of TILE_RULES[(op, dtype)][variant]'s rules (first n,
# last n, least fill, least batch) admits n and the batch: first <= n <= last, n fills at least
# that share of its 64-row tiles (fill = n / (64 ceil(n / 64)): the padded rows of the last tile
# row and column are computed too) and the batch has at least that many matrices;
# elsewhere the dense cuBLAS product of the triangle (triangle copy/zeroing + gemm + copy/mirror).
# Variants: TRMM "left", "left_t", "right", "right_t" (side, op(A) = A^T): the triangle M the
# kernel multiplies is op(A) (left) or op(A)^T (right), its tiles copied 16 bytes at a time along
# i where M's rows run along i (left_t, right), along k into a k-major tile where they run along k
# (left, right_t; TILE_KMAJOR below); B's the same way (rows on the left, k-major on the right).
# LAUUM "lower" (rows) and "upper" (k-major). TILE_UPTO (LINALG_CUDA_TILE_UPTO, default
# TILE_MAX; 0 turns it off) is for measurements. H100, batch 10240, ms tri_tile / dense path,
# every variant forced each way
# (`python3 scripts/probe_trmm_tile.py rules 72,80,96,112,128,160,192,256 float64,float32`,
# reports/gpu_20261126d/tile_rules.txt, 2026-11-26; a dense cupy.matmul in brackets):
#   float64 n = 96 (0.83): TRMM left N 1.39 / 1.25, left T 1.25 / 1.24, right N 1.15 / 1.25,
#           right T 1.31 / 1.25; n = 112: 1.64-1.70 / 1.73-1.75 (all four); n = 160 (2.54): left N
#           4.00 / 3.69, left T 3.52 / 3.76, right N 3.36 / 3.69, right T 3.85 / 3.70; n = 72 / 80
#           the dense path by 1.3-1.6x (0.65); n = 128, 192, 256 tri_tile everywhere (n = 256:
#           7.5-8.6 against 9.8-11.4 (7.77)); LAUUM tri_tile at every n (n = 72 a tie, 0.99 /
#           1.00; n = 128 1.26 / 2.08 (1.37)).
#   float32 TRMM left N / left T: the dense path up to n = 112 and at 160 (n = 112 1.94 / 1.58
#           and 1.87 / 1.59; n = 160 4.48 / 3.89 and 3.44 / 3.53), tri_tile at 128 (1.43 / 1.70,
#           1.31 / 1.67 (1.21)), 192 and 256 (7.81 / 8.91 and 6.58 / 8.88 (7.18)); right N / T:
#           the dense path at every n (n = 256: 9.19 / 8.88, 11.43 / 9.06); LAUUM the dense path
#           at n = 72 / 80 (1.14 / 0.95), tri_tile from 96 (1.00 / 1.14; n = 256 4.65 / 9.90).
# Measured before the pair stores of the same day (TT_VEC_OUT), which made tri_tile 1.09-1.16x
# faster at n = 96-256 (left TRMM, LAUUM): sizes near a fill threshold may now favour it.
# n = 288-512 (2026-11-26, same command at those sizes, reports/gpu_20261126e/rules_*.txt; the
# batch cut to 4 GiB an operand where marked: n = 512 2048 matrices): tri_tile wins every float64
# variant (n = 512: TRMM 8.1-8.7 / 12.1-12.8 (11.3), LAUUM 3.7-3.8 / 11.6), float32 LAUUM (n =
# 512 3.6 / 12.8 lower, 5.9 / 13.1 upper), TRMM left N / T (9.2 / 12.1, 7.6 / 12.2 (10.7)) and, from
# n = 288, right N (10.5 / 12.1; at 256 the dense path: 9.19 / 8.88); float32 right T stayed dense
# (n = 512 13.6 / 12.4) until the k-major staging below. The fills between 256 and 288 were not
# measured: the thresholds above hold.
# float32 since its operands with k stride 1 are staged k-major too (same day, same command,
# before / after in one call, reports/gpu_20261126e/rules_f32_kmajor_*.txt): right N / T TRMM
# n = 128 1.78 / 2.10 -> 1.32 / 1.26 ms (dense path 1.70 / 1.56, a dense product 1.22), n = 256
# 7.50 / 9.46 -> 5.34 / 5.13 (7.18 / 7.35; 5.73), left N 1.25 -> 1.10 and 5.75 -> 4.71, LAUUM
# upper 1.37 -> 1.06 and 4.83 -> 3.14; the right side now takes tri_tile at the left side's fill.
# At n = 96 every float32 TRMM variant stays dense (1.21-1.44 against 1.01-1.22). At n = 160 (fill
# 0.83) the tiles now took 0.83-0.87x the dense path's time, but n = 112 (fill 0.88) was not
# measured since (left T, which the k-major staging does not change, lost there: 1.87 / 1.59), so
# the fill stays 0.9.
# float64 k rows at a row stride of 64 + 4 (kernels/trmm.cu tt_ld; same day, rules_f64_ld68.txt):
# left T n = 96 now 1.11 against the dense path's 1.30 ms (its fill 0.75 admitted: 0.8 before),
# left N 1.27 / 1.26 (a tie, stays dense) and n = 160 3.55 / 3.71 (kept dense at the fill 0.85
# that n = 257 shares), right N / T unchanged.
# float64 left N's fill 0.85 -> 0.76 (2026-11-28, reports/gpu_20261128c call 3, device/
# p_trmm_syrk.py, backend ms at batch 1000 / 10240, tri_tile at any fill against the dense path;
# cupy.matmul in brackets): n = 100 (fill 0.78) 0.160 / 1.42 against 0.177 / 1.55 (0.127 / 1.06),
# n = 150 (0.78) 0.362 / 3.36 against 0.403 / 4.19 (0.299 / 3.37), n = 200 (0.78, 6710 matrices)
# 0.735 / 4.15 against 0.791 / 4.88 (0.624 / 4.11); n = 72 / 81 / 129 (fill 0.56-0.67) stay dense
# (tile 1.2-1.3x slower at 10240); n = 96 (0.75) a tie before, left out. float32 left N at fill
# 0.78 mixed (n = 100 / 150 dense by 1.1x, n = 200 tile by 1.08x): its 0.9 stays.
# On small batches the dense path's three launches cost more still: float64 n = 512, batch 1 /
# 8 / 100, GPU time us, tile / dense path / one cupy.matmul: TRMM 24 / 39 / 34, 50 / 66 / 49,
# 428 / 648 / 633; LAUUM 26 / 53 / -, 33 / 63 / -, 266 / 587 / 484 (torch.matmul, events)
# (`python3 scripts/probe_small_split.py`, reports/gpu_20261126e/small_split_call2_3.md).
# LAUUM since its tiles the diagonal crosses are patched in shared memory (kernels/trmm.cu
# TT_PATCH_EDGES; 2026-11-26, the same command, before TT_PATCH_EDGES was limited to LAUUM,
# reports/gpu_20261126f/rules_patch.txt): float32 n = 80 0.98 / 0.81 against
# the dense path's 1.00 / 1.03 (lower / upper), so its fill went 0.7 -> 0.6 (n = 72 lower 0.99 /
# 0.95 stays dense); float64 tri_tile everywhere as before (n = 72 0.89 / 0.76 against 1.00 / 0.97).
# The fills since the masked tiles' 16-byte runs (TT_RUNS; 2026-11-28, H200 only, batch 10240,
# `python3 scripts/probe_trmm_tile.py rules 72,80,96,112,160 float64,float32`,
# reports/gpu_20261128f/call3/rules.txt, ms tri_tile / dense path): float32 left T wins from
# n = 72 (0.76 / 0.77, n = 96 0.81 / 0.98, n = 160 2.30 / 3.49), right N from 96 (0.97 / 1.03,
# n = 112 1.22 / 1.55), left N and right T from 112 (1.19 / 1.55, 1.43 / 1.57; n = 160 2.96 /
# 3.84, 3.44 / 4.40; n = 96 1.05 / 1.03, 1.23 / 1.14 stay dense); float64 left T from 72 (0.83 /
# 0.88, n = 80 0.92 / 0.93); float64 left N, right N and right T as before (n = 96 left N 1.14 /
# 1.12; right T n = 112 1.56 / 1.53, n = 160 3.63 / 3.23). So float32 left 0.9 -> 0.8, left T
# 0.9 -> 0.56, right 0.9 -> 0.74, right T 0.9 -> 0.8; float64 left T 0.75 -> 0.56. LAUUM as
# before.
# The fills on TILE_CHUNKED's grid (2026-11-28, H200 only, batch 10240, the same command at n =
# 72, 80, 88, 96, reports/gpu_20261128g/call2/rules.txt, ms tri_tile / dense path): float64
# right N wins from 72 (0.79 / 0.84), left N from 88 (0.98 / 1.04; n = 80 0.95 / 0.89), right T
# nowhere (n = 96 1.09 / 1.06); float32 right N from 80 (0.83 / 0.86; n = 72 0.75 / 0.72), left N
# and right T from 96 (0.98 / 1.01, 1.00 / 1.13; n = 88 0.97 / 0.90, 1.05 / 0.92), LAUUM from 72
# (lower 0.60 / 0.91, upper 0.63 / 0.89). So the chunked sizes' own rules: float64 left 0.68,
# right 0.56; float32 left 0.75, right 0.62, right T 0.75, LAUUM any fill; above them the fills
# measured before. Float32 LAUUM at n = 65-76 from 300 matrices: below, chol_block had won on
# both GPUs (n = 72, batch 1-100, tile 0.6-0.93x; reports/gpu_20261126j/tile_batch_call9.md,
# _call11_h100.md; 300 matrices 1.29-1.99x for the tiles). Right T at n = 104-120 (call 3,
# rules.txt): float64 n = 112 (fill 0.875) lost again (1.53 / 1.47; 1.56 / 1.53 in call 3 of
# 2026-11-28f), n = 120 won (1.58 / 1.64); float32 n = 104 (0.81) lost (1.46 / 1.42), 112 won
# (1.46 / 1.55): so up to n = 128 right T takes the tiles from a fill of 0.9 (float64) and 0.85
# (float32). Every other variant on the tiles won at 104-120 (left N float64 n = 104 1.27 /
# 1.39, float32 1.23 / 1.38).
TILE_MAX = 512
TILE_UPTO = int(os.environ.get("LINALG_CUDA_TILE_UPTO", str(TILE_MAX)))
TILE_RULES = {("trmm", "float64"): {"left": ((65, 96, 0.68, 0), (97, 512, 0.76, 0)),
                                    "left_t": ((65, 512, 0.56, 0),),
                                    "right": ((65, 96, 0.56, 0), (97, 512, 0.7, 0)),
                                    "right_t": ((65, 128, 0.9, 0), (129, 512, 0.85, 0))},
              ("trmm", "float32"): {"left": ((65, 96, 0.75, 0), (97, 512, 0.8, 0)),
                                    "left_t": ((65, 512, 0.56, 0),),
                                    "right": ((65, 96, 0.62, 0), (97, 512, 0.74, 0)),
                                    "right_t": ((65, 96, 0.75, 0), (97, 128, 0.85, 0),
                                                (129, 512, 0.8, 0))},
              ("lauum", "float64"): {"lower": ((65, 512, 0.0, 0),),
                                     "upper": ((65, 512, 0.0, 0),)},
              ("lauum", "float32"): {"lower": ((65, 76, 0.0, 300), (77, 512, 0.0, 0)),
                                     "upper": ((65, 76, 0.0, 300), (77, 512, 0.0, 0))}}
# TILE_ANY_FILL_BELOW[op]: on at most that many matrices the op takes tri_tile whatever the fill
# (TRMM only). The rules above were measured at batch 10240, where the padded tiles' work
# counts; on small batches the dense path's two launches cost more. Backend ms of tri_tile
# against the dense path at every n and variant the fill keeps off the tiles (float64 n = 72,
# 80, 96, 160, float32 n = 72, 80, 96, 112, 160; reports/gpu_20261126j/tile_batch_call9.md (H200),
# tile_batch_call11_h100.md, script device/p_tile_batch.py): batch 1-100 1.12-3.1x (H200) /
# 1.47-3.3x (H100) faster, 300 1.03-1.8x / 1.18-1.73x, 1000 0.64-1.18x / 0.81-1.32x. Public
# left N calls at batch 1 / 8 / 100, n = 72-200, 1.29-3.0x / 1.19-2.99x faster where the path
# changed (float64 n = 112 is on the tiles either way; trmm_small_call10.md,
# trmm_small_call11_h100.md). LAUUM keeps its rules (float32 n = 72, its one excluded size, is
# faster on chol_block at batch 1-100 on both GPUs).
TILE_ANY_FILL_BELOW = {"trmm": 300}
# TILE_ONE_TILE[(op, dtype name)] = (first n, least batch): at first <= n <= BLOCK_MAX, where a
# matrix is one 64 x 64 tile, from that many matrices tri_tile serves every variant instead of
# tri_block (its DMMA product against tri_block's FMA tiles), on a persistent grid (TILE_SHAPE's
# blocks an SM, each streaming its matrices: the next one's first copies during this one's
# product), where both operands move by 16-byte copies (rows_by_16_bytes; a float64 row of odd
# n does not: its element copies lost, n = 61 / 63 0.80-0.97x). H200, float64 TRMM, backend ms,
# the better of two alternating turns, tri_block in place (the public default) / persistent
# tri_tile, left N, upper left T, left N right side, upper right T (reports/gpu_20261128f calls
# 7-8, `python3 reports/gpu_20261128f/device/p_one_tile.py --inplace --vectors 1,8,n ...`):
# - n = 64: 1000 matrices 1.00-1.12x, 2000 1.15-1.19x, 3000 1.26-1.34x; 10240 1.08-1.47x at 1,
#   4, 8, 16, 32 and 64 vectors.
# - n = 56 / 58 at 10240 matrices: n vectors 1.10-1.19x / 1.12-1.23x, 4-32 vectors 1.04-1.19x,
#   one vector 0.95-1.04x / 1.00-1.10x; n = 58 at 3000 1.02-1.10x (one vector 0.95-1.06x).
# - Left out: n = 50-54 at 3000 matrices 0.91-1.02x with n vectors (1.02-1.12x at 10240), one
#   vector 0.83-1.00x; n = 48 0.90-1.00x at 3000 (0.98-1.07x at 10240); n = 40-46 0.80-1.08x
#   (call 4, out of place). float32 at n = 64: n vectors 1.00-1.08x, 8-32 vectors 0.89-1.00x
#   (call 7); at n = 48-62 0.81-0.95x (call 5).
# Public float64 TRMM (call 4, `python3 scripts/bench_cholesky.py --dtypes float64 --ops trmm
# --sizes 48,56,62,64 --batches 10240,100000`, the dense product = 1): n = 56 0.95 / 0.90x,
# n = 62 1.00 / 0.99x, n = 64 1.10 / 0.94x at 10240 / 100000 matrices (tri_block at n = 60 the
# session before: 0.76 / 0.71x).
TILE_ONE_TILE = {("trmm", "float64"): (56, 3000)}
TILE_THREADS = 128
# kernels/trmm.cu flags
(TT_M_UPPER, TT_UNIT, TT_X_LOWER, TT_VEC_M, TT_VEC_X, TT_VEC_OUT, TT_FULL, TT_ZEROED,
 TT_PATCH_EDGES) = 1, 2, 4, 8, 16, 32, 64, 128, 256
TT_KM_M, TT_KM_X = 1, 2                      # tri_tile's KM template argument (kernels/trmm.cu)
# Operands whose k stride is 1 (TRMM left N: A; right side: B; LAUUM upper: both) staged k-major
# (s[f][k], 16-byte copies along k) instead of an element a copy into k rows, by dtype name.
# LINALG_CUDA_TILE_KMAJOR=0 turns it off. H100, float64, batch 10240, same call: TRMM n = 128
# 1.53 -> 1.43 ms, n = 192 4.23 -> 3.52, n = 256 8.94 -> 7.18 (reports/gpu_20261125e/kmajor.md;
# LAUUM unchanged). float32 (2026-11-26; its fragments are widened from either layout): TRMM left
# N n = 128 / 192 / 256 1.15 / 1.19 / 1.21x (reports/gpu_20261126e/ab_f32_kmajor.md), right side
# 1.3-1.8x, LAUUM upper 1.3-1.6x (the rules' timings above).
TILE_KMAJOR = {"float64", "float32"} if os.environ.get("LINALG_CUDA_TILE_KMAJOR", "1") != "0" \
    else set()
# tri_tile's grid: a block an item; TILE_GRID > 0 caps it (tests: a few blocks walk many items,
# their k tile streams crossing item boundaries).
TILE_GRID = 0
# TILE_CHUNKED[dtype name] = (first n, last n): above one tile a matrix, the sizes whose
# tri_tile launches run on a persistent grid (the resident blocks, or TILE_GRID) whose blocks each
# walk a contiguous run of items (kernels/trmm.cu TT_CHUNKED_OPT), so that a matrix's tiles stay
# on one block and its re-read rows hit L2 while they are there. H200, batch 10240, ms a block
# an item / chunked, tile kernels called directly, the two in alternation in one process
# (`python3 reports/gpu_20261128f/device/p_tile_chunked.py [--dtype float32] --sizes ...`,
# reports/gpu_20261128g/README.md calls 1-2): float64 n = 72 TRMM left N lower 1.10 / 0.92, right
# N lower 1.07 / 0.79, LAUUM upper 0.88 / 0.65, SYRK 0.90 / 0.79; every one of the 7 calls
# (4 TRMM variants, 2 LAUUM, SYRK) 1.05-1.36x at n = 66-96 in both dtypes, 1.08-1.37x on 50 000
# matrices, 0.97-1.14x on 1000. Above 96 no steady gain: n = 100-120 1.02-1.19x in calls 1-2 but
# 0.99-1.00x (public TRMM, tile_trmm) in call 5 (p_public_ab.py), and losses at n = 128 (float64
# SYRK 0.79x), 200 (0.94-1.17x) and 256 (0.84-0.95x; float32 0.92-1.00x); not profiled. With
# 1 / 8 / 32 vectors and SYRK k = 16 / 200 at n = 72 / 96 (reports/gpu_20261128h call 1,
# p_chunked_shapes.py): 1.11-1.71x at 10 240 matrices (float32 SYRK n = 96 0.98 / 1.02x),
# 0.99-1.21x at 1000 (float32 SYRK k = 200 0.93-0.94x), so the rule stays by n alone.
TILE_CHUNKED = {"float64": (65, 96), "float32": (65, 96)}
# tri_tile's (k tile, stages, blocks an SM of the launch bound) by dtype (NVRTC -D options).
TILE_SHAPE = {"float64": (32, 2, 3), "float32": (32, 2, 3)}
# The dtypes whose tiles crossed by the matrix's or the triangle's edge are staged by 16-byte runs
# where a run lies inside both (kernels/trmm.cu TT_RUNS; else an element a copy, as the full
# tiles' own loop does not need to ask). H200, batch 10240 (n = 200: 6710), tri_tile forced,
# ms before / after, the better of two alternating turns (reports/gpu_20261128e call 5,
# device/p_ragged.py): float64 TRMM left N n = 100 1.38 / 1.23, n = 200 4.06 / 3.95, upper right
# N 1.66 / 1.46, 4.83 / 4.60, LAUUM lower 1.13 / 0.91, 2.38 / 2.13, SYRK 1.29 / 1.22, 3.50 /
# 3.49; float32 TRMM left N n = 100 1.50 / 1.18, LAUUM 1.21 / 0.88; one tile a matrix, float64
# n = 60 left N 0.30 / 0.30, upper right T 0.38 / 0.30. Call 4 had one loop for both kinds of
# tile: float64 n = 200 lost 10-17 % (n = 72 gained up to 1.54x).
TILE_MASKED_RUNS = {"float64", "float32"}
# tri_tile_split (kernels/trmm.cu, compute capability 9.0 on): where a batch's tiles leave most
# SMs idle, a cluster of s blocks an item, each streaming a run of its k tiles, the partial sums
# met in distributed shared memory. A block's k tile is ~1900 cycles of DMMA a warp (2 x 4
# fragments x 4 k steps): on a few items the SMs' tensor cores, not the memory, are what is
# short. The largest s of TILE_SPLITS with items x s <= TILE_SPLIT_SMS[s] x the SMs and at least
# TILE_SPLIT_RUN k tiles of 32 a block on the longest item (kdim / 32 / s); TILE_SPLIT
# (LINALG_CUDA_TILE_SPLIT) > 0 forces s (1: tri_tile; tests and measurements). GPU us, H200,
# float64 (`python3 scripts/probe_trmm_tile.py split`, reports/gpu_20261127d call 1), s = 1 / 2
# / 4 / 8, the rule's in brackets, the dense cupy.matmul / torch.matmul(L^T, L) after the bar:
#   TRMM left N, n vectors: n = 128 batch 1 11.7 / 10.6 / [8.7] / 9.1 | 5.5, batch 8 12.1 / 11.1 /
#   [9.8] / 15.6 | 6.6, batch 32 13.5 / [13.5] / 20.8 / 38.0; n = 256 batch 1 16.3 / 13.3 / 10.9
#   / [10.1] | 6.6, batch 2 16.3 / 13.5 / [11.6] / 15.6, batch 8 17.1 / [16.6] / 21.4 / 37.7;
#   n = 512 batch 1 25.4 / 18.3 / [15.4] / 25.9 | 12.6, batch 2 25.8 / [23.9] / 25.9 / 42.6,
#   batch 8 [52.0] / 57.9 / 81.9 / 141.8 | 44.9.
#   LAUUM lower: n = 256 batch 1 20.3 / 16.3 / 13.8 / [10.7] | 6.6, batch 2 20.3 / 16.4 / 14.2 /
#   [12.0], batch 8 20.9 / [18.2] / 22.1 / 28.1; n = 384 batch 1 24.8 / 18.8 / 15.4 / [12.7] |
#   9.6, batch 8 [30.6] / 27.9 / 32.6 / 50.8; n = 512 batch 1 29.5 / 21.2 / [17.0] / 18.9 | 12.0,
#   batch 2 29.8 / [22.0] / 18.6 / 27.3, batch 8 [35.3] / 40.2 / 50.7 / 83.0 | 44.2.
# The difference from tri_tile's result: 6e-16 - 2.5e-15 of the largest entry (float64). The same
# probe on an H100 (call 4) chose alike; 2 and 4 blocks then took up to 2.2 blocks an SM (2.0
# before), which gave 72 tiles (LAUUM / SYRK n = 512, TRMM n = 384, batch 2) 4 blocks: float64
# LAUUM 22.7 -> 19.8 us, float32 LAUUM / SYRK 22.3 / 21.9 -> 18.4 / 18.0 (H100; the H200 of call
# 1 alike: LAUUM 22.0 -> 18.6).
TILE_SPLITS = (2, 4, 8)
TILE_SPLIT_SMS = {2: 2.2, 4: 2.2, 8: 1.3}
TILE_SPLIT_RUN = 1
TILE_SPLIT = int(os.environ.get("LINALG_CUDA_TILE_SPLIT", "0"))
TILE_PART_BYTES = 32 * TILE_THREADS * 8         # kernels/trmm.cu TT_PART_BYTES


def tri_warp_lanes(mode, right):
    """Lanes a matrix for tri_warp: 16 (two vectors a lane, interleaving the substitution's
    dependent chains) for left-side solves, else 32. H100, n = 32, float64 (float32) ms, 32 -> 16
    lanes: left solve 0.173 -> 0.156 at batch 10240 and 1.53 -> 1.20 at 10^5 (0.93 -> 0.80),
    POTRS 1.65 -> 1.29 at 10^5 (1.03 -> 0.91); the multiply 0.102 -> 0.119 and right-side solves
    0.20 -> 0.38 lose."""
    return 16 if mode != TRI_WARP_MUL and not right else 32


# Tuned parameters (data, not code): matrices per thread block for each size class, and the
# shared-memory budget a block may take before it gets fewer matrices.
PER_BLOCK = {8: 16, 16: 8, 32: 4, 64: 1}
SMEM_BUDGET = 96 * 1024
# Register caps of chol_small per (dtype, NMAX) (NVRTC's own choice leaves fewer warps an SM on
# this latency-bound kernel): H100 batch 10240, scripts/probe_chol_small.py, every phase chain
# bit-identical to the uncapped launch; float64 n = 32 at 128 registers: POTRF 0.084 -> 0.078 ms,
# TRTRI 0.105 -> 0.094, LAUUM 0.090 -> 0.082-0.085, POTRI 0.143 -> 0.133, POTI 0.187 -> 0.165-0.170;
# float32 n = 32 at 64: POTRF 0.048 -> 0.043, TRTRI 0.058 -> 0.054-0.056, POTI 0.121 -> 0.116;
# float64 n = 16 at 64: 5-40 % on four of the five chains (host-bound sizes: noisy).
CHOL_REGISTER_CAP = {("float64", 16): 64, ("float64", 32): 128, ("float32", 32): 64}

# Small batches with LEAF < n <= ONE_LAUNCH_MAX: POTRF, TRTRI, POTRI and POTI as one launch of
# chol_small<T, 64> (64 threads and one 64 x 65 tile a matrix, block barriers; float64 238
# registers, no spills since the TRTRI phase's reciprocals) when the batch is below
# ONE_LAUNCH_BELOW[(op, dtype)] matrices.
# Their other paths take 4-20 launches (panels, recursion) or several vendor calls: 0.05-0.2 ms
# of host time whatever the batch, where this launch takes 0.03-0.09 ms up to batch 256 (H100,
# n = 64: 1.6-2.5x faster). At large batches its one-matrix blocks lose (POTRF n = 64, batch
# 10240: 0.72 ms against 0.42). Bounds: the smallest crossover batch over n = 33/48/64 per op and
# dtype, measured by scripts/bench_one_launch.py (reports/gpu_check_20261123f/one_launch.md:
# float64 n = 64 crosses at ~512, float32 at 1448-2896, where batch 1024 is still 1.3-2.4x
# faster by one launch). Re-measured after the reciprocals (reports/gpu_20261126c/one_launch.md,
# one run): TRTRI float64 now crosses at 2896 (n = 64 one launch even at 16384: 0.67 against 0.72
# ms), POTRI float64 at 1448; the float32 POTRI / POTI bounds fell to 1448 there, and each bound
# is the smallest over all runs.
ONE_LAUNCH_MAX = 64
# TRTRI from n = ONE_LAUNCH_FROM to ONE_LAUNCH_MAX is that one launch at every batch, and with
# ONE_LAUNCH_LEAVES the recursion's blocks of those sizes are such leaves too: since its TRTRI
# phase works by 32 x 32 blocks (kernels/potrf.cu chol_trtri_blocked, float64 capped at 168
# registers: CHOL_CHAIN_LAUNCH) chol_small<T, 64> beats the recursion into 32-leaves there. H100,
# batch 10240, same call (reports/gpu_20261126f/probes, scripts/probe_trtri_one_launch.py):
# float64 n = 33 / 36 / 40 / 48 1.13 / 1.31 / 1.42 / 1.59x, float32 n = 36 / 40 / 48 / 56 / 64
# 1.16 / 1.28 / 1.44 / 1.81 / 1.94x (n = 33 lost, 0.89x); as leaves, TRTRI n = 96-256 1.02-1.07x
# and POTRI / POTI 1.01-1.04x against 32-leaves.
ONE_LAUNCH_FROM = {("trtri", "float64"): 33, ("trtri", "float32"): 36}
ONE_LAUNCH_LEAVES = True
# Small batches with ONE_LAUNCH_MAX < n <= CHOL_BLOCK_MAX: POTRF, TRTRI, LAUUM, POTRI and POTI as
# one launch of kernels/potrf.cu chol_block (one matrix a block, a 4 x 4 tile of it in each
# thread's registers, LAPACK's blocked order by 4 x 4 blocks) below BLOCK_LAUNCH_BELOW[(op,
# dtype)] matrices. Against the panels / recursion / tile paths and the vendor calls the
# small-batch rules send such batches to (2-12 launches, or cuSOLVER potrf(Batched) + fix-ups):
# H100, batch 1-100, n = 65 / 128 float64, backend ms: POTRF 0.035-0.038 / 0.080-0.089 against
# 0.10-0.13 / 0.13-0.18, POTI 0.047-0.062 / 0.12-0.14 against 0.29-0.55 / 0.34-0.51. One block
# an SM at n = 128, so the default path wins from a few hundred matrices. Bounds: the smallest
# crossover over n = 65 / 96 / 128 and two runs (scripts/bench_one_launch.py --block,
# reports/gpu_20261125/block_launch*.md); LAUUM float64 loses at n = 128 (0.047-0.062 against
# 0.036-0.047 ms by the tri_block_lauum / tri_tile kernels) and stays off.
CHOL_BLOCK_MAX = 128
# Small batches with LEAF < n <= PAIR_MAX: TRSM, and POTRS with more than one right-hand side,
# as one tri_pair launch (its info included) below PAIR_LAUNCH_BELOW[(op, dtype)] matrices,
# where the vendor path takes a library call and a diagonal check and the recursion several
# launches. H100, n = 33 / 48 / 64, n right-hand sides, backend ms, batch 1-256: TRSM float64
# 0.029-0.040 against 0.045-0.089, POTRS float64 n = 64 0.025-0.034 against 0.057-0.125; about
# 2x, up to batch 1024. Bounds: the smallest crossover over n (scripts/bench_one_launch.py --pair,
# reports/gpu_20261125b/pair_launch.md); POTRS float32 never lost up to batch 16384.
PAIR_LAUNCH_BELOW = {("trsm", "float64"): 2896, ("trsm", "float32"): 2896,
                     ("potrs", "float64"): 2896, ("potrs", "float32"): 16384}
BLOCK_LAUNCH_BELOW = {("potrf", "float64"): 282, ("potrf", "float32"): 565,
                      ("trtri", "float64"): 565, ("trtri", "float32"): 1600,
                      ("potri", "float64"): 565, ("potri", "float32"): 1131,
                      ("poti", "float64"): 565, ("poti", "float32"): 1131,
                      ("lauum", "float32"): 141}
ONE_LAUNCH_BELOW = {("potrf", "float64"): 512, ("trtri", "float64"): 2896,
                    ("potri", "float64"): 1448, ("poti", "float64"): 1448,
                    ("potrf", "float32"): 1448, ("trtri", "float32"): 1448,
                    ("potri", "float32"): 1448, ("poti", "float32"): 1448}

# Small batches with LEAF < n <= COLS_MAX: TRSM, TRTRI and POTRS with several right-hand sides
# as one launch of kernels/tri_cols.cu (the right-hand sides split over blocks of 256 threads,
# ``cols_width`` vectors a block, so that one matrix fills the GPU). The paths it replaces there
# run tens of dependent launches (the vendor's single-matrix trsm, the recursions' GEMMs) or one
# block a matrix (tri_pair, chol_block). COLS_BELOW[(op, dtype)]: {n_max: batch bound},
# tri_cols for batches below the bound of the smallest n_max >= n (a bound 0: never). H200,
# float64, n right-hand sides, ms a call of the backend's default path against tri_cols
# (scripts/probe_tri_cols.py time, reports/gpu_20261126k): TRSM batch 1 n = 128 / 256 / 512
# 0.046 / 0.076 / 0.183 against 0.016 / 0.031 / 0.076 (torch 0.037 / 0.075 / 0.162),
# batch 8 0.076 / 0.138 / 0.320 against 0.021 / 0.049 / 0.360; TRTRI batch 1 0.051 / 0.126 / 0.248
# against 0.020 / 0.031 / 0.076; POTRS 0.070 / 0.146 / 0.304 against 0.031 / 0.061 / 0.150. The
# bounds are `probe_tri_cols.py bounds` of those tables (batches 1, 2, 4, ... 64; one more than
# the largest batch up to which tri_cols won every measured batch, both sides for TRSM); TRTRI
# and POTRS up to n = 64 stay on chol_small / tri_pair (0.83-0.97x); at n <= 64 both sides of
# TRSM are host-bound (~0.02 ms), the float32 bounds come from n = 64 / 128 / 256 / 512 only.
# On the H100 the same bounds came out of the same probe (float64, n = 128-512, batches 1-32)
# but for POTRS n = 128 (17), from one outlier cell (report's call 5).
# Between those sizes (2026-11-28, H100, the same probe at batches 16-300, reports/gpu_20261128c
# call 4, default / tri_cols): float32 TRSM n = 80 wins to batch 100 (2.38 / 1.31x left / right,
# 0.86 / 0.81 at 150), n = 100 to 100 (1.08 / 1.04), n = 120 to 64 (1.05 / 0.99), n = 150 to
# 64 (1.27 / 1.19; 0.93 at 100), n = 180 to 32 (1.73 / 1.65; 1.01 / 0.94 at 64); float64 TRTRI
# n = 200 to 100 (1.03; 0.91 at 150), n = 240 to 64 (1.04; 0.91 at 100; the probe's default is
# the out-of-place path, so 225-256 keeps its bound). float32 TRTRI n = 200 / 240 within 1-3 %
# either way: unchanged. Public calls on these bounds (call 5, bench_small_batch.py): float32
# TRSM n = 80 / 100 / 150 / 180 at batch 32 1.04 / 1.60 / 1.67 / 1.48x torch, n = 80-150 at 64
# 1.18-1.48x, n = 80 / 100 at 100 1.27 / 1.02x; float64 TRTRI n = 200 at 50 / 64 / 100 1.16 /
# 1.01 / 0.90x (backend 0.361 ms at 100 against 0.404 on the path before, call 2). Still behind
# torch, on either path: float32 TRSM n = 150-180 at 64-100 (0.69-0.91x).
COLS_MAX = 512
COLS_BELOW = {("trsm", "float64"): {48: 3, 64: 65, 96: 65, 128: 33, 192: 33, 256: 17, 384: 17,
                                     512: 5},
              ("trsm", "float32"): {64: 17, 112: 101, 160: 65, 192: 33, 256: 17, 512: 5},
              ("trtri", "float64"): {64: 0, 96: 33, 128: 33, 192: 65, 224: 101, 256: 33, 384: 17,
                                     512: 9},
              ("trtri", "float32"): {64: 0, 128: 17, 256: 65, 512: 17},
              ("potrs", "float64"): {64: 0, 96: 65, 128: 33, 192: 33, 256: 17, 384: 17, 512: 5},
              ("potrs", "float32"): {64: 0, 128: 65, 256: 17, 512: 17}}
COLS_THREADS = 256
# Vectors a block: the largest of COLS_WIDTHS that still gives COLS_MIN_BLOCKS blocks (fewer
# vectors a block: more blocks read the same triangle, each with a shorter update loop). H200,
# one matrix: n = 256 best at 2 vectors (128 blocks), n = 384 / 512 at 4 (96 / 128 blocks),
# n = 384 batch 2 at 8 (96 blocks); within 3 % of the best width elsewhere.
COLS_WIDTHS = (8, 4, 2, 1)
COLS_MIN_BLOCKS = 96
COLS_SOLVE, COLS_INVERSE, COLS_POTRS = 0, 1, 2          # kernels/tri_cols.cu MODE

# Flag words of kernels/trsm.cu and kernels/potrf.cu.
TRI_RIGHT, TRI_LOWER, TRI_TRANS, TRI_UNIT, TRI_MUL, TRI_POTRS = 1, 2, 4, 8, 16, 32
CHOL_POTRF, CHOL_TRTRI, CHOL_LAUUM = 1, 2, 4
# chol_small launches of one phase chain that differ from PER_BLOCK / CHOL_REGISTER_CAP: (dtype,
# NMAX, chain) -> (matrices per block, register cap). After the TRTRI phase's reciprocals the
# float64 n = 32 kernel fits 96 registers for POTRF alone (the other chains lose 10-15 % there),
# and float32 n = 32 gains from 8 matrices a block except LAUUM alone (0.043 -> 0.044 ms). H100,
# batch 10240, ms production -> override (scripts/probe_chol_small.py --caps 0 48 64 80 96 128
# --per-block 2 4 8, reports/gpu_20261126c/probe_chol_small.txt): float64 POTRF 0.0682 -> 0.0661;
# float32 POTRF 0.0424 -> 0.0409, TRTRI 0.0478 -> 0.0465, POTRI 0.0712 -> 0.0680, POTI 0.1006 ->
# 0.0917. The A/B through the public calls (ab_chain_launch.md), n = 24 / 32, batch 10240 and
# 100000: float64 POTRF 1.03-1.07x, float32 POTRF 1.02-1.05x, TRTRI 1.03-1.18x, POTRI 1.04-1.06x,
# POTI 1.09-1.13x; the other chains unchanged. float64 NMAX = 64 at 168 registers (6 one-matrix
# blocks an SM, as many as its shared memory allows, where NVRTC's 238 left 4; the code of the
# phases a chain skips may spill, the chain's own does not): batch 10240, n = 48 / 64, TRTRI
# 0.227 -> 0.197 / 0.285 -> 0.239 ms, POTRI 0.490 -> 0.454 / 0.608 -> 0.562, POTI 1.00 -> 0.85 /
# 1.49 -> 1.40 (reports/gpu_20261126f/probes/caps_new.txt; 128 spills in the chain: slower).
CHOL_CHAIN_LAUNCH = {("float64", 32, CHOL_POTRF): (4, 96),
                     ("float32", 32, CHOL_POTRF): (8, 64),
                     ("float32", 32, CHOL_TRTRI): (8, 64),
                     ("float32", 32, CHOL_TRTRI | CHOL_LAUUM): (8, 64),
                     ("float32", 32, CHOL_POTRF | CHOL_TRTRI | CHOL_LAUUM): (8, 64),
                     ("float64", 64, CHOL_TRTRI): (1, 168),
                     ("float64", 64, CHOL_TRTRI | CHOL_LAUUM): (1, 168),
                     ("float64", 64, CHOL_POTRF | CHOL_TRTRI | CHOL_LAUUM): (1, 168)}

# Operands never written (the public layer passes them without a copy).
READS_ONLY = {"trsm": ("a",), "trmm": ("a",)}
# Operands written over unless the backend function's ``keep`` names them: then they stay as
# they are and the result is a new array -- by the kernels' out-of-place (OUT) instantiations
# and the recursions' ``src`` where the path has them, after one copy where it works in place
# only (the public layer passes them without a copy of its own; linalg/_batch.py).
OUT_OF_PLACE = {"trsm": ("b",), "trmm": ("b",), "trtri": ("a",), "lauum": ("a",)}

# Every name expression a launcher may ask for (tests/linalg/test_kernels_compile.py compiles them).
_TILE_SYM_PATCH = (("false", "false"), ("true", "false"), ("true", "true"))
COMPILE_CHECK = {
    "trsm.cu": [f"tri_vec<{t}, {c}, {m}, {o}>" for t in ("float", "double") for c in SIZE_CLASSES
                for m in range(3) for o in ("false", "true")],
    "potrf.cu": [f"chol_small<{t}, {c}, {o}>" for t in ("float", "double")
                 for c in SIZE_CLASSES + (ONE_LAUNCH_MAX,) for o in ("false", "true")]
                + [f"chol_block<{t}>" for t in ("float", "double")],
    "triangle.cu": [f"{k}<{t}>" for k in ("triangle_fix", "diag_info", "triangle_copy",
                                          "triangle_zero")
                    for t in ("float", "double")],
    "tri_warp.cu": [f"tri_warp<{t}, 32, {m}, {g}, {o}>" for t in ("float", "double")
                    for m in range(3) for g in (16, 32) for o in ("false", "true")],
    "tri_cols.cu": [f"tri_cols<{t}, {w}, {m}>" for t in ("float", "double") for w in COLS_WIDTHS
                    for m in (COLS_SOLVE, COLS_INVERSE, COLS_POTRS)],
    "tri_pair.cu": [f"tri_pair<{t}, {m}, {th}, {o}>" for t in ("float", "double") for m in range(3)
                    for th in (64, 128) for o in ("false", "true")]
                   + [f"tri_pair_potrs<{t}, {nb}, {o}>" for t in ("float", "double")
                      for nb in (3, 4) for o in ("false", "true")],
    "tri_block.cu": [f"tri_block_trmm<{t}, {p}, {q}, {o}>" for t in ("float", "double")
                     for p, q in ((1, 1), (1, 2), (2, 2)) for o in ("false", "true")]
                    + [f"tri_block_lauum<{t}, {b}, {o}>" for t in ("float", "double")
                       for b in (1, 2) for o in ("false", "true")],
    # PATCH (the last argument) only with SYM: LAUUM's instantiations
    "trmm.cu": [f"tri_tile<{t}, {s}, {km}, {p}>" for t in ("float", "double")
                for s, p in _TILE_SYM_PATCH for km in range(4)]
               + [f"tri_tile_split<{t}, {s}, {km}, {p}, {c}>" for t in ("float", "double")
                  for s, p in _TILE_SYM_PATCH for km in range(4) for c in TILE_SPLITS],
}


def small_batch(op, a):
    """True where ``op`` ("potrf", "potrs", "potrs_vector", "trsm", "trtri", "potri", "trsv") on
    the (batch, n, n) batch ``a`` takes its vendor path: n > LEAF and batch * n below the bound of
    linalg/tuning/*.json "vendor_below" for n (measured by scripts/bench_crossover.py). There our
    launches (10-60 for a recursion) cost more host time than the vendor's call."""
    n = a.shape[1]
    return n > LEAF and a.shape[0] * n < vendor_below(op, a.dtype, n)


def one_launch(op, a):
    """True where ``op`` ("potrf", "trtri", "potri", "poti", "lauum") on the (batch, n, n) batch
    ``a`` runs as one launch: chol_small<T, 64> for LEAF < n <= ONE_LAUNCH_MAX (batch below
    one_launch_below, or any batch from n = one_launch_from), chol_block for ONE_LAUNCH_MAX < n
    <= CHOL_BLOCK_MAX (batch below block_launch_below)."""
    n = a.shape[1]
    if LEAF < n <= ONE_LAUNCH_MAX:
        return n >= one_launch_from(op, a.dtype) or a.shape[0] < one_launch_below(op, a.dtype)
    return ONE_LAUNCH_MAX < n <= CHOL_BLOCK_MAX and a.shape[0] < block_launch_below(op, a.dtype)


def one_launch_from(op, dtype):
    """The n from which ``op`` on ``dtype`` takes the chol_small<T, 64> path at any batch
    (ONE_LAUNCH_FROM; past ONE_LAUNCH_MAX where it has no entry: never)."""
    return ONE_LAUNCH_FROM.get((op, dtype_name(dtype)), ONE_LAUNCH_MAX + 1)


def one_launch_below(op, dtype):
    """The batch below which ``op`` on ``dtype`` takes the chol_small<T, 64> path (0: never)."""
    return ONE_LAUNCH_BELOW.get((op, dtype_name(dtype)), 0)


def pair_launch(op, a):
    """True where ``op`` ("trsm"; "potrs" with more than one right-hand side) on the (batch, n,
    n) batch ``a`` runs as one tri_pair launch on a small batch: LEAF < n <= PAIR_MAX (and
    PAIR_UPTO), batch below pair_launch_below, checked before the vendor rule."""
    return LEAF < a.shape[1] <= min(PAIR_UPTO, PAIR_MAX) and \
        a.shape[0] < pair_launch_below(op, a.dtype)


def pair_launch_below(op, dtype):
    """The batch below which ``op`` on ``dtype`` takes the one tri_pair launch (0: never)."""
    return PAIR_LAUNCH_BELOW.get((op, dtype_name(dtype)), 0)


def block_launch_below(op, dtype):
    """The batch below which ``op`` on ``dtype`` takes the chol_block path (0: never)."""
    return BLOCK_LAUNCH_BELOW.get((op, dtype_name(dtype)), 0)


def vendor_below(op, dtype, n):
    """The small-batch bound (batch * n) of ``op`` at order ``n`` on the current GPU."""
    return _vendor_below(current_device(), op, dtype_name(dtype), n)


@functools.lru_cache(maxsize=4096)
def _vendor_below(device_id, op, dtype, n):
    return _tuning.vendor_below(op, dtype, n, _tuning.gpu_name(device_id))


def size_class(n):
    return next(c for c in SIZE_CLASSES if c >= n)


def view_args(x):
    """(array, leading dimension, batch stride) in elements of a 3-D view with unit column stride."""
    item = x.itemsize
    if x.strides[2] != item and x.shape[2] > 1:
        raise ValueError("kernel operands need unit column stride")
    return x, x.strides[1] // item, x.strides[0] // item


def launch_config(nmax, tile_elems, itemsize, per_block=None):
    """(matrices per block, threads per block, dynamic shared bytes) for one size class
    (``per_block``: instead of PER_BLOCK[nmax])."""
    per_block = per_block or PER_BLOCK[nmax]
    while per_block > 1 and per_block * tile_elems * itemsize > SMEM_BUDGET:
        per_block //= 2
    return per_block, per_block * nmax, per_block * tile_elems * itemsize


def chol_small(a, ops, lower, unit=False, out=None):
    """Run kernels/potrf.cu chol_small on the (batch, n, n) view ``a`` (n <= LEAF, or n <=
    ONE_LAUNCH_MAX on small batches: ``one_launch``; chol_block above that): in place, or with
    ``out`` (a new array of a's shape and strides: ``result_array``) from ``a`` into ``out``,
    ``a`` unchanged. Returns info."""
    if out is not None and out is not a and a.shape[1] > ONE_LAUNCH_MAX:
        copy_into(out, a)                  # chol_block works in place only
        a, out = out, None
    if a.shape[1] > ONE_LAUNCH_MAX:
        return chol_block(a, ops, lower, unit)
    batch, n = a.shape[0], a.shape[1]
    dst, fresh = write_target(out, a)
    launcher, grid, threads, smem = _chol_config(current_device(), a.dtype, n, batch, fresh, ops)
    info = info_array(batch)
    _, lda, sa = view_args(dst)
    launcher(grid, threads, (dst, lda, sa, n, batch, ops, int(lower), int(unit), info, a), smem)
    return info


def chol_small_class(n):
    """chol_small's NMAX for order n (<= ONE_LAUNCH_MAX): the size class up to LEAF, else 64."""
    return size_class(n) if n <= LEAF else ONE_LAUNCH_MAX


def chol_small_launch(dtype, nmax, ops):
    """(matrices per block, register cap; 0: none) of chol_small<T, NMAX> for the phase chain
    ``ops`` (CHOL_* flags): CHOL_CHAIN_LAUNCH's entry, else PER_BLOCK and CHOL_REGISTER_CAP.
    The matrices per block are shrunk further where shared memory asks (launch_config)."""
    name = dtype_name(dtype)
    default = (PER_BLOCK[nmax], CHOL_REGISTER_CAP.get((name, nmax), 0))
    return CHOL_CHAIN_LAUNCH.get((name, nmax, ops), default)


@functools.lru_cache(maxsize=4096)
def _chol_config(device_id, dtype, n, batch, fresh=False, ops=0):
    """(launcher, grid, threads, shared bytes) of one chol_small launch of the phase chain
    ``ops`` (cached: the host cost is most of a small call); ``fresh``: the out-of-place
    instantiation."""
    nmax = chol_small_class(n)
    per_block, cap = chol_small_launch(dtype, nmax, ops)
    per_block, threads, smem = launch_config(nmax, nmax * (nmax + 1) + 1, dtype.itemsize,
                                             per_block)
    launcher = kernel("potrf", f"chol_small<{ctype(dtype)}, {nmax}, {cbool(fresh)}>",
                      "pqqiqiiipp", options=register_cap(cap))
    return launcher, grid_1d(batch, per_block), threads, smem


def result_array(x, name, keep):
    """Where a backend function writes the result that replaces operand ``name`` (the array
    ``x``): ``x`` itself, or a new C-contiguous array of its shape when ``keep`` names it."""
    if name not in keep:
        return x
    cupy = cupy_module()
    return cupy.empty(x.shape, dtype=x.dtype)


def writable(x, name, keep):
    """``x``, or a copy of it when ``keep`` names it (for the paths that work in place only)."""
    if name not in keep:
        return x
    cupy = cupy_module()
    out = cupy.empty(x.shape, dtype=x.dtype)
    copy_into(out, x)
    return out


def recursion_target(x, name, keep):
    """(the array a recursion writes the result replacing operand ``name`` to, the array it reads
    that operand from or None): for a kept operand of a RECURSION_SRC_DTYPES dtype a new array
    and ``x`` (the recursion's ``src``), else ``writable`` (``x`` itself or a copy) and None."""
    if name in keep and x.dtype in RECURSION_SRC_DTYPES:
        return result_array(x, name, keep), x
    return writable(x, name, keep), None


def copy_into(out, x):
    """out[...] = x: one device-to-device memcpy when both are C-contiguous (out new), else an
    elementwise copy (for the recursions' blocks of rows or columns it beat one 2-D memcpy: H100,
    float64 TRSM with a kept B n = 96-256, 0.89-0.94x with cudaMemcpy2DAsync;
    reports/gpu_20261126b/ab_pitched_copy.md)."""
    cupy = cupy_module()
    if out.flags.c_contiguous and x.flags.c_contiguous:
        out.data.copy_from_device_async(x.data, x.nbytes)
    else:
        cupy.copyto(out, x)


def write_target(out, x):
    """(the array an out-of-place capable kernel writes, whether it is not ``x``): ``x`` itself
    when ``out`` is None or ``x``, else ``out`` checked against ``x`` (:func:`check_twin`)."""
    if out is None or out is x:
        return x, False
    return check_twin(out, x), True


def check_twin(out, x):
    """``out`` if it has x's shape, dtype and strides (an out-of-place kernel indexes both
    with one leading dimension and batch stride; the stride of a dimension of length 1 is never
    used: a reshaped vector batch (batch, n, 1) may carry any); else ValueError."""
    if out.strides == x.strides and out.shape == x.shape and out.dtype == x.dtype:
        return out                  # the common case, decided in a fraction of a microsecond

    def used(a):
        return tuple(st for st, d in zip(a.strides, a.shape) if d > 1)
    if out.shape != x.shape or out.dtype != x.dtype or used(out) != used(x):
        raise ValueError(f"out-of-place result {out.shape} {out.dtype} strides {out.strides} "
                         f"does not match its input {x.shape} {x.dtype} strides {x.strides}")
    return out


def chol_block(a, ops, lower, unit=False):
    """Run kernels/potrf.cu chol_block in place on the (batch, n, n) view ``a``, ONE_LAUNCH_MAX <
    n <= CHOL_BLOCK_MAX: one matrix a block, a 4 x 4 tile of it a thread. Returns info."""
    batch, n = a.shape[0], a.shape[1]
    launcher = kernel("potrf", f"chol_block<{ctype(a.dtype)}>", "pqqiqiiip")
    info = info_array(batch)
    _, lda, sa = view_args(a)
    launcher(grid_1d(batch, 1), chol_block_threads(n),
             (a, lda, sa, n, batch, ops, int(lower), int(unit), info), 0)
    return info


def chol_block_threads(n):
    """Threads of a chol_block launch at order n: one per 4 x 4 tile of the lower triangle, in
    whole warps (kernels/potrf.cu CHOL_BLOCK_THREADS at n = CHOL_BLOCK_MAX)."""
    tiles = -(-n // 4)
    pairs = tiles * (tiles + 1) // 2
    return -(-pairs // 32) * 32


def _launch_on_rhs(config, a, b, nvec, flags, alpha, src):
    """Launch a tri_vec, tri_warp or tri_pair configuration (same parameter list: the triangle,
    B, sizes, flags, alpha, info, then the source of B, ``src``: ``b`` itself in place, the
    caller's array for an OUT instantiation) on B; returns the new info array."""
    launcher, grid, threads, smem = config
    batch, n = a.shape[0], a.shape[1]
    info = info_array(batch)
    _, lda, sa = view_args(a)
    _, ldb, sb = view_args(b)
    launcher(grid, threads, (a, lda, sa, b, ldb, sb, n, nvec, batch, flags, alpha, info, src),
             smem)
    return info


def tri_vec(a, b, flags, alpha=1.0, out=None):
    """Run kernels/trsm.cu tri_vec on B (left: (batch, n, nvec); right: (batch, nvec, n)): in
    place, or with ``out`` (``result_array``) from ``b`` into ``out``, ``b`` unchanged."""
    batch, n = a.shape[0], a.shape[1]
    nvec = b.shape[1] if flags & TRI_RIGHT else b.shape[2]
    if nvec == 0:
        return _diag_info(a, bool(flags & TRI_UNIT))
    dst, fresh = write_target(out, b)
    mode = 2 if flags & TRI_POTRS else (1 if flags & TRI_MUL else 0)     # kernels/trsm.cu MODE
    config = _tri_vec_config(current_device(), a.dtype, n, batch, mode, fresh)
    return _launch_on_rhs(config, a, dst, nvec, flags, alpha, b)


@functools.lru_cache(maxsize=4096)
def _tri_vec_config(device_id, dtype, n, batch, mode, fresh=False):
    """(launcher, grid, threads, shared bytes) of one tri_vec launch (cached); ``fresh``: the
    out-of-place instantiation."""
    nmax = size_class(n)
    tile = 2 * nmax * (nmax + 1) + 2 * nmax + 1          # kernels/trsm.cu tri_tile<NMAX>()
    per_block, threads, smem = launch_config(nmax, tile, dtype.itemsize)
    smem += nmax * dtype.itemsize                         # padding before the first tile
    launcher = kernel("trsm", f"tri_vec<{ctype(dtype)}, {nmax}, {mode}, {cbool(fresh)}>",
                      "pqqpqqiiqiTpp", dtype)
    return launcher, grid_1d(batch, per_block), threads, smem


def tri_warp(a, b, flags, mode, alpha=1.0, lanes=None, out=None):
    """Run kernels/tri_warp.cu on B (left: (batch, n, nvec); right: (batch, nvec, n)), n <=
    LEAF: in place, or with ``out`` (``result_array``) from ``b`` into ``out``, ``b``
    unchanged; flags: TRI_RIGHT | TRI_LOWER | TRI_TRANS | TRI_UNIT; mode: TRI_WARP_MUL / _SOLVE
    / _POTRS (left only); lanes a matrix: 16 or 32 (default tri_warp_lanes). Returns info (the
    kernel writes zeros for the multiply)."""
    right = bool(flags & TRI_RIGHT)
    nvec = b.shape[1] if right else b.shape[2]
    lanes = lanes or tri_warp_lanes(mode, right)
    dst, fresh = write_target(out, b)
    config = _tri_warp_config(current_device(), a.dtype, a.shape[0], right, mode, lanes, fresh)
    return _launch_on_rhs(config, a, dst, nvec, flags, alpha, b)


@functools.lru_cache(maxsize=4096)
def _tri_warp_config(device_id, dtype, batch, right, mode, lanes, fresh=False):
    """(launcher, grid, threads, shared bytes) of one tri_warp launch: 128 threads a block,
    each matrix with its triangle tile (and a tile of rows of B for the right side) and one
    element of padding (kernels/tri_warp.cu: the groups' tiles in different banks); ``fresh``:
    the out-of-place instantiation."""
    nmax, per_block = 32, 128 // lanes
    tiles = 2 if right else 1
    smem = per_block * (tiles * nmax * (nmax + 1) + 1) * dtype.itemsize
    launcher = kernel("tri_warp",
                      f"tri_warp<{ctype(dtype)}, {nmax}, {mode}, {lanes}, {cbool(fresh)}>",
                      "pqqpqqiiqiTpp", dtype)
    return launcher, grid_1d(batch, per_block), 128, smem


def use_pair(op, dtype, n, nested=False):
    """True where ``op`` ("trsm", "trmm", "potrs") on a real n x n triangle runs
    kernels/tri_pair.cu: LEAF < n <= PAIR_UPTO and a PAIR_RULES rule for (op, dtype) that admits
    it ("all", or "nested" for a block of a larger matrix's recursion)."""
    if not pair_serves(n):
        return False
    rule = PAIR_RULES.get((op, dtype_name(dtype)))
    return rule == "all" or (rule == "nested" and nested)


def pair_serves(n):
    """Whether kernels/tri_pair.cu takes order n at all: LEAF < n <= PAIR_UPTO, PAIR_MAX."""
    return LEAF < n <= min(PAIR_UPTO, PAIR_MAX)


def recursion_pair_blocks(op, a):
    """Whether the recursion of ``op`` on the (batch, n, n) batch ``a`` runs tri_pair on its
    blocks by RECURSION_PAIR_BLOCKS (beside PAIR_RULES' "nested")."""
    rule = RECURSION_PAIR_BLOCKS.get((op, dtype_name(a.dtype)))
    return rule is not None and not (a.shape[1] <= rule[0] and a.shape[0] >= rule[1])


def tri_pair(a, b, flags, mode, alpha=1.0, out=None):
    """Run kernels/tri_pair.cu on B (left: (batch, n, nvec); right: (batch, nvec, n)), in place
    or with ``out`` (``result_array``) from ``b`` into ``out``, ``b`` unchanged; LEAF < n <=
    PAIR_MAX; flags: TRI_RIGHT | TRI_LOWER | TRI_TRANS | TRI_UNIT; mode: TRI_WARP_MUL / _SOLVE /
    _POTRS (left only). Returns info (int32, (batch,); zeros for the multiply)."""
    dst, fresh = write_target(out, b)
    if mode == TRI_WARP_POTRS and a.dtype in PAIR_POTRS_BLOCK:
        config = _tri_pair_potrs_config(current_device(), a.dtype, a.shape[0], a.shape[1] > 48,
                                        fresh)
    else:
        config = _tri_pair_config(current_device(), a.dtype, a.shape[0], mode, PAIR_THREADS,
                                  fresh)
    nvec = b.shape[1] if flags & TRI_RIGHT else b.shape[2]
    return _launch_on_rhs(config, a, dst, nvec, flags, alpha, b)


@functools.lru_cache(maxsize=4096)
def _tri_pair_potrs_config(device_id, dtype, batch, four, fresh=False):
    """(launcher, grid, threads, shared bytes) of one tri_pair_potrs launch: one matrix a block,
    3 (n <= 48) or 4 (``four``) block rows of 16; ``fresh``: out of place."""
    nb = 4 if four else 3
    launcher = kernel("tri_pair", f"tri_pair_potrs<{ctype(dtype)}, {nb}, {cbool(fresh)}>",
                      "pqqpqqiiqiTpp", dtype)
    return launcher, grid_1d(batch, 1), 256, pair_potrs_smem_elems(nb) * dtype.itemsize


def pair_potrs_smem_elems(nb):
    """Shared elements of kernels/tri_pair.cu tri_pair_potrs<T, NB> (tpp<T, NB>::ELEMS): the
    factor at row stride 16 NB + 2, the NB inverted diagonal blocks (stride 17) and two 16 x 64
    buffers (tests/linalg/test_tri_pair_host.py checks it against the kernel's)."""
    return 16 * nb * (16 * nb + 2) + nb * 16 * 17 + 2 * 16 * 64


def pair_half_tile(itemsize):
    """Elements of one half tile of kernels/tri_pair.cu (tp_half<T>()): the packed columns of
    the 64 x 64 triangle for one lane role, padded so that the second half starts 16 bytes past a
    128-byte line."""
    vec, rows = 16 // itemsize, 32
    q, m = 2 * vec, 64 // (2 * vec)
    cols = rows * 64 - vec * (q * m * (m - 1) // 2 + m * (64 - q * m))
    line = 128 // itemsize
    return cols + (vec - cols % line) % line


@functools.lru_cache(maxsize=4096)
def _tri_pair_config(device_id, dtype, batch, mode, threads, fresh=False):
    """(launcher, grid, threads, shared bytes) of one tri_pair launch: one matrix a block, the
    packed triangle (twice for POTRS) in dynamic shared memory; ``fresh``: out of place."""
    tiles = 2 if mode == TRI_WARP_POTRS else 1
    smem = tiles * 2 * pair_half_tile(dtype.itemsize) * dtype.itemsize
    launcher = kernel("tri_pair", f"tri_pair<{ctype(dtype)}, {mode}, {threads}, {cbool(fresh)}>",
                      "pqqpqqiiqiTpp", dtype)
    return launcher, grid_1d(batch, 1), threads, smem


def use_cols(op, a, nvec=None):
    """True where ``op`` ("trsm", "trtri", "potrs") on the (batch, n, n) real batch ``a`` with
    ``nvec`` right-hand sides a matrix (default n) runs as one tri_cols launch: LEAF < n <=
    COLS_MAX and the batch below COLS_BELOW's bound for n. The bounds were measured with n
    vectors; a call with more counts as that many times the batch (its blocks, each reading the
    whole triangle, grow with the vectors: the default paths' GEMMs do not)."""
    n = a.shape[1]
    if not LEAF < n <= COLS_MAX:
        return False
    batch = a.shape[0] if nvec is None or nvec <= n else a.shape[0] * -(-nvec // n)
    return batch < cols_below(op, a.dtype, n)


@functools.lru_cache(maxsize=4096)
def cols_below(op, dtype, n):
    """COLS_BELOW's batch bound of ``op`` on ``dtype`` at order n: that of the smallest n_max >=
    n (0 where none). Cached: a small call asks once (the lookup cost ~2 us uncached)."""
    bounds = COLS_BELOW.get((op, dtype_name(dtype)), {})
    return next((bounds[m] for m in sorted(bounds) if m >= n), 0)


def cols_width(batch, nvec):
    """Vectors a tri_cols block: the largest of COLS_WIDTHS with at least COLS_MIN_BLOCKS
    blocks over the batch (the smallest where none has)."""
    for width in COLS_WIDTHS:
        if batch * -(-nvec // width) >= COLS_MIN_BLOCKS:
            return width
    return COLS_WIDTHS[-1]


def tri_cols(a, b, right, lower, trans, unit, alpha=1.0, mode=COLS_SOLVE, out=None, width=None):
    """Run kernels/tri_cols.cu: op(A) X = alpha B (left; B (batch, n, nvec)) or X op(A) = alpha B
    (right; B (batch, nvec, n)), X into ``out`` (default: over ``b``; an out-of-place ``out``
    has b's shape, dtype and strides); ``mode`` COLS_POTRS: A X = alpha B given A's Cholesky
    factor (``trans`` False, left only); COLS_INVERSE: X = A^-1 (``b`` is the new array written,
    not read; left, ``trans`` False). Any strides; returns info (int32 (batch,): the first zero
    or non-finite diagonal entry, 1-based, 0 with ``unit``). ``width``: vectors a block (default
    cols_width)."""
    batch, n = a.shape[0], a.shape[1]
    nvec = b.shape[1] if right else b.shape[2]
    if nvec == 0:
        return _diag_info(a, unit)
    info = info_array(batch)
    dst, _ = write_target(out, b)
    item = a.itemsize
    st = a.strides
    sa, s1, s2 = st[0] // item, st[1] // item, st[2] // item
    # The solve's triangle T: op(A) on the left, op(A)^T on the right (X^T's vectors are B's
    # rows); rev: T is upper in A's order (solved from the last row).
    t_trans = trans != right
    ar, ac = (s2, s1) if t_trans else (s1, s2)
    rev = int(lower == t_trans)
    st = dst.strides
    sx, x1, x2 = st[0] // item, st[1] // item, st[2] // item
    xr, xc = (x2, x1) if right else (x1, x2)
    width = width or cols_width(batch, nvec)
    launcher, smem = _tri_cols_config(current_device(), a.dtype, n, width, mode)
    grid = (-(-nvec // width), min(batch, 65535))
    launcher(grid, COLS_THREADS, (a, sa, ar, ac, rev, int(unit), n, nvec, batch, alpha, b, dst,
                                  sx, xr, xc, info), smem)
    return info


def cols_smem_elems(n, width):
    """Dynamic shared elements of a tri_cols block (kernels/tri_cols.cu tri_cols_smem_elems; a
    host test compares the two): the block's vectors (rounded up to 2), two 32 x 33 diagonal
    tiles and their reciprocals, a 32 x 33 row tile a warp."""
    return (n * width + 1) // 2 * 2 + 2 * 32 * 33 + 2 * 32 + COLS_THREADS // 32 * 32 * 33


@functools.lru_cache(maxsize=4096)
def _tri_cols_config(device_id, dtype, n, width, mode):
    """(launcher, dynamic shared bytes) of a tri_cols launch."""
    launcher = kernel("tri_cols", f"tri_cols<{ctype(dtype)}, {width}, {mode}>",
                      "pqqqiiiiiTppqqqp", dtype)
    return launcher, cols_smem_elems(n, width) * dtype.itemsize


def use_block(op, dtype, n, variant):
    """True where ``op`` ("trmm" or "lauum") on a real n x n triangle runs kernels/tri_block.cu:
    LEAF < n <= BLOCK_UPTO and BLOCK_RULES gives ``variant`` ("left"/"right" for trmm,
    "lower"/"upper" for lauum) of (op, dtype) a first n at most n."""
    if not LEAF < n <= min(BLOCK_UPTO, BLOCK_MAX):
        return False
    return n >= BLOCK_RULES.get((op, dtype_name(dtype)), {}).get(variant, BLOCK_MAX + 1)


def block_smem(dtype, operands):
    """Dynamic shared bytes of kernels/tri_block.cu (tb_smem_elems<T>): ``operands`` staged 64 x
    64 operands with a 16-byte load of padding a row."""
    itemsize = numpy.dtype(dtype).itemsize
    return operands * 64 * (64 + 16 // itemsize) * itemsize


def tri_block_trmm(a, b, flags, alpha=1.0, out=None):
    """Run kernels/tri_block.cu tri_block_trmm on B, in place or with ``out`` (``result_array``)
    from ``b`` into ``out``, ``b`` unchanged: B := alpha op(A) B (left, B (batch, n, nvec)) or
    alpha B op(A) (right, B (batch, nvec, n)); ``a`` (batch, n, n), LEAF < n <= 64,
    float32/float64, unit column strides; flags: TRI_RIGHT | TRI_LOWER | TRI_TRANS | TRI_UNIT.
    Returns the result (``b`` or ``out``)."""
    batch, n = a.shape[0], a.shape[1]
    nvec = b.shape[1] if flags & TRI_RIGHT else b.shape[2]
    dst, fresh = write_target(out, b)
    items = batch * -(-nvec // 64)                      # (matrix, chunk of 64 vectors) pairs
    launcher, grid, smem = _tri_block_config(current_device(), a.dtype, items, "trmm",
                                             BLOCK_BUFFERS[("trmm", dtype_name(a.dtype))],
                                             BLOCK_GRID, fresh)
    _, lda, sa = view_args(a)
    _, ldb, sb = view_args(dst)
    launcher(grid, BLOCK_THREADS, (a, lda, sa, dst, ldb, sb, n, nvec, batch, flags, alpha, b),
             smem)
    return dst


def tri_block_lauum(a, lower, out=None):
    """Run kernels/tri_block.cu tri_block_lauum on ``a`` (batch, n, n), LEAF < n <= 64,
    float32/float64, in place or with ``out`` (``result_array``) from ``a`` into ``out``, ``a``
    unchanged: L^T L (lower) or U U^T (upper) of the referenced triangle, written to both
    triangles (symmetric bit for bit; the other triangle is not read). Returns the result."""
    batch, n = a.shape[0], a.shape[1]
    dst, fresh = write_target(out, a)
    launcher, grid, smem = _tri_block_config(current_device(), a.dtype, batch, "lauum",
                                             BLOCK_BUFFERS[("lauum", dtype_name(a.dtype))],
                                             BLOCK_GRID, fresh)
    _, lda, sa = view_args(dst)
    launcher(grid, BLOCK_THREADS, (dst, lda, sa, n, batch, int(lower), a), smem)
    return dst


@functools.lru_cache(maxsize=4096)
def _tri_block_config(device_id, dtype, items, op, buffers, cap, fresh=False):
    """(launcher, grid, shared bytes) of one tri_block launch (cached): ``buffers`` as in
    BLOCK_BUFFERS, a grid of the blocks resident at once (the kernels loop over the ``items``),
    at most ``cap`` where cap > 0; ``fresh``: the out-of-place instantiation."""
    from .blas import resident_blocks, sm_count
    if op == "trmm":
        name, signature, operands = (f"tri_block_trmm<{ctype(dtype)}, {buffers[0]}, {buffers[1]}, "
                                     f"{cbool(fresh)}>", "pqqpqqiiqiTp", sum(buffers))
    else:
        name, signature, operands = (f"tri_block_lauum<{ctype(dtype)}, {buffers}, {cbool(fresh)}>",
                                     "pqqiqip", buffers)
    launcher = kernel("tri_block", name, signature, dtype)
    smem = block_smem(dtype, operands)
    regs = getattr(launcher.function, "num_regs", 80)
    grid = min(items, sm_count() * resident_blocks(BLOCK_THREADS, smem, regs), cap or items)
    return launcher, max(1, grid), smem


def use_tile(op, dtype, n, variant, batch=None):
    """True where ``op`` ("trmm" or "lauum") on a real n x n triangle runs kernels/trmm.cu
    tri_tile: BLOCK_MAX < n <= TILE_UPTO and TILE_RULES gives ``variant`` ("left", "left_t",
    "right", "right_t" for trmm -- side and op(A) = A^T --, "lower"/"upper" for lauum) of (op,
    dtype) a rule (first, last, least fill, least batch) with first <= n <= last, n / (64
    ceil(n / 64)) at least the fill and at least that many matrices (``batch``; None: a batch
    large enough); on at most TILE_ANY_FILL_BELOW[op] matrices any fill. At
    n <= BLOCK_MAX (one tile a matrix), every variant where TILE_ONE_TILE gives (op, dtype)
    (first n, least batch) with first <= n and at least that many matrices (the caller asks
    rows_by_16_bytes of the operands too)."""
    if n <= BLOCK_MAX:
        first, least = TILE_ONE_TILE.get((op, dtype_name(dtype)), (BLOCK_MAX + 1, 0))
        return first <= n <= TILE_UPTO and batch is not None and batch >= least
    if not BLOCK_MAX < n <= min(TILE_UPTO, TILE_MAX):
        return False
    any_fill = batch is not None and batch <= TILE_ANY_FILL_BELOW.get(op, -1)
    padded = 64 * -(-n // 64)
    rules = TILE_RULES.get((op, dtype_name(dtype)), {}).get(variant, ())
    return any(first <= n <= last and (any_fill or n >= fill * padded)
               and (batch is None or batch >= least) for first, last, fill, least in rules)


def tile_trmm(a, b, right, lower, trans, unit, alpha=1.0):
    """TRMM by kernels/trmm.cu tri_tile, out of place: a new C-contiguous array alpha op(A) B
    (left; ``b`` (batch, n, nvec)) or alpha B op(A) (right; ``b`` (batch, nvec, n)); ``a``
    (batch, n, n) with only the triangle ``lower`` read (not its diagonal with ``unit``);
    float32/float64 views with unit column stride; ``trans`` a bool (op(A) = A^T). At
    n <= BLOCK_MAX (one tile a matrix) on a persistent grid (TILE_ONE_TILE)."""
    cupy = cupy_module()
    batch, n = a.shape[0], a.shape[1]
    nvec = b.shape[1] if right else b.shape[2]
    out = cupy.empty(b.shape, dtype=b.dtype)
    if batch == 0 or nvec == 0 or n == 0:
        return out
    _, lda, sa = view_args(a)
    _, ldb, sb = view_args(b)
    transpose = trans != right                 # M = A^T (right side: M = op(A)^T)
    m_lower = lower != transpose
    mi, mk = (1, lda) if transpose else (lda, 1)
    xk, xj = (1, ldb) if right else (ldb, 1)   # X = B^T on the right
    oi, oj = (1, n) if right else (nvec, 1)     # Out = C^T on the right
    flags = (0 if m_lower else TT_M_UPPER) | (TT_UNIT if unit else 0)
    _tri_tile(a, sa, mi, mk, b, sb, xk, xj, out, n * nvec, oi, oj, n, nvec, n, batch, flags,
              alpha, False, persistent=n <= BLOCK_MAX)
    return out


def tile_lauum(a, lower, zeroed=False):
    """LAUUM by kernels/trmm.cu tri_tile, out of place: a new C-contiguous (batch, n, n) array
    L^T L (lower) or U U^T (upper) of the referenced triangle of ``a`` (the other one not read
    unless ``zeroed``: it holds zeros, and the tiles the diagonal crosses are staged whole),
    both triangles written, symmetric bit for bit; float32/float64, unit column stride."""
    cupy = cupy_module()
    batch, n = a.shape[0], a.shape[1]
    out = cupy.empty((batch, n, n), dtype=a.dtype)
    if batch == 0 or n == 0:
        return out
    _, lda, sa = view_args(a)
    # F = L or U^T (lower); M = F^T (upper), X = F: M(i, k) = F(k, i), X(k, j) = F(k, j).
    mi, mk = (1, lda) if lower else (lda, 1)
    xk, xj = (lda, 1) if lower else (1, lda)
    _tri_tile(a, sa, mi, mk, a, sa, xk, xj, out, n * n, n, 1, n, n, n, batch,
              TT_M_UPPER | TT_X_LOWER | TT_PATCH_EDGES | (TT_ZEROED if zeroed else 0), 1.0, True)
    return out


def tile_syrk(a, trans, alpha=1.0, out=None):
    """SYRK by kernels/trmm.cu tri_tile (TT_FULL): alpha op(A) op(A)^T into ``out`` (batch, n, n)
    with unit column stride, not overlapping ``a`` (default: a new C-contiguous array), both
    triangles written from one register (symmetric bit for bit); ``a`` (batch, n, k) (``trans``
    False) or (batch, k, n) (True), float32/float64, unit column stride. Returns ``out``."""
    cupy = cupy_module()
    batch = a.shape[0]
    n, kdim = (a.shape[2], a.shape[1]) if trans else (a.shape[1], a.shape[2])
    if out is None:
        out = cupy.empty((batch, n, n), dtype=a.dtype)
    if batch == 0 or n == 0:
        return out
    _, lda, sa = view_args(a)
    _, ldo, so = view_args(out)
    # M = op(A): M(i, p) = A(i, p) or A(p, i); X = op(A)^T: X(p, j) = M(j, p)
    mi, mk = (1, lda) if trans else (lda, 1)
    _tri_tile(a, sa, mi, mk, a, sa, mk, mi, out, so, ldo, 1, n, n, kdim, batch, TT_FULL, alpha,
              True)
    return out


def tile_smem(dtype, shape=None):
    """Dynamic shared bytes of tri_tile (kernels/trmm.cu tt_smem_bytes<T>): ``stages`` stages of
    two ``bk``-row k tiles (TILE_SHAPE), rows of 64 + 8 elements."""
    bk, stages, _ = shape or TILE_SHAPE[dtype_name(dtype)]
    return stages * 2 * bk * (64 + 8) * numpy.dtype(dtype).itemsize


def rows_by_16_bytes(*arrays):
    """True where every (batch, rows, cols) array has unit column stride and its base, row stride
    and batch stride are multiples of 16 bytes: tri_tile stages it by 16-byte copies (_vec_flag
    along its rows)."""
    return all(_vec_flag(x, *(s // x.itemsize for s in reversed(x.strides)), True)
               for x in arrays)


def _vec_flag(x, fs, ks, bs, flag, v=None):
    """``flag`` where ``v`` consecutive elements of an operand (default: 16 bytes of them) can
    move as one access: f stride ``fs`` 1, its k and batch strides (elements) multiples of v and
    its base aligned to v elements."""
    v = v or 16 // x.itemsize
    return flag if fs == 1 and blas.data_ptr(x) % (v * x.itemsize) == 0 and ks % v == 0 \
        and bs % v == 0 else 0


def _tri_tile(a, sa, mi, mk, x, sx, xk, xj, out, so, oi, oj, n, nvec, kdim, batch, flags, alpha,
              sym, persistent=False):
    """One launch of tri_tile<T, sym, km, patch> over the batch's 64 x 64 output tiles (with
    ``sym`` those on and below the diagonal; grid-stride loop; with ``persistent`` and no
    TILE_GRID, the blocks resident at once; where TILE_CHUNKED admits n, those blocks or
    TILE_GRID's each walking a contiguous run of items), or of tri_tile_split<..., s> with s
    blocks a tile where tile_split says; km: the operands with k stride 1 are staged k-major
    (TILE_KMAJOR); patch: ``flags`` has TT_PATCH_EDGES (LAUUM)."""
    items = tile_items(n, nvec, batch, sym)
    km = 0
    if dtype_name(a.dtype) in TILE_KMAJOR:
        km = (TT_KM_M if mk == 1 and mi != 1 else 0) | (TT_KM_X if xk == 1 and xj != 1 else 0)
    # 16-byte copies run along each operand's unit stride: f for a k-row tile, k for a k-major one
    flags |= (_vec_flag(a, mk, mi, sa, TT_VEC_M) if km & TT_KM_M
              else _vec_flag(a, mi, mk, sa, TT_VEC_M))
    flags |= (_vec_flag(x, xk, xj, sx, TT_VEC_X) if km & TT_KM_X
              else _vec_flag(x, xj, xk, sx, TT_VEC_X))
    flags |= _vec_flag(out, oj, oi, so, TT_VEC_OUT, v=2)     # pairs along Out's rows, one store
    device = current_device()
    split = tile_split(items, kdim, device)
    name = dtype_name(a.dtype)
    first, last = TILE_CHUNKED.get(name, (1, 0))
    chunked = first <= n <= last and not persistent and split == 1
    cap = TILE_GRID or (TILE_SHAPE[name][2] * blas.sm_count() if persistent or chunked else 0)
    launcher, grid, smem = _tri_tile_config(device, a.dtype, sym, cap, TILE_SHAPE[name], km,
                                            bool(flags & TT_PATCH_EDGES), split,
                                            name in TILE_MASKED_RUNS, chunked)
    launcher(min(items, grid) * split, TILE_THREADS,
             (a, sa, mi, mk, x, sx, xk, xj, out, so, oi, oj, n, nvec, kdim, batch, flags, alpha),
             smem)


def tile_items(n, nvec, batch, sym):
    """Work items (64 x 64 output tiles) of a tri_tile launch over n x nvec outputs: with
    ``sym`` (LAUUM, SYRK) those on and below the diagonal (kernels/trmm.cu tt_item_of)."""
    rb, cb = -(-n // 64), -(-nvec // 64)
    return batch * (rb * (rb + 1) // 2 if sym else rb * cb)


def tile_split(items, kdim, device_id):
    """Blocks an item of a tri_tile launch over ``items`` tiles with inner dimension ``kdim``:
    1 (tri_tile) or one of TILE_SPLITS (tri_tile_split), by the TILE_SPLIT_* rule; a forced
    split (TILE_SPLIT) must be 1 or one of TILE_SPLITS (ValueError) and, above 1, needs
    clusters (RuntimeError otherwise)."""
    if TILE_SPLIT:
        if TILE_SPLIT not in (1,) + TILE_SPLITS:
            raise ValueError(f"TILE_SPLIT (LINALG_CUDA_TILE_SPLIT): expected 0 (the rule), 1 or "
                             f"one of {TILE_SPLITS}, got {TILE_SPLIT!r}")
        if TILE_SPLIT > 1 and not clusters(device_id):
            raise RuntimeError("tri_tile_split needs thread-block clusters (compute capability "
                               "9.0)")
        return TILE_SPLIT
    if not clusters(device_id):
        return 1
    from .blas import device_attribute
    sms = device_attribute(device_id, "MultiProcessorCount")
    split = 1
    for s in TILE_SPLITS:
        if items * s <= TILE_SPLIT_SMS[s] * sms and kdim >= 32 * TILE_SPLIT_RUN * s:
            split = s
    return split


@functools.lru_cache(maxsize=64)
def _tri_tile_config(device_id, dtype, sym, cap, shape, km=0, patch=False, split=1, runs=True,
                     chunked=False):
    """(launcher, items of the grid, shared bytes) of tri_tile (``split`` 1) or tri_tile_split
    (``split`` blocks an item, a cluster; the grid is items x split blocks), compiled with
    ``runs`` as TT_RUNS (TILE_MASKED_RUNS) and ``chunked`` as TT_CHUNKED (TILE_CHUNKED): a block
    an item (a block streams the k tiles of its items, the next item's first copies during this
    one's product), at most ``cap`` items where cap > 0. A persistent grid (the blocks resident
    at once) taking items t, t + the grid, ... measured slower: H100, float64 batch 10240, TRMM
    n = 128 2.31 against 1.75 ms, n = 256 11.1 against 10.2 (the blocks drift apart, the tiles
    of a matrix no longer run together: L2 hit rate 61%); with ``chunked`` each block takes a
    contiguous run of items instead (TILE_CHUNKED's sizes)."""
    bk, stages, blocks = shape
    args = f"{ctype(dtype)}, {cbool(sym)}, {km}, {cbool(patch)}"
    name = f"tri_tile<{args}>" if split == 1 else f"tri_tile_split<{args}, {split}>"
    launcher = kernel("trmm", name, "pqqqpqqqpqqqiiiqiT", dtype,
                      (f"-DTT_BK_OPT={bk}", f"-DTT_STAGES_OPT={stages}",
                       f"-DTT_BLOCKS_OPT={blocks}", f"-DTT_RUNS_OPT={int(runs)}",
                       f"-DTT_CHUNKED_OPT={int(chunked)}"))
    smem = tile_smem(dtype, shape) + (TILE_PART_BYTES if split > 1 else 0)
    grid = (2**31 - 1) // split
    return launcher, max(1, min(grid, cap or grid)), smem


def _diag_info(a, unit, prior=None):
    """LAPACK trtri/trsm info from the diagonal: first zero or non-finite entry (1-based), no
    host sync. ``prior``: an info array whose nonzero entries are kept (it is updated and
    returned). Real dtypes: one launch of kernels/triangle.cu diag_info (the CuPy expression
    below took 0.21-0.26 ms of host time on the H100 machine, the kernel 0.015-0.04 ms)."""
    cupy = cupy_module()
    if unit:
        return cupy.zeros(a.shape[0], dtype=numpy.int32) if prior is None else prior
    if is_real(a.dtype) and a.strides[2] == a.itemsize:
        batch, n = a.shape[0], a.shape[1]
        info = info_array(batch) if prior is None else prior
        if batch:
            _, lda, sa = view_args(a)
            launcher = kernel("triangle", f"diag_info<{ctype(a.dtype)}>", "qipqqpi")
            launcher(grid_1d(batch, 8), 256, (batch, n, a, lda, sa, info, int(prior is not None)))
        return info
    d = cupy.diagonal(a, axis1=1, axis2=2)
    bad = ~(cupy.isfinite(d) & (d != 0))
    info = cupy.where(bad.any(axis=1), cupy.argmax(bad, axis=1) + 1, 0).astype(numpy.int32)
    return info if prior is None else cupy.where(prior != 0, prior, info).astype(numpy.int32)


def split(n):
    """Recursion split point: about half, a multiple of 32 (whole leaf tiles) when that leaves two
    parts, else of 16 (GEMM blocks stay aligned). H100, batch 10240, n = 96: TRSM 1.92 against
    2.09 ms for the multiple of 16; equal at n = 64, 128, 256."""
    s = (n // 2 + 31) // 32 * 32
    if 0 < s < n:
        return s
    return max(16, (n // 2 + 15) // 16 * 16)


def _flags(right, lower, trans, unit):
    return ((TRI_RIGHT if right else 0) | (TRI_LOWER if lower else 0)
            | (TRI_TRANS if trans else 0) | (TRI_UNIT if unit else 0))


def _op_blocks(a, n1, lower, trans):
    """Blocks (T11 view, T22 view, off-diagonal block of op(A), op(A) lower?) of op(A)."""
    a11, a22 = a[:, :n1, :n1], a[:, n1:, n1:]
    if lower:
        off = a[:, n1:, :n1]                      # A21: T21 (N) or T12 = A21^T (T)
    else:
        off = a[:, :n1, n1:]                      # A12: T12 (N) or T21 = A12^T (T)
    if trans:
        off = off.swapaxes(1, 2)
    return a11, a22, off, lower != trans


def solve_leaf(a, b, flags, alpha=1.0, out=None):
    """TRSM (or, with TRI_POTRS, the fused POTRS) on B for n <= LEAF, in place or into ``out``
    (tri_vec, tri_warp); returns info."""
    if a.shape[1] < TRI_WARP_FROM:
        return tri_vec(a, b, flags, alpha, out=out)
    mode = TRI_WARP_POTRS if flags & TRI_POTRS else TRI_WARP_SOLVE
    return tri_warp(a, b, flags & ~TRI_POTRS, mode, alpha, out=out)


_CHOLESKY = []        # linalg/_cuda/cholesky.py once imported (see _cholesky)


def _cholesky():
    """linalg/_cuda/cholesky.py, imported on first use (it imports this module) and kept: its
    chol_tensor_trsm and chol_tensor_trtri launchers serve TRSM and TRTRI (whole matrices and the
    recursions' blocks), and a function-level import on every call would cost its host time
    again (~0.5 us)."""
    if not _CHOLESKY:
        from . import cholesky
        _CHOLESKY.append(cholesky)
    return _CHOLESKY[0]


def trsm_inplace(a, b, right, lower, trans, unit, alpha, nested=False, src=None,
                 pair_blocks=False):
    """op(A) X = alpha B (left) or X op(A) = alpha B (right), X over B; real dtypes. ``nested``:
    ``a`` is a diagonal block of a larger matrix's recursion (see PAIR_RULES); ``pair_blocks``:
    such blocks run tri_pair whatever PAIR_RULES says (RECURSION_PAIR_BLOCKS). With
    ``src`` (a view of b's shape and strides), B is read from ``src`` and X written to ``b`` (src
    unchanged): the first block's solve reads src (the leaves' and tri_pair's out-of-place
    launches), only the second block's part of src is copied (its GEMM update works in place)."""
    n = a.shape[1]
    flags = _flags(right, lower, trans, unit)
    if n <= LEAF:
        solve_leaf(a, b if src is None else src, flags, alpha, out=b)
        return
    chol = _cholesky()
    if chol.use_tensor_trsm(a):
        chol.tensor_trsm(a, b if src is None else src, lower, trans, unit, alpha,
                         out=None if src is None else b, right=right)
        return
    if use_pair("trsm", a.dtype, n, nested) or (nested and pair_blocks and pair_serves(n)):
        tri_pair(a, b if src is None else src, flags, TRI_WARP_SOLVE, alpha, out=b)
        return
    n1 = split(n)
    a11, a22, off, op_lower = _op_blocks(a, n1, lower, trans)
    # B's blocks by rows (left) or columns (right); the block solved first is block 1 where
    # op(A) is lower on the left or upper on the right, else block 2.
    blocks = [(slice(None), slice(None), cut) if right else (slice(None), cut)
              for cut in (slice(None, n1), slice(n1, None))]
    first_part, second_part = blocks if op_lower != right else blocks[::-1]
    fa, sa_ = (a11, a22) if op_lower != right else (a22, a11)
    first, second = b[first_part], b[second_part]
    trsm_inplace(fa, first, right, lower, trans, unit, alpha, True,
                 None if src is None else src[first_part], pair_blocks)
    if src is not None:
        copy_into(second, src[second_part])
    # left: T21 X1 (op lower) or T12 X2 (op upper); right: X2 T21 (op lower) or X1 T12 (op upper)
    update = (first, off) if right else (off, first)
    gemm(second, *update, alpha=-1.0, beta=alpha)
    trsm_inplace(sa_, second, right, lower, trans, unit, 1.0, True, pair_blocks=pair_blocks)


def trtri_recursion(a, lower, unit, src=None):
    """X = T^-1 for the triangular view ``a`` (lower or upper) whose other triangle is zero (it
    stays zero); real dtypes. With ``src`` (a view of a's shape and strides), T is read from
    ``src``'s triangle and X written to ``a`` (src unchanged; a's other triangle zero already):
    the out-of-place form reads the input once where a copy first would read it twice. Leaves:
    chol_small up to LEAF, chol_small<T, 64> from ONE_LAUNCH_FROM to ONE_LAUNCH_MAX where
    ONE_LAUNCH_LEAVES, chol_tensor_trtri where cholesky.TENSOR_TRTRI_RANGE takes the block."""
    cupy = cupy_module()
    n = a.shape[1]
    t = a if src is None else src
    if n <= LEAF or (ONE_LAUNCH_LEAVES and one_launch_from("trtri", a.dtype) <= n <= ONE_LAUNCH_MAX):
        chol_small(t, CHOL_TRTRI, lower, unit, out=a)
        return
    chol = _cholesky()
    if chol.use_tensor_trtri(a):
        chol.tensor_trtri(t, lower, unit, out=None if src is None else a)
        return
    n1 = split(n)
    a11, a22 = a[:, :n1, :n1], a[:, n1:, n1:]
    trtri_recursion(a11, lower, unit, None if src is None else src[:, :n1, :n1])
    trtri_recursion(a22, lower, unit, None if src is None else src[:, n1:, n1:])
    block = (slice(None), slice(n1, None), slice(None, n1)) if lower else \
        (slice(None), slice(None, n1), slice(n1, None))
    off, t_off = a[block], t[block]
    tmp = cupy.empty(off.shape, dtype=a.dtype)
    if lower:                                             # X21 = -X22 (L21 X11)
        gemm(tmp, t_off, a11)
        gemm(off, a22, tmp, alpha=-1.0, beta=0.0)
    else:                                                 # X12 = -X11 (U12 X22)
        gemm(tmp, t_off, a22)
        gemm(off, a11, tmp, alpha=-1.0, beta=0.0)


def identity(batch, n, dtype):
    """A new (batch, n, n) stack of identity matrices (one broadcast copy of a cached eye)."""
    cupy = cupy_module()
    out = cupy.empty((batch, n, n), dtype=dtype)
    out[...] = _eye(current_device(), n, numpy.dtype(dtype))
    return out


@functools.lru_cache(maxsize=64)
def _eye(device_id, n, dtype):
    cupy = cupy_module()
    return cupy.eye(n, dtype=dtype)


# --------------------------------------------------------------------------- public backend

def _trans_flag(trans):
    return trans in ("T", "C")


def trsm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1, keep=()):
    """Triangular solve with many right-hand sides; returns (x, info) (x may be ``b`` unless
    ``keep`` names "b")."""
    right = side == "right"
    if not is_real(a.dtype):
        return _vendor_trsm(a, b, right, lower, trans, unit_diagonal, alpha)      # b only read
    n = a.shape[1]
    if n <= LEAF:
        x = result_array(b, "b", keep)
        info = solve_leaf(a, b, _flags(right, lower, _trans_flag(trans), unit_diagonal), alpha,
                          out=x)
        return x, info
    if use_cols("trsm", a, b.shape[1] if right else b.shape[2]):
        x = result_array(b, "b", keep)
        return x, tri_cols(a, b, right, lower, _trans_flag(trans), unit_diagonal, alpha, out=x)
    flags = _flags(right, lower, _trans_flag(trans), unit_diagonal)
    if pair_launch("trsm", a):
        x = result_array(b, "b", keep)
        return x, tri_pair(a, b, flags, TRI_WARP_SOLVE, alpha, out=x)
    chol = _cholesky()
    if chol.use_tensor_trsm(a):                                  # in place or out of place
        x = result_array(b, "b", keep)
        return x, chol.tensor_trsm(a, b, lower, _trans_flag(trans), unit_diagonal, alpha, out=x,
                                   right=right)
    # A kept B: from PAIR_KEPT_FROM, tri_pair's out-of-place launch where PAIR_RULES admits it
    # in the recursion's blocks (it costs less than the recursion's reads and copies there).
    kept = "b" in keep and n >= PAIR_KEPT_FROM
    if use_pair("trsm", a.dtype, n, nested=kept) and not small_batch("trsm", a):
        x = result_array(b, "b", keep)
        return x, tri_pair(a, b, flags, TRI_WARP_SOLVE, alpha, out=x)
    info = _diag_info(a, unit_diagonal)
    if small_batch("trsm", a):
        b = writable(b, "b", keep)
        vendor.trsm(a, b, right, lower, _trans_flag(trans), unit_diagonal, alpha)
    else:
        b, src = recursion_target(b, "b", keep)
        trsm_inplace(a, b, right, lower, _trans_flag(trans), unit_diagonal, alpha, src=src,
                     pair_blocks=recursion_pair_blocks("trsm", a))
    return b, info


def trmm(a, b, side="left", lower=True, trans="N", unit_diagonal=False, alpha=1, keep=()):
    """Triangular matrix product B := alpha op(A) B (left) or alpha B op(A) (right). Returns the
    product: ``b`` itself (in place) or, on the tri_tile and dense paths and where ``keep``
    names "b", a new array. chol_tensor_trmm first where cholesky.TENSOR_TRMM_RULES take n and
    the batch."""
    right = side == "right"
    chol = _cholesky()
    if chol.use_tensor_trmm(a):                                  # in place or out of place
        return chol.tensor_trmm(a, b, lower, _trans_flag(trans), unit_diagonal, alpha,
                                out=result_array(b, "b", keep), right=right)
    n = a.shape[1]
    flags = _flags(right, lower, _trans_flag(trans), unit_diagonal)
    variant = side + ("_t" if _trans_flag(trans) else "")            # TILE_RULES' key
    if (is_real(a.dtype) and use_tile("trmm", a.dtype, n, variant, a.shape[0])
            and (n > BLOCK_MAX or rows_by_16_bytes(a, b))):                      # b only read
        return tile_trmm(a, b, right, lower, _trans_flag(trans), unit_diagonal, alpha)
    if is_real(a.dtype) and use_block("trmm", a.dtype, n, side):
        return tri_block_trmm(a, b, flags, alpha, out=result_array(b, "b", keep))
    if is_real(a.dtype) and use_pair("trmm", a.dtype, n):
        x = result_array(b, "b", keep)
        tri_pair(a, b, flags, TRI_WARP_MUL, alpha, out=x)
        return x
    if not is_real(a.dtype) or n > LEAF:
        # One dense cuBLAS product of the triangle (measured faster than a recursion into our
        # leaves for n = 64..256): complex dtypes, and where TILE_RULES measured tri_tile slower.
        # b only read.
        return _vendor_trmm(a, b, right, lower, trans, unit_diagonal, alpha)
    x = result_array(b, "b", keep)
    if n < TRI_WARP_FROM:
        tri_vec(a, b, flags | TRI_MUL, alpha, out=x)
    else:
        tri_warp(a, b, flags, TRI_WARP_MUL, alpha, out=x)
    return x


def trtri(a, lower=True, unit_diagonal=False, keep=()):
    """Inverse of triangular matrices; returns (inverse, info), other triangle zero; the
    inverse is a new array where ``keep`` names "a" and on tri_cols's small batches."""
    if not is_real(a.dtype):
        return _vendor_trtri(a, lower, unit_diagonal)                         # a only read
    if use_cols("trtri", a):             # X solves A X = I; a new array, A only read
        x = cupy_module().empty(a.shape, dtype=a.dtype)
        return x, tri_cols(a, x, False, lower, False, unit_diagonal, mode=COLS_INVERSE)
    chol = _cholesky()
    if chol.use_tensor_trtri(a):                                # in place or out of place
        x = result_array(a, "a", keep)
        return x, chol.tensor_trtri(a, lower, unit_diagonal, out=x)
    if a.shape[1] <= LEAF or one_launch("trtri", a):
        x = result_array(a, "a", keep)
        info = chol_small(a, CHOL_TRTRI, lower, unit_diagonal, out=x)
        return x, info
    if "a" in keep and not small_batch("trtri", a):         # out of place: no copy first
        x = triangle_fix(result_array(a, "a", keep), lower, zero=True)
        info = _diag_info(a, unit_diagonal)
        trtri_recursion(x, lower, unit_diagonal, src=a)
        return x, info
    a = writable(a, "a", keep)
    info = _diag_info(a, unit_diagonal)
    if small_batch("trtri", a):
        # X solves A X = I (one vendor call); X's other triangle comes out zero (column j of I
        # is zero above (below) row j, so is column j of X).
        return vendor.trsm(a, identity(a.shape[0], a.shape[1], a.dtype), False, lower, False,
                           unit_diagonal), info
    triangle_fix(a, lower, zero=True)
    trtri_recursion(a, lower, unit_diagonal)
    return a, info


def lauum(a, lower=True, zeroed=False, keep=()):
    """L^T L (lower) or U U^T (upper) of the referenced triangle, returned full symmetric (``a``
    itself, or a new array on the tri_tile and dense paths and where ``keep`` names "a"). ``a``
    is work space unless kept (its other triangle may be zeroed); ``zeroed``: it is zero already
    (a trtri result), which saves that pass on the dense path. chol_tensor_lauum first where
    cholesky.TENSOR_LAUUM_RULES take n and the batch."""
    if is_real(a.dtype) and _cholesky().use_tensor_lauum(a):           # in place or into x
        return _cholesky().tensor_lauum(a, lower, out=result_array(a, "a", keep))
    if is_real(a.dtype) and (a.shape[1] <= LEAF or one_launch("lauum", a)):
        x = result_array(a, "a", keep)
        chol_small(a, CHOL_LAUUM, lower, out=x)
        return x
    if is_real(a.dtype) and use_tile("lauum", a.dtype, a.shape[1], "lower" if lower else "upper",
                                     a.shape[0]):
        return tile_lauum(a, lower, zeroed)                           # a only read
    if is_real(a.dtype) and use_block("lauum", a.dtype, a.shape[1], "lower" if lower else "upper"):
        return tri_block_lauum(a, lower, out=result_array(a, "a", keep))
    cupy = cupy_module()
    a = writable(a, "a", keep)
    if is_real(a.dtype):
        # n > LEAF: one dense cuBLAS product of the triangle, then the mirror (tiled kernels).
        if not zeroed:
            triangle_fix(a, lower, zero=True)
        prod = cupy.empty_like(a)
        th = a.swapaxes(1, 2)
        gemm(prod, th, a) if lower else gemm(prod, a, th)
        return hermitize(prod)
    t = cupy.tril(a) if lower else cupy.triu(a)
    th = cupy.conj(t.swapaxes(1, 2))
    return hermitize(cupy.matmul(th, t) if lower else cupy.matmul(t, th))


def triangle_fix(a, keep_lower, zero):
    """In place on the (batch, n, n) view ``a`` (unit column stride, real dtype): the strict
    triangle opposite to the kept one becomes the kept one mirrored (exactly symmetric; tiled
    kernels/triangle.cu triangle_fix) or zero (triangle_zero, one warp a row). Returns ``a``."""
    batch, n = a.shape[0], a.shape[1]
    if batch == 0 or n <= 1:
        return a
    if zero:
        _, lda, sa = view_args(a)
        launcher = kernel("triangle", f"triangle_zero<{ctype(a.dtype)}>", "qipqqi")
        launcher(grid_1d(batch * n, 8), 256, (batch, n, a, lda, sa, int(keep_lower)))
        return a
    _triangle_tiles(a, keep_lower, move=False)
    return a


def triangle_transpose(a, to_lower, info=None):
    """In place on the (batch, n, n) view ``a`` (unit column stride, real dtype): the strict
    triangle opposite to ``to_lower``'s transposed onto it, then zeroed (the matrix becomes the
    transpose of that triangle with the diagonal; kernels/triangle.cu triangle_fix with move).
    ``info`` (int32, batch): where it is 0, the first zero or non-finite diagonal entry
    (1-based) is written, as ``_diag_info(a, False, prior=info)`` would in a launch of its own.
    Returns ``a``."""
    if a.shape[0] and (a.shape[1] > 1 or info is not None):
        _triangle_tiles(a, not to_lower, move=True, info=info)
    return a


def _triangle_tiles(a, keep_lower, move, info=None):
    batch, n = a.shape[0], a.shape[1]
    tiles = -(-n // 32)
    pairs = batch * tiles * (tiles + 1) // 2
    _, lda, sa = view_args(a)
    # info travels as an address ("q"): 0 is the kernel's null pointer.
    launcher = kernel("triangle", f"triangle_fix<{ctype(a.dtype)}>", "qipqqiiq")
    launcher(min(pairs, 2**20), (32, 8, 1), (batch, n, a, lda, sa, int(keep_lower), int(move),
                                             0 if info is None else info.data.ptr))


def triangle_copy(a, lower, unit):
    """A new C-contiguous (batch, n, n) array: the referenced triangle of the view ``a`` (ones on
    the diagonal with ``unit``), zeros elsewhere (kernels/triangle.cu, one launch); real dtypes."""
    cupy = cupy_module()
    batch, n = a.shape[0], a.shape[1]
    out = cupy.empty((batch, n, n), dtype=a.dtype)
    if batch and n:
        _, lda, sa = view_args(a)
        launcher = kernel("triangle", f"triangle_copy<{ctype(a.dtype)}>", "qipqqpqqii")
        launcher(grid_1d(batch * n, 8), 256, (batch, n, a, lda, sa, out, n, n * n, int(lower),
                                              int(unit)))
    return out


def mirror(m, keep_lower=True):
    """The kept strict triangle copied (not conjugated) onto the other one, in place: both
    triangles equal bit for bit. Real dtypes: kernels/triangle.cu; complex: index gathers."""
    cupy = cupy_module()
    if is_real(m.dtype):
        return triangle_fix(m, keep_lower, zero=False)
    i, j = cupy.tril_indices(m.shape[1], -1)
    if not keep_lower:
        i, j = j, i
    m[:, j, i] = m[:, i, j]
    return m


def hermitize(m):
    """Lower triangle mirrored (conjugated) into the upper one in place, real diagonal."""
    cupy = cupy_module()
    if is_real(m.dtype):
        return mirror(m)
    n = m.shape[1]
    il, jl = cupy.tril_indices(n, -1)
    m[:, jl, il] = cupy.conj(m[:, il, jl])
    idx = cupy.arange(n)
    m[:, idx, idx] = m[:, idx, idx].real
    return m


# --------------------------------------------------------------------------- vendor (complex)

def _tri(a, lower, unit):
    cupy = cupy_module()
    t = cupy.tril(a) if lower else cupy.triu(a)
    if unit:
        idx = cupy.arange(a.shape[1])
        t[:, idx, idx] = 1
    return t


def _op(t, trans):
    cupy = cupy_module()
    if trans == "T":
        return t.swapaxes(1, 2)
    if trans == "C":
        return cupy.conj(t.swapaxes(1, 2))
    return t


def _vendor_trsm(a, b, right, lower, trans, unit, alpha):
    """TRSM through cuBLAS trsmBatched (cupyx.scipy.linalg.solve_triangular takes the batch):
    complex dtypes."""
    cupy = cupy_module()
    from cupyx.scipy.linalg import solve_triangular
    info = _diag_info(a, unit)
    if not right:
        x = solve_triangular(a, alpha * b, trans=trans, lower=lower, unit_diagonal=unit)
    else:
        # X op(A) = alpha B  <=>  op(A)^T X^T = alpha B^T; op(A)^T is A^T, A, or conj(A).
        rhs = cupy.ascontiguousarray((alpha * b).swapaxes(1, 2))
        if trans == "N":
            xt = solve_triangular(a, rhs, trans="T", lower=lower, unit_diagonal=unit)
        elif trans == "T":
            xt = solve_triangular(a, rhs, trans="N", lower=lower, unit_diagonal=unit)
        else:
            xt = solve_triangular(cupy.conj(a), rhs, trans="N", lower=lower, unit_diagonal=unit)
        x = xt.swapaxes(1, 2)
    return cupy.ascontiguousarray(x), info


def _vendor_trmm(a, b, right, lower, trans, unit, alpha):
    """One dense cuBLAS product of the triangle (copied with zeros by one kernel launch)."""
    cupy = cupy_module()
    if is_real(a.dtype):
        t = _op(triangle_copy(a, lower, unit), trans)
        out = cupy.empty_like(b)
        gemm(out, b, t, alpha) if right else gemm(out, t, b, alpha)
        return out
    t = _op(_tri(a, lower, unit), trans)
    return alpha * (cupy.matmul(b, t) if right else cupy.matmul(t, b))


def _vendor_trtri(a, lower, unit):
    cupy = cupy_module()
    from cupyx.scipy.linalg import solve_triangular
    info = _diag_info(a, unit)
    eye = cupy.broadcast_to(cupy.eye(a.shape[1], dtype=a.dtype), a.shape).copy()
    x = solve_triangular(a, eye, lower=lower, unit_diagonal=unit)
    x = cupy.tril(x) if lower else cupy.triu(x)
    return cupy.ascontiguousarray(x), info
