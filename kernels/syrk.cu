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
