// gemm.cu: batched GEMM, C_k = alpha * op(A_k) op(B_k) + beta * C_k, real float/double.
//
// Layout: row-major strided batches: op(A) is m x k, op(B) is k x n, C is m x n.
//   transa == 0: A is (m, k) with leading dimension lda; 1: A is (k, m) and op(A) = A^T.
//   transb == 0: B is (k, n) with leading dimension ldb; 1: B is (n, k) and op(B) = B^T.
// Strides are element counts between consecutive matrices; stride_b == 0 broadcasts one B to
// the whole batch (the hydro corner forces F_z = A_z B^T with one B for all zones).
// beta == 0 means C is not read (BLAS).
//
// gemm_tiled<T, BM, BN, BK, DX, DY>  (launcher: linalg/_cuda/blas.py, gemm)
//   Shared-memory tiled GEMM (MAGMA-style, seed 004 §5.1): a sub-block of DX x DY threads
//   computes one BM x BN tile of C, each thread (BM/DY) x (BN/DX) entries strided by DY and DX
//   (conflict-free shared reads, coalesced stores), looping over k in BK-deep slices of op(A)
//   and op(B) staged in shared memory. blockDim = (DX*DY, 1, MPB): MPB independent sub-blocks
//   per block, so several small matrices (or tiles) share one block. Work items (matrix, tile)
//   are walked with a grid stride; all sub-blocks of a block iterate together (barriers).
//   Template parameters are the search space of seed 004 Table 1 (DIM-X, DIM-Y, BLK-M, BLK-N,
//   BLK-K); MPB and the grid are run-time values.
#include "common.cuh"
#include "gemv.cuh"     // load_vec

template <typename T, int BM, int BN, int BK, int DX, int DY>
__global__ void gemm_tiled(index_t batch, int m, int n, int k, T alpha,
                           const T* __restrict__ A, index_t stride_a, int lda, int transa,
                           const T* __restrict__ B, index_t stride_b, int ldb, int transb,
                           T beta, T* __restrict__ C, index_t stride_c, int ldc) {
    static_assert(BM % DY == 0 && BN % DX == 0, "tile must be a multiple of the thread grid");
    constexpr int RM = BM / DY, RN = BN / DX, NT = DX * DY;
    constexpr int LDA_S = BM + 1, LDB_S = BN + 1;
    extern __shared__ __align__(16) unsigned char gemm_smem[];
    T* As = reinterpret_cast<T*>(gemm_smem) + threadIdx.z * (BK * LDA_S + BK * LDB_S);
    T* Bs = As + BK * LDA_S;

    const int t = threadIdx.x;
    const int tx = t % DX, ty = t / DX;
    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    const index_t tiles = (index_t)tiles_m * tiles_n;
    const index_t work = batch * tiles;
    const int mpb = blockDim.z;

    for (index_t g = blockIdx.x; g * mpb < work; g += gridDim.x) {
        const index_t w = g * mpb + threadIdx.z;
        const bool active = w < work;
        const index_t mat = active ? w / tiles : 0;
        const int tile = active ? (int)(w % tiles) : 0;
        const int row0 = (tile / tiles_n) * BM, col0 = (tile % tiles_n) * BN;
        const T* Ak = A + mat * stride_a;
        const T* Bk = B + mat * stride_b;

        T acc[RM][RN];
#pragma unroll
        for (int i = 0; i < RM; ++i)
#pragma unroll
            for (int j = 0; j < RN; ++j) acc[i][j] = T(0);

        for (int k0 = 0; k0 < k; k0 += BK) {
            if (active) {
                // op(A) tile (BM x BK) -> As[kk][i]; consecutive threads along memory.
#pragma unroll
                for (int e = t; e < BM * BK; e += NT) {
                    int i, kk;
                    if (transa) { i = e % BM; kk = e / BM; } else { kk = e % BK; i = e / BK; }
                    const int gi = row0 + i, gk = k0 + kk;
                    T v = T(0);
                    if (gi < m && gk < k)
                        v = transa ? Ak[(index_t)gk * lda + gi] : Ak[(index_t)gi * lda + gk];
                    As[kk * LDA_S + i] = v;
                }
                // op(B) tile (BK x BN) -> Bs[kk][j].
#pragma unroll
                for (int e = t; e < BK * BN; e += NT) {
                    int j, kk;
                    if (transb) { kk = e % BK; j = e / BK; } else { j = e % BN; kk = e / BN; }
                    const int gj = col0 + j, gk = k0 + kk;
                    T v = T(0);
                    if (gj < n && gk < k)
                        v = transb ? Bk[(index_t)gj * ldb + gk] : Bk[(index_t)gk * ldb + gj];
                    Bs[kk * LDB_S + j] = v;
                }
            }
            __syncthreads();
            if (active) {
#pragma unroll
                for (int kk = 0; kk < BK; ++kk) {
                    T a[RM], b[RN];
#pragma unroll
                    for (int i = 0; i < RM; ++i) a[i] = As[kk * LDA_S + ty + DY * i];
#pragma unroll
                    for (int j = 0; j < RN; ++j) b[j] = Bs[kk * LDB_S + tx + DX * j];
#pragma unroll
                    for (int i = 0; i < RM; ++i)
#pragma unroll
                        for (int j = 0; j < RN; ++j) acc[i][j] += a[i] * b[j];
                }
            }
            __syncthreads();
        }
        if (active) {
            T* Ck = C + mat * stride_c;
#pragma unroll
            for (int i = 0; i < RM; ++i) {
                const int gi = row0 + ty + DY * i;
                if (gi >= m) continue;
#pragma unroll
                for (int j = 0; j < RN; ++j) {
                    const int gj = col0 + tx + DX * j;
                    if (gj < n) {
                        T* c = Ck + (index_t)gi * ldc + gj;
                        *c = alpha * acc[i][j] + (beta == T(0) ? T(0) : beta * *c);
                    }
                }
            }
        }
    }
}

