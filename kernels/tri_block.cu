// tri_block.cu: triangular products of matrices of 33 <= n <= 64 by register tiles, one thread
// block a matrix.
//
// Operation:  tri_block_trmm<T> (TRMM, by `flags`, the flag words of tri_warp.cu):
//               B := alpha op(A) B (left)  or  B := alpha B op(A) (right)
//             tri_block_lauum<T> (LAUUM, in place on A):
//               A := L^T L (lower: A holds L)  or  A := U U^T (upper: A holds U), both triangles
//             Both are one product C = P^T Q of two staged 64 x 64 operands, row k of each in
//             shared memory, C[i][j] = sum_k P[k][i] Q[k][j] over the k where the triangle can be
//             nonzero. TRMM: the effective triangle M (op(A) left, op(A)^T right: B op(A) =
//             (op(A)^T B^T)^T) staged transposed (P[k][i] = M[i][k]) and the vectors X (columns of B
//             left, rows right) as Q; M lower: k <= i, upper: k >= i. LAUUM: P = Q = the lower
//             factor F (L, or U^T for the upper variant: U U^T = (U^T)^T U^T), k >= max(i, j), and
//             only the tiles of C's lower triangle are computed (C is symmetric).
// Tiles:      256 threads, thread t owns the 4 x 4 tile (t / 16, t % 16) of the 64 x 64 output in
//             registers: a step k is two 4-wide shared loads (row k of P at the tile's rows, of Q at
//             its columns) and 16 FMAs. The k range is uniform over a warp (its tiles lie in two
//             tile rows); the extra terms it adds meet zeros of the staged triangle.
// Shared:     P and Q: 64 rows of tb_ld<T>() elements (one 16-byte load of padding a row, so that
//             the transposing stage writes spread over the banks). Inside a row, float64 entries
//             are interleaved (tb_slot): the first halves of all 16 tile columns side by side, then
//             the second halves, so that the 16 double2 loads of a warp are 256 contiguous bytes
//             (two wavefronts; plain 4-column groups would be four). The output goes back through
//             the same memory (64 x 65, aliasing Q, or P for LAUUM) for coalesced stores.
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec left, nvec x n right). Only the triangle of A selected by TRI_LOWER (lower
//             for LAUUM) is read; with TRI_UNIT not its diagonal either. Rows and columns n..63 are
//             staged as zeros; TRMM takes the vectors 64 at a time.
// Template:   T = float | double. Grid-stride loop over the batch. Blocks an SM: TB_TRMM_BLOCKS,
//             TB_LAUUM_BLOCKS (H100 float64 TRMM n = 64: 3 blocks, 80 registers, 0.42 ms; 2 blocks,
//             126 registers, 0.49; LAUUM 3 against 4: 0.33/0.36 at n = 64, equal below n = 48).
// Measured:   H100, batch 10240, n = 64, ms against the triangle copy + cuBLAS: float64 LAUUM
//             0.33 (0.52), TRMM 0.42 (0.55); float32 LAUUM 0.24 (0.38), TRMM 0.32 (0.38); the dense
//             vendor product is still ahead (docs/design.md "tri_block").
// Launcher:   linalg/_cuda/triangular.py (tri_block_trmm, tri_block_lauum, BLOCK_RULES).
#include "common.cuh"
#include "triangular.cuh"

constexpr int TB_N = 64;                    // the size class
constexpr int TB_THREADS = 256;             // (64 / 4)^2 tiles of 4 x 4
constexpr int TB_OUT_LD = TB_N + 1;         // output staging: odd stride, transposed reads spread

// Row stride of a staged operand: 64 entries and one 16-byte load of padding.
template <typename T>
__host__ __device__ constexpr int tb_ld() { return TB_N + 16 / (int)sizeof(T); }

// Elements of dynamic shared memory: one operand (LAUUM) or two (TRMM).
template <typename T>
__host__ __device__ constexpr int tb_smem_elems(int operands) { return operands * TB_N * tb_ld<T>(); }

// Position of column c inside a staged row. float64: columns 4g, 4g + 1 at 2g, 2g + 1 and
// 4g + 2, 4g + 3 at 32 + 2g, 32 + 2g + 1 (see Shared); float32: c (a float4 is a whole group).
template <typename T>
__host__ __device__ constexpr int tb_slot(int c) {
    return sizeof(T) == 8 ? (c & 2) * 16 + (c >> 2) * 2 + (c & 1) : c;
}

// Columns 4g..4g+3 of a staged row into v (16-byte loads).
template <typename T>
__host__ __device__ __forceinline__ void tb_load4(const T* row, int g, T (&v)[4]) {
    if constexpr (sizeof(T) == 8) {
        const double2 lo = *reinterpret_cast<const double2*>(row + 2 * g);
        const double2 hi = *reinterpret_cast<const double2*>(row + 32 + 2 * g);
        v[0] = lo.x, v[1] = lo.y, v[2] = hi.x, v[3] = hi.y;
    } else {
        const float4 q = *reinterpret_cast<const float4*>(row + 4 * g);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
}

// acc[r][c] += sum_{k0 <= k < k1} P[k][4 gi + r] Q[k][4 gj + c].
template <typename T>
__host__ __device__ __forceinline__ void tb_accumulate(const T* p, const T* q, int gi, int gj,
                                                       int k0, int k1, T (&acc)[4][4]) {
    constexpr int LD = tb_ld<T>();
#pragma unroll 4
    for (int k = k0; k < k1; ++k) {
        T a[4], b[4];
        tb_load4<T>(p + k * LD, gi, a);
        tb_load4<T>(q + k * LD, gj, b);
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
    }
}

// The k range [k0, k1) of the warp whose first tile row is g0 (uniform over its two tile rows).
// upper_m: k >= i (TRMM with an upper M, LAUUM); else k <= i. Empty for rows all beyond n.
__host__ __device__ __forceinline__ void tb_k_range(int g0, int n, bool upper_m, int& k0, int& k1) {
    if (4 * g0 >= n) {
        k0 = k1 = 0;
    } else if (upper_m) {
        k0 = 4 * g0, k1 = n;
    } else {
        k0 = 0, k1 = n < 4 * g0 + 8 ? n : 4 * g0 + 8;
    }
}

// Element e (0..4095) of staging a triangle of A: entry (r, c) = (e / 64, e % 64) of A (a row
// per 64 threads, coalesced), zero outside the triangle and beyond n, one on a unit diagonal;
// written to s[r][c] or, with `swap`, to s[c][r].
template <typename T>
__host__ __device__ __forceinline__ void tb_stage_triangle(const T* __restrict__ a, index_t lda,
                                                           T* s, int n, bool lower, bool unit,
                                                           bool swap, int e) {
    const int r = e >> 6, c = e & 63;
    const bool inside = r < n && c < n && (lower ? c <= r : c >= r);
    const T v = !inside ? T(0) : ((unit && r == c) ? T(1) : a[(index_t)r * lda + c]);
    s[swap ? c * tb_ld<T>() + tb_slot<T>(r) : r * tb_ld<T>() + tb_slot<T>(c)] = v;
}

// Element e of staging the vectors v0..v0+63 of B as X[k][j] (k: entry, j: vector - v0), read
// along rows of B (left: X = B[:, v0..]; right: X = B[v0.., :]^T), zero beyond n and nvec.
template <typename T>
__host__ __device__ __forceinline__ void tb_stage_vectors(const T* __restrict__ b, index_t ldb,
                                                          T* x, int n, int nv, bool right, int e) {
    const int k = right ? e & 63 : e >> 6, j = right ? e >> 6 : e & 63;
    const bool inside = k < n && j < nv;
    const index_t at = right ? (index_t)j * ldb + k : (index_t)k * ldb + j;
    x[k * tb_ld<T>() + tb_slot<T>(j)] = inside ? b[at] : T(0);
}

// A thread's tile, scaled, into the output staging o (64 x TB_OUT_LD, plain layout). LAUUM
// (`symmetric`): only tiles on or below the diagonal, each entry of the lower triangle written to
// both places (the result is symmetric bit for bit).
template <typename T>
__host__ __device__ __forceinline__ void tb_put_tile(T* o, int gi, int gj, const T (&acc)[4][4],
                                                     T alpha, bool symmetric) {
    if (symmetric && gj > gi) return;
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            const int i = 4 * gi + r, j = 4 * gj + c;
            if (symmetric && j > i) continue;
            o[i * TB_OUT_LD + j] = alpha * acc[r][c];
            if (symmetric) o[j * TB_OUT_LD + i] = alpha * acc[r][c];
        }
}

#ifdef __CUDACC__
// One thread's tile of C = P^T Q over its warp's k range, put into o after the block's reads
// (o aliases an operand).
template <typename T>
__device__ __forceinline__ void tb_product(const T* p, const T* q, T* o, int n, bool upper_m,
                                           T alpha, bool symmetric) {
    const int gi = threadIdx.x >> 4, gj = threadIdx.x & 15;
    T acc[4][4] = {};
    int k0, k1;
    tb_k_range(gi & ~1, n, upper_m, k0, k1);
    tb_accumulate<T>(p, q, gi, gj, k0, k1, acc);
    __syncthreads();                          // every read of the operand o overwrites is done
    tb_put_tile<T>(o, gi, gj, acc, alpha, symmetric);
    __syncthreads();
}

// 256 threads, TB_TRMM_BLOCKS blocks an SM (float64: 68 KB of shared memory a block).
#ifndef TB_TRMM_BLOCKS
#define TB_TRMM_BLOCKS 3
#endif
template <typename T>
__global__ void __launch_bounds__(TB_THREADS, TB_TRMM_BLOCKS)
tri_block_trmm(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
               index_t sb, int n, int nvec, index_t batch, int flags, T alpha) {
    extern __shared__ __align__(16) unsigned char tri_block_smem[];
    T* p = reinterpret_cast<T*>(tri_block_smem);
    T* q = p + TB_N * tb_ld<T>();
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    const bool transpose = ((flags & TRI_TRANS) != 0) != right;   // M = A^T
    const bool upper_m = lower == transpose;
    for (index_t k = blockIdx.x; k < batch; k += gridDim.x) {
        __syncthreads();                      // the previous matrix's stores have read q
        // P[k][i] = M[i][k]: A(r, c) is M(c, r) when M = A^T (P[r][c]), else P[c][r].
        for (int e = threadIdx.x; e < TB_N * TB_N; e += TB_THREADS)
            tb_stage_triangle<T>(A + k * sa, lda, p, n, lower, unit, !transpose, e);
        T* b = B + k * sb;
        for (int v0 = 0; v0 < nvec; v0 += TB_N) {
            const int nv = min(TB_N, nvec - v0);
            T* bv = b + (right ? (index_t)v0 * ldb : v0);
            for (int e = threadIdx.x; e < TB_N * TB_N; e += TB_THREADS)
                tb_stage_vectors<T>(bv, ldb, q, n, nv, right, e);
            __syncthreads();
            tb_product<T>(p, q, q, n, upper_m, alpha, false);
            for (int e = threadIdx.x; e < n * nv; e += TB_THREADS) {
                const int i = right ? e % n : e / nv, j = right ? e / n : e % nv;
                bv[right ? (index_t)j * ldb + i : (index_t)i * ldb + j] = q[i * TB_OUT_LD + j];
            }
            __syncthreads();                  // q is staged again by the next chunk
        }
    }
}

// 256 threads, TB_LAUUM_BLOCKS blocks an SM (float64: 34 KB of shared memory a block).
#ifndef TB_LAUUM_BLOCKS
#define TB_LAUUM_BLOCKS 3
#endif
template <typename T>
__global__ void __launch_bounds__(TB_THREADS, TB_LAUUM_BLOCKS)
tri_block_lauum(T* __restrict__ A, index_t lda, index_t sa, int n, index_t batch, int lower) {
    extern __shared__ __align__(16) unsigned char tri_block_smem[];
    T* f = reinterpret_cast<T*>(tri_block_smem);
    for (index_t k = blockIdx.x; k < batch; k += gridDim.x) {
        T* a = A + k * sa;
        __syncthreads();                      // the previous matrix's stores have read f
        // F = L (F[r][c] = A(r, c)) or U^T (F[c][r] = A(r, c)).
        for (int e = threadIdx.x; e < TB_N * TB_N; e += TB_THREADS)
            tb_stage_triangle<T>(a, lda, f, n, lower != 0, false, lower == 0, e);
        __syncthreads();
        tb_product<T>(f, f, f, n, true, T(1), true);
        for (int e = threadIdx.x; e < n * n; e += TB_THREADS)
            a[(index_t)(e / n) * lda + e % n] = f[(e / n) * TB_OUT_LD + e % n];
    }
}
#endif
