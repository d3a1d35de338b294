// tri_warp.cu: triangular multiply / solve with many vectors on small matrices (n <= NMAX = 32),
// one warp (or half a warp) a matrix.
//
// Operation:  tri_warp<T, NMAX, MODE> on each matrix pair of a strided batch, by `flags`:
//               MUL (TRMM):    B := alpha op(A) B (left)  or  B := alpha B op(A) (right)
//               SOLVE (TRSM):  op(A) X = alpha B (left)  or  X op(A) = alpha B (right), X over B
//               POTRS:         A = L L^T (lower) or U^T U (upper) given its factor:
//                              B := alpha A^-1 B (left; both solves on one staged factor)
//             Every vector is independent: a column of B (left) or a row of B (right, as
//             B op(A) = (op(A)^T B^T)^T). The effective triangle M (op(A), or op(A)^T for the
//             right side; the first factor for POTRS) is staged once per matrix in shared memory,
//             zero outside its triangle, its diagonal inverted for the solves, and each lane
//             works on one vector held in registers, column-oriented: every step is NMAX
//             independent FMAs with one broadcast shared load (no dependent chain, no branch in
//             the unrolled loops). MUL, lower M: columns k from the last, x_i += m_ik x_k (i > k),
//             then x_k *= m_kk (x_k is still the input then). SOLVE, lower M: x_i *= 1/m_ii,
//             then x_k -= m_ki x_i (k > i). Upper M: the mirror images.
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec left, nvec x n right). Only the triangle of A selected by TRI_LOWER is
//             read; with TRI_UNIT not its diagonal either.
// Threads:    G lanes (a warp or half a warp) per matrix; in each chunk of NMAX vectors lane r
//             handles vectors r, r + G, ... (NMAX / G of them, sharing each shared load);
//             `blockDim.x / G` matrices per block (128 threads); grid-stride loop over the batch.
//             Global accesses are coalesced: left-side vectors are columns (a group reads a row
//             of B), right-side rows pass through a shared NMAX x (NMAX + 1) tile.
// Shared:     per matrix NMAX * (NMAX + 1) elements of T, twice for the right side, and one of
//             padding (dynamic).
// Template:   T = float | double; NMAX = 32 (fully unrolled; rows n..NMAX-1 are zero padding);
//             MODE = TRI_WARP_MUL | TRI_WARP_SOLVE | TRI_WARP_POTRS (one path per kernel);
//             G = 16 | 32; OUT: B is read from B_in (same ldb and sb, no overlap) and the result
//             written to B, without it B_in is not read (kernels/trsm.cu tri_vec's OUT).
//             A 64 class of the multiply was measured and dropped: 255 registers, spills,
//             0.3-0.6x a dense cupy.matmul at n = 48-64 (H100).
// info:       SOLVE/POTRS: j if the j-th diagonal entry is zero or not finite, else 0; MUL: 0.
// Launcher:   linalg/_cuda/triangular.py (tri_warp: trmm, trsm; cholesky.py: potrs).
#include "common.cuh"
#include "triangular.cuh"

// Blocks of 128 threads per SM each instantiation is compiled for (caps its registers; H100,
// batch 10240, n = 32, TRMM with G = 32: double 3 (0.096 ms; 4: 0.109, 2: 0.112), float 4
// (0.062; 3: 0.071)). G = 16 holds two vectors a lane: twice the registers; double 3 (left
// solve 0.156 ms; 2 or 1: 0.169).
template <typename T, int G>
__host__ __device__ constexpr int tri_warp_min_blocks() {
    return G == 16 ? 3 : (sizeof(T) == 8 ? 3 : 4);
}

template <int NMAX>
__host__ __device__ constexpr int tri_warp_ld() { return NMAX + 1; }

// Entries of A a lane loads in tri_warp_stage before it stores any of them: 16 in flight instead
// of the few of an element-by-element loop (0), except in the float multiply, where the loop
// stays faster (its 4 blocks an SM cap registers at 128). H200, batch 10240, same call, 16
// against the loop at n = 17 / 24 / 32: TRSM float64 1.39 / 1.45 / 1.48x, float32 1.26 / 1.42 /
// 1.44x; TRMM float64 1.11 / 1.14 / 1.19x, float32 0.86 / 0.98 / 1.07x (reports/gpu_20261126).
template <typename T, int MODE>
__host__ __device__ constexpr int tri_warp_stage_loads() {
    return MODE == TRI_WARP_MUL && sizeof(T) == 4 ? 0 : 16;
}

