// trsm.cu: triangular solve / multiply with many right-hand sides on small matrices (n <= NMAX).
//
// Operation:  tri_vec<T, NMAX> on each matrix pair of a strided batch, by `flags`:
//               TRSM:  op(A) X = alpha B  (left)   or  X op(A) = alpha B  (right),  X over B
//               TRMM:  B := alpha op(A) B  (left)  or  B := alpha B op(A)  (right)
//               POTRS: A = L L^T (lower) or U^T U (upper) given its factor: B := A^-1 B (left),
//                      both triangular solves fused (the factor is read once).
//             Every right-hand side is an independent vector: a column of B (left) or a row of B
//             (right: X op(A) = B  <=>  op(A)^T x_r = b_r). The kernel stores the effective
//             triangle T (op(A), or op(A)^T for the right side) in shared memory as a lower
//             matrix (an upper one reversed, with its vectors read backwards), so every variant is
//             one of two loops: right-looking forward substitution or lower multiplication, each
//             step a set of independent FMAs over the thread's register vector.
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec for the left side, nvec x n for the right side). Only the triangle of A
//             selected by `lower` is read; with TRI_UNIT its diagonal is not read either.
// Threads:    a group of NMAX threads per matrix, thread r handles vectors r, r + NMAX, ... (in
//             chunks of NMAX vectors staged through shared memory, so any nvec works and global
//             accesses stay coalesced); `blockDim.x / NMAX` matrices per block; grid-stride loop.
// Shared:     NMAX + (blockDim.x / NMAX) * tri_tile<NMAX>() elements of T (dynamic).
// Out of place: with OUT, B is read from B_in (same ldb and sb, no overlap) and the result
//             written to B (a call that keeps its right-hand sides needs no copy of them first);
//             without OUT, B_in is not read (pass B) and the code is the in-place one.
// Template:   T = float | double; NMAX in {8, 16, 32} (fully unrolled); MODE (below) the path;
//             OUT (above); n <= NMAX and nvec runtime.
// info:       TRSM/POTRS (if info != nullptr): j if the j-th diagonal entry is zero or not finite.
// Launcher:   linalg/_cuda/triangular.py (trsm, trmm), linalg/_cuda/cholesky.py (potrs, posv).
#include "common.cuh"
#include "triangular.cuh"
// Rows of a tile loaded per batch of independent loads (bounds the staging registers).
#ifndef TRI_LOAD_ROWS
#define TRI_LOAD_ROWS 8
#endif

template <int NMAX>
__host__ __device__ constexpr int tri_ld() { return NMAX + 1; }
// Loads of A's triangle and of B's chunks unguarded, clamped into the matrix (common.cuh
// clamped_offset), for NMAX >= 16; guarded (off-matrix lanes load nothing) for NMAX = 8. H100,
// TRSM left lower, n right-hand sides, batch 100000, backend ms, guarded -> clamped: n = 16
// float64 0.315 -> 0.204, float32 0.252 -> 0.142; n = 8 float32 0.065 -> 0.087, TRMM n = 8
// float64 0.066 -> 0.075 (reports/gpu_20261125d/ab_clamped_loads.md).
template <int NMAX>
__host__ __device__ constexpr bool tri_clamped_loads() { return NMAX >= 16; }
// Per matrix: the triangle tile (NMAX x LD), 2 * NMAX diagonal entries, the vector tile (NMAX
// vectors of LD), one element of skew (consecutive matrices start on different banks).
template <int NMAX>
__host__ __device__ constexpr int tri_tile() { return 2 * NMAX * (NMAX + 1) + 2 * NMAX + 1; }

template <int NMAX>
__device__ __forceinline__ void tri_sync() {
    if (NMAX <= 32) __syncwarp(); else __syncthreads();
}

// v := alpha T^-1 v, T lower, by right-looking substitution (x_i = b_i / t_ii, then
// b_k -= t_ki x_i for k > i: independent updates, no dependent FMA chain). Fully unrolled: every
// register index is a constant and the only branch is the uniform `i >= n` exit. T(k, i) is
// t[k*LD + i] (COLS) or t[(n-1-i)*LD + (n-1-k)] (the reversed transpose of the stored lower
// matrix, POTRS's second solve). Entries k >= n are scratch: they read tile padding (the launcher
// reserves NMAX elements before the first tile) and are never stored. The vector is
// v[0], v[dir], ... in shared memory.
template <typename T, int NMAX, bool COLS>
__device__ __forceinline__ void tri_fwd_solve(const T* t, const T* dinv, T* v, int dir, int n, T alpha) {
    constexpr int LD = tri_ld<NMAX>();
    T x[NMAX];
#pragma unroll
    for (int k = 0; k < NMAX; ++k) x[k] = (k < n) ? alpha * v[k * dir] : T(0);
    const T* rt = t + (n - 1) * LD + (n - 1);
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
        if (i >= n) break;
        x[i] *= dinv[i];
#pragma unroll
        for (int k = i + 1; k < NMAX; ++k)
            x[k] -= (COLS ? t[k * LD + i] : rt[-i * LD - k]) * x[i];
    }
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
        if (i >= n) break;
        v[i * dir] = x[i];
    }
}

