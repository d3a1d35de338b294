// trmm.cu: triangular matrix product on small matrices (n <= NMAX = 32).
//
// Operation:  trmm_cols<T, NMAX> on each matrix pair of a strided batch, by `flags`:
//               B := alpha op(A) B (left)  or  B := alpha B op(A) (right)
//             Every vector is independent: a column of B (left) or a row of B (right, as
//             B op(A) = (op(A)^T B^T)^T). The effective triangle M (op(A), or op(A)^T for the
//             right side) is staged once per matrix in shared memory, zero outside its triangle,
//             and each thread multiplies one vector held in registers: for a lower M, columns k
//             from the last, x_i += m_ik x_k for i > k, then x_k *= m_kk (x_k is still the input
//             then; upper M: the mirror image). Every step is NMAX independent FMAs with a
//             broadcast shared load: no dependent chain, no branch in the unrolled loop.
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec left, nvec x n right). Only the triangle of A selected by TRMM_LOWER is
//             read; with TRMM_UNIT not its diagonal either.
// Threads:    one warp of NMAX threads per matrix, lane r handles vectors r, r + NMAX, ...;
//             `blockDim.x / NMAX` matrices per block; grid-stride loop over the batch. Global
//             accesses are coalesced: left-side vectors are columns (a warp reads a row of B),
//             right-side rows pass through a shared NMAX x (NMAX + 1) tile.
// Shared:     (blockDim.x / NMAX) * NMAX * (NMAX + 1) elements of T per tile (dynamic), two
//             tiles a matrix for the right side.
// Template:   T = float | double; NMAX = 32 (fully unrolled; rows n..NMAX-1 are zero padding).
//             A 64 class was measured and dropped: 255 registers, spills, 0.3-0.6x a dense
//             cupy.matmul at n = 48-64 (H100).
// Launcher:   linalg/_cuda/triangular.py (trmm).
#include "common.cuh"

#define TRMM_RIGHT 1
#define TRMM_LOWER 2
#define TRMM_TRANS 4
#define TRMM_UNIT 8

// Blocks of 4 matrices per SM each instantiation is compiled for (caps its registers; H100,
// batch 10240, n = 32: double 3 (0.096 ms; 4: 0.109, 2: 0.112), float 4 (0.062; 3: 0.071)).
template <typename T>
__host__ __device__ constexpr int trmm_min_blocks() { return sizeof(T) == 8 ? 3 : 4; }

template <int NMAX>
__host__ __device__ constexpr int trmm_ld() { return NMAX + 1; }

// The effective triangle M of one matrix into s (NMAX x LD, zero outside the triangle and beyond
// n): rows of A read coalesced, written transposed when M = A^T. `lane` of `group` threads.
template <typename T, int NMAX>
__device__ __forceinline__ void trmm_stage(const T* __restrict__ a, index_t lda, T* s, int n,
                                           bool lower, bool unit, bool transpose, int lane) {
    constexpr int LD = trmm_ld<NMAX>();
    for (int e = lane; e < NMAX * NMAX; e += NMAX) {
        const int r = e / NMAX, c = e % NMAX;
        const bool inside = r < n && c < n && (lower ? c <= r : c >= r);
        T v = T(0);
        if (inside) v = (unit && r == c) ? T(1) : a[r * lda + c];
        s[transpose ? c * LD + r : r * LD + c] = v;
    }
}

// x := M x in registers for the staged M (lower_m: lower triangle, else upper). `s` is read
// through a volatile pointer: M is the same for every vector of the matrix, and without it the
// compiler hoists all NMAX^2/2 loads out of the vector loop into (spilled) registers.
template <typename T, int NMAX>
__device__ __forceinline__ void trmm_apply(const volatile T* s, T (&x)[NMAX], bool lower_m) {
    constexpr int LD = trmm_ld<NMAX>();
    if (lower_m) {
#pragma unroll
        for (int k = NMAX - 1; k >= 0; --k) {
#pragma unroll
            for (int i = k + 1; i < NMAX; ++i) x[i] = fma(s[i * LD + k], x[k], x[i]);
            x[k] *= s[k * LD + k];
        }
    } else {
#pragma unroll
        for (int k = 0; k < NMAX; ++k) {
#pragma unroll
            for (int i = 0; i < k; ++i) x[i] = fma(s[i * LD + k], x[k], x[i]);
            x[k] *= s[k * LD + k];
        }
    }
}

template <typename T, int NMAX>
__global__ void __launch_bounds__(4 * NMAX, trmm_min_blocks<T>())
trmm_cols(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
          index_t sb, int n, int nvec, index_t batch, int flags, T alpha) {
    static_assert(NMAX <= 32, "one warp a matrix (the vector tile is shared by __syncwarp)");
    constexpr int LD = trmm_ld<NMAX>();
    extern __shared__ __align__(16) unsigned char trmm_smem[];
    const bool right = flags & TRMM_RIGHT, lower = flags & TRMM_LOWER, unit = flags & TRMM_UNIT;
    const bool transpose = ((flags & TRMM_TRANS) != 0) != right;     // M = A^T
    const bool lower_m = lower != transpose;
    const int per_block = blockDim.x / NMAX;
    const int group = threadIdx.x / NMAX, lane = threadIdx.x % NMAX;
    T* s = reinterpret_cast<T*>(trmm_smem) + group * NMAX * LD * (right ? 2 : 1);
    T* rows = s + NMAX * LD;                   // right side: NMAX rows of B
    for (index_t first = (index_t)blockIdx.x * per_block; first < batch;
         first += (index_t)gridDim.x * per_block) {
        const index_t k = first + group;
        __syncthreads();                       // the previous matrix's tile is no longer read
        if (k < batch) trmm_stage<T, NMAX>(A + k * sa, lda, s, n, lower, unit, transpose, lane);
        __syncthreads();
        if (k >= batch) continue;
        T* b = B + k * sb;
        for (int v0 = 0; v0 < nvec; v0 += NMAX) {
            const int v = v0 + lane;
            T x[NMAX];
            if (right) {                       // rows staged so that global accesses coalesce
#pragma unroll
                for (int r = 0; r < NMAX; ++r)     // unrolled: NMAX independent loads in flight
                    if (v0 + r < nvec && lane < n) rows[r * LD + lane] = b[(index_t)(v0 + r) * ldb + lane];
                __syncwarp();
#pragma unroll
                for (int i = 0; i < NMAX; ++i) x[i] = (i < n && v < nvec) ? rows[lane * LD + i] : T(0);
            } else {
#pragma unroll
                for (int i = 0; i < NMAX; ++i) x[i] = (i < n && v < nvec) ? b[i * ldb + v] : T(0);
            }
            trmm_apply<T, NMAX>(s, x, lower_m);
            if (right) {
#pragma unroll
                for (int i = 0; i < NMAX; ++i) rows[lane * LD + i] = alpha * x[i];
                __syncwarp();
#pragma unroll
                for (int r = 0; r < NMAX; ++r)
                    if (v0 + r < nvec && lane < n) b[(index_t)(v0 + r) * ldb + lane] = rows[r * LD + lane];
                __syncwarp();                  // before the next chunk overwrites the rows
            } else if (v < nvec) {
#pragma unroll
                for (int i = 0; i < NMAX; ++i)
                    if (i < n) b[i * ldb + v] = alpha * x[i];
            }
        }
    }
}
