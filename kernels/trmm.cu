// trmm.cu: triangular products of matrices of n > 64 by 64 x 64 output tiles, out of place:
// TRMM (B := alpha op(A) B, alpha B op(A)) and LAUUM (L^T L, U U^T, both triangles).
//
// Operation:  tri_tile<T, SYM>: for each matrix b of the batch, Out = alpha M X, where
//               M (n x n) is a triangle:  M(i, k) = A[b sa + i mi + k mk], nonzero where
//                 k <= i (TT_M_UPPER clear) or k >= i (set); with TT_UNIT its diagonal is one
//                 (not read);
//               X (n x nvec):  X(k, j) = X[b sx + k xk + j xj]; with TT_X_LOWER only its lower
//                 triangle k >= j is nonzero (the rest not read);
//               Out(i, j) = Out[b so + i oi + j oj] (n x nvec); with SYM (LAUUM: nvec = n, the
//                 product symmetric) only the tiles on and below the diagonal are computed, and
//                 each entry is written to (i, j) and (j, i) from the same register (symmetric bit
//                 for bit).
//             The strides say which operand is transposed, so one kernel serves every variant
//             (linalg/_cuda/triangular.py tile_trmm / tile_lauum): left TRMM M = op(A), X = B;
//             right TRMM M = op(A)^T, X = B^T, Out = C^T; LAUUM M = F^T, X = F with F = L or U^T.
//             Out must not overlap A or X (out of place: tiles are computed in any order).
//             SYRK (TT_FULL, with SYM): M (n x kdim) and X (kdim x n) dense, Out = alpha op(A)
//             op(A)^T through the same strides (M = op(A), X = op(A)^T); kdim is n otherwise.
// Work items: (matrix, row block I, column block J) of 64 x 64 output tiles, matrix-major (the
//             tiles of a matrix run together, so the re-reads of its A and X rows hit L2), the
//             heavier row blocks of a matrix first. The launcher's grid is a block an item, or
//             the resident blocks (TRMM with one tile a matrix: TILE_ONE_TILE; TILE_CHUNKED) or
//             fewer (tests), a block then taking items t, t + gridDim.x, ... or, compiled
//             with TT_CHUNKED_OPT, a contiguous run of them (a matrix's tiles on one block).
// Main loop:  over the k tiles of TT_BK (32) that the triangle leaves (M lower: k < i0 + 64;
//             upper: k >= i0; TT_X_LOWER: k >= j0). The k tiles of all of a block's items form
//             one stream through TT_STAGES (2) shared stages: the copy of the next tile (of this
//             item or the next) is issued (cp.async) before this one's product, one barrier a
//             tile. Copies run along the operand's unit stride: 16 bytes a copy where a tile is
//             whole and the operand's rows run along i (j) and are 16-byte aligned (TT_VEC_M,
//             TT_VEC_X); an operand whose rows run along k (k stride 1) is staged k-major
//             instead (KM: s[f][k], 16-byte copies along k); else one element a copy. Entries
//             outside a triangle, beyond n or nvec are staged as zeros by plain stores; a unit
//             diagonal as ones. LAUUM (tri_tile<..., PATCH = true>, TT_PATCH_EDGES) copies the
//             tiles the diagonal crosses whole and patches them in shared memory (tt_patch), or
//             with TT_ZEROED (POTRI's zeroed TRTRI result) copies them as they are. H100, float64 batch 10240, TRMM n = 256, ms one element a copy
//             everywhere / 16-byte copies where allowed: left N (X) 10.2 / 9.0, left T (M and X)
//             9.35 / 7.7; k-major M (left N) 7.18 (float32 since 2026-11-26: 5.75 -> 4.71).
// Shared:     stage s: As[k][i] (TT_BK x TT_LD) and Xs[k][j] (TT_BK x TT_LD), TT_LD = 64 + 4
//             (double) or 64 + 8 (float) elements, or k-major As[i][k] / Xs[j][k] (row stride
//             TT_BK + 4), each in a slot of TT_BK x (64 + 8) elements: the fragment loads below
//             are free of bank conflicts (tt_ld, tt_ldk).
// Product:    128 threads. double: DMMA mma.sync.aligned.m16n8k8.row.col.f64 (sm_90's shape, four
//             times the m8n8k4 work an instruction; TRMM left N n = 256 10.2 ms against 11.8 for
//             m8n8k4 with 256 threads and 32 x 16 warp parts), 4 warps
//             as 2 (rows) x 2 (columns), a warp part of 32 x 32 = 2 x 4 fragments of 16 x 8, 32
//             accumulators a thread; a warp skips the k steps of 8 its rows' (columns') triangle
//             leaves zero. float: the same DMMA product, its staged floats widened to double as
//             the fragments are loaded, the sums kept in double and rounded once at the store.
//             Against the FFMA 8 x 4 register tiles it replaced (H100, batch 10240, same call,
//             reports/gpu_20261126d/ab_tile_f32_dmma.md): LAUUM n = 128 / 256 1.60 / 6.39 ->
//             1.35 / 4.65 ms, TRMM left N n = 256 8.23 -> 7.72, POTRI n = 256 11.4 -> 9.7.
// Stores:     from the accumulators straight to Out; where Out's rows run along j (TT_VEC_OUT:
//             left TRMM, LAUUM's own triangle) a thread's two adjacent entries (i, j), (i, j + 1)
//             go as one 16-byte (float: 8-byte) store. H100, batch 10240, same call, ms element stores / pairs
//             (reports/gpu_20261126d/ab_tile_pair_store.md): float64 TRMM n = 128 1.44 / 1.24,
//             192 3.50 / 3.14, 256 7.36 / 6.54; float32 n = 128 1.40 / 1.22, 256 7.73 / 7.01;
//             LAUUM (its own triangle in pairs, the mirror an element a store) float64 n = 128
//             1.26 / 1.16, 256 4.66 / 4.17, float32 1.34 / 1.22, 4.65 / 4.16
//             (ab_lauum_pair_store.md).
// Split:      tri_tile_split<..., SPLIT> (sm_90): a thread-block cluster of SPLIT (2, 4, 8) blocks
//             an item, for batches whose tiles leave most SMs idle (a k tile is ~1900 cycles of
//             DMMA a warp: one SM's tensor cores bound an item). Block r of the cluster streams
//             the r-th run of the item's k tiles (tt_take_run), writes its 32 accumulators a
//             thread to shared memory after the stages (TT_PART_BYTES), and after a cluster
//             barrier sums fragments f % SPLIT == r over the cluster's blocks in rank order
//             through distributed shared memory (tt_reduce) and stores them. H200, float64, GPU
//             us, tri_tile / split (`python3 scripts/probe_trmm_tile.py split`): TRMM n = 512
//             batch 1 25.4 / 15.4 (4 blocks), LAUUM n = 256 batch 1 20.3 / 10.7 (8 blocks).
// Layout:     row-major batches as everywhere (common.cuh); strides in elements, 64-bit.
// Launcher:   linalg/_cuda/triangular.py (tile_trmm, tile_lauum, TILE_RULES, TILE_SHAPE,
//             tile_split).
#include "common.cuh"