// v := alpha T v, T lower with its diagonal in t, in place in registers: columns from the last,
// x_i += t_ik x_k for i > k, then x_k *= t_kk (x_k is still the input then). Rows i >= n are
// scratch.
template <typename T, int NMAX>
__device__ __forceinline__ void tri_lower_mul(const T* t, T* v, int dir, int n, T alpha) {
    constexpr int LD = tri_ld<NMAX>();
    T x[NMAX];
#pragma unroll
    for (int k = 0; k < NMAX; ++k) x[k] = (k < n) ? v[k * dir] : T(0);
#pragma unroll
    for (int k = NMAX - 1; k >= 0; --k) {
        if (k < n) {
#pragma unroll
            for (int i = k + 1; i < NMAX; ++i) x[i] += t[i * LD + k] * x[k];
            x[k] *= t[k * LD + k];
        }
    }
#pragma unroll
    for (int i = 0; i < NMAX; ++i) {
        if (i >= n) break;
        v[i * dir] = alpha * x[i];
    }
}

// MODE: TRI_MODE_SOLVE, TRI_MODE_MUL or TRI_MODE_POTRS, a template parameter so that each
// instantiation holds one fully unrolled path (one path per kernel: 255 -> fewer registers, no
// spills at NMAX = 32 in double, a third of the code); it must agree with TRI_MUL / TRI_POTRS in
// `flags`.
#define TRI_MODE_SOLVE 0
#define TRI_MODE_MUL 1
#define TRI_MODE_POTRS 2

