// potrf.cu: the Cholesky family on small matrices (n <= NMAX <= 64), one fused kernel; POTRF's
// larger kernels (chol_block, chol_panel, chol_tensor, chol_global, chol_left) below it, and
// chol_tensor's siblings for POSV / POTRS (chol_tensor_solve), TRSM (chol_tensor_trsm), TRMM
// (chol_tensor_trmm), POTRI / POTI (chol_tensor_inverse), TRTRI (chol_tensor_trtri) and LAUUM
// (chol_tensor_lauum).
//
// Operation:  chol_small<T, NMAX, OUT> runs, on each matrix of a strided batch, the phases
//             selected by `ops` (a bit mask, in this order):
//               CHOL_POTRF (1): A = L L^T            (row per thread, right-looking, one barrier a step)
//               CHOL_TRTRI (2): X = L^-1             (column per thread, forward substitution;
//                                                     NMAX = 64: by 32 x 32 blocks)
//               CHOL_LAUUM (4): S = X^T X, full      (row per thread; tiles at NMAX = 32)
//             potrf = 1, trtri = 2, lauum = 4, potri = 2|4, poti = 1|2|4 (the KBLAS "Table 2"
//             fusions: the matrix is read once and written once whatever the chain).
// Layout:     row-major; matrix k starts at A + k*stride, entry (i, j) at A[k*stride + i*lda + j]
//             (lda/stride let the launcher run on sub-blocks of a larger matrix in place).
//             The kernel works on the lower form: an upper input is transposed into shared memory
//             (U = L^T, so upper potrf/trtri/lauum/potri/poti become the lower ones) and a
//             triangular result is transposed back on the way out. Only the referenced triangle
//             is read; triangular results get a zero other triangle; symmetric results are full.
// Threads:    a group of NMAX threads per matrix (thread r owns row r / column r, in registers),
//             `blockDim.x / NMAX` matrices per block, a grid-stride loop over the batch. NMAX <= 32
//             keeps a group inside one warp (__syncwarp); NMAX = 64 (two warps, one matrix a
//             block, block barriers; float64 238 registers, no spills) serves small batches with
//             32 < n <= 64 in one launch (linalg/_cuda/triangular.py one_launch), where the
//             panels' and the vendor's several launches cost more host time, and TRTRI from n =
//             33 / 36 (float64 / float32) at every batch and as the recursion's leaves (its
//             TRTRI phase by 32 x 32 blocks, chol_trtri_blocked). The loops over the matrix
//             order are fully unrolled (constant register indices, no per-entry predicates), with
//             one uniform `j >= n` exit a step; entries beyond n are scratch that is never
//             stored. Larger n: potrf in one launch up to n = 128 (chol_tensor below), up to
//             512 on small batches (chol_global, chol_cluster below), up to 256 at larger
//             ones (chol_left below), or by left-looking 32-wide panels (chol_panel below,
//             reusing the potrf phase); potri / poti in one launch up
//             to n = 192 (chol_tensor_inverse below); trtri up to n = 192 by chol_tensor_trtri
//             and lauum up to 128 by chol_tensor_lauum below where their rules take them;
//             trtri / lauum by the launchers' recursion or tiles above.
// Shared:     (blockDim.x / NMAX) * chol_tile<NMAX>() elements of T (dynamic).
// info:       potrf phase: j if the leading minor of order j is not positive definite (NaN too);
//             trtri phase without potrf: j if the j-th diagonal entry is zero or not finite.
// Out of place: with OUT the input is read from A_in (same lda and stride as A, no overlap) and
//             the result written to A, so that a call that must keep its input needs no copy of
//             it first; without OUT, A_in is not read (pass A) and the code is the in-place one.
// Template:   T = float | double; NMAX in {8, 16, 32, 64}; OUT (above); the matrix order n <=
//             NMAX is runtime.
// Launcher:   linalg/_cuda/cholesky.py (potrf, potri, poti), linalg/_cuda/triangular.py (trtri, lauum).
#include "common.cuh"

#define CHOL_POTRF 1
#define CHOL_TRTRI 2
#define CHOL_LAUUM 4

// Shared tile of one matrix: NMAX rows of NMAX + 1 (odd stride: row and column reads are free of
// bank conflicts), plus one element so that consecutive tiles start on different banks.
template <int NMAX>
__host__ __device__ constexpr int chol_ld() { return NMAX + 1; }
template <int NMAX>
__host__ __device__ constexpr int chol_tile() { return NMAX * (NMAX + 1) + 1; }

template <int NMAX>
__device__ __forceinline__ void group_sync() {
    if (NMAX <= 32) __syncwarp(); else __syncthreads();
}

// Right-looking Cholesky of the lower matrix in s; thread r owns row r in registers, column j
// is published in shared memory at the end of step j - 1 (one barrier a step). Fully unrolled
// (constant register indices, one uniform exit branch a step); entries k >= n are scratch.
// LD: the tile's row stride (chol_tensor's blocks have their own). Returns the LAPACK info
// (same value in every thread of the group).
template <typename T, int NMAX, int LD = chol_ld<NMAX>()>
__device__ int chol_potrf_phase(T* s, int n, int r) {
    T row[NMAX];
#pragma unroll
    for (int k = 0; k < NMAX; ++k) row[k] = s[r * LD + k];
    int fail = 0;
#pragma unroll
    for (int j = 0; j < NMAX; ++j) {
        if (j >= n) break;
        group_sync<NMAX>();                       // column j is published
        const T d = s[j * LD + j];
        if (!(d > T(0)) && fail == 0) fail = j + 1;
        const T ri = rsqrt(d);
        const T rs = d * ri;
        const T lrj = (r == j) ? rs : row[j] * ri;
        const T c = lrj * ri;                     // a_rj / d: a_rk -= c * a_kj
        row[j] = lrj;
#pragma unroll
        for (int k = j + 1; k < NMAX; ++k) row[k] -= c * s[k * LD + j];
        if (j + 1 < NMAX) s[r * LD + j + 1] = row[j + 1];   // publish column j + 1
    }
    group_sync<NMAX>();                           // everyone is done reading the columns
#pragma unroll
    for (int k = 0; k < NMAX; ++k)
        if (k < n) s[r * LD + k] = (k <= r) ? row[k] : T(0);
    group_sync<NMAX>();
    return fail;
}

// Column cl of the inverse of the B x B lower block of the tile s at (o, o) by right-looking
// substitution (x_i = b_i / l_ii; b_k -= l_ki x_i for k > i, with b = e_cl): independent updates,
// fully unrolled, the reciprocals 1 / l_ii read from the tile's padding column NMAX. Rows past n
// are scratch. Returns the LAPACK trtri info of the block's diagonal (o + i + 1 for its first
// zero or non-finite entry; 0 with unit).
template <typename T, int NMAX, int B>
__device__ __forceinline__ int chol_substitute(const T* s, int o, int n, int cl, bool unit,
                                               T (&x)[B]) {
    constexpr int LD = chol_ld<NMAX>();
#pragma unroll
    for (int k = 0; k < B; ++k) x[k] = T(0);
    int fail = 0;
#pragma unroll
    for (int i = 0; i < B; ++i) {
        if (o + i >= n) break;
        const T* row_i = s + (o + i) * LD;
        if (!unit && !is_finite_nonzero(row_i[o + i]) && fail == 0) fail = o + i + 1;
        const T xi = (i < cl) ? T(0) : ((i == cl) ? T(1) : x[i]) * row_i[NMAX];
        x[i] = xi;
#pragma unroll
        for (int k = i + 1; k < B; ++k) x[k] -= s[(o + k) * LD + o + i] * xi;
    }
    return fail;
}

// Inverse of the lower triangular matrix in s (upper part zero); thread c computes column c of
// X = L^-1 by right-looking substitution (x_i = b_i / l_ii; b_k -= l_ki x_i for k > i, with
// b = e_c): independent updates, fully unrolled. The reciprocals 1 / l_ii are taken first,
// thread i's in the tile's padding column (s[i LD + NMAX], unused by the other phases), so the
// substitution's dependency chain holds a multiply a step where it held a float64 division
// (and chol_small<double, 32> at 128 registers no longer spills). H100, batch 10240, float64 n =
// 16 / 32: TRTRI 1.50 / 1.66x, POTRI 1.37 / 1.46x, POTI 1.28 / 1.30x, POTRF 1.17 / 1.13x faster;
// float32 n = 32 1.14-1.23x (reports/gpu_20261126c/ab_reciprocals.md). Returns the LAPACK trtri
// info.
template <typename T, int NMAX>
__device__ int chol_trtri_phase(T* s, int n, int c, bool unit) {
    constexpr int LD = chol_ld<NMAX>();
    if (c < n) s[c * LD + NMAX] = unit ? T(1) : T(1) / s[c * LD + c];
    group_sync<NMAX>();
    T x[NMAX];
    const int fail = chol_substitute<T, NMAX, NMAX>(s, 0, n, c, unit, x);
    group_sync<NMAX>();                           // everyone is done reading L
#pragma unroll
    for (int k = 0; k < NMAX; ++k)
        if (k < n) s[k * LD + c] = x[k];          // column c; zero above the diagonal
    group_sync<NMAX>();
    return fail;
}

// The TRTRI phase for NMAX = 64 by 32 x 32 blocks: each warp inverts one diagonal block
// (chol_substitute on a 32-row block: 32 steps where the plain phase's first warp took 64,
// with 32 registers of x instead of 64), then both warps form X21 = -X22 (L21 X11) by 4 x 4
// register tiles (8 shared loads for 16 FMAs a step). Entries with a row or column >= n are
// written as zeros so that the products never multiply scratch. Same info as the plain phase.
// H100, batch 10240, same call, against the plain phase at NMAX = 64: TRTRI float64 n = 56 / 64
// 1.68 / 1.84x (0.44 -> 0.24 ms at n = 64, 95 % of the copy bandwidth), POTRI 1.35 / 1.40x, POTI
// 1.17 / 1.21x (reports/gpu_20261126f/ab_trtri_blocked.md; float64 with the 168-register cap of
// linalg/_cuda/triangular.py CHOL_CHAIN_LAUNCH). The plain phase with its second warp skipping
// the steps of its zero rows (38 % fewer FMAs) was slower, 0.88-0.92x: the first warp's 64 steps
// are the block's critical path (ab_warp_skips.md).
template <typename T>
__device__ int chol_trtri_blocked(T* s, int n, int c, bool unit) {
    constexpr int NMAX = 64, LD = chol_ld<NMAX>(), B = 32;
    const int w = c / B, cl = c % B, o = B * w;   // this warp's diagonal block, local column
    if (c < n) s[c * LD + NMAX] = unit ? T(1) : T(1) / s[c * LD + c];
    __syncwarp();                                 // each warp reads only its own block's rows
    T x[B];
    int fail = chol_substitute<T, NMAX, B>(s, o, n, cl, unit, x);
    __syncwarp();                                 // the warp is done reading its block of L
#pragma unroll
    for (int k = 0; k < B; ++k)
        s[(o + k) * LD + o + cl] = (o + k < n && c < n) ? x[k] : T(0);
    // The second warp's info reaches the first through row 0's padding (its reciprocal is used).
    __syncthreads();
    if (c == B) s[NMAX] = T(fail);
    __syncthreads();
    if (c == 0 && fail == 0) fail = int(s[NMAX]);
    // T = L21 X11, then X21 = -X22 T, both over L21's place; thread c: rows ti + 8 a, columns
    // tj + 8 b (a, b < 4) of the 32 x 32 block (a warp's loads of one row fall in distinct banks).
    const int ti = c / 8, tj = c % 8;
    T acc[4][4];
#pragma unroll
    for (int phase = 0; phase < 2; ++phase) {
        // phase 0: left = L21 (rows 32.., columns 0..), right = X11; phase 1: left = X22, right = T
        const T* left = s + B * LD + (phase == 0 ? 0 : B);
        const T* right = s + (phase == 0 ? 0 : B * LD);
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
            for (int b = 0; b < 4; ++b) acc[a][b] = T(0);
#pragma unroll 4
        for (int k = 0; k < B; ++k) {
            T p[4], q[4];
#pragma unroll
            for (int a = 0; a < 4; ++a) p[a] = left[(ti + 8 * a) * LD + k];
#pragma unroll
            for (int b = 0; b < 4; ++b) q[b] = right[k * LD + tj + 8 * b];
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int b = 0; b < 4; ++b) acc[a][b] += p[a] * q[b];
        }
        __syncthreads();                          // every read of L21 (phase 0) / T (phase 1) done
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
            for (int b = 0; b < 4; ++b) {
                const int i = ti + 8 * a, j = tj + 8 * b;
                const T v = phase == 0 ? acc[a][b] : -acc[a][b];
                s[(B + i) * LD + j] = (B + i < n) ? v : T(0);
            }
        __syncthreads();
    }
    return fail;
}

// S = M^T M for the lower triangular M in s (upper part zero), full; thread i computes row i: a
// step k is NMAX + 1 shared loads for NMAX FMAs.
template <typename T, int NMAX>
__device__ void chol_lauum_rows(T* s, int n, int i) {
    constexpr int LD = chol_ld<NMAX>();
    T acc[NMAX];
#pragma unroll
    for (int j = 0; j < NMAX; ++j) acc[j] = T(0);
#pragma unroll 1
    for (int k = 0; k < n; ++k) {
        const T a = s[k * LD + i];
#pragma unroll
        for (int j = 0; j < NMAX; ++j) acc[j] += a * s[k * LD + j];
    }
    group_sync<NMAX>();
#pragma unroll
    for (int j = 0; j < NMAX; ++j)
        if (j < n) s[i * LD + j] = acc[j];
    group_sync<NMAX>();
}

// The same product by register tiles: thread t computes a 4 x (NMAX / 4) tile of S, rows t / CT
// + RT r and columns t % CT + CT c (RT = NMAX / 4, CT = 4: strided, so that a warp's loads of
// one row of M fall in distinct banks): a step k is 4 + NMAX / 4 shared loads for NMAX FMAs.
// Entries (i, j) and (j, i) sum the same products in the same order (symmetric bit for bit), as
// in the row form.
template <typename T, int NMAX>
__device__ void chol_lauum_tiles(T* s, int n, int t) {
    constexpr int LD = chol_ld<NMAX>();
    constexpr int TR = 4, TC = NMAX / TR, RT = NMAX / TR, CT = NMAX / TC;
    const int ti = t / CT, tj = t % CT;
    T acc[TR][TC];
#pragma unroll
    for (int r = 0; r < TR; ++r)
#pragma unroll
        for (int c = 0; c < TC; ++c) acc[r][c] = T(0);
#pragma unroll 1
    for (int k = 0; k < n; ++k) {
        T p[TR], q[TC];
#pragma unroll
        for (int r = 0; r < TR; ++r) p[r] = s[k * LD + ti + RT * r];
#pragma unroll
        for (int c = 0; c < TC; ++c) q[c] = s[k * LD + tj + CT * c];
#pragma unroll
        for (int r = 0; r < TR; ++r)
#pragma unroll
            for (int c = 0; c < TC; ++c) acc[r][c] += p[r] * q[c];
    }
    group_sync<NMAX>();
#pragma unroll
    for (int r = 0; r < TR; ++r)
#pragma unroll
        for (int c = 0; c < TC; ++c) {
            const int i = ti + RT * r, j = tj + CT * c;
            if (i < n && j < n) s[i * LD + j] = acc[r][c];
        }
    group_sync<NMAX>();
}

// The LAUUM phase: tiles for NMAX = 32, rows otherwise. Same call, H200, batch 100000, tiles
// against rows: LAUUM n = 24 / 32 float64 1.09 / 1.07x, float32 1.32 / 1.38x; POTRI and POTI
// n = 32 float32 1.14 / 1.13x, float64 1.01x (its TRTRI phase dominates); at NMAX = 16 (4 x 4
// tiles) 0.83-0.98x, so rows stay there (reports/gpu_20261126/ab_lauum_tiles.md).
template <typename T, int NMAX>
__device__ void chol_lauum_phase(T* s, int n, int t) {
    if constexpr (NMAX == 32) chol_lauum_tiles<T, NMAX>(s, n, t);
    else chol_lauum_rows<T, NMAX>(s, n, t);
}

// Load the referenced triangle of the matrix at `a` into the tile s in lower form (the other
// triangle becomes zero): thread r reads column r of each row (coalesced), all loads in flight
// before the first shared store. Ends with a group barrier. (Guarded loads here: common.cuh
// clamped_offset measured 3-7 % slower at n = 32 on the H100 -- more spills under the register
// cap --, reports/gpu_20261125d/ab_clamped_loads.md.)
template <typename T, int NMAX>
__device__ __forceinline__ void chol_load_lower(T* s, const T* a, index_t lda, int n, int r,
                                                int lower, bool active) {
    constexpr int LD = chol_ld<NMAX>();
    T v[NMAX];
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
        const bool ref = active && i < n && r < n && (lower ? (r <= i) : (r >= i));
        v[i] = ref ? a[i * lda + r] : T(0);
    }
#pragma unroll
    for (int i = 0; i < NMAX; ++i)
        if (i < n && r < n) { if (lower) s[i * LD + r] = v[i]; else s[r * LD + i] = v[i]; }
    group_sync<NMAX>();
}