constexpr int TT_B = 64;                    // output tile: 64 x 64
// k tile, stages and the launch bound's blocks an SM: linalg/_cuda/triangular.py TILE_SHAPE
// passes them (-D) by dtype; these defaults are the float64 ones.
#ifndef TT_BK_OPT
#define TT_BK_OPT 32
#endif
#ifndef TT_STAGES_OPT
#define TT_STAGES_OPT 2
#endif
#ifndef TT_BLOCKS_OPT
#define TT_BLOCKS_OPT 3
#endif
constexpr int TT_BK = TT_BK_OPT;
constexpr int TT_THREADS = 128;                // 4 warps, a 32 x 32 part each
constexpr int TT_STAGES = TT_STAGES_OPT;
// TT_RUNS_OPT (linalg/_cuda/triangular.py TILE_MASKED_RUNS, by dtype): 16-byte runs in the
// tiles that the matrix's or the triangle's edge crosses (tt_put_run), else an element a copy.
#ifndef TT_RUNS_OPT
#define TT_RUNS_OPT 1
#endif
constexpr bool TT_RUNS = TT_RUNS_OPT != 0;
// TT_CHUNKED_OPT (linalg/_cuda/triangular.py TILE_CHUNKED, by n): tri_tile's blocks walk
// contiguous runs of items (a matrix's tiles on one block) instead of items t, t + the grid, ...
// A compile-time choice: as a flag word bit it cost the other launches 3-6 % (more registers).
#ifndef TT_CHUNKED_OPT
#define TT_CHUNKED_OPT 0
#endif
constexpr bool TT_CHUNKED = TT_CHUNKED_OPT != 0;

// Flag word of tri_tile (linalg/_cuda/triangular.py TT_*).
#define TT_M_UPPER 1
#define TT_UNIT 2
#define TT_X_LOWER 4
#define TT_VEC_M 8                          // M's i stride is 1 and its rows 16-byte aligned
#define TT_VEC_X 16                         // X's j stride is 1 and its rows 16-byte aligned
#define TT_VEC_OUT 32                       // Out's j stride is 1, its rows 2-element aligned
#define TT_FULL 64                          // M and X dense (no triangle): SYRK
#define TT_ZEROED 128                       // the triangles' other parts are zero in memory
#define TT_PATCH_EDGES 256                  // stage the tiles the triangle's edge crosses whole
// (with KM: that operand's k stride is 1 and its f stride and base allow 16-byte copies)
// KM, tri_tile's template argument: the operands staged k-major.
#define TT_KM_M 1
#define TT_KM_X 2

// Row stride (elements) of a staged k row. The DMMA fragment loads read lane (g, q) at q rows and
// g columns from a base: double at 64 + 4, the words 8 q + 2 g (mod 32) of a half-warp are
// distinct, at 64 + 8 (until 2026-11-26) q = 0 and 2 met in the same banks (Nsight Compute, LAUUM
// lower n = 128: 65.1M shared-load wavefronts, 33.7M of them from conflicts, 1.50 ms against
// 1.28 for the k-major upper variant); float at 64 + 8, bank 8 q + g.
template <typename T>
__host__ __device__ constexpr int tt_ld() { return sizeof(T) == 8 ? TT_B + 4 : TT_B + 8; }

// Row stride (elements) of an operand staged k-major, s[f][k] (KM below): TT_BK + 4 elements,
// 16-byte aligned rows; the DMMA fragment loads then meet two wavefronts a warp in double, the
// minimum for 256 bytes, and one in float (lane (g, q) reads bank 4 g + q). The tile takes TT_B
// x tt_ldk = tt_half() elements.
__host__ __device__ constexpr int tt_ldk() { return TT_BK + 4; }
// Elements an operand tile takes in a stage, either layout (and either dtype: the shared bytes the
// launcher computes, linalg/_cuda/triangular.py tile_smem).
__host__ __device__ constexpr int tt_half() { return TT_BK * (TT_B + 8); }
static_assert(TT_B * tt_ldk() <= tt_half(), "a k-major tile fits the stage");

// Bytes of dynamic shared memory: TT_STAGES stages of two operand tiles.
template <typename T>
__host__ __device__ constexpr int tt_smem_bytes() {
    return TT_STAGES * 2 * tt_half() * (int)sizeof(T);
}