template <typename T, int NMAX, int MODE, bool OUT>
__global__ void tri_vec(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B,
                        index_t ldb, index_t sb, int n, int nvec, index_t batch, int flags, T alpha,
                        int* __restrict__ info, const T* __restrict__ B_in) {
    constexpr int LD = tri_ld<NMAX>();
    extern __shared__ __align__(16) unsigned char tri_smem[];
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    constexpr bool mul = MODE == TRI_MODE_MUL, potrs = MODE == TRI_MODE_POTRS;
    const int per_block = blockDim.x / NMAX;
    const int m = threadIdx.x / NMAX;
    const int r = threadIdx.x % NMAX;
    T* t = reinterpret_cast<T*>(tri_smem) + NMAX + m * tri_tile<NMAX>();   // NMAX padding first
    T* dg = t + NMAX * LD;                        // dg[0..NMAX): first pass, dg[NMAX..): reversed
    T* xv = dg + 2 * NMAX;                        // vector tile: vector v at xv[v*LD + i]
    // The effective triangle T = op(A) (left) or op(A)^T (right) is stored as a lower matrix:
    // an upper T is stored reversed (T'(i, k) = T(n-1-i, n-1-k)) and its vectors run backwards.
    // POTRS stores the factor applied first (L, or U^T) and reads the second one reversed.
    const bool tr = potrs ? !lower : (((flags & TRI_TRANS) != 0) != right);
    const bool rev = potrs ? false : (lower == tr);   // T upper
    const bool solve = !mul;

    for (index_t base = (index_t)blockIdx.x * per_block; base < batch;
         base += (index_t)gridDim.x * per_block) {
        const index_t k = base + m;
        const bool active = k < batch;
        const T* a = A + (active ? k : 0) * sa;
        T* b = B + (active ? k : 0) * sb;
        const T* b_in = OUT ? B_in + (active ? k : 0) * sb : b;
        bool bad = false;                        // this thread's diagonal entry (row r)
        {   // the referenced triangle: thread r reads column r of each row (coalesced, in flight);
            // A(p, r) goes to t[t0 + p * tstep] (T(i, j) = A(p, r), reversed for an upper T).
            const int t0 = tr ? (rev ? (n - 1 - r) * LD + n - 1 : r * LD) : (rev ? (n - 1) * LD + n - 1 - r : r);
            const int tstep = tr ? (rev ? -1 : 1) : (rev ? -LD : LD);
#pragma unroll
            for (int p0 = 0; p0 < NMAX; p0 += TRI_LOAD_ROWS) {   // TRI_LOAD_ROWS loads in flight
                T v[TRI_LOAD_ROWS];
#pragma unroll
                for (int q = 0; q < TRI_LOAD_ROWS; ++q) {
                    const int p = p0 + q;
                    if constexpr (tri_clamped_loads<NMAX>())
                        v[q] = a[clamped_offset(p, r, n, n, lower, lda)];
                    else
                        v[q] = (active && p < n && r < n && (lower ? (r <= p) : (r >= p)))
                                   ? a[p * lda + r] : T(0);
                }
#pragma unroll
                for (int q = 0; q < TRI_LOAD_ROWS; ++q) {
                    const int p = p0 + q;
                    if (p < n && r < n && (lower ? (r <= p) : (r >= p))) {
                        T val = v[q];
                        if (p == r) {
                            const T d = unit ? T(1) : v[q];
                            bad = solve && !unit && !is_finite_nonzero(d);
                            dg[rev ? n - 1 - r : r] = solve ? T(1) / d : d;
                            dg[NMAX + n - 1 - r] = T(1) / d;
                            val = d;
                        }
                        t[t0 + p * tstep] = val;
                    }
                }
            }
        }
        tri_sync<NMAX>();
        {   // info: the group's first bad diagonal entry, from one warp vote
            const unsigned votes = __ballot_sync(blockDim.x >= 32 ? 0xffffffffu
                                                                  : (1u << blockDim.x) - 1u, bad);
            const unsigned mine = NMAX == 32 ? votes
                : (votes >> (threadIdx.x % 32 / NMAX * NMAX)) & ((1u << (NMAX % 32)) - 1u);
            if (active && r == 0 && info != nullptr) info[k] = mine ? __ffs(mine) : 0;
        }
        for (int v0 = 0; v0 < nvec; v0 += NMAX) {
            const int vc = min(NMAX, nvec - v0);
            // Chunk element q of thread r: B row (v0 + q, column r) for the right side, B row q,
            // column v0 + r for the left side; it lives at xv[xq * q + xr].
            const index_t boff = right ? (index_t)v0 * ldb + r : (index_t)v0 + r;
            const int xq = right ? LD : 1, xr = right ? r : r * LD;
            const bool rok = right ? r < n : r < vc;
            const int qmax = right ? vc : n;
            {   // stage the chunk: thread r reads element r of each row of B (coalesced)
                const T* bc = b_in + (index_t)(right ? v0 * ldb : v0);
                const int rows = right ? vc : n, cols = right ? n : vc;
#pragma unroll
                for (int q0 = 0; q0 < NMAX; q0 += TRI_LOAD_ROWS) {
                    T w[TRI_LOAD_ROWS];
#pragma unroll
                    for (int q = 0; q < TRI_LOAD_ROWS; ++q) {
                        if constexpr (tri_clamped_loads<NMAX>())
                            w[q] = bc[clamped_offset(q0 + q, r, rows, cols, -1, ldb)];
                        else
                            w[q] = (active && rok && q0 + q < qmax)
                                       ? bc[(index_t)(q0 + q) * ldb + r] : T(0);
                    }
#pragma unroll
                    for (int q = 0; q < TRI_LOAD_ROWS; ++q)
                        if (rok && q0 + q < qmax) xv[xq * (q0 + q) + xr] = w[q];
                }
            }
            tri_sync<NMAX>();
            if (active && r < vc) {
                T* x = xv + r * LD;
                if constexpr (potrs) {
                    tri_fwd_solve<T, NMAX, true>(t, dg, x, 1, n, T(1));
                    tri_fwd_solve<T, NMAX, false>(t, dg + NMAX, x + n - 1, -1, n, T(1));
                } else if constexpr (mul) {
                    tri_lower_mul<T, NMAX>(t, rev ? x + n - 1 : x, rev ? -1 : 1, n, alpha);
                } else {
                    tri_fwd_solve<T, NMAX, true>(t, dg, rev ? x + n - 1 : x, rev ? -1 : 1, n, alpha);
                }
            }
            tri_sync<NMAX>();
            if (active && rok) {
                T* bp = b + boff;
#pragma unroll
                for (int q = 0; q < NMAX; ++q) {
                    if (q < qmax) *bp = xv[xq * q + xr];
                    bp += ldb;
                }
            }
            tri_sync<NMAX>();
        }
    }
}