template <typename T, int NMAX, bool OUT>
__global__ void chol_small(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch,
                           int ops, int lower, int unit, int* __restrict__ info,
                           const T* __restrict__ A_in) {
    constexpr int LD = chol_ld<NMAX>();
    extern __shared__ __align__(16) unsigned char chol_smem[];
    const int per_block = blockDim.x / NMAX;
    const int m = threadIdx.x / NMAX;             // matrix slot in the block
    const int r = threadIdx.x % NMAX;             // row / column owned by this thread
    T* s = reinterpret_cast<T*>(chol_smem) + m * chol_tile<NMAX>();
    const bool symmetric_out = (ops & CHOL_LAUUM) != 0;

    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const index_t k = base + m;
        const bool active = k < batch;
        T* a = A + (active ? k : 0) * stride;
        chol_load_lower<T, NMAX>(s, OUT ? A_in + (active ? k : 0) * stride : a, lda, n, r, lower,
                                 active);
        int fail = 0;
        if (ops & CHOL_POTRF) fail = chol_potrf_phase<T, NMAX>(s, n, r);
        if (ops & CHOL_TRTRI) {
            const bool u = (ops & CHOL_POTRF) ? false : unit != 0;
            int tfail;
            if constexpr (NMAX == 64) tfail = chol_trtri_blocked<T>(s, n, r, u);
            else tfail = chol_trtri_phase<T, NMAX>(s, n, r, u);
            if (!(ops & CHOL_POTRF)) fail = tfail;
        }
        if (ops & CHOL_LAUUM) chol_lauum_phase<T, NMAX>(s, n, r);
        if (active) {
            if (r < n) {
#pragma unroll
                for (int i = 0; i < NMAX; ++i)
                    if (i < n) a[i * lda + r] = (lower || symmetric_out) ? s[i * LD + r] : s[r * LD + i];
            }
            if (r == 0 && info != nullptr) info[k] = fail;
        }
        group_sync<NMAX>();                       // the tile is reused by the next matrix
    }
}

// chol_panel<T>: one step of the left-looking blocked Cholesky for n > 32 (launcher:
// linalg/_cuda/cholesky.py potrf_panels). On entry the panel, columns j0 .. j0 + w - 1 of the
// lower form (w = min(32, n - j0)), already holds A - L(:, :j0) L(j0 : j0 + w, :j0)^T (the
// launcher's GEMM). The kernel factors the diagonal block (chol_potrf_phase), solves the rows
// below against it, x L_D^T = a (one row per lane in registers, 32 rows a chunk staged through
// shared memory so that global loads and stores stay coalesced), and writes the zeros of the
// diagonal block's rows in the other triangle: the whole factor is then done in n / 32 panel
// launches and GEMMs, with no separate TRSM or zeroing pass. lower = 0 works on the upper form
// U = L^T in place (the panel is the row block j0 .. j0 + w - 1; tiles are read transposed).
// One warp a matrix, blockDim.x / 32 matrices a block, grid stride over the batch. Loads are
// unguarded (common.cuh clamped_offset): H100, float64, batch 10240, the panels went from 66 to
// 85-89 % of the copy bandwidth and POTRF n = 64 / 128 / 256 from 0.42 / 1.83 / 8.47 ms to 0.37
// / 1.59 / 7.37 (reports/gpu_20261125d). Measured and not kept: partial sums in the solve's
// FMA chain (within 1 %), the diagonal block packed in shared memory (12.9 instead of 17.2 KB
// a matrix: within 1 %, the 168 registers bind the occupancy first; a 128-register cap spills
// and loses 4-14 % in float64; scripts/probe_potrf_panels.py).
// info: first != 0 writes it (j0 + j or 0); later panels keep an earlier failure.
// Out of place (OUT): the panel's input is A_in's entry (same lda and stride as A, no overlap)
// plus, past the first panel (j0 > 0), A's, where the launcher's GEMM wrote -L L^T with beta =
// 0: a call that keeps its input reads it once, in the panels, and never copies it.
template <int NMAX>
__host__ __device__ constexpr int chol_panel_smem() { return 2 * chol_tile<NMAX>() + NMAX; }

template <typename T, bool OUT>
__global__ void chol_panel(T* __restrict__ A, index_t lda, index_t stride, int n, int j0,
                           index_t batch, int lower, int first, int* __restrict__ info,
                           const T* __restrict__ A_in) {
    constexpr int NMAX = 32, LD = chol_ld<NMAX>();
    extern __shared__ __align__(16) unsigned char chol_panel_smem_raw[];
    const int per_block = blockDim.x / NMAX;
    const int m = threadIdx.x / NMAX, r = threadIdx.x % NMAX;
    T* s = reinterpret_cast<T*>(chol_panel_smem_raw) + m * chol_panel_smem<NMAX>();
    T* c = s + chol_tile<NMAX>();
    T* dinv = c + chol_tile<NMAX>();
    const int w = n - j0 < NMAX ? n - j0 : NMAX;
    const int below = n - j0 - w;
    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const index_t k = base + m;
        const bool active = k < batch;
        T* a = A + (active ? k : 0) * stride + (index_t)j0 * lda + j0;   // diagonal block
        const T* a_in = OUT ? A_in + (active ? k : 0) * stride + (index_t)j0 * lda + j0 : a;
        // Diagonal block in lower form (lane r reads column r of row i: coalesced both ways).
        {
            T v[NMAX];
#pragma unroll
            for (int i = 0; i < NMAX; ++i) {
                const index_t o = clamped_offset(i, r, w, w, lower, lda);
                const T raw = OUT ? a_in[o] + (j0 ? a[o] : T(0)) : a[o];
                v[i] = (active && i < w && r < w && (lower ? r <= i : r >= i)) ? raw : T(0);
            }
#pragma unroll
            for (int i = 0; i < NMAX; ++i)
                if (i < w && r < w) { if (lower) s[i * LD + r] = v[i]; else s[r * LD + i] = v[i]; }
        }
        __syncwarp();
        const int fail = chol_potrf_phase<T, NMAX>(s, w, r);
        if (r < w) dinv[r] = T(1) / s[r * LD + r];
        __syncwarp();
        for (int cb = 0; cb < below; cb += NMAX) {
            const int rows = below - cb < NMAX ? below - cb : NMAX;
            T* p = lower ? a + (index_t)(w + cb) * lda : a + w + cb;      // chunk origin
            const T* p_in = lower ? a_in + (index_t)(w + cb) * lda : a_in + w + cb;
            // c[row][col]: row = panel row (of L), col = panel column.
            {
                T v[NMAX];
#pragma unroll
                for (int i = 0; i < NMAX; ++i) {
                    const index_t o = lower ? clamped_offset(i, r, rows, w, -1, lda)
                                            : clamped_offset(i, r, w, rows, -1, lda);
                    v[i] = OUT ? p_in[o] + (j0 ? p[o] : T(0)) : p[o];
                }
#pragma unroll
                for (int i = 0; i < NMAX; ++i) {
                    if (lower) { if (i < rows && r < w) c[i * LD + r] = v[i]; }
                    else       { if (i < w && r < rows) c[r * LD + i] = v[i]; }
                }
            }
            __syncwarp();
            T x[NMAX];
#pragma unroll
            for (int j = 0; j < NMAX; ++j) x[j] = c[r * LD + j];
#pragma unroll
            for (int j = 0; j < NMAX; ++j) {
                if (j >= w) break;
                T v = x[j];
#pragma unroll
                for (int q = 0; q < j; ++q) v -= x[q] * s[j * LD + q];
                x[j] = v * dinv[j];
            }
#pragma unroll
            for (int j = 0; j < NMAX; ++j) if (j < w) c[r * LD + j] = x[j];
            __syncwarp();
#pragma unroll
            for (int i = 0; i < NMAX; ++i) {
                if (lower) { if (active && i < rows && r < w) p[(index_t)i * lda + r] = c[i * LD + r]; }
                else       { if (active && i < w && r < rows) p[(index_t)i * lda + r] = c[r * LD + i]; }
            }
            __syncwarp();
        }
        if (active) {
            // The factor's diagonal block (zeros in its other triangle), then the zeros of its
            // rows outside the lower (upper) form: right of it (left of it for upper).
#pragma unroll
            for (int i = 0; i < NMAX; ++i)
                if (i < w && r < w) a[(index_t)i * lda + r] = lower ? s[i * LD + r] : s[r * LD + i];
            T* row0 = a - (lower ? 0 : j0);
            const int from = lower ? w : 0, to = lower ? n - j0 : j0;
            for (int i = 0; i < w; ++i)
                for (int col = from + r; col < to; col += NMAX) row0[(index_t)i * lda + col] = T(0);
            if (r == 0 && info != nullptr) {
                if (first) info[k] = fail ? j0 + fail : 0;
                else if (fail && info[k] == 0) info[k] = j0 + fail;
            }
        }
        __syncwarp();
    }
}

// chol_solve<T, NMAX>: POSV (factored == 0) or POTRS (factored == 1) for n <= NMAX in one launch
// (launcher: linalg/_cuda/cholesky.py chol_solve). POSV computes the factor of A in shared
// memory with the potrf phase of chol_small and never writes it back (POSV returns X only);
// POTRS loads the given factor (info: its first zero or non-finite diagonal entry). Then thread
// r of a matrix's group solves right-hand side c0 + r, L y = b and L^T x = y, in registers,
// reading the factor from shared memory (every thread of the group reads the same entry: a
// broadcast). Chunks of NMAX right-hand sides; B is (batch, n, nrhs) with leading dimension ldb,
// overwritten by X (coalesced: the threads of a group read consecutive columns of a row); with
// OUT, B is read from B_in (same ldb and stride, no overlap) and X written to B (chol_small's OUT).
// POSV's info is potrf's (X is undefined where it fails).
template <int NMAX>
__host__ __device__ constexpr int chol_solve_smem() { return chol_tile<NMAX>() + NMAX; }

template <typename T, int NMAX, bool OUT>
__global__ void chol_solve(const T* __restrict__ A, index_t lda, index_t stride, T* __restrict__ B,
                           index_t ldb, index_t stride_b, int n, int nrhs, index_t batch,
                           int lower, int factored, int* __restrict__ info,
                           const T* __restrict__ B_in) {
    constexpr int LD = chol_ld<NMAX>();
    extern __shared__ __align__(16) unsigned char chol_solve_smem_raw[];
    const int per_block = blockDim.x / NMAX;
    const int m = threadIdx.x / NMAX, r = threadIdx.x % NMAX;
    T* s = reinterpret_cast<T*>(chol_solve_smem_raw) + m * chol_solve_smem<NMAX>();
    T* dinv = s + chol_tile<NMAX>();
    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const index_t k = base + m;
        const bool active = k < batch;
        chol_load_lower<T, NMAX>(s, A + (active ? k : 0) * stride, lda, n, r, lower, active);
        int fail = 0;
        if (!factored) {
            fail = chol_potrf_phase<T, NMAX>(s, n, r);
        } else {
            for (int i = n - 1; i >= 0; --i)          // the first bad diagonal entry
                if (!is_finite_nonzero(s[i * LD + i])) fail = i + 1;
        }
        if (r < n) dinv[r] = T(1) / s[r * LD + r];
        group_sync<NMAX>();
        T* b = B + (active ? k : 0) * stride_b;
        const T* b_in = OUT ? B_in + (active ? k : 0) * stride_b : b;
        for (int c0 = 0; c0 < nrhs; c0 += NMAX) {
            const int col = c0 + r;
            const bool mine = active && col < nrhs;
            T x[NMAX];
            // A full chunk: unguarded loads (kept in flight together). H100, batch 100000,
            // same call: POTRS n rhs float32 n = 16 0.134 -> 0.113 ms, float64 POSV n = 16
            // 0.211 -> 0.192 (reports/gpu_20261125e/ab_prep_branches.md).
            if (n == NMAX && c0 + NMAX <= nrhs) {
#pragma unroll
                for (int i = 0; i < NMAX; ++i) x[i] = b_in[(index_t)i * ldb + col];
            } else {
#pragma unroll
                for (int i = 0; i < NMAX; ++i) x[i] = (mine && i < n) ? b_in[(index_t)i * ldb + col] : T(0);
            }
            // Both solves column by column (axpy form): once x_i is final, every later entry
            // takes its term at once, independent FMAs, where a dot product a row chained
            // i dependent FMAs.
#pragma unroll
            for (int i = 0; i < NMAX; ++i) {                 // L y = b
                if (i >= n) break;
                x[i] *= dinv[i];
#pragma unroll
                for (int k = i + 1; k < NMAX; ++k)
                    if (k < n) x[k] -= s[k * LD + i] * x[i];
            }
#pragma unroll
            for (int i = NMAX - 1; i >= 0; --i) {            // L^T x = y
                if (i >= n) continue;
                x[i] *= dinv[i];
#pragma unroll
                for (int k = 0; k < i; ++k) x[k] -= s[i * LD + k] * x[i];
            }
            if (mine) {
#pragma unroll
                for (int i = 0; i < NMAX; ++i) if (i < n) b[(index_t)i * ldb + col] = x[i];
            }
        }
        if (active && r == 0 && info != nullptr) info[k] = fail;
        group_sync<NMAX>();                       // the tile is reused by the next matrix
    }
}

// chol_block<T>: the chol_small chains (ops = CHOL_POTRF | CHOL_TRTRI | CHOL_LAUUM, same order,
// info and output conventions) for ONE_LAUNCH_MAX < n <= CHOL_BLOCK_MAX (65..128) on small
// batches (launcher: linalg/_cuda/triangular.py chol_block, routed by one_launch): there the
// panels' and the vendor's several launches cost more than the work. One matrix a block (a grid
// stride over the batch). The lower form of the matrix lives in registers, a 4 x 4 tile a
// thread: tile (I, K), K <= I, in thread I (I + 1) / 2 + K (ceil(n / 4) (ceil(n / 4) + 1) / 2
// threads, 544 at n = 128); the strict upper part of a diagonal tile is zero, the padding beyond
// n the identity. Each phase is LAPACK's blocked right-looking order with 4 x 4 blocks: a step
// a tile row or column, its pieces broadcast through shared memory (double-buffered by step
// parity), the rest of the step a rank-4 update with 64 independent FMAs a thread:
//   potrf: the diagonal tile's thread factors it (potf2) -> barrier -> the column's threads
//     solve X L_JJ^T = A_IJ and broadcast X -> barrier -> A_IK -= L_IJ L_KJ^T, J < K <= I;
//   trtri (X = L^-1, by tile rows): the diagonal thread inverts L_JJ (trti2), the column's
//     threads broadcast L_IJ and start w_IJ at 0 -> barrier -> the row's threads finish
//     X_JC = L_JJ^-1 W_JC and broadcast it -> barrier -> W_IC -= L_IJ X_JC, I > J >= C;
//   lauum (S = X^T X, lower): the row's threads broadcast X_KC and start S_KC at 0 -> barrier
//     -> S_IC += X_KI^T X_KC, C <= I <= K.
// (Scalar steps -- a column a barrier -- ran ~1 us a column on the H100: latency, not work.)
// A failing matrix (not positive definite, zero or non-finite diagonal) runs to the end like
// its neighbours (its output is undefined, its info says where it failed).
constexpr int CHOL_BLOCK_MAX = 128;
constexpr int CHOL_BLOCK_TILES = CHOL_BLOCK_MAX / 4;
constexpr int CHOL_BLOCK_THREADS = (CHOL_BLOCK_TILES * (CHOL_BLOCK_TILES + 1) / 2 + 31) / 32 * 32;
// One parity of the broadcast buffers: a 4 x 4 diagonal tile (+ 4 reciprocals), a tile column
// (n x 4, row-major) and a tile row (4 x n).
constexpr int CHOL_DIAG = 0, CHOL_COLUMN = 32, CHOL_ROW = CHOL_COLUMN + 4 * CHOL_BLOCK_MAX;
constexpr int CHOL_BUFFER = CHOL_ROW + 4 * CHOL_BLOCK_MAX;

// Four consecutive shared entries (16- or 32-byte aligned) in 128-bit loads and stores.
__device__ __forceinline__ void load4(const float* p, float (&x)[4]) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    x[0] = q.x, x[1] = q.y, x[2] = q.z, x[3] = q.w;
}
__device__ __forceinline__ void load4(const double* p, double (&x)[4]) {
    const double2 q0 = reinterpret_cast<const double2*>(p)[0];
    const double2 q1 = reinterpret_cast<const double2*>(p)[1];
    x[0] = q0.x, x[1] = q0.y, x[2] = q1.x, x[3] = q1.y;
}
__device__ __forceinline__ void store4(float* p, const float (&x)[4]) {
    *reinterpret_cast<float4*>(p) = make_float4(x[0], x[1], x[2], x[3]);
}
__device__ __forceinline__ void store4(double* p, const double (&x)[4]) {
    reinterpret_cast<double2*>(p)[0] = make_double2(x[0], x[1]);
    reinterpret_cast<double2*>(p)[1] = make_double2(x[2], x[3]);
}

// The registers of one thread: its tile (rows 4 I.., columns 4 K..) of the lower form.
template <typename T>
struct CholTile {
    T a[4][4];
    int I, K;
    bool active;
};

// The first failing column (1-based) of a step, kept for the matrix in shared memory.
__device__ __forceinline__ void chol_block_fail(int* fail, int column) {
    if (*fail == 0) *fail = column;
}