// The output tile of item t: matrix, row block bi, column block bj. rb row blocks and cb column
// blocks a matrix; SYM: the rb (rb + 1) / 2 tiles bi >= bj, bi ascending (heaviest first: k runs
// from 64 bi); else bi descending for a lower M (k runs to 64 bi + 64), ascending for an upper.
struct tt_item {
    index_t matrix;
    int bi, bj;
};
__host__ __device__ __forceinline__ tt_item tt_item_of(index_t t, int rb, int cb, bool sym,
                                                      bool m_upper) {
    tt_item it;
    const int per = sym ? rb * (rb + 1) / 2 : rb * cb;
    it.matrix = t / per;
    int r = (int)(t - it.matrix * per);
    if (sym) {
        int i = 0;
        while (r > i) r -= ++i;             // row i holds tiles r = i (i + 1) / 2 .. + i
        it.bi = i, it.bj = r;
    } else {
        const int row = r / cb;
        it.bi = m_upper ? row : rb - 1 - row;
        it.bj = r - row * cb;
    }
    return it;
}

// The k range [k0, k1) of the output rows i0..i0+h-1 and columns j0..j0+w-1 (whole tile: h = w
// = 64; a warp's part for its skip): where M's row range and X's column range can be nonzero
// (kdim: the inner dimension, n but for SYRK).
__host__ __device__ __forceinline__ void tt_k_range(int i0, int h, int j0, int kdim, int flags,
                                                    int& k0, int& k1) {
    k0 = 0, k1 = kdim;
    if (flags & TT_FULL) return;
    if (flags & TT_M_UPPER) k0 = i0;
    else k1 = kdim < i0 + h ? kdim : i0 + h;
    if ((flags & TT_X_LOWER) && j0 > k0) k0 = j0;
}

// The r-th (0 .. TT_PLACES - 1) staged place of thread t in an operand tile s[k][f] (f: i for A,
// j for X; k tile-relative): (f, k). Along the unit stride of the source: kcontig (its k stride
// is 1): runs of 32 bytes of k (4 doubles, 8 floats) of 32 / run consecutive f a warp (whole
// sectors read; the shared writes fall in distinct banks); else f runs along the warp. A thread
// keeps one f (kcontig: 2 (double) or 4 (float) of them, TT_THREADS / run apart) and steps k, so
// its sources are a few base pointers and multiples of the k stride.
template <typename T>
__host__ __device__ __forceinline__ void tt_place(int t, int r, bool kcontig, int& f, int& k) {
    if (!kcontig) {
        f = t % TT_B, k = t / TT_B + (TT_THREADS / TT_B) * r;
    } else {
        constexpr int G = 32 / (int)sizeof(T);              // a run of 32 bytes
        constexpr int R = TT_B * G / TT_THREADS;            // places before k moves on
        f = t / G + (TT_THREADS / G) * (r % R), k = t % G + G * (r / R);
    }
}
constexpr int TT_PLACES = TT_B * TT_BK / TT_THREADS;    // places a thread an operand tile (16)

// What a staged place holds: zero, one (a unit diagonal) or a copy of the source entry.
enum { TT_ZERO = 0, TT_ONE = 1, TT_COPY = 2 };

// An entry M(i, k) (n rows, kdim columns).
__host__ __device__ __forceinline__ int tt_what_m(int i, int k, int n, int kdim, int flags) {
    if (i >= n || k >= kdim) return TT_ZERO;
    if (flags & TT_FULL) return TT_COPY;
    if (i == k) return (flags & TT_UNIT) ? TT_ONE : TT_COPY;
    const bool inside = (flags & TT_M_UPPER) ? k > i : k < i;
    return inside ? TT_COPY : TT_ZERO;
}

// An entry X(k, j) (kdim rows, nvec columns).
__host__ __device__ __forceinline__ int tt_what_x(int k, int j, int kdim, int nvec, int flags) {
    if (k >= kdim || j >= nvec) return TT_ZERO;
    return ((flags & TT_X_LOWER) && k < j) ? TT_ZERO : TT_COPY;
}

#ifdef __CUDACC__
// One element of a stage: cp.async (.ca: 4 or 8 bytes) or a plain store of zero or one.
template <typename T>
__device__ __forceinline__ void tt_put(T* s, const T* src, int what) {
    if (what == TT_COPY) {
        cp_async_element(s, src);
    } else {
        *s = T(what);
    }
}

// One 16-byte run of a masked stage (16 / sizeof(T) places, consecutive in shared memory and
// in the source): one 16-byte copy where every place is a copy, else place by place (what_of(e):
// the e-th place's zero / one / copy) -- at the matrix's edges and the triangle's.
template <typename T, typename WhatOf>
__device__ __forceinline__ void tt_put_run(T* s, const T* src, WhatOf what_of) {
    constexpr int V = 16 / (int)sizeof(T);
    int what[V];
    bool copies = true;
#pragma unroll
    for (int e = 0; e < V; ++e) {
        what[e] = what_of(e);
        copies = copies && what[e] == TT_COPY;
    }
    if (copies) {
        cp_async_16(s, src);
        return;
    }
#pragma unroll
    for (int e = 0; e < V; ++e) tt_put<T>(s + e, src + e, what[e]);
}