// gemm_tall<T, NC, VEC>  (launcher: linalg/_cuda/blas.py, gemm with one B for the whole batch)
//   C_flat = alpha * A_flat op(B) + beta * C_flat where A_flat (rows x k) is the batch of A_z
//   stacked (rows = batch * m, contiguous) and one op(B) (k x n) serves every row: the hydro
//   corner forces F_z = A_z B^T as one streaming pass. op(B) is staged once per block, transposed,
//   as Bt[kk][j] (row length NP = ceil(n / NC) * NC, zero-padded); chunks of rp rows of A are
//   copied to shared memory (row stride k + 1) with VEC-wide coalesced loads, 8 per thread in
//   flight (copy_rows_to_shared of gemv.cuh; the lg argument is unused, kept for the launcher);
//   then thread (lr, cg) computes row lr, columns cg*NC .. cg*NC+NC-1 (blockDim = rp * ncg).
//   Needs k % VEC == 0 and A aligned to VEC elements.
template <typename T, int NC, int VEC>
__global__ void gemm_tall(index_t rows, int n, int k, T alpha, const T* __restrict__ A,
                          const T* __restrict__ B, int transb, T beta, T* __restrict__ C,
                          int rp, int lg) {
    extern __shared__ __align__(16) unsigned char gemm_tall_smem[];
    const int ncg = (n + NC - 1) / NC, np = ncg * NC, ks = k + 1;
    T* Bt = reinterpret_cast<T*>(gemm_tall_smem);
    T* As = Bt + (index_t)k * np;
    const int t = threadIdx.x, nt = blockDim.x;
    for (int e = t; e < k * np; e += nt) {
        const int kk = e / np, j = e % np;
        Bt[e] = j < n ? (transb ? B[(index_t)j * k + kk] : B[(index_t)kk * n + j]) : T(0);
    }
    const int lr = t % rp, cg = t / rp;
    for (index_t r0 = (index_t)blockIdx.x * rp; r0 < rows; r0 += (index_t)gridDim.x * rp) {
        const int nr = (int)min((index_t)rp, rows - r0);
        copy_rows_to_shared<T, VEC, 8>(A + r0 * k, nr * k, k, As, ks, t, nt);
        __syncthreads();
        if (lr < nr && cg < ncg) {
            T acc[NC];
#pragma unroll
            for (int c = 0; c < NC; ++c) acc[c] = T(0);
            const T* ar = As + lr * ks;
            const T* bt = Bt + cg * NC;
#pragma unroll 4
            for (int kk = 0; kk < k; ++kk) {
                const T a = ar[kk];
                T b[NC];
                load_vec<T, NC>(bt + (index_t)kk * np, b);
#pragma unroll
                for (int c = 0; c < NC; ++c) acc[c] += a * b[c];
            }
            T* cr = C + (r0 + lr) * n + cg * NC;
#pragma unroll
            for (int c = 0; c < NC; ++c)
                if (cg * NC + c < n)
                    cr[c] = alpha * acc[c] + (beta == T(0) ? T(0) : beta * cr[c]);
        }
        __syncthreads();
    }
}