template <typename T>
__device__ void chol_block_potrf(CholTile<T>& t, T* buffers, int* fail, int n, int tiles) {
    for (int J = 0; J < tiles; ++J) {
        T* buf = buffers + (J & 1) * CHOL_BUFFER;
        if (t.active && t.I == J && t.K == J) {   // potf2 on the diagonal tile
            int bad = 0;
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const T d = t.a[c][c];
                if (!(d > T(0)) && bad == 0 && 4 * J + c < n) bad = 4 * J + c + 1;
                const T inv = rsqrt(d);           // not sqrt and a division: this
                t.a[c][c] = d * inv;              // chain is the step's critical path
                buf[CHOL_DIAG + 16 + c] = inv;
#pragma unroll
                for (int r = c + 1; r < 4; ++r) t.a[r][c] *= inv;
#pragma unroll
                for (int r = c + 1; r < 4; ++r)
#pragma unroll
                    for (int q = c + 1; q <= r; ++q) t.a[r][q] -= t.a[r][c] * t.a[q][c];
            }
#pragma unroll
            for (int r = 0; r < 4; ++r) {
#pragma unroll
                for (int c = r + 1; c < 4; ++c) t.a[r][c] = T(0);
                store4(buf + CHOL_DIAG + 4 * r, t.a[r]);
            }
            if (bad && fail != nullptr) chol_block_fail(fail, bad);
        }
        __syncthreads();
        if (t.active && t.K == J && t.I > J) {    // X L_JJ^T = A_IJ, row by row
            T l[4][4], inv[4];
#pragma unroll
            for (int r = 0; r < 4; ++r) load4(buf + CHOL_DIAG + 4 * r, l[r]);
            load4(buf + CHOL_DIAG + 16, inv);
#pragma unroll
            for (int r = 0; r < 4; ++r) {
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    T x = t.a[r][c];
#pragma unroll
                    for (int q = 0; q < c; ++q) x -= t.a[r][q] * l[c][q];
                    t.a[r][c] = x * inv[c];
                }
                store4(buf + CHOL_COLUMN + 4 * (4 * t.I + r), t.a[r]);
            }
        }
        __syncthreads();
        if (t.active && t.K > J) {                // A_IK -= L_IJ L_KJ^T
            T li[4][4], lk[4][4];
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                load4(buf + CHOL_COLUMN + 4 * (4 * t.I + r), li[r]);
                load4(buf + CHOL_COLUMN + 4 * (4 * t.K + r), lk[r]);
            }
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    T x = t.a[r][c];
#pragma unroll
                    for (int q = 0; q < 4; ++q) x -= li[r][q] * lk[c][q];
                    t.a[r][c] = x;
                }
        }
    }
}

template <typename T>
__device__ void chol_block_trtri(CholTile<T>& t, T* buffers, int* fail, int n, int tiles,
                                 bool unit) {
    for (int J = 0; J < tiles; ++J) {
        T* buf = buffers + (J & 1) * CHOL_BUFFER;
        if (t.active && t.I == J && t.K == J) {   // trti2 on the diagonal tile
            int bad = 0;
            T inv[4], x[4][4];
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                if (!unit && !is_finite_nonzero(t.a[c][c]) && bad == 0 && 4 * J + c < n)
                    bad = 4 * J + c + 1;
                inv[c] = unit ? T(1) : T(1) / t.a[c][c];
            }
#pragma unroll
            for (int c = 0; c < 4; ++c) {
#pragma unroll
                for (int r = 0; r < c; ++r) x[r][c] = T(0);
                x[c][c] = inv[c];
#pragma unroll
                for (int r = c + 1; r < 4; ++r) {
                    T acc = T(0);
#pragma unroll
                    for (int q = c; q < r; ++q) acc += t.a[r][q] * x[q][c];
                    x[r][c] = -inv[r] * acc;
                }
            }
#pragma unroll
            for (int r = 0; r < 4; ++r) {
#pragma unroll
                for (int c = 0; c < 4; ++c) t.a[r][c] = x[r][c];
                store4(buf + CHOL_DIAG + 4 * r, t.a[r]);
                store4(buf + CHOL_ROW + r * CHOL_BLOCK_MAX + 4 * J, t.a[r]);
            }
            if (bad && fail != nullptr) chol_block_fail(fail, bad);
        }
        if (t.active && t.K == J && t.I > J) {    // broadcast L_IJ; W_IJ starts at 0
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                store4(buf + CHOL_COLUMN + 4 * (4 * t.I + r), t.a[r]);
#pragma unroll
                for (int c = 0; c < 4; ++c) t.a[r][c] = T(0);
            }
        }
        __syncthreads();
        if (t.active && t.I == J && t.K < J) {    // X_JC = L_JJ^-1 W_JC
            T d[4][4], x[4][4];
#pragma unroll
            for (int r = 0; r < 4; ++r) load4(buf + CHOL_DIAG + 4 * r, d[r]);
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    T acc = T(0);
#pragma unroll
                    for (int q = 0; q <= r; ++q) acc += d[r][q] * t.a[q][c];
                    x[r][c] = acc;
                }
#pragma unroll
            for (int r = 0; r < 4; ++r) {
#pragma unroll
                for (int c = 0; c < 4; ++c) t.a[r][c] = x[r][c];
                store4(buf + CHOL_ROW + r * CHOL_BLOCK_MAX + 4 * t.K, t.a[r]);
            }
        }
        __syncthreads();
        if (t.active && t.I > J && t.K <= J) {    // W_IC -= L_IJ X_JC
            T l[4][4], x[4][4];
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                load4(buf + CHOL_COLUMN + 4 * (4 * t.I + r), l[r]);
                load4(buf + CHOL_ROW + r * CHOL_BLOCK_MAX + 4 * t.K, x[r]);
            }
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    T acc = t.a[r][c];
#pragma unroll
                    for (int q = 0; q < 4; ++q) acc -= l[r][q] * x[q][c];
                    t.a[r][c] = acc;
                }
        }
    }
}

template <typename T>
__device__ void chol_block_lauum(CholTile<T>& t, T* buffers, int tiles) {
    for (int Kr = 0; Kr < tiles; ++Kr) {
        T* buf = buffers + (Kr & 1) * CHOL_BUFFER;
        if (t.active && t.I == Kr) {              // broadcast X_KC; S_KC starts at 0
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                store4(buf + CHOL_ROW + r * CHOL_BLOCK_MAX + 4 * t.K, t.a[r]);
#pragma unroll
                for (int c = 0; c < 4; ++c) t.a[r][c] = T(0);
            }
        }
        __syncthreads();
        if (t.active && t.I <= Kr) {              // S_IC += X_KI^T X_KC
            T xi[4][4], xc[4][4];
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                load4(buf + CHOL_ROW + q * CHOL_BLOCK_MAX + 4 * t.I, xi[q]);
                load4(buf + CHOL_ROW + q * CHOL_BLOCK_MAX + 4 * t.K, xc[q]);
            }
#pragma unroll
            for (int r = 0; r < 4; ++r)
#pragma unroll
                for (int c = 0; c < 4; ++c) {
                    T acc = t.a[r][c];
#pragma unroll
                    for (int q = 0; q < 4; ++q) acc += xi[q][r] * xc[q][c];
                    t.a[r][c] = acc;
                }
        }
    }
}

template <typename T>
__global__ void __launch_bounds__(CHOL_BLOCK_THREADS, 1)
chol_block(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch, int ops,
           int lower, int unit, int* __restrict__ info) {
    __shared__ __align__(16) T buffers[2 * CHOL_BUFFER];
    __shared__ int fail;
    const int tiles = (n + 3) / 4;
    CholTile<T> t;
    {
        const int tid = threadIdx.x;
        int ti = (int)((sqrtf(8.0f * tid + 1.0f) - 1.0f) * 0.5f);
        while ((ti + 1) * (ti + 2) / 2 <= tid) ++ti;          // float rounding
        while (ti * (ti + 1) / 2 > tid) --ti;
        t.I = ti, t.K = tid - ti * (ti + 1) / 2;
        t.active = ti < tiles;
    }
    const bool symmetric_out = (ops & CHOL_LAUUM) != 0;
    const int i0 = 4 * t.I, k0 = 4 * t.K;
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        // The tile's corner in the lower and in the upper form; offsets r * lda + c only (the
        // compiler hoists what does not depend on m: 16 full offsets would spill).
        T* low = a + (index_t)i0 * lda + k0;
        T* up = a + (index_t)k0 * lda + i0;
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const int i = i0 + r, k = k0 + c;
                T v = (i == k && i >= n) ? T(1) : T(0);       // the padding: identity
                if (t.active && k <= i && i < n) v = lower ? low[r * lda + c] : up[c * lda + r];
                t.a[r][c] = v;
            }
        if (threadIdx.x == 0) fail = 0;
        __syncthreads();                          // fail, and the last matrix's buffers
        if (ops & CHOL_POTRF) chol_block_potrf<T>(t, buffers, &fail, n, tiles);
        if (ops & CHOL_TRTRI) {
            __syncthreads();                      // each phase reuses the buffers
            if (ops & CHOL_POTRF) {
                chol_block_trtri<T>(t, buffers, nullptr, n, tiles, false);
            } else {
                chol_block_trtri<T>(t, buffers, &fail, n, tiles, unit != 0);
            }
        }
        if (ops & CHOL_LAUUM) {
            __syncthreads();
            chol_block_lauum<T>(t, buffers, tiles);
        }
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const int i = i0 + r, k = k0 + c;
                if (!t.active || k > i || i >= n) continue;
                const T v = t.a[r][c];
                const bool own_low = lower || symmetric_out;      // LAUUM's S is full
                T* here = own_low ? low + r * lda + c : up + c * lda + r;
                T* mirror = own_low ? up + c * lda + r : low + r * lda + c;
                *here = v;
                if (k < i) *mirror = symmetric_out ? v : T(0);
            }
        __syncthreads();                          // every failure of this matrix is in
        if (threadIdx.x == 0 && info != nullptr) info[m] = fail;
    }
}

// chol_tensor<T, NT, OUT>: POTRF of 32 < n <= 32 NT (NT = 2, 3, 4) in one launch, the whole lower
// triangle of one matrix in shared memory, one matrix a block at a time (grid stride), so that
// the batch is read once and written once (the panel path, chol_panel + cuBLAS GEMMs, moves
// each panel 2-3 times). Launcher: linalg/_cuda/cholesky.py potrf_tensor.
// Storage:    the lower form cut into 32 x 32 blocks (I, J), J <= I, block I (I + 1) / 2 + J at
//             CT_BLOCK doubles each, rows CT_LD = 36 apart: a DMMA fragment's loads (rows g, g +
//             8, columns q, q + 4, g < 8, q < 4) fall in distinct banks. float is widened to
//             double on the way in (the products run on the float64 tensor cores) and rounded
//             once on the way out. Entries past n hold the identity, so every step is uniform
//             and the padding factors to itself.
// Steps:      right-looking by 32-wide block columns k: warp 0 factors the diagonal block
//             (chol_potrf_phase on the block itself) and takes its reciprocals; one thread a row
//             solves the rows below, x L_kk^T = a (right-looking substitution, the row in
//             registers, L_kk's entries broadcast); then the warps update the blocks right of
//             the step, A_ij -= L_ik L_jk^T (k < j <= i), a 16 x 32 strip a warp by DMMA
//             16 x 8 x 8 fragments (the strictly upper quarter of a diagonal block skipped).
// Output:     the factor in the caller's form (lower, or U = L^T with lower = 0) with zeros in
//             the other triangle; an upper input is read transposed. With OUT the input is read
//             from A_in (same lda and stride, no overlap) and A is only written.
// info:       the first column (1-based) whose pivot is not positive (NaN too), as chol_small.
constexpr int CT_LD = 36;
constexpr int CT_BLOCK = 32 * CT_LD;

// -DCT_PROFILE (scripts/probe_chol_tensor.py profile): thread 0 of each block adds the cycles
// from one barrier to the next to ct_cycles[phase] (0 load, 1 factor, 2 solve, 3 update,
// 4 store).
#ifdef CT_PROFILE
__device__ unsigned long long ct_cycles[5];
#define CT_MARK(phase)                                                      \
    if (threadIdx.x == 0) {                                                 \
        const long long now = clock64();                                    \
        atomicAdd(&ct_cycles[phase], (unsigned long long)(now - ct_clock)); \
        ct_clock = now;                                                     \
    }
#else
#define CT_MARK(phase)
#endif

template <int NT>
__host__ __device__ constexpr int chol_tensor_blocks() { return NT * (NT + 1) / 2; }

// Dynamic shared bytes of chol_tensor<T, NT, OUT>: the blocks, then 32 reciprocals.
template <int NT>
__host__ __device__ constexpr int chol_tensor_smem() {
    return (chol_tensor_blocks<NT>() * CT_BLOCK + 32) * 8;
}

__device__ __forceinline__ double* ct_block(double* s, int I, int J) {
    return s + (I * (I + 1) / 2 + J) * CT_BLOCK;
}
__device__ __forceinline__ const double* ct_block(const double* s, int I, int J) {
    return s + (I * (I + 1) / 2 + J) * CT_BLOCK;
}

// Block row I and column J of the lower form's b-th stored block.
__device__ __forceinline__ void ct_block_place(int b, int& I, int& J) {
    I = 0;
    while ((I + 1) * (I + 2) / 2 <= b) ++I;
    J = b - I * (I + 1) / 2;
}

// A block row's staging slots for float input: 32 floats in the last 128 of the row's 288 bytes
// (its doubles 20..35), widened in place once the block's warp has read them all.
__device__ __forceinline__ float* ct_staged(double* blk, int r) {
    return reinterpret_cast<float*>(blk + r * CT_LD + 20);
}

// The input's lower form into the blocks: one cp.async a referenced entry, all in flight at once
// (the block waits for them before its first step). A warp takes 8 rows of a block at a time
// (its place found once, then the source and destination step by a row each: the address
// arithmetic of a row is a few adds, where finding the block for every row had cost the load
// phase more than its memory, reports/gpu_20261127i call 5). float64 lands in place; float in
// the rows' staging slots (ct_staged: the block's row r of 32 at slot (r, lane) whatever the
// form), then a warp a block widens them to double at their places (cp.async cannot convert;
// plain loads widened on the way, at most 8 a thread in flight, took 2.5x float64's load time).
// Ends after a barrier for float; float64's caller waits at its own.
template <typename T, int NT>
__device__ __forceinline__ void ct_load(double* s, const T* a, index_t lda, int n, int lower);

// The staging slots (ct_staged) of the `blocks` consecutive blocks at s widened to double at
// their places, a warp a block: slot (r, lane) to entry (r, lane), or (lane, r) with
// `transposed`. The caller's copies have arrived and the block has passed a barrier since;
// ends after a barrier.
__device__ __forceinline__ void ct_widen_blocks(double* s, int blocks, bool transposed) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int b = warp; b < blocks; b += warps) {
        double* blk = s + b * CT_BLOCK;
        float v[32];
#pragma unroll
        for (int r = 0; r < 32; ++r) v[r] = ct_staged(blk, r)[lane];
        __syncwarp();                             // every lane's slots read before the rows fill
#pragma unroll
        for (int r = 0; r < 32; ++r) blk[transposed ? lane * CT_LD + r : r * CT_LD + lane] = v[r];
    }
    __syncthreads();
}

template <typename T, int NT>
__device__ __forceinline__ void ct_load(double* s, const T* a, index_t lda, int n, int lower) {
    constexpr int UNITS = 4 * chol_tensor_blocks<NT>();             // (block, 8 of its rows)
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int step_i = lower ? 1 : 0, step_dst = lower ? CT_LD : 1;
    for (int u = warp; u < UNITS; u += warps) {
        int I, J;
        ct_block_place(u >> 2, I, J);
        const int r0 = 8 * (u & 3);
        // the block's row r0 + q, column lane: entry (i, j) of the lower form; an upper input
        // is read transposed, so that a row of 32 is contiguous in memory either way
        int i = 32 * I + (lower ? r0 : lane), j = 32 * J + (lower ? lane : r0);
        const T* src = a + (lower ? (index_t)i * lda + j : (index_t)j * lda + i);
        double* blk = ct_block(s, I, J);
        double* dst = blk + (lower ? r0 * CT_LD + lane : lane * CT_LD + r0);
#pragma unroll
        for (int q = 0; q < 8; ++q) {
            const bool referenced = j <= i && i < n;
            if constexpr (sizeof(T) == 8) {
                if (referenced) cp_async_element(dst, reinterpret_cast<const double*>(src));
                else *dst = i == j ? 1.0 : 0.0;
            } else {
                float* slot = ct_staged(blk, r0 + q) + lane;
                if (referenced) cp_async_element(slot, reinterpret_cast<const float*>(src));
                else *slot = i == j ? 1.0f : 0.0f;
            }
            src += lda, dst += step_dst, i += step_i, j += 1 - step_i;
        }
    }
    cp_async_wait_all();
    if constexpr (sizeof(T) == 4) {
        __syncthreads();
        ct_widen_blocks(s, chol_tensor_blocks<NT>(), !lower);
    }
}

// Entry (i, 32 J + lane) of the factor in the caller's form (zero in the other triangle).
__device__ __forceinline__ double ct_entry(const double* s, int lower, int i, int J, int lane) {
    const int I = i >> 5, r = i & 31;
    if (lower)                                                    // L(i, j)
        return (J < I || (J == I && lane <= r)) ? ct_block(s, I, J)[r * CT_LD + lane] : 0.0;
    return (J > I || (J == I && lane >= r)) ? ct_block(s, J, I)[lane * CT_LD + r] : 0.0;  // L(j, i)
}