// The effective triangle M of one matrix into s (NMAX x LD, zero outside the triangle and beyond
// n; diagonal inverted when `invert`) by the G lanes of its group: rows of A read coalesced,
// written transposed when M = A^T. Returns (on every lane of the group) the first zero or
// non-finite diagonal entry (1-based) or 0 (always 0 without `invert`).
template <typename T, int NMAX, int G, int R>
__device__ __forceinline__ int tri_warp_stage(const T* __restrict__ a, index_t lda, T* s, int n,
                                              bool lower, bool unit, bool transpose, bool invert,
                                              int lane, unsigned mask) {
    constexpr int LD = tri_warp_ld<NMAX>();
    if constexpr (R > 0) {
        // Addresses clamped into the triangle (common.cuh) so that the loads need no branch;
        // rows at or past n are not loaded (predicated). Only the use of each value is guarded.
        static_assert((NMAX * NMAX) % (G * R) == 0, "whole rounds of G * R entries");
#pragma unroll 1
        for (int e0 = lane; e0 < NMAX * NMAX; e0 += G * R) {
            T v[R];
#pragma unroll
            for (int q = 0; q < R; ++q) {
                const int e = e0 + q * G, r = e / NMAX;
                v[q] = r < n ? a[clamped_offset(r, e % NMAX, n, n, lower ? 1 : 0, lda)] : T(0);
            }
#pragma unroll
            for (int q = 0; q < R; ++q) {
                const int e = e0 + q * G, r = e / NMAX, c = e % NMAX;
                const bool inside = r < n && c < n && (lower ? c <= r : c >= r);
                T w = inside ? ((unit && r == c) ? T(1) : v[q]) : T(0);
                if (invert && r == c && inside) w = T(1) / w;
                s[transpose ? c * LD + r : r * LD + c] = w;
            }
        }
    } else {
#pragma unroll 4
        for (int e = lane; e < NMAX * NMAX; e += G) {
            const int r = e / NMAX, c = e % NMAX;
            const bool inside = r < n && c < n && (lower ? c <= r : c >= r);
            T v = T(0);
            if (inside) v = (unit && r == c) ? T(1) : a[r * lda + c];
            if (invert && r == c && inside) v = T(1) / v;
            s[transpose ? c * LD + r : r * LD + c] = v;
        }
    }
    int bad = NMAX + 1;
    for (int r = lane; r < n; r += G)
        if (invert && !unit && !is_finite_nonzero(a[r * lda + r])) bad = min(bad, r + 1);
    const int first = __reduce_min_sync(mask, bad);
    return first > NMAX ? 0 : first;
}

// Step t of a sweep over NMAX rows: t itself for a lower M, NMAX - 1 - t for an upper one (the
// mirror image), a compile-time index once the loops are unrolled.
template <int NMAX, bool LOWER>
__host__ __device__ constexpr int tri_warp_row(int t) { return LOWER ? t : NMAX - 1 - t; }

// x := M x for V vectors (LOWER: M lower, else upper); each shared load feeds V FMAs. Columns k
// from the last row's end: x_i += m_ik x_k for the rows i beyond k, then x_k *= m_kk. `s` is
// read through a volatile pointer: M is the same for every vector of the matrix, and without it
// the compiler hoists all NMAX^2/2 loads out of the vector loop into (spilled) registers.
template <typename T, int NMAX, int V, bool LOWER>
__host__ __device__ __forceinline__ void tri_warp_mul(const volatile T* s, T (&x)[V][NMAX]) {
    constexpr int LD = tri_warp_ld<NMAX>();
#pragma unroll
    for (int tk = NMAX - 1; tk >= 0; --tk) {
        const int k = tri_warp_row<NMAX, LOWER>(tk);
#pragma unroll
        for (int ti = tk + 1; ti < NMAX; ++ti) {
            const int i = tri_warp_row<NMAX, LOWER>(ti);
            const T m = s[i * LD + k];
#pragma unroll
            for (int j = 0; j < V; ++j) x[j][i] = fma(m, x[j][k], x[j][i]);
        }
        const T d = s[k * LD + k];
#pragma unroll
        for (int j = 0; j < V; ++j) x[j][k] *= d;
    }
}

// x := M^-1 x for V vectors (LOWER: M lower, else upper; the diagonal of s holds 1/m_ii):
// x_i *= 1/m_ii, then x_k -= m_ki x_i for the rows k beyond i. ROWS: M(k, i) = s[k*LD + i];
// otherwise M(k, i) = s[i*LD + k] (the staged matrix transposed: POTRS's second solve). The
// substitution is a dependent chain per vector; V > 1 interleaves independent chains.
template <typename T, int NMAX, int V, bool LOWER, bool ROWS>
__host__ __device__ __forceinline__ void tri_warp_solve(const volatile T* s, T (&x)[V][NMAX]) {
    constexpr int LD = tri_warp_ld<NMAX>();
#pragma unroll
    for (int ti = 0; ti < NMAX; ++ti) {
        const int i = tri_warp_row<NMAX, LOWER>(ti);
        const T d = s[i * LD + i];
#pragma unroll
        for (int j = 0; j < V; ++j) x[j][i] *= d;
#pragma unroll
        for (int tk = ti + 1; tk < NMAX; ++tk) {
            const int k = tri_warp_row<NMAX, LOWER>(tk);
            const T m = s[ROWS ? k * LD + i : i * LD + k];
#pragma unroll
            for (int j = 0; j < V; ++j) x[j][k] = fma(-m, x[j][i], x[j][k]);
        }
    }
}