// This thread's 16-byte runs of one operand tile (16 / sizeof(T) places consecutive in the
// source's unit stride and in shared memory; the tile's places in TT_PLACES / V runs a thread):
// FULL, one 16-byte copy each (a full tile); else tt_put_run (a run where every place is a copy
// as one 16-byte copy, the others place by place). One walk, instantiated apart for the two: one
// loop deciding per tile lost 10-17 % at float64 n = 200 (reports/gpu_20261128e call 4).
// KMAJOR: runs along k into s[f][k] (the source's k stride is 1); else along f into s[k][f]
// (its f stride is 1).
template <typename T, bool KMAJOR, bool FULL, typename What>
__device__ __forceinline__ void tt_stage_runs(const T* src, index_t sf, index_t sk, int k0, T* s,
                                              What what) {
    constexpr int V = 16 / (int)sizeof(T);
    const int t = threadIdx.x;
#pragma unroll
    for (int r = 0; r < TT_PLACES / V; ++r) {
        int f, k;                                                   // the run's first place
        if constexpr (KMAJOR) {
            constexpr int ROW = TT_BK / V;                          // runs a row of k
            const int c = t + TT_THREADS * r;
            f = c / ROW, k = V * (c % ROW);
        } else {
            constexpr int ROW = TT_B / V;                           // runs a k row
            f = V * (t % ROW), k = t / ROW + (TT_THREADS / ROW) * r;
        }
        T* const d = KMAJOR ? s + f * tt_ldk() + k : s + k * tt_ld<T>() + f;
        const T* const p = KMAJOR ? src + (index_t)f * sf + (k0 + k)
                                  : src + f + (index_t)(k0 + k) * sk;
        if constexpr (FULL) {
            cp_async_16(d, p);
        } else {
            tt_put_run<T>(d, p, [&](int e) {
                return KMAJOR ? what(f, k0 + k + e) : what(f + e, k0 + k);
            });
        }
    }
}

// Issue this thread's copies of one operand tile: places (f, k) of k tile k0.. from src + f sf +
// (k0 + k) sk into s[k][f]; what(f, k0 + k) says zero / one / copy unless the tile is `full`.
// vec (f runs along the unit stride, 16-byte aligned sources): 16-byte runs of 16 / sizeof(T)
// consecutive f (a quarter or half of the copy instructions, tt_stage_runs) where the tile is
// full, and with TT_RUNS also in the other tiles; else an element a copy.
// KMAJOR (the operand's k stride is 1): into s[f][k] (row stride tt_ldk), and vec means runs of
// 16 / sizeof(T) consecutive k -- the source's unit stride.
template <typename T, bool KMAJOR, typename What>
__device__ __forceinline__ void tt_stage_operand(const T* src, index_t sf, index_t sk, int k0,
                                                 bool full, bool vec, T* s, What what) {
    if (vec && full) return tt_stage_runs<T, KMAJOR, true>(src, sf, sk, k0, s, what);
    if (TT_RUNS && vec) return tt_stage_runs<T, KMAJOR, false>(src, sf, sk, k0, s, what);
    const bool kc = sk == 1;
    const int t = threadIdx.x;
    if constexpr (KMAJOR) {
#pragma unroll
        for (int r = 0; r < TT_PLACES; ++r) {
            int f, k;
            tt_place<T>(t, r, true, f, k);
            const T* p = src + (index_t)f * sf + (k0 + k);
            tt_put<T>(s + f * tt_ldk() + k, p, full ? TT_COPY : what(f, k0 + k));
        }
    } else {
#pragma unroll
        for (int r = 0; r < TT_PLACES; ++r) {
            int f, k;
            tt_place<T>(t, r, kc, f, k);
            const T* p = src + (index_t)f * sf + (index_t)(k0 + k) * sk;
            tt_put<T>(s + k * tt_ld<T>() + f, p, full ? TT_COPY : what(f, k0 + k));
        }
    }
}

// How an operand tile is staged: TT_WHOLE (inside the triangle and the matrix: no per-place
// test), TT_PATCH (with TT_PATCH_EDGES: inside the matrix, crossed by the triangle's edge,
// 16-byte copies allowed: copied whole, then the places outside the triangle overwritten in
// shared memory, tt_patch, one more barrier), TT_MASKED (a per-place test, element copies).
// With TT_ZEROED (the other triangle holds zeros, a TRTRI result: POTRI's LAUUM) a crossed tile
// is whole. H100, batch 10240, same call, against masked staging (reports/gpu_20261126f/
// ab_tile_patch.md): LAUUM float64 n = 96-256 1.06-1.17x, float32 1.13-1.30x (n = 128 1.27 ->
// 0.97 ms: 1.18x the dense product, 0.91x before); TRMM lost (float32 n = 128-256 0.91-0.92x:
// only its A crosses, and the patch's barrier holds the product back), so only LAUUM sets it,
// and only the PATCH instantiations (LAUUM's) hold the patch's code: with it, unused, TRMM still
// read 0.93-0.96x at n = 128-256 (ab_tile_patch_lauum_only.md), SYRK 0.85-0.96x
// (ab_tile_patch_sym.md).
enum { TT_WHOLE = 0, TT_PATCH = 1, TT_MASKED = 2 };
struct tt_kinds {
    int a, x;
};

// Whether M's tile (rows i0.., k tile k0..) and X's tile (k tile k0.., columns j0..) lie inside
// the matrix and the triangle (a zeroed other triangle counts as inside): TT_WHOLE.
struct tt_whole_tiles {
    bool a, x;
};
__host__ __device__ __forceinline__ tt_whole_tiles tt_whole(int n, int nvec, int kdim, int flags,
                                                            int i0, int j0, int k0) {
    const bool inside_k = k0 + TT_BK <= kdim;
    const bool zeroed = (flags & TT_ZEROED) && !(flags & TT_UNIT);
    tt_whole_tiles w;
    w.a = inside_k && i0 + TT_B <= n && ((flags & TT_FULL) || zeroed ||
          ((flags & TT_M_UPPER) ? k0 >= i0 + TT_B : k0 + TT_BK <= i0));
    w.x = inside_k && j0 + TT_B <= nvec && (!(flags & TT_X_LOWER) || zeroed || k0 >= j0 + TT_B);
    return w;
}