// An n x n result into the caller's matrix, whole rows, a warp two rows at a time: their 2 NT
// entries read from shared memory before the stores go out. entry(i, J) is the entry (i, 32 J +
// lane) of the result (ct_store: the factor; cti_store: the symmetric inverse).
template <typename T, int NT, typename Entry>
__device__ __forceinline__ void ct_store_rows(T* a, index_t lda, int n, Entry entry) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int i = warp; i < n; i += 2 * warps) {
        const int i2 = i + warps;                 // the second row (past n: not stored)
        double v[2][NT];
#pragma unroll
        for (int J = 0; J < NT; ++J) {
            v[0][J] = entry(i, J);
            v[1][J] = i2 < n ? entry(i2, J) : 0.0;
        }
        T* row = a + (index_t)i * lda + lane;
        T* row2 = a + (index_t)i2 * lda + lane;
#pragma unroll
        for (int J = 0; J < NT; ++J) {
            if (32 * J + lane < n) row[32 * J] = T(v[0][J]);
            if (32 * J + lane < n && i2 < n) row2[32 * J] = T(v[1][J]);
        }
    }
}

// The factor into the caller's n x n matrix in its form, zeros in the other triangle.
template <typename T, int NT>
__device__ __forceinline__ void ct_store(T* a, index_t lda, int n, int lower, const double* s) {
    const int lane = threadIdx.x & 31;
    ct_store_rows<T, NT>(a, lda, n, [&](int i, int J) { return ct_entry(s, lower, i, J, lane); });
}

// One row of 32 below a factored 32 x 32 diagonal block l (rows LD apart, its reciprocals
// 1 / l_cc in recip): x L^T = a in place (right-looking substitution, the row in registers, L's
// entries broadcast). Used by chol_tensor and chol_global.
template <int LD>
__device__ __forceinline__ void solve_row_32(double* row, const double* l, const double* recip) {
    double x[32];
#pragma unroll
    for (int c = 0; c < 32; ++c) x[c] = row[c];
#pragma unroll
    for (int c = 0; c < 32; ++c) {
        x[c] *= recip[c];
#pragma unroll
        for (int q = c + 1; q < 32; ++q) x[q] -= x[c] * l[q * LD + c];
    }
#pragma unroll
    for (int c = 0; c < 32; ++c) row[c] = x[c];
}

// Rows below the diagonal block k: x L_kk^T = a, one row a thread, 32 rows a block row. (NT is
// not used; without the template ptxas split one of the kernel's vector shared loads in two,
// and the PTX that ran on the device is kept.)
template <int NT>
__device__ __forceinline__ void ct_solve_rows(double* s, const double* recip, int k, int t) {
    const int I = k + 1 + (t >> 5), r = t & 31;
    solve_row_32<CT_LD>(ct_block(s, I, k) + r * CT_LD, ct_block(s, k, k), recip);
}

// One 16 x 32 strip (rows 16 h ..) of A_ij -= L_ik L_jk^T by DMMA fragments.
__device__ __forceinline__ void ct_update_strip(double* s, int i, int j, int k, int h,
                                                int lane) {
    const int g = lane >> 2, q = lane & 3;
    double* c = ct_block(s, i, j) + (16 * h + g) * CT_LD + 2 * q;
    const double* pa = ct_block(s, i, k) + (16 * h + g) * CT_LD + q;
    const double* pb = ct_block(s, j, k) + g * CT_LD + q;
    const int f1 = (i == j && h == 0) ? 2 : 4;   // a diagonal block's strictly upper quarter: skip
    double acc[4][4];
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        if (f >= f1) continue;
        acc[f][0] = c[8 * f], acc[f][1] = c[8 * f + 1];
        acc[f][2] = c[8 * CT_LD + 8 * f], acc[f][3] = c[8 * CT_LD + 8 * f + 1];
    }
#pragma unroll
    for (int kk = 0; kk < 32; kk += 8) {
        const double a[4] = {-pa[kk], -pa[8 * CT_LD + kk], -pa[kk + 4], -pa[8 * CT_LD + kk + 4]};
#pragma unroll
        for (int f = 0; f < 4; ++f) {
            if (f >= f1) continue;
            const double b[2] = {pb[8 * f * CT_LD + kk], pb[8 * f * CT_LD + kk + 4]};
            dmma_16x8x8(acc[f], a, b);
        }
    }
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        if (f >= f1) continue;
        c[8 * f] = acc[f][0], c[8 * f + 1] = acc[f][1];
        c[8 * CT_LD + 8 * f] = acc[f][2], c[8 * CT_LD + 8 * f + 1] = acc[f][3];
    }
}

// The lower form's blocks factored in place (chol_tensor's steps, the kernel's comment): warp 0
// factors diagonal block k and takes its reciprocals into recip (KEEP: recip + 32 k, all NT
// kept for a solve after; else the same 32 each step); a thread a row solves the rows below;
// the warps update the trailing blocks by DMMA strips. *fail: 32 k + the block's potrf info of
// the first failing k (left as it is while no block fails). Ends after a barrier.
#ifdef CT_PROFILE
#define CT_CLOCK_PARAM , long long& ct_clock
#define CT_CLOCK_ARG , ct_clock
#else
#define CT_CLOCK_PARAM
#define CT_CLOCK_ARG
#endif
template <int NT, bool KEEP>
__device__ __forceinline__ void ct_factor(double* s, double* recip, int n,
                                          int* fail CT_CLOCK_PARAM) {
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = blockDim.x >> 5;
    for (int k = 0; k < NT; ++k) {
        double* rk = KEEP ? recip + 32 * k : recip;
        if (warp == 0) {
            double* d = ct_block(s, k, k);
            const int f = chol_potrf_phase<double, 32, CT_LD>(d, min(32, n - 32 * k), lane);
            rk[lane] = 1.0 / d[lane * CT_LD + lane];
            // the first failing block wins (k ascends); an atomic: the plain test-and-set read
            // `fail` in every lane, a hazard for racecheck while lane 0 wrote it
            if (lane == 0 && f != 0) atomicCAS(fail, 0, 32 * k + f);
        }
        __syncthreads();
        CT_MARK(1);
        if (k + 1 == NT) break;
        if (t < 32 * (NT - 1 - k)) ct_solve_rows<NT>(s, rk, k, t);
        __syncthreads();
        CT_MARK(2);
        const int below = NT - 1 - k, strips = below * (below + 1);    // 2 a block
        for (int u = warp; u < strips; u += warps) {
            int ii, jj;
            ct_block_place(u >> 1, ii, jj);
            ct_update_strip(s, k + 1 + ii, k + 1 + jj, k, u & 1, lane);
        }
        __syncthreads();
        CT_MARK(3);
    }
}

// Launch bounds of chol_tensor, chol_tensor_inverse and chol_tensor_trtri: up to NT = 4 two
// blocks an SM (NT = 4's 91 KiB of shared memory let two share it); at NT = 5 / 6 (n =
// 129..192) the 136 / 190 KiB hold an SM to one block, and 384 threads (2 NT warps:
// cti_lauum's last block row, a warp a strip) run under a 168-register bound. NT = 7 would need
// 254 KiB (227 on sm_90).
template <int NT>
__host__ __device__ constexpr int ct_bound_threads() { return NT <= 4 ? 256 : 384; }
template <int NT>
__host__ __device__ constexpr int ct_bound_blocks() { return NT <= 4 ? 2 : 1; }

template <typename T, int NT, bool OUT>
__global__ void __launch_bounds__(ct_bound_threads<NT>(), ct_bound_blocks<NT>())
chol_tensor(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch, int lower,
            int* __restrict__ info, const T* __restrict__ A_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* recip = s + chol_tensor_blocks<NT>() * CT_BLOCK;
    __shared__ int fail;
    const int t = threadIdx.x;
#ifdef CT_PROFILE
    long long ct_clock = clock64();
#endif
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        ct_load<T, NT>(s, OUT ? A_in + m * stride : a, lda, n, lower);
        if (t == 0) fail = 0;
        __syncthreads();
        CT_MARK(0);
        ct_factor<NT, false>(s, recip, n, &fail CT_CLOCK_ARG);
        ct_store<T, NT>(a, lda, n, lower, s);
        if (t == 0 && info != nullptr) info[m] = fail;
        __syncthreads();                          // the blocks are reused by the next matrix
        CT_MARK(4);
    }
}

// chol_tensor_solve<T, NT, RC, FACTOR, OPERATORS, OUT>: POSV (FACTOR: A = L L^T first) or
// POTRS (A holds the factor) of 32 < n <= 32 NT with any number of right-hand sides, in one
// launch, one matrix a block at a time (grid stride), so that A's referenced triangle and B are
// read once and X written once (the two-launch path writes the factor and reads it back, and
// its solves keep only part of the factor near). Launcher: linalg/_cuda/cholesky.py
// tensor_solve.
// Storage:    the lower form as chol_tensor's blocks (the identity past n), FACTOR: factored
//             there by chol_tensor's steps (ct_factor), the NT diagonal blocks' reciprocals
//             kept; the factor is not written out (POSV returns X only). Then the right-hand
//             sides 32 RC at a time: NT x RC blocks of 32 x 32 (rows: the equations, columns:
//             right-hand sides; rows CT_LD apart), zeros past n and past nrhs.
// Solve:      OPERATORS (cts_operators, cts_solve_chunk): the diagonal blocks inverted once a
//             matrix, then W_KI = L_KI L_II^-1 and M_II = (L_II L_II^T)^-1 formed, so that
//             every step of every pass is a DMMA product of all warps: forward B_I := M_II B_I
//             and B_K -= W_KI B_I (K > I), backward B_I -= W_KI^T X_K (I < K). Else
//             (cts_substitute_chunk): a thread a column substitutes against L_II (one warp
//             busy), the warps update the blocks below / above by DMMA strips. The explicit
//             inverses of 32 x 32 diagonal blocks (as in MAGMA's TRSM) bound the residual by
//             those blocks' condition numbers, not by substitution's backward stability; the
//             tests hold both schemes to the scaled residual of test_gpu_cholesky.py.
// Output:     X into B (in place), or with OUT read from B_in (same ldb and stride, no overlap)
//             and written to B. A is only read: an upper input is read transposed (U = L^T).
// info:       FACTOR: the first column (1-based) whose pivot is not positive (NaN too), as
//             chol_tensor, that matrix's X not meaningful; else the first zero or non-finite
//             diagonal entry of the factor (triangular._diag_info's rule).
constexpr int CTS_NO_FAIL = 0x7fffffff;     // POTRS: no bad diagonal entry yet (atomicMin)

// Dynamic shared bytes of chol_tensor_solve (linalg/_cuda/cholesky.py tensor_solve_smem_bytes
// computes the same): the factor's blocks, NT x 32 reciprocals, the chunk's blocks.
template <int NT, int RC>
__host__ __device__ constexpr int chol_tensor_solve_smem() {
    return ((chol_tensor_blocks<NT>() + NT * RC) * CT_BLOCK + 32 * NT) * 8;
}

// Launch bounds of chol_tensor_solve and chol_tensor_trsm: 128 registers a thread either way;
// at NT = 4 their shared memory (167 KB with two passes) and at NT = 5 (181 KiB with one pass
// of 32; NT = 6 would need 243) hold an SM to one block, which may then have up to 512 threads
// (TENSOR_SOLVE_THREADS), elsewhere two blocks of up to 256.
template <int NT>
__host__ __device__ constexpr int cts_bound_threads() { return NT >= 4 ? 512 : 256; }
template <int NT>
__host__ __device__ constexpr int cts_bound_blocks() { return NT >= 4 ? 1 : 2; }

// The right-hand sides' block (I, rho) of the chunk in shared memory.
template <int RC>
__device__ __forceinline__ double* cts_rhs(double* z, int I, int rho) {
    return z + (I * RC + rho) * CT_BLOCK;
}
template <int RC>
__device__ __forceinline__ const double* cts_rhs(const double* z, int I, int rho) {
    return z + (I * RC + rho) * CT_BLOCK;
}

// Columns c0 .. c0 + 32 RC - 1 of B (n x nrhs, rows ldb apart) into the chunk's blocks, zeros
// past n and nrhs: a warp a (row, 32 columns) segment, coalesced, by cp.async (the caller
// waits); float into the blocks' float slots (ct_staged: the block's row r of 32 at slot (r,
// lane)), widened at their places by cts_widen_pass once they have arrived (plain loads widened
// on the way, at most 8 a thread in flight, held float TRMM at 0.34-1.03x the paths before it:
// reports/gpu_20261129e calls 1-2 and 7).
template <typename T, int NT, int RC>
__device__ __forceinline__ void cts_load_rhs(double* z, const T* b, index_t ldb, int n, int nrhs,
                                             int c0) {
    constexpr int SEGS = 32 * NT * RC;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if constexpr (sizeof(T) == 8) {
#pragma unroll 4
        for (int u = warp; u < SEGS; u += warps) {
            const int i = u / RC, rho = u % RC, col = c0 + 32 * rho + lane;
            double* dst = cts_rhs<RC>(z, i >> 5, rho) + (i & 31) * CT_LD + lane;
            if (i < n && col < nrhs)
                cp_async_element(dst, reinterpret_cast<const double*>(b) + (index_t)i * ldb + col);
            else
                *dst = 0.0;
        }
    } else {
#pragma unroll 4
        for (int u = warp; u < SEGS; u += warps) {
            const int i = u / RC, rho = u % RC, col = c0 + 32 * rho + lane;
            float* slot = ct_staged(cts_rhs<RC>(z, i >> 5, rho), i & 31) + lane;
            if (i < n && col < nrhs)
                cp_async_element(slot, reinterpret_cast<const float*>(b) + (index_t)i * ldb + col);
            else
                *slot = 0.0f;
        }
    }
}

// A float pass (cts_load_rhs, ctt_load_rows) widened from its blocks' float slots once its copies
// have arrived and the block has passed a barrier, slot (r, lane) to entry (r, lane), or (lane,
// r) with `transposed` (ctt_load_rows' rows-as-columns layout); ends after a barrier. Nothing
// for float64, which lands in place.
template <typename T, int NT, int RC>
__device__ __forceinline__ void cts_widen_pass(double* z, bool transposed) {
    if constexpr (sizeof(T) == 4) ct_widen_blocks(z, NT * RC, transposed);
}

// The chunk's solution into X's columns c0 .. (rows < n, columns < nrhs), coalesced.
template <typename T, int NT, int RC>
__device__ __forceinline__ void cts_store_rhs(T* x, index_t ldb, int n, int nrhs, int c0,
                                              const double* z) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int u = warp; u < n * RC; u += warps) {
        const int i = u / RC, rho = u % RC, col = c0 + 32 * rho + lane;
        if (col < nrhs)
            x[(index_t)i * ldb + col] = T(cts_rhs<RC>(z, i >> 5, rho)[(i & 31) * CT_LD + lane]);
    }
}

// x := L^-1 x (forward substitution) and x := L^-T x (backward) for a diagonal block l (lower,
// rows CT_LD apart, reciprocals 1 / l_cc in recip); both read only l's strictly lower entries.
__device__ __forceinline__ void cts_forward(double (&x)[32], const double* l,
                                            const double* recip) {
#pragma unroll
    for (int c = 0; c < 32; ++c) {
        x[c] *= recip[c];
#pragma unroll
        for (int q = c + 1; q < 32; ++q) x[q] -= x[c] * l[q * CT_LD + c];
    }
}
__device__ __forceinline__ void cts_backward(double (&x)[32], const double* l,
                                             const double* recip) {
#pragma unroll
    for (int c = 31; c >= 0; --c) {
        x[c] *= recip[c];
#pragma unroll
        for (int q = 0; q < c; ++q) x[q] -= x[c] * l[c * CT_LD + q];
    }
}

// Column p (entries CT_LD apart) of a right-hand-side block solved against the diagonal block
// l in place: FORWARD x := L^-1 x or BACKWARD x := L^-T x. (Both in one call spilled 4.3 KB a
// thread at the 128-register bound; two calls in a row do not.)
template <bool FORWARD>
__device__ __forceinline__ void cts_solve_column(double* p, const double* l, const double* recip) {
    double x[32];
#pragma unroll
    for (int c = 0; c < 32; ++c) x[c] = p[c * CT_LD];
    if (FORWARD)
        cts_forward(x, l, recip);
    else
        cts_backward(x, l, recip);
#pragma unroll
    for (int c = 0; c < 32; ++c) p[c * CT_LD] = x[c];
}

// A 16 x 32 strip of C in DMMA accumulators: acc[f] holds C(16 h + g, 8 f + 2 q, + 1) and
// C(16 h + g + 8, ...) (g = lane / 4, q = lane % 4; dmma_16x8x8's layout).
__device__ __forceinline__ void cts_strip_zero(double (&acc)[4][4]) {
#pragma unroll
    for (int f = 0; f < 4; ++f) acc[f][0] = acc[f][1] = acc[f][2] = acc[f][3] = 0.0;
}
__device__ __forceinline__ void cts_strip_load(double (&acc)[4][4], const double* blk, int h,
                                               int lane) {
    const double* c = blk + (16 * h + (lane >> 2)) * CT_LD + 2 * (lane & 3);
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        acc[f][0] = c[8 * f], acc[f][1] = c[8 * f + 1];
        acc[f][2] = c[8 * CT_LD + 8 * f], acc[f][3] = c[8 * CT_LD + 8 * f + 1];
    }
}
__device__ __forceinline__ void cts_strip_store(double* blk, const double (&acc)[4][4], int h,
                                                int lane) {
    double* c = blk + (16 * h + (lane >> 2)) * CT_LD + 2 * (lane & 3);
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        c[8 * f] = acc[f][0], c[8 * f + 1] = acc[f][1];
        c[8 * CT_LD + 8 * f] = acc[f][2], c[8 * CT_LD + 8 * f + 1] = acc[f][3];
    }
}

