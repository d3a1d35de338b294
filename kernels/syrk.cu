// syrk.cu: symmetric rank-k update on small matrices, full symmetric output.
//
// Operation:  syrk_small<T>: C := alpha op(A) op(A)^T + beta C, op(A) = A (trans = 0, A is n x kd)
//             or A^T (trans = 1, A is kd x n). Only the triangle of C selected by `lower` is read
//             (when beta != 0); C is written full, both triangles equal bit for bit (entry (i, j)
//             and (j, i) sum the same products in the same order).
// Layout:     row-major; A(i, p) = A[k*sa + i*lda + p], C(i, j) = C[k*sc + i*ldc + j].
// Threads:    `per_block` matrices per block (runtime); the block stages op(A) (and the read
//             triangle of C) of all its matrices in shared memory, then each thread computes entries
//             of the block's outputs; grid-stride loop over the batch.
// Shared:     per_block * (n * (kd|1) + n * (n|1)) elements of T (dynamic).
// Template:   T = float | double; n and kd are runtime (the launcher keeps the tile in shared memory).
// Launcher:   linalg/_cuda/syrk.py (syrk).
// syrk_tile<T> (below) is the same operation by 4 x 4 register blocks of C for 24 < n <= 64.
#include "common.cuh"

template <typename T>
__global__ void syrk_small(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ C,
                           index_t ldc, index_t sc, int n, int kd, index_t batch, int per_block,
                           int trans, int lower, int use_c, T alpha, T beta) {
    extern __shared__ __align__(16) unsigned char syrk_smem[];
    const int ldk = kd | 1, ldn = n | 1;
    const int tile_a = n * ldk, tile = tile_a + (use_c ? n * ldn : 0);
    T* s = reinterpret_cast<T*>(syrk_smem);
    const int na = n * kd, nc = n * n;

    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const int count = (int)min((index_t)per_block, batch - base);
        // Stage op(A) as n rows of kd (and the read triangle of C).
        for (int e = threadIdx.x; e < count * na; e += blockDim.x) {
            const int m = e / na, q = e - m * na;
            const T* a = A + (base + m) * sa;
            const int rows = trans ? kd : n, cols = trans ? n : kd;
            (void)rows;
            const int i = q / cols, p = q - i * cols;          // A(i, p) in memory order
            const T v = a[i * lda + p];
            if (trans) s[m * tile + p * ldk + i] = v; else s[m * tile + i * ldk + p] = v;
        }
        if (use_c) {
            for (int e = threadIdx.x; e < count * nc; e += blockDim.x) {
                const int m = e / nc, q = e - m * nc;
                const int i = q / n, j = q - i * n;
                if (lower ? (j <= i) : (j >= i))
                    s[m * tile + tile_a + i * ldn + j] = C[(base + m) * sc + i * ldc + j];
            }
        }
        __syncthreads();
        for (int e = threadIdx.x; e < count * nc; e += blockDim.x) {
            const int m = e / nc, q = e - m * nc;
            const int i = q / n, j = q - i * n;
            const T* ai = s + m * tile + i * ldk;
            const T* aj = s + m * tile + j * ldk;
            T acc = T(0);
            for (int p = 0; p < kd; ++p) acc += ai[p] * aj[p];
            T out = alpha * acc;
            if (use_c) {
                const int hi = max(i, j), lo = min(i, j);
                const T cv = lower ? s[m * tile + tile_a + hi * ldn + lo] : s[m * tile + tile_a + lo * ldn + hi];
                out += beta * cv;
            }
            C[(base + m) * sc + i * ldc + j] = out;
        }
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------
// syrk_tile<T>: the same operation for 24 < n <= SYRK_TILE_MAX by register blocks (launcher:
// linalg/_cuda/syrk.py, off until measured: TILE_RANGE). syrk_small computes each entry of C by
// one thread from shared memory (two shared loads an FMA; H100 float64 n = 32 batch 10240 0.144
// ms, slower than cuBLAS GEMM + mirror's 0.118); here a thread owns a SYRK_TB x SYRK_TB block of
// C on or below the diagonal (SYRK_TB loads of each operand a step for SYRK_TB^2 FMAs) and writes
// it to both triangles from the same registers, so C is symmetric bit for bit and nothing runs
// after it. op(A) is staged SYRK_KC columns at a time, transposed (s[p * lds + i]) so that a
// thread's rows are adjacent; lds = 4 * ceil(n / 4) + 1 (odd: the transposed stores of
// trans = 0 spread over the banks). `per_block` matrices a block, threads (m, t): matrix
// m = tid / blocks, lower-triangle block t = tid % blocks (syrk_block_of).
// Shared: per_block * SYRK_KC * lds elements of T.
constexpr int SYRK_TB = 4;
constexpr int SYRK_KC = 32;
constexpr int SYRK_TILE_MAX = 64;

// Blocks of C on and below the diagonal for order n.
__host__ __device__ inline int syrk_blocks(int n) {
    const int nt = (n + SYRK_TB - 1) / SYRK_TB;
    return nt * (nt + 1) / 2;
}

// (bi, bj), bi >= bj, of lower-triangle block t, numbered row by row: t = bi (bi + 1) / 2 + bj.
__host__ __device__ inline void syrk_block_of(int t, int& bi, int& bj) {
    int i = 0;
    while ((i + 1) * (i + 2) / 2 <= t) ++i;
    bi = i;
    bj = t - i * (i + 1) / 2;
}

// Columns [p0, p0 + kc) of op(A) for `count` matrices from A + base * sa into s (matrix m at
// s + m * tile, entry (i, p) at p * lds + i); thread `tid` of `nthreads` takes every nthreads-th
// element. Global reads run along A's rows (p for trans = 0, i for trans = 1): coalesced.
template <typename T>
__host__ __device__ inline void syrk_tile_stage(const T* A, index_t lda, index_t sa, T* s,
                                                int tile, int lds, int n, int p0, int kc,
                                                int count, int trans, int tid, int nthreads) {
    const int per = n * kc;
    for (int e = tid; e < count * per; e += nthreads) {
        const int m = e / per, q = e - m * per;
        int i, p;
        if (trans) { p = q / n; i = q - p * n; } else { i = q / kc; p = q - i * kc; }
        const T* a = A + m * sa;
        s[m * tile + p * lds + i] = trans ? a[(index_t)(p0 + p) * lda + i] : a[(index_t)i * lda + p0 + p];
    }
}

// acc[r][c] += sum over the kc staged columns of op(A)(4 bi + r, p) op(A)(4 bj + c, p).
template <typename T>
__host__ __device__ inline void syrk_tile_update(const T* sm, int lds, int kc, int bi, int bj,
                                                 T (&acc)[SYRK_TB][SYRK_TB]) {
    const T* ri = sm + bi * SYRK_TB;
    const T* rj = sm + bj * SYRK_TB;
#pragma unroll 2
    for (int p = 0; p < kc; ++p) {
        T ai[SYRK_TB], aj[SYRK_TB];
#pragma unroll
        for (int r = 0; r < SYRK_TB; ++r) { ai[r] = ri[p * lds + r]; aj[r] = rj[p * lds + r]; }
#pragma unroll
        for (int r = 0; r < SYRK_TB; ++r)
#pragma unroll
            for (int c = 0; c < SYRK_TB; ++c) acc[r][c] += ai[r] * aj[c];
    }
}

// C(i, j) = C(j, i) = alpha acc + beta C_ref(i, j) for the block's entries with i >= j, i < n;
// C_ref is the triangle `lower` names (read only when use_c). Entries are disjoint between
// blocks and each is read before the thread writes its mirror, so C may be updated in place.
template <typename T>
__host__ __device__ inline void syrk_tile_store(T* C, index_t ldc, int n, int bi, int bj,
                                                const T (&acc)[SYRK_TB][SYRK_TB], int lower,
                                                int use_c, T alpha, T beta) {
    T out[SYRK_TB][SYRK_TB];
#pragma unroll
    for (int r = 0; r < SYRK_TB; ++r)
#pragma unroll
        for (int c = 0; c < SYRK_TB; ++c) {
            const int i = bi * SYRK_TB + r, j = bj * SYRK_TB + c;
            out[r][c] = alpha * acc[r][c];
            if (use_c && i < n && j <= i)
                out[r][c] += beta * (lower ? C[(index_t)i * ldc + j] : C[(index_t)j * ldc + i]);
        }
#pragma unroll
    for (int r = 0; r < SYRK_TB; ++r)              // rows of the lower block: 4 adjacent entries
#pragma unroll
        for (int c = 0; c < SYRK_TB; ++c) {
            const int i = bi * SYRK_TB + r, j = bj * SYRK_TB + c;
            if (i < n && j <= i) C[(index_t)i * ldc + j] = out[r][c];
        }
#pragma unroll
    for (int c = 0; c < SYRK_TB; ++c)              // its mirror, row j: 4 adjacent entries
#pragma unroll
        for (int r = 0; r < SYRK_TB; ++r) {
            const int i = bi * SYRK_TB + r, j = bj * SYRK_TB + c;
            if (i < n && j < i) C[(index_t)j * ldc + i] = out[r][c];
        }
}

template <typename T>
__global__ void syrk_tile(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ C,
                          index_t ldc, index_t sc, int n, int kd, index_t batch, int per_block,
                          int trans, int lower, int use_c, T alpha, T beta) {
    extern __shared__ __align__(16) unsigned char syrk_tile_smem[];
    T* s = reinterpret_cast<T*>(syrk_tile_smem);
    const int lds = ((n + SYRK_TB - 1) / SYRK_TB) * SYRK_TB + 1, tile = SYRK_KC * lds;
    const int blocks = syrk_blocks(n);
    const int m = threadIdx.x / blocks, t = threadIdx.x - m * blocks;
    int bi = 0, bj = 0;
    syrk_block_of(t, bi, bj);
    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const int count = (int)min((index_t)per_block, batch - base);
        const bool mine = m < count;
        T acc[SYRK_TB][SYRK_TB] = {};
        for (int p0 = 0; p0 < kd; p0 += SYRK_KC) {
            const int kc = min(SYRK_KC, kd - p0);
            __syncthreads();                       // the previous chunk's reads are done
            syrk_tile_stage(A + base * sa, lda, sa, s, tile, lds, n, p0, kc, count, trans,
                            (int)threadIdx.x, (int)blockDim.x);
            __syncthreads();
            if (mine) syrk_tile_update(s + m * tile, lds, kc, bi, bj, acc);
        }
        if (mine) syrk_tile_store(C + (base + m) * sc, ldc, n, bi, bj, acc, lower, use_c, alpha, beta);
    }
}