// The staging kinds of both tiles, TT_PATCH for the crossed ones where TT_PATCH_EDGES asks.
__host__ __device__ __forceinline__ tt_kinds tt_tile_kinds(int n, int nvec, int kdim, int flags,
                                                          int i0, int j0, int k0) {
    const tt_whole_tiles whole = tt_whole(n, nvec, kdim, flags, i0, j0, k0);
    tt_kinds kinds;
    kinds.a = whole.a ? TT_WHOLE : TT_MASKED;
    kinds.x = whole.x ? TT_WHOLE : TT_MASKED;
    if ((flags & TT_PATCH_EDGES) && k0 + TT_BK <= kdim) {
        if (!whole.a && i0 + TT_B <= n && (flags & TT_VEC_M)) kinds.a = TT_PATCH;
        if (!whole.x && j0 + TT_B <= nvec && (flags & TT_VEC_X)) kinds.x = TT_PATCH;
    }
    return kinds;
}

// Issue the copies of k tile k0.. of M's rows i0.. (into sa) and X's columns j0.. (into sx) (the
// caller commits them as one group). a and x point at the matrix's M(i0, 0) and X(0, j0).
// PATCH: the instantiation holds tt_patch (LAUUM's); TRMM's and SYRK's code stays without it.
template <typename T, int KM, bool PATCH>
__device__ __forceinline__ void tt_stage(const T* a, index_t mi, index_t mk, const T* x,
                                         index_t xk, index_t xj, int n, int nvec, int kdim,
                                         int flags, int i0, int j0, int k0, T* sa, T* sx) {
    bool full_a, full_x;
    if constexpr (PATCH) {
        const tt_kinds kinds = tt_tile_kinds(n, nvec, kdim, flags, i0, j0, k0);
        full_a = kinds.a != TT_MASKED, full_x = kinds.x != TT_MASKED;
    } else {
        const tt_whole_tiles whole = tt_whole(n, nvec, kdim, flags, i0, j0, k0);
        full_a = whole.a, full_x = whole.x;
    }
    tt_stage_operand<T, (KM & TT_KM_M) != 0>(a, mi, mk, k0, full_a, (flags & TT_VEC_M) != 0, sa,
        [&](int f, int k) { return tt_what_m(i0 + f, k, n, kdim, flags); });
    tt_stage_operand<T, (KM & TT_KM_X) != 0>(x, xj, xk, k0, full_x, (flags & TT_VEC_X) != 0, sx,
        [&](int f, int k) { return tt_what_x(k, j0 + f, kdim, nvec, flags); });
}

// Overwrite the places of a TT_PATCH operand tile (staged whole) that lie outside the triangle:
// zeros, or ones on a unit diagonal. Any thread may patch any place (a barrier separates the
// copies' arrival and the patch, and the patch and the product): consecutive threads take
// consecutive places along the layout's unit stride (distinct banks).
template <typename T, bool KMAJOR, typename What>
__device__ __forceinline__ void tt_patch_operand(T* s, int k0, What what) {
#pragma unroll 1
    for (int r = 0; r < TT_PLACES; ++r) {
        const int c = threadIdx.x + TT_THREADS * r;
        const int f = KMAJOR ? c / TT_BK : c % TT_B, k = KMAJOR ? c % TT_BK : c / TT_B;
        const int w = what(f, k0 + k);
        if (w != TT_COPY) s[KMAJOR ? f * tt_ldk() + k : k * tt_ld<T>() + f] = T(w);
    }
}

// The patch of the tile staged at k0 (after its copies arrived, before its product); returns
// whether it patched (the caller then needs a barrier before the product).
template <typename T, int KM>
__device__ __forceinline__ bool tt_patch(int n, int nvec, int kdim, int flags, int i0, int j0,
                                         int k0, T* sa, T* sx) {
    const tt_kinds kinds = tt_tile_kinds(n, nvec, kdim, flags, i0, j0, k0);
    if (kinds.a == TT_PATCH)
        tt_patch_operand<T, (KM & TT_KM_M) != 0>(sa, k0,
            [&](int f, int k) { return tt_what_m(i0 + f, k, n, kdim, flags); });
    if (kinds.x == TT_PATCH)
        tt_patch_operand<T, (KM & TT_KM_X) != 0>(sx, k0,
            [&](int f, int k) { return tt_what_x(k, j0 + f, kdim, nvec, flags); });
    return kinds.a == TT_PATCH || kinds.x == TT_PATCH;
}

// Accumulators of a thread (double for both T): v[m][c][e] = C(wr + 16 m + g + 8 (e / 2), wc
// + 8 c + 2 q + e % 2), wr = 32 (warp % 2), wc = 32 (warp / 2), g = lane / 4, q = lane % 4.
struct tt_acc {
    double v[2][4][4];
};

// The rows / columns of a warp's part of the tile (for its skip of zero k steps).
__device__ __forceinline__ void tt_warp_part(int warp, int& r0, int& h, int& c0, int& w) {
    r0 = 32 * (warp & 1), h = 32, c0 = 32 * (warp >> 1), w = 32;
}

