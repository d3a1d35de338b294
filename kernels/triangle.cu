// triangle.cu: batched triangle fix-ups for the paths that run a dense GEMM on triangular data
// (LAUUM, SYRK, TRMM and TRTRI above the leaf size, the recursive POTRF: linalg/_cuda/
// triangular.py, cholesky.py and syrk.py), and the diagonal check behind the triangular solves'
// info.
//
// Layout: A (batch, n, n) row-major with leading dimension lda and batch stride stride_a.
// triangle_fix<T>: the kept triangle is the lower one (keep_lower) or the upper one; the other
// strict triangle is overwritten, for every matrix, with the kept one mirrored (the result is
// exactly symmetric). 32 x 32 tiles through shared memory so that reads and writes are
// coalesced: a (32, 8) block handles the tile pairs (bi, bj), bi >= bj, one at a time (grid
// stride over batch x tile pairs, so any batch count works). With move, the kept strict triangle
// is zeroed after it is read: the matrix becomes the transpose of its kept triangle (a factor
// that cuSOLVER left in the other triangle, linalg/_cuda/cholesky.py); with info (not null),
// the block of each matrix's first tile also writes diag_info's result where info is 0 (the
// diagonal does not move, so any block may read it). Zeroing a triangle: triangle_zero.
#include "common.cuh"

template <typename T>
__global__ void triangle_fix(index_t batch, int n, T* __restrict__ A, index_t lda,
                             index_t stride_a, int keep_lower, int move, int* info) {
    __shared__ T tile[32][33];
    __shared__ int first_bad;
    const int tiles = (n + 31) / 32;
    const index_t pairs = (index_t)tiles * (tiles + 1) / 2;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (index_t w = blockIdx.x; w < batch * pairs; w += gridDim.x) {
        const index_t k = w / pairs;
        int p = (int)(w - k * pairs), bi = 0;
        while (p > bi) { p -= bi + 1; ++bi; }     // pair number -> (bi, bj = p), bj <= bi
        T* Ak = A + k * stride_a;
        // Kept tile at (sr, sc), overwritten tile at (sc, sr) (the same tile on the diagonal).
        const int sr = keep_lower ? bi * 32 : p * 32, sc = keep_lower ? p * 32 : bi * 32;
        for (int r = ty; r < 32; r += 8) {
            const int i = sr + r, j = sc + tx;
            if (i < n && j < n) tile[r][tx] = Ak[(index_t)i * lda + j];
        }
        __syncthreads();
        for (int r = ty; r < 32; r += 8) {          // target (row, col) = (sc + r, sr + tx)
            const int row = sc + r, col = sr + tx;
            const bool other = keep_lower ? col > row : row > col;
            if (row < n && col < n && other)
                Ak[(index_t)row * lda + col] = tile[tx][r];
        }
        if (move) {                                 // the entries this thread read, kept strict
            for (int r = ty; r < 32; r += 8) {
                const int i = sr + r, j = sc + tx;
                const bool kept = keep_lower ? i > j : j > i;
                if (i < n && j < n && kept) Ak[(index_t)i * lda + j] = T(0);
            }
        }
        if (info != nullptr && bi == 0) {           // the same for every thread of the block
            if (tx == 0 && ty == 0) first_bad = n + 1;
            __syncthreads();
            for (int i = ty * 32 + tx; i < n; i += 256)
                if (!is_finite_nonzero(Ak[(index_t)i * lda + i])) atomicMin(&first_bad, i + 1);
            __syncthreads();
            if (tx == 0 && ty == 0 && info[k] == 0 && first_bad <= n) info[k] = first_bad;
        }
        __syncthreads();
    }
}

// diag_info<T>: info[k] = the first i (1-based) with A_k(i, i) zero or not finite, else 0 (the
// LAPACK trtri/trsm info from the diagonal); with keep_prior, a nonzero info[k] already there
// (e.g. cuSOLVER's potrf info) is kept. One warp per matrix: each lane checks every 32nd
// diagonal entry, then a warp minimum. Grid stride over the batch.
template <typename T>
__global__ void diag_info(index_t batch, int n, const T* __restrict__ A, index_t lda,
                          index_t stride_a, int* __restrict__ info, int keep_prior) {
    const int lane = threadIdx.x & 31;
    const index_t warps = (index_t)gridDim.x * (blockDim.x >> 5);
    for (index_t k = (index_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); k < batch;
         k += warps) {
        if (keep_prior && info[k] != 0) continue;        // the same value on every lane
        const T* a = A + k * stride_a;
        int bad = n + 1;
        for (int i = lane; i < n; i += 32)
            if (!is_finite_nonzero(a[i * lda + i])) { bad = i + 1; break; }
        bad = __reduce_min_sync(0xffffffffu, bad);
        if (lane == 0) info[k] = bad > n ? 0 : bad;
    }
}

// The rows of a batch, one warp a row, grid stride over batch x rows: row(k, i, lane) for each
// matrix k and row i, lane = the thread's lane (shared by triangle_copy and triangle_zero).
template <typename Row>
__device__ __forceinline__ void for_each_row(index_t batch, int n, Row row) {
    const int lane = threadIdx.x & 31;
    const index_t warps = (index_t)gridDim.x * (blockDim.x >> 5);
    for (index_t w = (index_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
         w < batch * n; w += warps) {
        const index_t k = w / n;
        row(k, (int)(w - k * n), lane);
    }
}

// triangle_copy<T>: B = the kept triangle of A (lower or upper; its diagonal, or ones with
// unit), zeros elsewhere: the dense operand of a cuBLAS product of a triangle (TRMM above the
// leaf size) without touching A. One warp a row (coalesced).
template <typename T>
__global__ void triangle_copy(index_t batch, int n, const T* __restrict__ A, index_t lda,
                              index_t stride_a, T* __restrict__ B, index_t ldb, index_t stride_b,
                              int lower, int unit) {
    for_each_row(batch, n, [&](index_t k, int i, int lane) {
        const T* a = A + k * stride_a + (index_t)i * lda;
        T* b = B + k * stride_b + (index_t)i * ldb;
        for (int j = lane; j < n; j += 32) {
            const bool kept = lower ? j < i : j > i;
            b[j] = j == i ? (unit ? T(1) : a[j]) : (kept ? a[j] : T(0));
        }
    });
}

// triangle_zero<T>: zeros over the strict triangle opposite to the kept one (keep_lower: the
// strict upper one), in place. One warp a row: the row's zeros are contiguous (coalesced). A
// triangle's row ends are partial 32-byte sectors, so this writes at ~1.1 TB/s at n = 64 on the
// H100 (as fast as the 32 x 32 tile kernel that did it before; rectangular blocks write at
// ~1.3-2 TB/s).
template <typename T>
__global__ void triangle_zero(index_t batch, int n, T* __restrict__ A, index_t lda,
                              index_t stride_a, int keep_lower) {
    for_each_row(batch, n, [&](index_t k, int i, int lane) {
        T* a = A + k * stride_a + (index_t)i * lda;
        const int from = keep_lower ? i + 1 : 0, to = keep_lower ? n : i;
        for (int j = from + lane; j < to; j += 32) a[j] = T(0);
    });
}