// acc += op(A) Y on the strip's rows (SUB: acc -= op(A) Y) for 32 x 32 operands by DMMA
// fragments; a(m, k) and y(k, n) give the operands' entries (the strip reads rows 16 h .. of
// op(A) only).
template <bool SUB, class OpA, class OpY>
__device__ __forceinline__ void cts_strip_mma(double (&acc)[4][4], OpA a_at, OpY y_at, int h,
                                              int lane) {
    const int g = lane >> 2, q = lane & 3, m = 16 * h + g;
    const double sign = SUB ? -1.0 : 1.0;
#pragma unroll
    for (int kk = 0; kk < 32; kk += 8) {
        const int k = kk + q;
        const double a[4] = {sign * a_at(m, k), sign * a_at(m + 8, k), sign * a_at(m, k + 4),
                             sign * a_at(m + 8, k + 4)};
#pragma unroll
        for (int f = 0; f < 4; ++f) {
            const double b[2] = {y_at(k, 8 * f + g), y_at(k + 4, 8 * f + g)};
            dmma_16x8x8(acc[f], a, b);
        }
    }
}

// Operand views of a 32 x 32 block (rows CT_LD apart): as stored, transposed, and the inverse
// L^-1 of a diagonal block whose upper triangle (diagonal included) holds L^-T (cts_operators).
struct CtsPlain {
    const double* p;
    __device__ double operator()(int i, int j) const { return p[i * CT_LD + j]; }
};
struct CtsTransposed {
    const double* p;
    __device__ double operator()(int i, int j) const { return p[j * CT_LD + i]; }
};
struct CtsInverse {                               // (L^-1)(i, j) = stored (j, i), zero for j > i
    const double* p;
    __device__ double operator()(int i, int j) const { return j <= i ? p[j * CT_LD + i] : 0.0; }
};
struct CtsInverseT {                              // (L^-T)(i, j) = stored (i, j), zero for i > j
    const double* p;
    __device__ double operator()(int i, int j) const { return i <= j ? p[i * CT_LD + j] : 0.0; }
};

// A factor's diagonal entries (the lower form's blocks) as reciprocals into recip (NT x 32),
// and into *fail the first zero or non-finite one (1-based, atomicMin over CTS_NO_FAIL;
// triangular._diag_info's rule). Ends after a barrier.
template <int NT>
__device__ __forceinline__ void ct_diagonal_reciprocals(const double* s, double* recip, int n,
                                                        int* fail) {
    for (int i = threadIdx.x; i < 32 * NT; i += blockDim.x) {
        const double d = ct_block(s, i >> 5, i >> 5)[(i & 31) * (CT_LD + 1)];
        recip[i] = 1.0 / d;
        if (i < n && !(d != 0.0 && isfinite(d))) atomicMin(fail, i + 1);
    }
    __syncthreads();
}

// Each diagonal block's inverse (threads < 32 NT; thread 32 I + j: column j of L_II^-1 by
// substitution from e_j with the reciprocals), written as row j of the block's upper triangle
// (diagonal included), which the substitution never reads: the block then holds L_II strictly
// below its diagonal and L_II^-T on and above it (CtsInverse / CtsInverseT read the inverse).
// No barrier.
template <int NT>
__device__ __forceinline__ void ct_invert_diagonal(double* s, const double* recip) {
    const int t = threadIdx.x, lane = t & 31;
    if (t < 32 * NT) {
        double* l = ct_block(s, t >> 5, t >> 5);
        const double* r = recip + 32 * (t >> 5);
        double x[32];
#pragma unroll
        for (int c = 0; c < 32; ++c) x[c] = c == lane ? 1.0 : 0.0;
        cts_forward(x, l, r);                     // the entries above row `lane` stay zero
#pragma unroll
        for (int q = 0; q < 32; ++q)
            if (q >= lane) l[lane * CT_LD + q] = x[q];
    }
}

// The factor's blocks turned into the solve's operators (threads >= 64 NT): each diagonal
// block's inverse (ct_invert_diagonal), then W_KI = L_KI L_II^-1 over L_KI (K > I) and M_II =
// L_II^-T L_II^-1 = (L_II L_II^T)^-1 over the whole diagonal block, by DMMA strips. Ends after
// a barrier.
template <int NT>
__device__ __forceinline__ void cts_operators(double* s, const double* recip) {
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = blockDim.x >> 5;
    ct_invert_diagonal<NT>(s, recip);
    __syncthreads();
    double held[4][4];                            // warp w: M_II's strip (I, h) = (w / 2, w % 2)
    if (warp < 2 * NT) {
        const double* d = ct_block(s, warp >> 1, warp >> 1);
        cts_strip_zero(held);
        cts_strip_mma<false>(held, CtsInverseT{d}, CtsInverse{d}, warp & 1, lane);
    }
    for (int u = warps - 1 - warp; u < NT * (NT - 1); u += warps) {   // W: strip h of pair b
        int K, J;
        ct_block_place(u >> 1, K, J);             // b = K (K - 1) / 2 + J with J < K
        double* w = ct_block(s, K + 1, J);
        double acc[4][4];
        cts_strip_zero(acc);
        cts_strip_mma<false>(acc, CtsPlain{w}, CtsInverse{ct_block(s, J, J)}, u & 1, lane);
        __syncwarp();                             // the strip's rows read by every lane: in place
        cts_strip_store(w, acc, u & 1, lane);
    }
    __syncthreads();                              // the inverses read by every strip above
    if (warp < 2 * NT) cts_strip_store(ct_block(s, warp >> 1, warp >> 1), held, warp & 1, lane);
    __syncthreads();
}

// The chunk's solve X = A^-1 B from the operators (threads >= 64 RC): forward by block steps
// I, B_I := M_II B_I and B_K -= W_KI B_I (K > I) from the same B_I (B_I is then X_I but for
// the later blocks' terms); backward by steps K = NT - 1 .. 1, B_I -= W_KI^T X_K (I < K).
// Starts and ends after a barrier.
template <int NT, int RC>
__device__ __forceinline__ void cts_solve_chunk(double* z, const double* s) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int I = 0; I < NT; ++I) {
        double held[4][4];                        // warp w < 2 RC: M_II's product, strip w
        if (warp < 2 * RC) {
            cts_strip_zero(held);
            cts_strip_mma<false>(held, CtsPlain{ct_block(s, I, I)},
                                 CtsPlain{cts_rhs<RC>(z, I, warp >> 1)}, warp & 1, lane);
        }
        for (int u = warps - 1 - warp; u < (NT - 1 - I) * 2 * RC; u += warps) {
            const int K = I + 1 + u / (2 * RC), rho = (u >> 1) % RC;
            double acc[4][4];
            cts_strip_load(acc, cts_rhs<RC>(z, K, rho), u & 1, lane);
            cts_strip_mma<true>(acc, CtsPlain{ct_block(s, K, I)}, CtsPlain{cts_rhs<RC>(z, I, rho)},
                                u & 1, lane);
            cts_strip_store(cts_rhs<RC>(z, K, rho), acc, u & 1, lane);
        }
        __syncthreads();                          // B_I read by every strip above
        if (warp < 2 * RC) cts_strip_store(cts_rhs<RC>(z, I, warp >> 1), held, warp & 1, lane);
        __syncthreads();
    }
    for (int K = NT - 1; K > 0; --K) {
        for (int u = warp; u < K * 2 * RC; u += warps) {
            const int I = u / (2 * RC), rho = (u >> 1) % RC;
            double acc[4][4];
            cts_strip_load(acc, cts_rhs<RC>(z, I, rho), u & 1, lane);
            cts_strip_mma<true>(acc, CtsTransposed{ct_block(s, K, I)},
                                CtsPlain{cts_rhs<RC>(z, K, rho)}, u & 1, lane);
            cts_strip_store(cts_rhs<RC>(z, I, rho), acc, u & 1, lane);
        }
        __syncthreads();
    }
}

// The chunk's solve by substitution (threads >= 64 RC): forward by block steps I, a thread a
// column of B_I solving against L_II, then B_K -= L_KI Y_I (K > I) by DMMA strips; backward
// upwards, B_K -= L_IK^T X_I (K < I), then the columns of B_{I-1} against L_{I-1,I-1}^T.
// Starts and ends after a barrier.
template <int NT, int RC>
__device__ __forceinline__ void cts_substitute_chunk(double* z, const double* s,
                                                     const double* recip) {
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = blockDim.x >> 5;
    const bool owner = t < 32 * RC;               // thread t owns column t % 32 of block t / 32
    for (int I = 0; I < NT; ++I) {
        if (owner) {
            double* p = cts_rhs<RC>(z, I, t >> 5) + lane;
            cts_solve_column<true>(p, ct_block(s, I, I), recip + 32 * I);
            if (I + 1 == NT)                      // the same thread's column: no barrier between
                cts_solve_column<false>(p, ct_block(s, I, I), recip + 32 * I);
        }
        __syncthreads();
        if (I + 1 == NT) break;
        for (int u = warp; u < (NT - 1 - I) * RC * 2; u += warps) {
            const int K = I + 1 + u / (2 * RC), rho = (u >> 1) % RC;
            double acc[4][4];
            cts_strip_load(acc, cts_rhs<RC>(z, K, rho), u & 1, lane);
            cts_strip_mma<true>(acc, CtsPlain{ct_block(s, K, I)}, CtsPlain{cts_rhs<RC>(z, I, rho)},
                                u & 1, lane);
            cts_strip_store(cts_rhs<RC>(z, K, rho), acc, u & 1, lane);
        }
        __syncthreads();
    }
    for (int I = NT - 1; I > 0; --I) {
        for (int u = warp; u < I * RC * 2; u += warps) {
            const int K = u / (2 * RC), rho = (u >> 1) % RC;
            double acc[4][4];
            cts_strip_load(acc, cts_rhs<RC>(z, K, rho), u & 1, lane);
            cts_strip_mma<true>(acc, CtsTransposed{ct_block(s, I, K)},
                                CtsPlain{cts_rhs<RC>(z, I, rho)}, u & 1, lane);
            cts_strip_store(cts_rhs<RC>(z, K, rho), acc, u & 1, lane);
        }
        __syncthreads();
        if (owner)
            cts_solve_column<false>(cts_rhs<RC>(z, I - 1, t >> 5) + lane,
                                    ct_block(s, I - 1, I - 1), recip + 32 * (I - 1));
        __syncthreads();
    }
}

template <typename T, int NT, int RC, bool FACTOR, bool OPERATORS, bool OUT>
__global__ void __launch_bounds__(cts_bound_threads<NT>(), cts_bound_blocks<NT>())
chol_tensor_solve(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B,
                  index_t ldb, index_t sb, int n, int nrhs, index_t batch, int lower,
                  int* __restrict__ info, const T* __restrict__ B_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* recip = s + chol_tensor_blocks<NT>() * CT_BLOCK;
    double* z = recip + 32 * NT;
    __shared__ int fail;
    const int t = threadIdx.x;
#ifdef CT_PROFILE
    long long ct_clock = clock64();
#endif
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        const T* bin = (OUT ? B_in : B) + m * sb;
        T* x = B + m * sb;
        cts_load_rhs<T, NT, RC>(z, bin, ldb, n, nrhs, 0);   // in flight with A's copies
        ct_load<T, NT>(s, A + m * sa, lda, n, lower);     // (waits for all of them)
        if (t == 0) fail = FACTOR ? 0 : CTS_NO_FAIL;
        __syncthreads();
        cts_widen_pass<T, NT, RC>(z, false);
        if constexpr (FACTOR) {
            ct_factor<NT, true>(s, recip, n, &fail CT_CLOCK_ARG);
        } else {
            ct_diagonal_reciprocals<NT>(s, recip, n, &fail);
        }
        if constexpr (OPERATORS) cts_operators<NT>(s, recip);
        for (int c0 = 0; c0 < nrhs; c0 += 32 * RC) {
            if (c0 > 0) {
                cts_load_rhs<T, NT, RC>(z, bin, ldb, n, nrhs, c0);
                cp_async_wait_all();
                __syncthreads();
                cts_widen_pass<T, NT, RC>(z, false);
            }
            if constexpr (OPERATORS)
                cts_solve_chunk<NT, RC>(z, s);
            else
                cts_substitute_chunk<NT, RC>(z, s, recip);
            cts_store_rhs<T, NT, RC>(x, ldb, n, nrhs, c0, z);
            __syncthreads();                      // the blocks are reused by the next chunk
        }
        if (t == 0 && info != nullptr) info[m] = fail == CTS_NO_FAIL ? 0 : fail;
    }
}

// A triangle's diagonal for chol_tensor_trsm and chol_tensor_trtri: its reciprocals (ones with
// unit, the diagonal then never read; else the first zero or non-finite entry into *fail) and
// each diagonal block inverted (ct_invert_diagonal). Starts and ends after a barrier.
template <int NT>
__device__ __forceinline__ void ct_triangle_diagonal(double* s, double* recip, int n, bool unit,
                                                     int* fail) {
    if (unit) {
        for (int i = threadIdx.x; i < 32 * NT; i += blockDim.x) recip[i] = 1.0;
        __syncthreads();
    } else {
        ct_diagonal_reciprocals<NT>(s, recip, n, fail);
    }
    ct_invert_diagonal<NT>(s, recip);
    __syncthreads();
}

// chol_tensor_trsm<T, NT, RC, BACKWARD, RIGHT, OUT>: TRSM, op(A) X = alpha B (RIGHT: X op(A) =
// alpha B, solved as op(A)^T X^T = alpha B^T, X^T's vectors B's rows), of 32 < n <= 32 NT with
// any number of right-hand sides, in one launch, one matrix a block at a time (grid
// stride): chol_tensor_solve's storage and passes for one triangular solve. Launcher:
// linalg/_cuda/cholesky.py tensor_trsm (for linalg/_cuda/triangular.py trsm and its
// recursion's blocks).
// Storage:    the triangle's lower form S as chol_tensor's blocks (S = A for a lower A, A^T for an
//             upper one, read transposed), each diagonal block inverted in place
//             (ct_invert_diagonal: S_II strictly below its diagonal, S_II^-T on and above it);
//             then the right-hand sides 32 RC at a time.
// Solve:      the solve's operator (op(A), or op(A)^T on the right) = S: forward, S X = B; else
//             (BACKWARD) S^T X = B from the last block. A step I: B_I := S_II^-1 B_I (S_II^-T
//             backward) by 2 RC warps' DMMA strips, then every warp updates the blocks still to
//             solve, B_K -= S_KI X_I (K > I; backward B_K -= S_IK^T X_I, K < I). The explicit
//             diagonal inverses bound the residual by those 32 x 32 blocks' condition numbers,
//             as chol_tensor_solve's do (the tests hold it to the scaled residual of
//             test_gpu_triangular.py).
// Output:     alpha X into B (in place), or with OUT read from B_in (same ldb and stride, no
//             overlap) and written to B. A is only read.
// info:       the first zero or non-finite diagonal entry (1-based), 0 with unit (whose diagonal
//             is never read); that matrix's X not meaningful.
template <int NT, int RC, bool BACKWARD>
__device__ __forceinline__ void ctt_solve_chunk(double* z, const double* s) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int step = 0; step < NT; ++step) {
        const int I = BACKWARD ? NT - 1 - step : step;
        const double* d = ct_block(s, I, I);
        double held[4][4];                        // warp w < 2 RC: strip w of the diagonal product
        if (warp < 2 * RC) {
            const double* b = cts_rhs<RC>(z, I, warp >> 1);
            cts_strip_zero(held);
            if constexpr (BACKWARD)
                cts_strip_mma<false>(held, CtsInverseT{d}, CtsPlain{b}, warp & 1, lane);
            else
                cts_strip_mma<false>(held, CtsInverse{d}, CtsPlain{b}, warp & 1, lane);
        }
        __syncthreads();                          // B_I read by every strip of the product
        if (warp < 2 * RC) cts_strip_store(cts_rhs<RC>(z, I, warp >> 1), held, warp & 1, lane);
        __syncthreads();
        const int strips = (BACKWARD ? I : NT - 1 - I) * 2 * RC;
        for (int u = warp; u < strips; u += warps) {
            const int K = (BACKWARD ? 0 : I + 1) + u / (2 * RC), rho = (u >> 1) % RC;
            double acc[4][4];
            cts_strip_load(acc, cts_rhs<RC>(z, K, rho), u & 1, lane);
            if constexpr (BACKWARD)
                cts_strip_mma<true>(acc, CtsTransposed{ct_block(s, I, K)},
                                    CtsPlain{cts_rhs<RC>(z, I, rho)}, u & 1, lane);
            else
                cts_strip_mma<true>(acc, CtsPlain{ct_block(s, K, I)},
                                    CtsPlain{cts_rhs<RC>(z, I, rho)}, u & 1, lane);
            cts_strip_store(cts_rhs<RC>(z, K, rho), acc, u & 1, lane);
        }
        __syncthreads();
    }
}