// acc += (the staged tiles' product) over the k steps of 8 that meet [kb, ke) (tile-relative);
// a float operand is widened to double as its fragments are loaded.
// KM: which operands are staged k-major (TT_KM_M, TT_KM_X): entry (f, k) at
// s[f tt_ldk + k] instead of s[k tt_ld + f].
template <int KM, typename T>
__device__ __forceinline__ void tt_multiply(const T* sa, const T* sx, int kb, int ke,
                                            tt_acc& acc) {
    // (f, k) offsets of a staged operand: a k step of one, an f step of one, per layout
    constexpr int AK = (KM & TT_KM_M) ? 1 : tt_ld<T>(), AF = (KM & TT_KM_M) ? tt_ldk() : 1;
    constexpr int XK = (KM & TT_KM_X) ? 1 : tt_ld<T>(), XF = (KM & TT_KM_X) ? tt_ldk() : 1;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, q = lane & 3;
    const T* pa = sa + q * AK + (32 * (warp & 1) + g) * AF;
    const T* px = sx + q * XK + (32 * (warp >> 1) + g) * XF;
#pragma unroll
    for (int k = 0; k < TT_BK; k += 8) {
        if (k + 8 <= kb || k >= ke) continue;          // warp-uniform
        double a[2][4], b[4][2];
#pragma unroll
        for (int m = 0; m < 2; ++m) {
            a[m][0] = pa[k * AK + 16 * m * AF], a[m][1] = pa[k * AK + (16 * m + 8) * AF];
            a[m][2] = pa[(k + 4) * AK + 16 * m * AF];
            a[m][3] = pa[(k + 4) * AK + (16 * m + 8) * AF];
        }
#pragma unroll
        for (int c = 0; c < 4; ++c)
            b[c][0] = px[k * XK + 8 * c * XF], b[c][1] = px[(k + 4) * XK + 8 * c * XF];
#pragma unroll
        for (int m = 0; m < 2; ++m)
#pragma unroll
            for (int c = 0; c < 4; ++c) dmma_16x8x8(acc.v[m][c], a[m], b[c]);
    }
}

// Out(i, j) = alpha v (and Out(j, i) with sym), inside n x nvec; on a diagonal tile of SYM
// only i >= j (the mirror comes from the same register).
template <typename T, bool SYM>
__device__ __forceinline__ void tt_put_out(T* out, index_t oi, index_t oj, int n, int nvec,
                                           bool diag, int i, int j, T v) {
    if (i >= n || j >= nvec) return;
    if (SYM) {
        if (diag && i < j) return;
        out[(index_t)j * oi + (index_t)i * oj] = v;
    }
    out[(index_t)i * oi + (index_t)j * oj] = v;
}

// A pair of entries (i, j), (i, j + 1) of a row of Out whose j stride is 1, as one 16-byte
// (double) or 8-byte (float) store where both lie inside nvec.
template <typename T>
__device__ __forceinline__ void tt_put_pair(T* out, index_t oi, int n, int nvec, int i, int j,
                                            T v0, T v1) {
    if (i >= n || j >= nvec) return;
    T* p = out + (index_t)i * oi + j;
    if (j + 1 < nvec) {
        if constexpr (sizeof(T) == 8) *reinterpret_cast<double2*>(p) = make_double2(v0, v1);
        else *reinterpret_cast<float2*>(p) = make_float2(v0, v1);
    } else {
        *p = v0;
    }
}

// DEALT (tri_tile_split: the fragments are dealt over the cluster): only those with bit 4 m + j
// of `own` set (acc.v[m][j]) are this block's to store.
template <typename T, bool SYM, bool DEALT = false>
__device__ __forceinline__ void tt_store(T* out, index_t oi, index_t oj, int n, int nvec,
                                         int i0, int j0, const tt_acc& acc, T alpha, int flags,
                                         unsigned own = 0xFFu) {
    const bool diag = SYM && i0 == j0;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int r = i0 + 32 * (warp & 1) + (lane >> 2);
    const int c = j0 + 32 * (warp >> 1) + 2 * (lane & 3);
    if (flags & TT_VEC_OUT) {                 // a thread's entries come in pairs along a row
#pragma unroll
        for (int m = 0; m < 2; ++m)
#pragma unroll
            for (int j = 0; j < 4; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    if (DEALT && !((own >> (4 * m + j)) & 1u)) continue;
                    const int i = r + 16 * m + 8 * h, jj = c + 8 * j;
                    const T v0 = T((double)alpha * acc.v[m][j][2 * h]);
                    const T v1 = T((double)alpha * acc.v[m][j][2 * h + 1]);
                    if (!SYM || !diag || i > jj) {
                        tt_put_pair<T>(out, oi, n, nvec, i, jj, v0, v1);
                    } else if (i == jj && i < n) {          // (i, i + 1) lies above the diagonal
                        out[(index_t)i * oi + jj] = v0;
                    }
                    if (SYM && i < n) {                     // the mirror, (jj, i), (jj + 1, i)
                        if (jj < nvec && (!diag || i >= jj)) out[(index_t)jj * oi + i] = v0;
                        if (jj + 1 < nvec && (!diag || i > jj)) out[(index_t)(jj + 1) * oi + i] = v1;
                    }
                }
        return;
    }
#pragma unroll
    for (int m = 0; m < 2; ++m)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (!DEALT || ((own >> (4 * m + j)) & 1u))
                    tt_put_out<T, SYM>(out, oi, oj, n, nvec, diag, r + 16 * m + 8 * (e >> 1),
                                       c + 8 * j + (e & 1), T((double)alpha * acc.v[m][j][e]));
}

// One work item's place in the k tile stream: its tile, first k, k tiles and operand pointers.
template <typename T>
struct tt_work {
    index_t t, matrix;
    int i0, j0, k0, tiles;
    bool empty;                             // tri_tile_split: no k tile of the item is this block's
    const T* a;                             // M(i0, 0)
    const T* x;                             // X(0, j0)
};
template <typename T, bool SYM>
__device__ __forceinline__ tt_work<T> tt_work_of(index_t t, const T* A, index_t sa, index_t mi,
                                                 const T* X, index_t sx, index_t xj, int kdim,
                                                 int rb, int cb, int flags) {
    tt_work<T> w;
    const tt_item it = tt_item_of(t, rb, cb, SYM, (flags & TT_M_UPPER) != 0);
    w.t = t, w.matrix = it.matrix;
    w.i0 = TT_B * it.bi, w.j0 = TT_B * it.bj;
    int k1;
    tt_k_range(w.i0, TT_B, w.j0, kdim, flags, w.k0, k1);
    w.k0 &= ~(TT_BK - 1);
    w.tiles = (k1 - w.k0 + TT_BK - 1) / TT_BK;      // >= 1: every tile meets the triangle
    w.empty = false;
    w.a = A + it.matrix * sa + (index_t)w.i0 * mi;
    w.x = X + it.matrix * sx + (index_t)w.j0 * xj;
    return w;
}