template <typename T, int NMAX, int MODE, int G, bool OUT>
__global__ void __launch_bounds__(128, tri_warp_min_blocks<T, G>())
tri_warp(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
         index_t sb, int n, int nvec, index_t batch, int flags, T alpha, int* __restrict__ info,
         const T* __restrict__ B_in) {
    static_assert(NMAX == 32 && (G == 16 || G == 32), "a matrix is one warp or half a warp");
    constexpr int LD = tri_warp_ld<NMAX>();
    constexpr int V = NMAX / G;                // vectors per lane in each chunk of NMAX
    extern __shared__ __align__(16) unsigned char tri_warp_smem[];
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    // POTRS stages the factor applied first (L, or U^T) as a lower M.
    const bool transpose = MODE == TRI_WARP_POTRS ? !lower : (((flags & TRI_TRANS) != 0) != right);
    const bool lower_m = lower != transpose;
    const int per_block = blockDim.x / G;
    const int group = threadIdx.x / G, lane = threadIdx.x % G;
    const unsigned mask = G == 32 ? 0xffffffffu : 0xffffu << (threadIdx.x & 16);
    // Each group's tiles end one element apart from the next group's: the two half-warp groups
    // of a warp broadcast-load their own matrices' entries at the same offsets, which 2 x NMAX x LD
    // elements apart sit in the same banks (Nsight Compute, float64 TRSM n = 32: half the
    // shared-load wavefronts were conflicts).
    T* s = reinterpret_cast<T*>(tri_warp_smem) + group * (NMAX * LD * (right ? 2 : 1) + 1);
    T* rows = s + NMAX * LD;                   // right side: NMAX rows of B
    for (index_t first = (index_t)blockIdx.x * per_block; first < batch;
         first += (index_t)gridDim.x * per_block) {
        const index_t k = first + group;
        __syncthreads();                       // the previous matrix's tile is no longer read
        if (k < batch) {
            constexpr int R = tri_warp_stage_loads<T, MODE>();
            const int bad = tri_warp_stage<T, NMAX, G, R>(A + k * sa, lda, s, n, lower, unit,
                                                          transpose, MODE != TRI_WARP_MUL, lane,
                                                          mask);
            if (lane == 0) info[k] = bad;          // always 0 for the multiply
        }
        __syncthreads();
        if (k >= batch) continue;
        T* b = B + k * sb;
        const T* b_in = OUT ? B_in + k * sb : b;
        for (int v0 = 0; v0 < nvec; v0 += NMAX) {
            T x[V][NMAX];
            if (right) {                       // rows staged so that global accesses coalesce
#pragma unroll
                for (int r = 0; r < NMAX; ++r)     // unrolled: independent loads in flight
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        const int c = lane + j * G;
                        if (v0 + r < nvec && c < n) rows[r * LD + c] = b_in[(index_t)(v0 + r) * ldb + c];
                    }
                __syncwarp(mask);
#pragma unroll
                for (int j = 0; j < V; ++j)
#pragma unroll
                    for (int i = 0; i < NMAX; ++i)
                        x[j][i] = (i < n && v0 + lane + j * G < nvec) ? rows[(lane + j * G) * LD + i] : T(0);
            } else {
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    const int v = v0 + lane + j * G;
#pragma unroll
                    for (int i = 0; i < NMAX; ++i) x[j][i] = (i < n && v < nvec) ? b_in[i * ldb + v] : T(0);
                }
            }
            if (MODE == TRI_WARP_MUL) {
                if (lower_m) tri_warp_mul<T, NMAX, V, true>(s, x);
                else tri_warp_mul<T, NMAX, V, false>(s, x);
            } else {
                if (lower_m) tri_warp_solve<T, NMAX, V, true, true>(s, x);
                else tri_warp_solve<T, NMAX, V, false, true>(s, x);
                if (MODE == TRI_WARP_POTRS) tri_warp_solve<T, NMAX, V, false, false>(s, x);
            }
            if (right) {
#pragma unroll
                for (int j = 0; j < V; ++j)
#pragma unroll
                    for (int i = 0; i < NMAX; ++i) rows[(lane + j * G) * LD + i] = alpha * x[j][i];
                __syncwarp(mask);
#pragma unroll
                for (int r = 0; r < NMAX; ++r)
#pragma unroll
                    for (int j = 0; j < V; ++j) {
                        const int c = lane + j * G;
                        if (v0 + r < nvec && c < n) b[(index_t)(v0 + r) * ldb + c] = rows[r * LD + c];
                    }
                __syncwarp(mask);              // before the next chunk overwrites the rows
            } else {
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    const int v = v0 + lane + j * G;
                    if (v < nvec) {
#pragma unroll
                        for (int i = 0; i < NMAX; ++i)
                            if (i < n) b[i * ldb + v] = alpha * x[j][i];
                    }
                }
            }
        }
    }
}