// The right side's vectors: X^T's column c is B's row c0 + c (n entries, contiguous), so a warp
// loads 32 equations of one vector (coalesced) into a column of a chunk block (TRANSPOSED: into
// a row, equation i of vector c at (c % 32) * CT_LD + i % 32, without bank conflicts:
// chol_tensor_trmm); zeros past n and past nvec. By cp.async (the caller waits); float into the
// float slots, vector c in slot row c % 32 (cts_widen_pass then widens them transposed, or with
// TRANSPOSED as they are).
template <typename T, int NT, int RC, bool TRANSPOSED = false>
__device__ __forceinline__ void ctt_load_rows(double* z, const T* b, index_t ldb, int n, int nvec,
                                              int c0) {
    constexpr int SEGS = NT * 32 * RC;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int u = warp; u < SEGS; u += warps) {
        const int I = u / (32 * RC), c = u % (32 * RC), i = 32 * I + lane, col = c0 + c;
        double* blk = cts_rhs<RC>(z, I, c >> 5);
        double* dst = blk + (TRANSPOSED ? (c & 31) * CT_LD + lane : lane * CT_LD + (c & 31));
        float* slot = ct_staged(blk, c & 31) + lane;          // float's
        if (i < n && col < nvec) {
            if constexpr (sizeof(T) == 8)
                cp_async_element(dst, reinterpret_cast<const double*>(b) + (index_t)col * ldb + i);
            else
                cp_async_element(slot, reinterpret_cast<const float*>(b) + (index_t)col * ldb + i);
        } else {
            if constexpr (sizeof(T) == 8)
                *dst = 0.0;
            else
                *slot = 0.0f;
        }
    }
}

// The chunk's solution back into B's rows c0 .. (equations < n, vectors < nvec), a warp 32
// equations of one vector (coalesced); TRANSPOSED as ctt_load_rows.
template <typename T, int NT, int RC, bool TRANSPOSED = false>
__device__ __forceinline__ void ctt_store_rows(T* x, index_t ldb, int n, int nvec, int c0,
                                               const double* z) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int u = warp; u < NT * 32 * RC; u += warps) {
        const int I = u / (32 * RC), c = u % (32 * RC), i = 32 * I + lane, col = c0 + c;
        if (i < n && col < nvec)
            x[(index_t)col * ldb + i] = T(cts_rhs<RC>(z, I, c >> 5)[
                TRANSPOSED ? (c & 31) * CT_LD + lane : lane * CT_LD + (c & 31)]);
    }
}

template <typename T, int NT, int RC, bool BACKWARD, bool RIGHT, bool OUT>
__global__ void __launch_bounds__(cts_bound_threads<NT>(), cts_bound_blocks<NT>())
chol_tensor_trsm(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B,
                 index_t ldb, index_t sb, int n, int nrhs, index_t batch, int lower, int unit,
                 double alpha, int* __restrict__ info, const T* __restrict__ B_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* recip = s + chol_tensor_blocks<NT>() * CT_BLOCK;
    double* z = recip + 32 * NT;
    __shared__ int fail;
    const int t = threadIdx.x;
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        const T* bin = (OUT ? B_in : B) + m * sb;
        T* x = B + m * sb;
        if constexpr (RIGHT)                              // in flight with A's copies
            ctt_load_rows<T, NT, RC>(z, bin, ldb, n, nrhs, 0);
        else
            cts_load_rhs<T, NT, RC>(z, bin, ldb, n, nrhs, 0);
        ct_load<T, NT>(s, A + m * sa, lda, n, lower);     // (waits for all of them)
        if (t == 0) fail = CTS_NO_FAIL;
        __syncthreads();
        cts_widen_pass<T, NT, RC>(z, RIGHT);
        ct_triangle_diagonal<NT>(s, recip, n, unit, &fail);
        for (int c0 = 0; c0 < nrhs; c0 += 32 * RC) {
            if (c0 > 0) {
                if constexpr (RIGHT)
                    ctt_load_rows<T, NT, RC>(z, bin, ldb, n, nrhs, c0);
                else
                    cts_load_rhs<T, NT, RC>(z, bin, ldb, n, nrhs, c0);
                cp_async_wait_all();
                __syncthreads();
                cts_widen_pass<T, NT, RC>(z, RIGHT);
            }
            ctt_solve_chunk<NT, RC, BACKWARD>(z, s);
            if (alpha != 1.0) {
                for (int e = t; e < NT * RC * CT_BLOCK; e += blockDim.x) z[e] *= alpha;
                __syncthreads();
            }
            if constexpr (RIGHT)
                ctt_store_rows<T, NT, RC>(x, ldb, n, nrhs, c0, z);
            else
                cts_store_rhs<T, NT, RC>(x, ldb, n, nrhs, c0, z);
            __syncthreads();                      // the blocks are reused by the next chunk
        }
        if (t == 0 && info != nullptr) info[m] = fail == CTS_NO_FAIL ? 0 : fail;
    }
}

// chol_tensor_trmm<T, NT, RC, BUF, BACKWARD, RIGHT, OUT>: TRMM, alpha op(A) B (RIGHT: alpha B
// op(A), formed as alpha op(A)^T B^T, B^T's vectors B's rows) of 32 < n <= 32 NT with any number
// of vectors, in one launch, one matrix a block at a time (grid stride): chol_tensor_trsm's
// storage with a product in place of the solve, so that only A's referenced triangle is read (a
// dense product reads all of A) and nothing is padded past n in memory (tri_tile pads its 64-row
// tiles: n = 65-128 costs about what n = 128 does). Launcher: linalg/_cuda/cholesky.py
// tensor_trmm (for linalg/_cuda/triangular.py trmm).
// Storage:    the triangle's lower form S as chol_tensor's blocks (S = A for a lower A, A^T for an
//             upper one, read transposed; zeros above the diagonal, the identity past n), ones
//             on its diagonal with unit; then BUF buffers of a pass's vectors, 32 RC at a time
//             (NT x RC blocks; RIGHT: each block transposed, a vector a row, so that B's rows
//             load and store without bank conflicts). float input lands in the blocks' float
//             slots by cp.async and is widened there (ct_load's way; cts_widen_pass).
// Passes:     with BUF = 2 the next pass's vectors (this matrix's, or the next matrix's first)
//             are in flight while a pass is multiplied and stored; the next matrix's triangle
//             is loaded after the last pass (its buffer is in use until then).
// Product:    the operator (op(A), or op(A)^T on the right) is S, or (BACKWARD) S^T: ctm_product.
// Output:     alpha op(A) B into B (in place), or with OUT read from B_in (same ldb and stride,
//             no overlap) and written to B. A is only read, its diagonal not with unit.

// A 16 x 32 strip stored transposed: element (r, c) of the strip's block at c * CT_LD + r.
__device__ __forceinline__ void ctm_strip_store_t(double* blk, const double (&acc)[4][4], int h,
                                                  int lane) {
    double* c = blk + 16 * h + (lane >> 2) + 2 * (lane & 3) * CT_LD;
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        c[8 * f * CT_LD] = acc[f][0], c[(8 * f + 1) * CT_LD] = acc[f][1];
        c[8 * f * CT_LD + 8] = acc[f][2], c[(8 * f + 1) * CT_LD + 8] = acc[f][3];
    }
}

// The chunk's product in place, Y_I = sum_{K <= I} S_IK B_K (BACKWARD: sum_{K >= I} S_KI^T B_K),
// times alpha: a warp a 16 x 32 strip of Y in DMMA accumulators, in rounds of one strip a warp,
// the block rows that the later rounds no longer read first (forward from the last block row
// up, BACKWARD from the first down); a round's strips are stored once every warp of it has read
// its operands. A block row's two strips of a column block fall in one round (strips come in
// pairs and the warp count is even), since each reads the whole of B_I. A strip wholly past n
// is skipped (its rows stay the zeros they were loaded as; n = 65-80 skips one strip of six a
// pass). TRANSPOSED: the chunk's blocks hold B and Y transposed (RIGHT). Starts and ends after a
// barrier.
template <int NT, int RC, bool BACKWARD, bool TRANSPOSED>
__device__ __forceinline__ void ctm_product(double* z, const double* s, double alpha, int n) {
    constexpr int STRIPS = NT * RC * 2;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int round = 0; round < STRIPS; round += warps) {
        const int u = round + warp;
        const int row = u / (2 * RC), I = BACKWARD ? row : NT - 1 - row, rho = (u >> 1) % RC;
        const bool live = u < STRIPS && 32 * I + 16 * (u & 1) < n;
        double acc[4][4];
        if (live) {
            cts_strip_zero(acc);
            for (int K = BACKWARD ? I : 0; K <= (BACKWARD ? NT - 1 : I); ++K) {
                const double* b = cts_rhs<RC>(z, K, rho);
                if constexpr (BACKWARD && TRANSPOSED)
                    cts_strip_mma<false>(acc, CtsTransposed{ct_block(s, K, I)}, CtsTransposed{b},
                                         u & 1, lane);
                else if constexpr (BACKWARD)
                    cts_strip_mma<false>(acc, CtsTransposed{ct_block(s, K, I)}, CtsPlain{b},
                                         u & 1, lane);
                else if constexpr (TRANSPOSED)
                    cts_strip_mma<false>(acc, CtsPlain{ct_block(s, I, K)}, CtsTransposed{b},
                                         u & 1, lane);
                else
                    cts_strip_mma<false>(acc, CtsPlain{ct_block(s, I, K)}, CtsPlain{b}, u & 1,
                                         lane);
            }
#pragma unroll
            for (int f = 0; f < 4; ++f)
#pragma unroll
                for (int e = 0; e < 4; ++e) acc[f][e] *= alpha;
        }
        __syncthreads();                          // B_K read by every strip of the round
        if (live) {
            if constexpr (TRANSPOSED)
                ctm_strip_store_t(cts_rhs<RC>(z, I, rho), acc, u & 1, lane);
            else
                cts_strip_store(cts_rhs<RC>(z, I, rho), acc, u & 1, lane);
        }
        __syncthreads();
    }
}

// Dynamic shared bytes of chol_tensor_trmm (linalg/_cuda/cholesky.py tensor_trmm_smem_bytes
// computes the same): the triangle's blocks, then BUF passes' NT x RC vector blocks.
template <int NT, int RC, int BUF>
__host__ __device__ constexpr int chol_tensor_trmm_smem() {
    return (chol_tensor_blocks<NT>() + BUF * NT * RC) * CT_BLOCK * 8;
}

template <typename T, int NT, int RC, int BUF, bool BACKWARD, bool RIGHT, bool OUT>
__global__ void __launch_bounds__(cts_bound_threads<NT>(), cts_bound_blocks<NT>())
chol_tensor_trmm(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B,
                 index_t ldb, index_t sb, int n, int nrhs, index_t batch, int lower, int unit,
                 double alpha, const T* __restrict__ B_in) {
    static_assert(BUF == 1 || BUF == 2, "chol_tensor_trmm: one or two pass buffers");
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* const z0 = s + chol_tensor_blocks<NT>() * CT_BLOCK;     // pass buffer b: z0 + b * Z
    constexpr int Z = NT * RC * CT_BLOCK;
    const int passes = (nrhs + 32 * RC - 1) / (32 * RC);
    const T* bin = OUT ? B_in : B;
    auto load_pass = [&](double* z, index_t m, int p) {       // in flight; float staged
        if constexpr (RIGHT)
            ctt_load_rows<T, NT, RC, true>(z, bin + m * sb, ldb, n, nrhs, 32 * RC * p);
        else
            cts_load_rhs<T, NT, RC>(z, bin + m * sb, ldb, n, nrhs, 32 * RC * p);
    };
    auto load_triangle = [&](index_t m) {             // (waits for every copy in flight)
        ct_load<T, NT>(s, A + m * sa, lda, n, lower);
        __syncthreads();
        if (unit) {
            for (int i = threadIdx.x; i < 32 * NT; i += blockDim.x)
                ct_block(s, i >> 5, i >> 5)[(i & 31) * (CT_LD + 1)] = 1.0;
            __syncthreads();
        }
    };
    index_t m = blockIdx.x;
    if (m >= batch || passes == 0) return;
    load_pass(z0, m, 0);                              // in flight with the triangle's copies
    load_triangle(m);
    cts_widen_pass<T, NT, RC>(z0, false);
    for (int buf = 0;; m += gridDim.x) {
        for (int p = 0; p < passes; ++p) {
            const bool last = p + 1 == passes;
            const index_t next_m = last ? m + gridDim.x : m;
            const int next_p = last ? 0 : p + 1;
            const bool more = next_m < batch;
            double* const z = z0 + buf * Z;
            if (BUF == 2 && more) load_pass(z0 + (buf ^ 1) * Z, next_m, next_p);
            ctm_product<NT, RC, BACKWARD, RIGHT>(z, s, alpha, n);
            if constexpr (RIGHT)
                ctt_store_rows<T, NT, RC, true>(B + m * sb, ldb, n, nrhs, 32 * RC * p, z);
            else
                cts_store_rhs<T, NT, RC>(B + m * sb, ldb, n, nrhs, 32 * RC * p, z);
            if (!more) return;
            __syncthreads();                      // the pass's blocks and S read by every thread
            if (BUF == 1) load_pass(z0, next_m, next_p);
            if (last) {
                load_triangle(next_m);
            } else {
                cp_async_wait_all();
                __syncthreads();
            }
            cts_widen_pass<T, NT, RC>(z0 + (buf ^ (BUF - 1)) * Z, false);     // arrived now
            buf ^= BUF - 1;
        }
    }
}

// chol_tensor_inverse<T, NT, FACTOR, OUT>: POTI (FACTOR: A = L L^T first) or POTRI (A holds the
// factor) of 32 < n <= 32 NT in one launch, one matrix a block at a time (grid stride), so that
// the referenced triangle is read once and A^-1 written once (the path before runs TRTRI and
// LAUUM as two launches, POTI a POTRF before them, each reading and writing the batch).
// Launcher: linalg/_cuda/cholesky.py tensor_inverse.
// Storage:    the lower form as chol_tensor's blocks (the identity past n); FACTOR: factored
//             there by chol_tensor's steps (ct_factor), the diagonal blocks' reciprocals kept.
// Steps:      X = L^-1 in place: the diagonal blocks inverted (ct_invert_diagonal: a thread a
//             column, X_II^T in the block's upper triangle), then block columns J from the
//             right, X_IJ = -(sum_{K = J+1..I} X_IK L_KJ) X_JJ for every I > J at once
//             (cti_trtri); then C = X^T X in place by block rows I from the top, C_IJ =
//             sum_{K >= I} X_KI^T X_KJ for every J <= I at once (cti_lauum). A 16 x 32 strip a
//             warp by DMMA fragments, each step's strips held in registers until the step's
//             reads are done (2 NT warps: the last row's strips).
// Output:     A^-1 whole (both triangles from C's lower form: exactly symmetric) into A, or with
//             OUT read from A_in (same lda and stride, no overlap) and written to A.
// info:       FACTOR: the first column (1-based) whose pivot is not positive (NaN too), as
//             chol_tensor; else the first zero or non-finite diagonal entry of the factor
//             (triangular._diag_info's rule); that matrix's result not meaningful.

// Dynamic shared bytes of chol_tensor_inverse (linalg/_cuda/cholesky.py tensor_inverse_smem_bytes
// computes the same): the blocks, then NT x 32 reciprocals.
template <int NT>
__host__ __device__ constexpr int chol_tensor_inverse_smem() {
    return (chol_tensor_blocks<NT>() * CT_BLOCK + 32 * NT) * 8;
}

// X = L^-1 below the diagonal blocks, which hold their inverses (chol_tensor_inverse's steps):
// warp 2 (I - J - 1) + h computes strip h of X_IJ. Ends after a barrier.
template <int NT>
__device__ __forceinline__ void cti_trtri(double* s) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, h = warp & 1;
    for (int J = NT - 2; J >= 0; --J) {
        const int I = J + 1 + (warp >> 1);
        double acc[4][4];
        if (I < NT) {                             // sum_{K = J+1..I} X_IK L_KJ
            cts_strip_zero(acc);
            for (int K = J + 1; K < I; ++K)
                cts_strip_mma<false>(acc, CtsPlain{ct_block(s, I, K)}, CtsPlain{ct_block(s, K, J)},
                                     h, lane);
            cts_strip_mma<false>(acc, CtsInverse{ct_block(s, I, I)}, CtsPlain{ct_block(s, I, J)},
                                 h, lane);
        }
        __syncthreads();                          // column J of L read by every strip
        if (I < NT) {                             // X_IJ = -(the sum) X_JJ, on the strip's rows
            double* x = ct_block(s, I, J);
            cts_strip_store(x, acc, h, lane);
            __syncwarp();                         // the strip's rows, read by every lane
            cts_strip_zero(acc);
            cts_strip_mma<true>(acc, CtsPlain{x}, CtsInverse{ct_block(s, J, J)}, h, lane);
            __syncwarp();
            cts_strip_store(x, acc, h, lane);
        }
        __syncthreads();
    }
}