// The k tiles of item w that block `rank` of a cluster of `split` takes: the rank-th of split
// near-equal runs. An empty run (fewer tiles than blocks) keeps one tile of the item to stage
// (its product is skipped: w.empty), so that every block streams, and reduces, every item.
template <typename T>
__host__ __device__ __forceinline__ void tt_take_run(tt_work<T>& w, int rank, int split) {
    const int lo = rank * w.tiles / split, hi = (rank + 1) * w.tiles / split;
    w.empty = hi == lo;
    w.k0 += TT_BK * (w.empty ? min(lo, w.tiles - 1) : lo);
    w.tiles = w.empty ? 1 : hi - lo;
}

// Bytes of tri_tile_split's partial sums, after the stages: a thread's 32 accumulators at
// part[e TT_THREADS + t] (consecutive threads at consecutive words: no bank conflicts).
constexpr int TT_PART_BYTES = 32 * TT_THREADS * 8;

// The item's sums over the cluster's SPLIT blocks (tri_tile_split): each block's partials into
// its shared memory, a cluster barrier, then fragment f = 4 m + j (acc.v[m][j]) summed by block f
// % SPLIT from every block's partials, in rank order (the same bits whichever block sums), by
// distributed shared memory. Returns the fragments summed (tt_store's `own`). `again`: an item
// before this one was reduced (its reads end with cluster_arrive; wait for every block's).
template <int SPLIT>
__device__ __forceinline__ unsigned tt_reduce(tt_acc& acc, double* part, int rank, bool again) {
    double* const v = &acc.v[0][0][0];
    if (again) cluster_wait();                  // every block is done reading the last partials
#pragma unroll
    for (int e = 0; e < 32; ++e) part[e * TT_THREADS + threadIdx.x] = v[e];
    cluster_barrier();                          // every block's partials are in
    unsigned own = 0;
#pragma unroll
    for (int f = 0; f < 8; ++f) {
        if (f % SPLIT != rank) continue;
        own |= 1u << f;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const double* mine = part + (4 * f + e) * TT_THREADS + threadIdx.x;
            double sum = ld_cluster_shared(cluster_shared_address(mine, 0));
#pragma unroll
            for (int r = 1; r < SPLIT; ++r) sum += ld_cluster_shared(cluster_shared_address(mine, r));
            v[4 * f + e] = sum;
        }
    }
    cluster_arrive();                           // this block is done reading
    return own;
}

// The body of tri_tile (SPLIT 1: a block an item) and tri_tile_split (a cluster of SPLIT blocks
// an item, each taking a run of its k tiles; the partial sums reduced through distributed
// shared memory, tt_reduce).
template <typename T, bool SYM, int KM, bool PATCH, int SPLIT>
__device__ __forceinline__ void tt_run(const T* __restrict__ A, index_t sa, index_t mi,
                                       index_t mk, const T* __restrict__ X, index_t sx,
                                       index_t xk, index_t xj, T* __restrict__ Out, index_t so,
                                       index_t oi, index_t oj, int n, int nvec, int kdim,
                                       index_t batch, int flags, T alpha) {
    extern __shared__ __align__(16) unsigned char tri_tile_smem[];
    T* const s0 = reinterpret_cast<T*>(tri_tile_smem);
    constexpr int HALF = tt_half();
    const int rb = (n + TT_B - 1) / TT_B, cb = (nvec + TT_B - 1) / TT_B;
    const index_t items = batch * (SYM ? rb * (rb + 1) / 2 : rb * cb);
    // A cluster's blocks are consecutive: item blockIdx.x / SPLIT, run blockIdx.x % SPLIT.
    // Items t, t + the grid, ...; with TT_CHUNKED (SPLIT 1) the block's contiguous run of
    // ceil(items / grid) items instead, so that the tiles of a matrix stay on one block.
    const int rank = SPLIT > 1 ? (int)(blockIdx.x % SPLIT) : 0;
    constexpr bool chunked = SPLIT == 1 && TT_CHUNKED;
    const index_t blocks = gridDim.x / SPLIT, per = (items + blocks - 1) / blocks;
    const index_t first = chunked ? blockIdx.x * per : blockIdx.x / SPLIT;
    const index_t end = chunked ? min(items, first + per) : items;
    if (first >= items) return;                   // (the whole cluster)
    auto next_of = [&](index_t t) {               // the block's item after t; items at the end
        const index_t nt = chunked ? t + 1 : t + blocks;
        return nt < end ? nt : items;
    };
    int wr0, wh, wc0, ww;
    tt_warp_part(threadIdx.x >> 5, wr0, wh, wc0, ww);
    // The block's k tiles of all its items form one stream: the copy of the next tile (of this
    // item or the next) runs during this tile's product, across item boundaries too.
    auto work = [&](index_t t) {
        tt_work<T> w = tt_work_of<T, SYM>(t, A, sa, mi, X, sx, xj, kdim, rb, cb, flags);
        if constexpr (SPLIT > 1) tt_take_run(w, rank, SPLIT);
        return w;
    };
    tt_work<T> cur = work(first), stg = cur;         // computing / staging cursor
    int kt = 0, sq = 0;                               // tile of cur / of stg
    auto stage_next = [&](int buf) {                  // stage (stg, sq), then advance
        if (stg.t < items) {
            T* const d = s0 + buf * 2 * HALF;
            tt_stage<T, KM, PATCH>(stg.a, mi, mk, stg.x, xk, xj, n, nvec, kdim, flags, stg.i0,
                            stg.j0, stg.k0 + sq * TT_BK, d, d + HALF);
            if (++sq == stg.tiles) {
                sq = 0;
                const index_t nt = next_of(stg.t);
                if (nt < items) stg = work(nt);
                else stg.t = items;
            }
        }
        cp_async_commit();
    };
    tt_acc acc;
    double* const accp = &acc.v[0][0][0];
#pragma unroll
    for (int e = 0; e < 32; ++e) accp[e] = 0.0;
    int wk0, wk1;
    tt_k_range(cur.i0 + wr0, wh, cur.j0 + wc0, kdim, flags, wk0, wk1);   // this warp's part
    // No product (tile-relative: every k step >= the end) for an empty run of a split item or,
    // on the chunked grid (n = 65-96: 7 of 16 warp parts idle at n = 72), a warp whose 32 x 32
    // part lies wholly in the padding past n or nvec. Only there, where it gained 4-9 %
    // (2026-11-28h): elsewhere it read 0.85-1.07x, within that probe's noise at n >= 128, so
    // the other launches keep their code (the same cubin as before).
    auto idle = [&] {
        return (SPLIT > 1 && cur.empty) ||
               (TT_CHUNKED && (cur.i0 + wr0 >= n || cur.j0 + wc0 >= nvec));
    };
    if (idle()) wk0 = wk1 = 0;
#pragma unroll
    for (int s = 0; s < TT_STAGES - 1; ++s) stage_next(s);
    for (int step = 0;; ++step) {
        cp_async_wait<TT_STAGES - 2>();
        __syncthreads();                      // tile `step` staged; step - 1's reads are done
        stage_next((step + TT_STAGES - 1) % TT_STAGES);
        T* const st = s0 + (step % TT_STAGES) * 2 * HALF;
        const int kb = cur.k0 + kt * TT_BK;
        if constexpr (PATCH) {                // LAUUM's (TT_PATCH_EDGES): TRMM, SYRK keep their code
            if (tt_patch<T, KM>(n, nvec, kdim, flags, cur.i0, cur.j0, kb, st, st + HALF))
                __syncthreads();              // (block-uniform: cur is the block's)
        }
        tt_multiply<KM>(st, st + HALF, wk0 - kb, wk1 - kb, acc);
        if (++kt == cur.tiles) {              // item done: store from registers, next item
            unsigned own = 0xFFu;
            if constexpr (SPLIT > 1)
                own = tt_reduce<SPLIT>(acc, reinterpret_cast<double*>(tri_tile_smem +
                                       tt_smem_bytes<T>()), rank, cur.t != first);
            tt_store<T, SYM, (SPLIT > 1)>(Out + cur.matrix * so, oi, oj, n, nvec, cur.i0, cur.j0,
                                          acc, alpha, flags, own);
#pragma unroll
            for (int e = 0; e < 32; ++e) accp[e] = 0.0;
            const index_t nt = next_of(cur.t);
            if (nt >= items) break;
            cur = work(nt), kt = 0;
            tt_k_range(cur.i0 + wr0, wh, cur.j0 + wc0, kdim, flags, wk0, wk1);
            if (idle()) wk0 = wk1 = 0;
        }
    }
    cp_async_wait<0>();                             // no copy left in flight at exit
    if constexpr (SPLIT > 1) cluster_wait();       // no block leaves while others read its sums
}

template <typename T, bool SYM, int KM = 0, bool PATCH = false>
__global__ void __launch_bounds__(TT_THREADS, TT_BLOCKS_OPT)
tri_tile(const T* __restrict__ A, index_t sa, index_t mi, index_t mk, const T* __restrict__ X,
         index_t sx, index_t xk, index_t xj, T* __restrict__ Out, index_t so, index_t oi,
         index_t oj, int n, int nvec, int kdim, index_t batch, int flags, T alpha) {
    tt_run<T, SYM, KM, PATCH, 1>(A, sa, mi, mk, X, sx, xk, xj, Out, so, oi, oj, n, nvec, kdim,
                                 batch, flags, alpha);
}

// tri_tile_split<..., SPLIT>: tri_tile with a cluster of SPLIT (2, 4, 8) blocks an item (sm_90),
// for the batches whose tiles leave most SMs idle (a matrix of 512: 36 to 64 tiles): each block
// streams a run of the item's k tiles, the sums meet in distributed shared memory. Dynamic
// shared memory: tri_tile's and TT_PART_BYTES; grid: SPLIT blocks an item.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define TT_CLUSTER_DIMS(S)                        // compiles, never launched (the launcher refuses)
#else
#define TT_CLUSTER_DIMS(S) __cluster_dims__(S, 1, 1)
#endif
template <typename T, bool SYM, int KM, bool PATCH, int SPLIT>
__global__ void TT_CLUSTER_DIMS(SPLIT) __launch_bounds__(TT_THREADS, TT_BLOCKS_OPT)
tri_tile_split(const T* __restrict__ A, index_t sa, index_t mi, index_t mk,
               const T* __restrict__ X, index_t sx, index_t xk, index_t xj, T* __restrict__ Out,
               index_t so, index_t oi, index_t oj, int n, int nvec, int kdim, index_t batch,
               int flags, T alpha) {
    tt_run<T, SYM, KM, PATCH, SPLIT>(A, sa, mi, mk, X, sx, xk, xj, Out, so, oi, oj, n, nvec,
                                     kdim, batch, flags, alpha);
}
#endif