// C = X^T X over X's lower form (chol_tensor_inverse's steps): warp 2 J + h computes strip h of
// C_IJ; step I reads only block rows >= I and writes row I after its barrier. Ends after a
// barrier.
template <int NT>
__device__ __forceinline__ void cti_lauum(double* s) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, J = warp >> 1, h = warp & 1;
    for (int I = 0; I < NT; ++I) {
        double acc[4][4];
        if (J <= I) {
            const double* d = ct_block(s, I, I);
            cts_strip_zero(acc);
            if (J == I)                           // X_II^T X_II
                cts_strip_mma<false>(acc, CtsInverseT{d}, CtsInverse{d}, h, lane);
            else
                cts_strip_mma<false>(acc, CtsInverseT{d}, CtsPlain{ct_block(s, I, J)}, h, lane);
            for (int K = I + 1; K < NT; ++K)
                cts_strip_mma<false>(acc, CtsTransposed{ct_block(s, K, I)},
                                     CtsPlain{ct_block(s, K, J)}, h, lane);
        }
        __syncthreads();                          // row I read by every strip of the step
        if (J <= I) cts_strip_store(ct_block(s, I, J), acc, h, lane);
    }
    __syncthreads();
}

// The symmetric result into the caller's n x n matrix, entry (i, j) from C's lower form at
// (max(i, j), min(i, j)).
template <typename T, int NT>
__device__ __forceinline__ void cti_store(T* a, index_t lda, int n, const double* s) {
    const int lane = threadIdx.x & 31;
    ct_store_rows<T, NT>(a, lda, n, [&](int i, int J) {
        const int I = i >> 5, r = i & 31;
        return (J < I || (J == I && lane <= r)) ? ct_block(s, I, J)[r * CT_LD + lane]
                                                : ct_block(s, J, I)[lane * CT_LD + r];
    });
}

template <typename T, int NT, bool FACTOR, bool OUT>
__global__ void __launch_bounds__(ct_bound_threads<NT>(), ct_bound_blocks<NT>())
chol_tensor_inverse(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch,
                    int lower, int* __restrict__ info, const T* __restrict__ A_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* recip = s + chol_tensor_blocks<NT>() * CT_BLOCK;
    __shared__ int fail;
    const int t = threadIdx.x;
#ifdef CT_PROFILE
    long long ct_clock = clock64();
#endif
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        ct_load<T, NT>(s, OUT ? A_in + m * stride : a, lda, n, lower);
        if (t == 0) fail = FACTOR ? 0 : CTS_NO_FAIL;
        __syncthreads();
        if constexpr (FACTOR)
            ct_factor<NT, true>(s, recip, n, &fail CT_CLOCK_ARG);
        else
            ct_diagonal_reciprocals<NT>(s, recip, n, &fail);
        ct_invert_diagonal<NT>(s, recip);
        __syncthreads();
        cti_trtri<NT>(s);
        cti_lauum<NT>(s);
        cti_store<T, NT>(a, lda, n, s);
        if (t == 0 && info != nullptr) info[m] = fail == CTS_NO_FAIL ? 0 : fail;
        __syncthreads();                          // the blocks are reused by the next matrix
    }
}

// chol_tensor_trtri<T, NT, OUT>: TRTRI, X = T^-1 of a triangular T, 32 < n <= 32 NT, in one
// launch, one matrix a block at a time (grid stride): chol_tensor_inverse's storage and its
// first half, so that the triangle is read once and X written once (the recursion before
// reads and writes its blocks at every level and runs two GEMMs a level). Launcher:
// linalg/_cuda/cholesky.py tensor_trtri (for linalg/_cuda/triangular.py trtri and the
// recursion's blocks).
// Storage:    S, the lower form (T, or T^T for an upper T, read transposed), as chol_tensor's
//             blocks (the identity past n); S^-1 is T^-1 (lower) or T^-T (upper).
// Steps:      the diagonal's reciprocals (ones with unit, whose diagonal is never read), the
//             diagonal blocks inverted (ct_invert_diagonal), then S^-1 below them by block
//             columns from the right (cti_trtri).
// Output:     X in the caller's form (lower: S^-1, upper: its transpose), zeros in the other
//             triangle, into A, or with OUT read from A_in (same lda and stride, no overlap) and
//             written to A. flags: 1 lower, 2 unit diagonal.
// info:       the first zero or non-finite diagonal entry (1-based; triangular._diag_info's
//             rule), 0 with unit; that matrix's X not meaningful.

// X = S^-1 (or its transpose for an upper T) into the caller's n x n matrix, zeros in the other
// triangle: the diagonal blocks hold X_II transposed on and above their diagonals
// (ct_invert_diagonal), the blocks below X_IJ.
template <typename T, int NT>
__device__ __forceinline__ void ctr_store(T* a, index_t lda, int n, int lower, const double* s) {
    const int lane = threadIdx.x & 31;
    ct_store_rows<T, NT>(a, lda, n, [&](int i, int J) {
        const int I = i >> 5, r = i & 31;
        if (lower) {                                              // X(i, j), j <= i
            if (J < I) return ct_block(s, I, J)[r * CT_LD + lane];
            return J == I && lane <= r ? ct_block(s, I, I)[lane * CT_LD + r] : 0.0;
        }
        if (J > I) return ct_block(s, J, I)[lane * CT_LD + r];  // X(j, i), j >= i
        return J == I && lane >= r ? ct_block(s, I, I)[r * CT_LD + lane] : 0.0;
    });
}

template <typename T, int NT, bool OUT>
__global__ void __launch_bounds__(ct_bound_threads<NT>(), ct_bound_blocks<NT>())
chol_tensor_trtri(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch,
                  int flags, int* __restrict__ info, const T* __restrict__ A_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    double* recip = s + chol_tensor_blocks<NT>() * CT_BLOCK;
    __shared__ int fail;
    const int t = threadIdx.x, lower = flags & 1;
    const bool unit = flags & 2;
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        ct_load<T, NT>(s, OUT ? A_in + m * stride : a, lda, n, lower);
        if (t == 0) fail = CTS_NO_FAIL;
        __syncthreads();
        ct_triangle_diagonal<NT>(s, recip, n, unit, &fail);
        cti_trtri<NT>(s);
        ctr_store<T, NT>(a, lda, n, lower, s);
        if (t == 0) info[m] = fail == CTS_NO_FAIL ? 0 : fail;
        __syncthreads();                          // the blocks are reused by the next matrix
    }
}

// chol_tensor_lauum<T, NT, OUT>: LAUUM, L^T L of a lower L or U U^T of an upper U, 32 < n <= 32
// NT, in one launch, one matrix a block at a time (grid stride): chol_tensor_inverse's storage
// and second half (cti_lauum) on the triangle itself, so that it is read once and the product
// written once (tri_tile and the dense product read the triangle as whole tiles). Launcher:
// linalg/_cuda/cholesky.py tensor_lauum (for linalg/_cuda/triangular.py lauum).
// Storage:    S, the lower form (L, or U^T read transposed), as chol_tensor's blocks (the
//             identity past n); each diagonal block's lower triangle copied transposed onto and
//             above its diagonal, where cti_lauum's diagonal operands (CtsInverse / CtsInverseT,
//             written for X^T X with X_II^T there) read it. S^T S is L^T L or U U^T.
// Output:     the product whole (both triangles from its lower form: exactly symmetric) into
//             A, or with OUT read from A_in (same lda and stride, no overlap) and written to A.
//             No info (the info argument is not written).

// Each diagonal block's lower triangle onto and above its diagonal, transposed: a thread a
// column c copies entries (r, c), r > c, to (c, r) (reads below the diagonal, writes above: no
// two threads touch one entry).
template <int NT>
__device__ __forceinline__ void ctl_diagonal_transposed(double* s) {
    for (int i = threadIdx.x; i < 32 * NT; i += blockDim.x) {
        double* d = ct_block(s, i >> 5, i >> 5);
        const int c = i & 31;
        for (int r = c + 1; r < 32; ++r) d[c * CT_LD + r] = d[r * CT_LD + c];
    }
}

template <typename T, int NT, bool OUT>
__global__ void __launch_bounds__(ct_bound_threads<NT>(), ct_bound_blocks<NT>())
chol_tensor_lauum(T* __restrict__ A, index_t lda, index_t stride, int n, index_t batch,
                  int lower, int* __restrict__ info, const T* __restrict__ A_in) {
    extern __shared__ __align__(16) double ct_smem[];
    double* s = ct_smem;
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        ct_load<T, NT>(s, OUT ? A_in + m * stride : a, lda, n, lower);
        __syncthreads();
        ctl_diagonal_transposed<NT>(s);
        __syncthreads();
        cti_lauum<NT>(s);
        cti_store<T, NT>(a, lda, n, s);
        __syncthreads();                          // the blocks are reused by the next matrix
    }
}

// chol_global<T, OUT>: POTRF of TENSOR_MAX < n <= 32 CG_BLOCKS_MAX at small batches, one matrix
// a block of CG_THREADS, the matrix left in global memory (in L2 at the batches it serves;
// `scripts/probe_chol_tensor.py time --kernel global`), so a matrix of 256 or 512 takes one
// launch where the panel path takes 2 n / 32 and cuSOLVER several; chol_cluster<T, OUT, CL>:
// the same steps with one matrix a thread-block cluster of CL blocks (sm_90), the trailing
// updates shared by CL SMs (`... clusters`). Launcher: linalg/_cuda/cholesky.py potrf_global.
// Steps:      right-looking by 32-wide block columns k: the factored diagonal block (warp 0) and
//             the rows below it (already updated by the steps before; the other warps) into
//             shared memory, rows CG_LD apart; a thread a row solves the rows below
//             (solve_row_32); then warp 0 forms and factors the next diagonal block, A_KK -
//             L_Kk L_Kk^T (K = k + 1, chol_factor_32), while the other warps store the finished
//             block column with the zeros of the other triangle in its rows and update the rest
//             of the trailing blocks in global memory, A_IJ -= L_Ik L_Jk^T (k < J <= I), a 16 x
//             32 strip a warp on the float64 tensor cores (DMMA 16 x 8 x 8, as chol_tensor). In a
//             cluster every block loads, factors and solves the column itself (the same values:
//             no exchange) and the stores and strips are dealt over the cluster's blocks; a
//             cluster barrier (release / acquire) ends each step. Entries past n read as the
//             identity and are not written; the other triangle is never read.
// Output:     as chol_tensor: the factor in the caller's form, zeros in the other triangle; with
//             OUT the input is read from A_in (step 0 reads every entry of the lower form once)
//             and A is only written. float runs the same steps, its entries widened to double
//             on each read and rounded on each write.
// info:       the first column (1-based) whose pivot is not positive (NaN too).
constexpr int CG_LD = 36;
constexpr int CG_THREADS = 512;
constexpr int CG_BLOCKS_MAX = 16;             // n <= 512: rows below a diagonal block <= 480

// Dynamic shared bytes of chol_global at order n: the block column (32 NT rows), the next
// diagonal block (32 rows), then 32 reciprocals.
__host__ __device__ constexpr int chol_global_smem(int n) {
    return (32 * ((n + 31) / 32 + 1) * CG_LD + 32) * 8;
}

// Offset of the lower form's entry (i, j) (i >= j) in the caller's matrix: A(i, j), or for an
// upper input U(j, i).
__device__ __forceinline__ index_t cg_at(index_t lda, int lower, int i, int j) {
    return lower ? (index_t)i * lda + j : (index_t)j * lda + i;
}

// acc -= A B^T for a 16 x 32 strip over k = 0..31 by DMMA fragments (skipping the fragments f >=
// f1): pa points at the strip's A fragment entry (g, q) of its 32-wide block row, pb at B's,
// rows CG_LD apart. Shared by chol_global's trailing updates and its next diagonal block.
__device__ __forceinline__ void cg_strip_product(double (&acc)[4][4], const double* pa,
                                                 const double* pb, int f1) {
#pragma unroll
    for (int kk = 0; kk < 32; kk += 8) {
        const double x[4] = {-pa[kk], -pa[8 * CG_LD + kk], -pa[kk + 4], -pa[8 * CG_LD + kk + 4]};
#pragma unroll
        for (int f = 0; f < 4; ++f) {
            if (f >= f1) continue;
            const double y[2] = {pb[8 * f * CG_LD + kk], pb[8 * f * CG_LD + kk + 4]};
            dmma_16x8x8(acc[f], x, y);
        }
    }
}

// One 16 x 32 strip (rows 16 h ..) of A_IJ -= P_I P_J^T, P: the block column in shared memory
// from block row k on. Reads from rd (the input at step 0 with OUT), writes to a. (Two strips a
// warp with their loads in flight together spilled 2 KB at the 128-register bound.)
template <typename T>
__device__ __forceinline__ void cg_update_strip(T* a, const T* rd, index_t lda, int lower, int n,
                                                const double* p, int I, int J, int k, int h,
                                                int lane) {
    const int g = lane >> 2, q = lane & 3;
    const int i0 = 32 * I + 16 * h + g, j0 = 32 * J + 2 * q;   // C(g, 2q) of the fragment
    const double* pa = p + (32 * (I - k) + 16 * h + g) * CG_LD + q;
    const double* pb = p + (32 * (J - k) + g) * CG_LD + q;
    const int f1 = (I == J && h == 0) ? 2 : 4;   // a diagonal block's strictly upper quarter: skip
    double acc[4][4];
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        if (f >= f1) continue;
#pragma unroll
        for (int e = 0; e < 4; ++e) {            // C(g, 2q), C(g, 2q + 1), C(g + 8, ...)
            const int i = i0 + 8 * (e >> 1), j = j0 + 8 * f + (e & 1);
            acc[f][e] = (j <= i && i < n) ? double(rd[cg_at(lda, lower, i, j)]) : 0.0;
        }
    }
    cg_strip_product(acc, pa, pb, f1);
#pragma unroll
    for (int f = 0; f < 4; ++f) {
        if (f >= f1) continue;
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int i = i0 + 8 * (e >> 1), j = j0 + 8 * f + (e & 1);
            if (j <= i && i < n) a[cg_at(lda, lower, i, j)] = T(acc[f][e]);
        }
    }
}

// Rows c0 + r0 .. c0 + r0 + rows - 1 of block column k (c0 = 32 k) into p from row r0 on, by
// threads t of threads, AHEAD loads a thread in flight; the identity past n, zeros above the
// diagonal (the other triangle is never read). Consecutive threads read consecutive addresses in
// either form.
template <typename T>
__device__ __forceinline__ void cg_load_rows(double* p, const T* rd, index_t lda, int lower,
                                             int n, int k, int r0, int rows, int t, int threads) {
    constexpr int AHEAD = 8;
    const int c0 = 32 * k, total = 32 * rows;
    for (int e0 = t; e0 < total; e0 += AHEAD * threads) {
        double v[AHEAD];
#pragma unroll
        for (int h = 0; h < AHEAD; ++h) {
            const int e = e0 + h * threads;
            const int r = r0 + (lower ? e >> 5 : e % rows), c = lower ? e & 31 : e / rows;
            const int i = c0 + r, j = c0 + c;
            v[h] = (e < total && j <= i && i < n) ? double(rd[cg_at(lda, lower, i, j)])
                                                  : (i == j ? 1.0 : 0.0);
        }
#pragma unroll
        for (int h = 0; h < AHEAD; ++h) {
            const int e = e0 + h * threads;
            const int r = r0 + (lower ? e >> 5 : e % rows), c = lower ? e & 31 : e / rows;
            if (e < total) p[r * CG_LD + c] = v[h];
        }
    }
}

// Cholesky of the 32 x 32 lower block s (rows LD apart) by one warp, lane r owning row r in
// registers: chol_potrf_phase's steps with the updates of column j split in two. The entry of
// the next pivot column (row[j + 1]) is updated and published at once; the others wait for step
// j + 1, where they run while step j + 1's pivot is read and its reciprocal square root computed
// (the warp issues in order: they fill that wait instead of lengthening the pivot chain). Column
// j's entries are still in s when step j + 1 reads them (a step publishes the next column only).
// Entries k >= n are scratch; returns the LAPACK info (the same in every lane).
template <int LD>
__device__ __forceinline__ int chol_factor_32(double* s, int n, int r) {
    double row[32];
#pragma unroll
    for (int k = 0; k < 32; ++k) row[k] = s[r * LD + k];
    int fail = 0;
    double c_last = 0.0;                          // column j - 1's multiplier a_r,j-1 / d_j-1
#pragma unroll
    for (int j = 0; j < 32; ++j) {
        if (j >= n) break;
        __syncwarp();                             // column j is published
        const double d = s[j * LD + j];
        if (j > 0) {                              // column j - 1's deferred updates, k > j
#pragma unroll
            for (int k = j + 1; k < 32; ++k) row[k] -= c_last * s[k * LD + j - 1];
        }
        if (!(d > 0.0) && fail == 0) fail = j + 1;
        const double ri = rsqrt(d);
        const double lrj = (r == j) ? d * ri : row[j] * ri;
        const double c = lrj * ri;
        row[j] = lrj;
        if (j + 1 < 32) {
            row[j + 1] -= c * s[(j + 1) * LD + j];
            s[r * LD + j + 1] = row[j + 1];       // publish column j + 1
        }
        c_last = c;
    }
    __syncwarp();                                 // everyone is done reading the columns
#pragma unroll
    for (int k = 0; k < 32; ++k)
        if (k < n) s[r * LD + k] = (k <= r) ? row[k] : 0.0;
    __syncwarp();
    return fail;
}

// The next diagonal block, factored (one warp): d = A_KK - P_K P_K^T (P: the block column k <
// K in shared memory from block row k on; none for k < 0) by the DMMA strips' fragments, the
// identity past n and zeros above the diagonal; then chol_factor_32 on d, the reciprocals of
// its diagonal into recip and the first failing column into fail.
template <typename T>
__device__ __forceinline__ void cg_factor_diagonal(double* d, double* recip, int& fail,
                                                   const T* rd, index_t lda, int lower, int n,
                                                   const double* p, int K, int k, int lane) {
    const int g = lane >> 2, q = lane & 3, c0 = 32 * K;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int i0 = 16 * h + g, j0 = 2 * q;            // C(g, 2q) of the fragment, in d
        const double* pa = p + (32 * (K - k) + 16 * h + g) * CG_LD + q;
        const double* pb = p + (32 * (K - k) + g) * CG_LD + q;
        const int f1 = h == 0 ? 2 : 4;                    // the strictly upper quarter: zeros
        double acc[4][4];
#pragma unroll
        for (int f = 0; f < 4; ++f) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int i = i0 + 8 * (e >> 1), j = j0 + 8 * f + (e & 1);
                acc[f][e] = (f < f1 && j <= i && c0 + i < n)
                                ? double(rd[cg_at(lda, lower, c0 + i, c0 + j)]) : 0.0;
            }
        }
        if (k >= 0) cg_strip_product(acc, pa, pb, f1);
#pragma unroll
        for (int f = 0; f < 4; ++f) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int i = i0 + 8 * (e >> 1), j = j0 + 8 * f + (e & 1);
                d[i * CG_LD + j] = (j <= i && c0 + i < n) ? acc[f][e] : (i == j ? 1.0 : 0.0);
            }
        }
    }
    __syncwarp();
    const int f = chol_factor_32<CG_LD>(d, min(32, n - c0), lane);
    recip[lane] = 1.0 / d[lane * CG_LD + lane];
    if (lane == 0 && f != 0 && fail == 0) fail = c0 + f;
}

// The entries e = t, t + step, ... below count of a row-major walk with rows `width` long, as
// (e / width, e % width): two divisions at the start and none a step (a runtime division an
// entry cost chol_left's stores a fourth of its samples, reports/gpu_20261127j call 6).
struct CgWalk {
    int q, m, dq, dm, width;
    __host__ __device__ __forceinline__ CgWalk(int t, int step, int width)
        : q(t / width), m(t % width), dq(step / width), dm(step % width), width(width) {}
    __host__ __device__ __forceinline__ void next() {
        q += dq, m += dm;
        if (m >= width) m -= width, ++q;
    }
};

// Block column k of the factor from the block column p, and the zeros of the other triangle in
// block row k (lower: right of the diagonal block; upper: U's rows left of it): the entries t,
// t + step, ... of each (a cluster's blocks share the stores). Consecutive threads write
// consecutive addresses in either form.
template <typename T>
__device__ __forceinline__ void cg_store_column(T* a, index_t lda, int lower, int n, int k,
                                                const double* p, int t, int step) {
    const int c0 = 32 * k, rows = n - c0;
    CgWalk w(t, step, lower ? 32 : rows);             // lower: (row, column), upper: (c, r)
    for (int e = t; e < 32 * rows; e += step, w.next()) {
        const int r = lower ? w.q : w.m, c = lower ? w.m : w.q;
        if (c0 + c < n) a[cg_at(lda, lower, c0 + r, c0 + c)] = T(p[r * CG_LD + c]);
    }
    const int width = lower ? rows - 32 : c0, first = lower ? c0 + 32 : 0;
    if (width <= 0) return;
    CgWalk z(t, step, width);
    for (int e = t; e < 32 * width; e += step, z.next()) {
        const int r = c0 + z.q;
        if (r < n) a[(index_t)r * lda + first + z.m] = T(0);
    }
}

// The steps of chol_global (CL = 1) and chol_cluster (CL blocks a matrix). Every block of a
// cluster holds the block column and factors the diagonal blocks itself (the same values in
// each: no exchange, and these steps take as long whatever the rows); warp 0 factors the next
// diagonal block while the other warps (of all the cluster's blocks) store the column and
// update the rest of the trailing matrix, so the diagonal chain runs under the updates; a
// cluster barrier closes each step.
template <typename T, bool OUT, int CL>
__device__ __forceinline__ void chol_global_steps(T* A, index_t lda, index_t stride, int n,
                                                  index_t batch, int lower, int* info,
                                                  const T* A_in) {
    extern __shared__ __align__(16) double cg_smem[];
    double* p = cg_smem;
    const int nt = (n + 31) >> 5;
    double* d = p + 32 * nt * CG_LD;
    double* recip = d + 32 * CG_LD;
    __shared__ int fail;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = blockDim.x >> 5;
    const int rank = CL > 1 ? blockIdx.x % CL : 0;
    const int others = blockDim.x - 32;               // warps 1.. of each block
#ifdef CT_PROFILE
    long long ct_clock = clock64();
#endif
    for (index_t m = blockIdx.x / CL; m < batch; m += gridDim.x / CL) {
        T* a = A + m * stride;
        const T* in = OUT ? A_in + m * stride : a;
        if (warp == 0) {
            if (lane == 0) fail = 0;
            __syncwarp();
            cg_factor_diagonal(d, recip, fail, in, lda, lower, n, p, 0, -1, lane);
        }
        CT_MARK(4);
        for (int k = 0; k < nt; ++k) {
            const T* rd = (OUT && k == 0) ? in : a;
            const int rows = 32 * (nt - k);
            if (warp == 0) {                          // the factored diagonal block on top
#pragma unroll 4
                for (int r = 0; r < 32; ++r) p[r * CG_LD + lane] = d[r * CG_LD + lane];
            } else {
                cg_load_rows(p, rd, lda, lower, n, k, 32, rows - 32, t - 32, others);
            }
            __syncthreads();
            CT_MARK(0);
            if (t < rows - 32) solve_row_32<CG_LD>(p + (32 + t) * CG_LD, p, recip);
            __syncthreads();
            CT_MARK(1);
            if (warp == 0) {
                if (k + 1 < nt)
                    cg_factor_diagonal(d, recip, fail, rd, lda, lower, n, p, k + 1, k, lane);
            } else {
                cg_store_column(a, lda, lower, n, k, p, rank * others + t - 32, CL * others);
                // Strip pairs of the blocks (I, J), k < J <= I, but the next diagonal block's.
                const int below = nt - 1 - k, strips = below * (below + 1);
                for (int u = 2 + rank * (warps - 1) + warp - 1; u < strips;
                     u += CL * (warps - 1)) {
                    int ii, jj;
                    ct_block_place(u >> 1, ii, jj);
                    cg_update_strip(a, rd, lda, lower, n, p, k + 1 + ii, k + 1 + jj, k, u & 1,
                                    lane);
                }
            }
            CT_MARK(2);
            if (CL > 1)
                cluster_barrier();                // every block's updates seen by the next loads
            else
                __syncthreads();                  // the updates are in before the next column
            CT_MARK(3);
        }
        if (t == 0 && rank == 0 && info != nullptr) info[m] = fail;
        __syncthreads();
    }
}

template <typename T, bool OUT>
__global__ void __launch_bounds__(CG_THREADS, 1)
chol_global(T* A, index_t lda, index_t stride, int n, index_t batch, int lower, int* info,
            const T* A_in) {
    // Not __restrict__: the step-0 reads come from A_in (OUT) or A itself (in place).
    chol_global_steps<T, OUT, 1>(A, lda, stride, n, batch, lower, info, A_in);
}

// chol_cluster<T, OUT, CL>: chol_global's steps with one matrix a cluster of CL blocks (sm_90):
// the trailing updates, bound by one SM's L2 bandwidth in chol_global (n = 512: 778 K of 1.09 M
// cycles), spread over CL SMs, for the batches too small to fill the GPU a matrix a block.
// Launched with a grid of CL blocks a matrix (the cluster's blocks are consecutive).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define CG_CLUSTER_DIMS(CL)                       // compiles, never launched (the launcher refuses)
#else
#define CG_CLUSTER_DIMS(CL) __cluster_dims__(CL, 1, 1)
#endif
template <typename T, bool OUT, int CL>
__global__ void CG_CLUSTER_DIMS(CL) __launch_bounds__(CG_THREADS, 1)
chol_cluster(T* A, index_t lda, index_t stride, int n, index_t batch, int lower, int* info,
             const T* A_in) {
    chol_global_steps<T, OUT, CL>(A, lda, stride, n, batch, lower, info, A_in);
}

// chol_left<T, OUT>: POTRF of 32 < n <= 32 CG_BLOCKS_MAX at large batches in one launch, one
// matrix a block of 32 ceil(n / 32) threads (CL_STRIPS strips a warp), left-looking by 32-wide
// panels, so that each entry of A is read once and the factor written once, the only other
// traffic the finished columns read back for the panels' updates (n = 256: under 1.5 MB a
// matrix against the panel path's 1.9 MB, whose GEMMs write each panel and chol_panel reads it
// back; 2 n / 32 launches there). Launcher: linalg/_cuda/cholesky.py potrf_left.
// Steps:      for each panel k (columns j0 = 32 k ..; rows j0 .. n - 1, R = 32 (NT - k) of them
//             padded), every warp holds CL_STRIPS 16 x 32 strips of the panel in DMMA
//             accumulators, loaded from A's entries while panel k - 1 was stored
//             (cl_load_panel). The strips take A_Ik -= L_I,kc L_k,kc^T (cg_strip_product) for
//             kc = k - 1 from panel k - 1, still in shared memory, then for each kc < k - 1
//             from a tile: L's rows j0 .. j0 + R - 1 of block column kc loaded into shared
//             memory (rows CG_LD apart; its first 32 rows are L_k,kc). (The column before from
//             shared memory rather than from A: 8-11 % faster at n = 160-256, reports/
//             gpu_20261127k call 1.) Then the strips go into shared memory, warp 0 factors the
//             diagonal block (chol_factor_32), a thread a row solves the rows below
//             (solve_row_32) and the block stores the panel with the zeros of the other
//             triangle in its rows (cg_store_column). Entries past n read as the identity and
//             are not written; the other triangle is never read.
// Output:     as chol_global; with OUT each panel's entries are read from A_in (the factor's
//             columns from A). float widens every entry to double on its read.
// info:       the first column (1-based) whose pivot is not positive (NaN too).
constexpr int CL_AHEAD = 8;
// Two strips a warp: 128 registers (the kernel's bound; chol_factor_32's row alone takes 64),
// two 256-thread blocks an SM at n = 256. (One a warp at 64 registers spilled 1.8 KB.)
constexpr int CL_STRIPS = 2;

// Dynamic shared bytes of chol_left at order n: 32 NT rows (the tile, then the panel) and 32
// reciprocals.
__host__ __device__ constexpr int chol_left_smem(int n) {
    return (32 * ((n + 31) / 32) * CG_LD + 32) * 8;
}

// Rows r0 .. r0 + R - 1 of the lower form's columns c0 .. c0 + 31 (r0 >= c0 + 32: no diagonal
// entry) into tile (rows CG_LD apart), zeros past n, by the block's threads with CL_AHEAD loads
// a thread in flight. Units of 32 entries: lower, unit u is tile row u (lane: column, A's row);
// upper, unit u is tile column u % 32 over tile rows 32 (u / 32) + lane (U's row); either way a
// warp reads 32 consecutive entries. (cp.async copies of a whole tile at once, double, measured
// no faster: 0.98-1.0x at n = 136-256, reports/gpu_20261127j call 2.)
template <typename T>
__device__ __forceinline__ void cl_load_tile(double* tile, const T* a, index_t lda, int lower,
                                             int n, int r0, int c0, int R) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int u0 = warp; u0 < R; u0 += CL_AHEAD * warps) {
        double v[CL_AHEAD];
#pragma unroll
        for (int h = 0; h < CL_AHEAD; ++h) {
            const int u = u0 + h * warps;
            const int r = lower ? u : 32 * (u >> 5) + lane, c = lower ? lane : u & 31;
            v[h] = (u < R && r0 + r < n) ? double(a[cg_at(lda, lower, r0 + r, c0 + c)]) : 0.0;
        }
#pragma unroll
        for (int h = 0; h < CL_AHEAD; ++h) {
            const int u = u0 + h * warps;
            const int r = lower ? u : 32 * (u >> 5) + lane, c = lower ? lane : u & 31;
            if (u < R) tile[r * CG_LD + c] = v[h];
        }
    }
}

// Whether the panel's entry (i, j) (rows from the panel's diagonal, j < 32) is one of A's:
// below n and, in the diagonal block, not above the diagonal.
__device__ __forceinline__ bool cl_referenced(int i, int j, int rows) {
    return i < rows && (i >= 32 || j <= i);
}

// Panel k's entries of A into the strips' accumulators, zeros where not referenced (all zeros
// at k = NT: no load).
template <typename T>
__device__ __forceinline__ void cl_load_panel(double (&acc)[CL_STRIPS][4][4], const T* a,
                                              index_t lda, int lower, int n, int k) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int g = lane >> 2, q = lane & 3, j0 = 32 * k, rows = n - j0;
    const int strips = 2 * (((n + 31) >> 5) - k);
#pragma unroll
    for (int w = 0; w < CL_STRIPS; ++w) {
        const int s = warp + w * warps;
#pragma unroll
        for (int f = 0; f < 4; ++f)
#pragma unroll
            for (int e = 0; e < 4; ++e) {           // C(g, 2q), C(g, 2q + 1), C(g + 8, ...)
                const int i = 16 * s + g + 8 * (e >> 1), j = 8 * f + 2 * q + (e & 1);
                acc[w][f][e] = (s < strips && cl_referenced(i, j, rows))
                                   ? double(a[cg_at(lda, lower, j0 + i, j0 + j)]) : 0.0;
            }
    }
}

template <typename T, bool OUT>
__global__ void __launch_bounds__(CG_THREADS, 1)
chol_left(T* A, index_t lda, index_t stride, int n, index_t batch, int lower, int* info,
          const T* A_in) {
    // Not __restrict__: the factor's columns written by one panel are read by the next.
    extern __shared__ __align__(16) double cl_smem[];
    double* p = cl_smem;                          // a tile of L, then the panel
    const int nt = (n + 31) >> 5;
    double* recip = p + 32 * nt * CG_LD;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, warps = blockDim.x >> 5;
    const int g = lane >> 2, q = lane & 3;
    for (index_t m = blockIdx.x; m < batch; m += gridDim.x) {
        T* a = A + m * stride;
        const T* in = OUT ? A_in + m * stride : a;
        int fail = 0;                             // thread 0's
        double acc[CL_STRIPS][4][4];
        cl_load_panel(acc, in, lda, lower, n, 0);
        for (int k = 0; k < nt; ++k) {
            const int j0 = 32 * k, rows = n - j0, R = 32 * (nt - k), strips = 2 * (nt - k);
            if (k > 0) {                          // column k - 1: the panel before, still in p
                const double* prev = p + 32 * CG_LD;  // its rows 32.. are L's rows j0..
#pragma unroll
                for (int w = 0; w < CL_STRIPS; ++w) {
                    const int s = warp + w * warps;
                    if (s < strips)
                        cg_strip_product(acc[w], prev + (16 * s + g) * CG_LD + q,
                                         prev + g * CG_LD + q, s == 0 ? 2 : 4);
                }
            }
            for (int kc = 0; kc + 1 < k; ++kc) {
                __syncthreads();                  // the tile (or panel) before is read
                cl_load_tile(p, a, lda, lower, n, j0, 32 * kc, R);
                __syncthreads();
#pragma unroll
                for (int w = 0; w < CL_STRIPS; ++w) {
                    const int s = warp + w * warps;
                    if (s < strips)
                        cg_strip_product(acc[w], p + (16 * s + g) * CG_LD + q, p + g * CG_LD + q,
                                         s == 0 ? 2 : 4);
                }
            }
            __syncthreads();                      // the last tile (or panel before) is read
#pragma unroll
            for (int w = 0; w < CL_STRIPS; ++w) {
                const int s = warp + w * warps;
                if (s >= strips) continue;
#pragma unroll
                for (int f = 0; f < 4; ++f)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int i = 16 * s + g + 8 * (e >> 1), j = 8 * f + 2 * q + (e & 1);
                        p[i * CG_LD + j] = cl_referenced(i, j, rows) ? acc[w][f][e]
                                                                     : (i == j ? 1.0 : 0.0);
                    }
            }
            __syncthreads();
            if (warp == 0) {
                const int f = chol_factor_32<CG_LD>(p, min(32, rows), lane);
                recip[lane] = 1.0 / p[lane * CG_LD + lane];
                if (f != 0 && fail == 0) fail = j0 + f;
            }
            __syncthreads();
            if (t < R - 32) solve_row_32<CG_LD>(p + (32 + t) * CG_LD, p, recip);
            // The next panel's entries of A in flight while this one is stored (loaded before
            // the rows' solve, 124 B spilled, 7-10 % slower: reports/gpu_20261127k call 2).
            cl_load_panel(acc, in, lda, lower, n, k + 1);   // zeros after the last
            __syncthreads();
            cg_store_column(a, lda, lower, n, k, p, t, blockDim.x);
        }
        if (t == 0 && info != nullptr) info[m] = fail;
        __syncthreads();                          // the panel is read before the next matrix's
    }
}
