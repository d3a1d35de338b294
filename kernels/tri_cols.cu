// tri_cols.cu: triangular solves of a few larger matrices (small batches, 32 < n <= 512), the
// right-hand sides split over thread blocks.
//
// Operation:  tri_cols<T, C, MODE> solves T X = alpha B for C right-hand sides a block, where T is
//             the effective lower triangle of the call in "solve order" (below): TRSM (any side,
//             triangle, transpose), TRTRI (B = I, not read) and POTRS (two solves, the factor's
//             and its transpose's, on the block's vectors without leaving shared memory).
//             At a batch of one to a few matrices the kernels that give a matrix to a warp or a
//             block (tri_warp, tri_pair, the recursions' GEMMs) leave most SMs idle, and the
//             vendor's single-matrix trsm runs tens of dependent launches; here the grid is
//             (ceil(nvec / C), batch), so one matrix with n right-hand sides fills the GPU, and
//             the whole solve is one launch.
// Solve order: T(i, j) = A[g(i) * ar + g(j) * ac] with g(i) = rev ? n - 1 - i : i, lower in (i, j)
//             (an upper triangle is a lower one with the index order reversed, a transpose swaps
//             ar and ac); vector c of X is X[g(i) * xr + c * xc], so the right side (X op(A) =
//             B, i.e. op(A)^T X^T = B^T) is the same loop with X's strides exchanged.
// Algorithm:  blocked right-looking substitution over 32-row blocks: warp w solves vector w of
//             the block's C against the 32 x 32 diagonal block (staged in shared memory, its
//             reciprocal diagonal precomputed; a 32-step shuffle chain), then the block updates
//             the rows below (X(r, :) -= T(r, block) X(block, :), T read once from global
//             memory / L2, a warp's 32 rows staged through shared memory where T's rows are
//             contiguous). The next diagonal block is loaded into registers during the update
//             (A is only read), so a step waits on no global load before its chain.
// Threads:    TC_THREADS a block (C <= TC_THREADS / 32: one warp per vector of the diagonal solve).
// Shared:     n * C elements of X (by A's own row order, the C vectors of a row together; both
//             passes of POTRS index it so) + 2 diagonal tiles of 32 x 33 + 2 x 32 reciprocals
//             + a 32 x 33 row tile a warp (dynamic; tri_cols_smem_elems).
// In place:   X may be B (each block reads all of its vectors before it writes any).
// info:       if info != nullptr, block column 0 writes LAPACK's info for matrix k: the smallest
//             1-based index j (in A's own order) of a zero or non-finite diagonal entry, else 0
//             (0 with unit != 0). POTRS: the factor's diagonal likewise.
// Launcher:   linalg/_cuda/triangular.py tri_cols (trsm, trtri), linalg/_cuda/cholesky.py (potrs).
#include "common.cuh"

#define TC_THREADS 256
#define TC_TILE_LD 33
#define TC_WARPS (TC_THREADS / 32)
#define TC_LOADS 16          // loads in flight a lane while a warp stages its rows

enum { TC_SOLVE = 0, TC_INVERSE = 1, TC_POTRS = 2 };

// Dynamic shared elements of one block (X rounded up to 2 elements: the tiles stay 16-byte
// aligned for float too): X, two diagonal tiles, their reciprocals, a row tile a warp.
__host__ __device__ constexpr int tri_cols_smem_elems(int n, int c) {
    return (n * c + 1) / 2 * 2 + 2 * 32 * TC_TILE_LD + 2 * 32 + TC_WARPS * 32 * TC_TILE_LD;
}

template <typename T>
struct TriView {                 // one pass's triangle in solve order
    const T* a;
    index_t ar, ac;
    int n, rev;
    __device__ __forceinline__ int g(int i) const { return rev ? n - 1 - i : i; }
    __device__ __forceinline__ T at(int i, int j) const {
        return a[(index_t)g(i) * ar + (index_t)g(j) * ac];
    }
};

// Loads of diagonal block kb into registers (4 entries a thread: 32 x 32 / TC_THREADS), j fastest
// where a row of T is contiguous in A (ac == 1), else i fastest (consecutive threads, consecutive
// addresses either way).
template <typename T>
struct DiagStage {
    T v[32 * 32 / TC_THREADS];
    __device__ __forceinline__ static void place(int e, bool rows_contig, int& i, int& j) {
        const int idx = threadIdx.x + e * TC_THREADS;
        if (rows_contig) { i = idx >> 5; j = idx & 31; } else { i = idx & 31; j = idx >> 5; }
    }
    __device__ __forceinline__ void load(const TriView<T>& t, int kb, int unit) {
        const int r0 = 32 * kb, rows = min(32, t.n - r0);
        const bool rc = t.ac == 1;
#pragma unroll
        for (int e = 0; e < 32 * 32 / TC_THREADS; ++e) {
            int i, j;
            place(e, rc, i, j);
            const bool in = i < rows && j <= i && !(unit && i == j);
            v[e] = in ? t.at(r0 + i, r0 + j) : T(i == j ? 1 : 0);
        }
    }
    // Stores into tile d (32 x TC_TILE_LD) and reciprocals rd; the smallest bad diagonal index
    // (A's own order, 1-based) into *bad.
    __device__ __forceinline__ void store(const TriView<T>& t, int kb, T* d, T* rd, int* bad) {
        const int r0 = 32 * kb, rows = min(32, t.n - r0);
        const bool rc = t.ac == 1;
#pragma unroll
        for (int e = 0; e < 32 * 32 / TC_THREADS; ++e) {
            int i, j;
            place(e, rc, i, j);
            d[i * TC_TILE_LD + j] = v[e];
            if (i == j) {
                if (i < rows && !is_finite_nonzero(v[e])) atomicMin(bad, t.g(r0 + i) + 1);
                rd[i] = T(1) / v[e];
            }
        }
    }
};

// The update of the rows below block row r0 where a row of T is contiguous in A (ac == 1): 32
// rows a warp at a time, T(rows, r0 : r0 + 32) staged in the warp's tile by coalesced loads (a
// lane per column; rows past n clamped onto the last), then lane l updates row rt + l from it.
// (A lane a row reading its own row touched 32 lines a load instruction: n = 512, one matrix,
// 8.4 us a block row on the H200.)
template <typename T, int C>
__device__ __forceinline__ void update_staged(const TriView<T>& t, int r0, T* xs, T* wt) {
    const int n = t.n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const T* col = t.a + (index_t)t.g(r0 + lane) * t.ac;
    for (int rt = r0 + 32 + 32 * warp; rt < n; rt += TC_THREADS) {
        const int nr = min(32, n - rt);
#pragma unroll
        for (int h = 0; h < 32; h += TC_LOADS) {
            T v[TC_LOADS];
#pragma unroll
            for (int i = 0; i < TC_LOADS; ++i)
                v[i] = col[(index_t)t.g(rt + min(h + i, nr - 1)) * t.ar];
#pragma unroll
            for (int i = 0; i < TC_LOADS; ++i) wt[(h + i) * TC_TILE_LD + lane] = v[i];
        }
        __syncwarp();
        if (lane < nr) {
            T acc[C];
#pragma unroll
            for (int c = 0; c < C; ++c) acc[c] = T(0);
#pragma unroll 8
            for (int j = 0; j < 32; ++j) {
                const T w = wt[lane * TC_TILE_LD + j];
#pragma unroll
                for (int c = 0; c < C; ++c) acc[c] += w * xs[t.g(r0 + j) * C + c];
            }
#pragma unroll
            for (int c = 0; c < C; ++c) xs[t.g(rt + lane) * C + c] -= acc[c];
        }
        __syncwarp();
    }
}

// The same update where consecutive rows of T are adjacent in A (ar == 1: a transposed or
// right-side triangle): a thread a row, each load coalesced across the warp as it is.
template <typename T, int C>
__device__ __forceinline__ void update_direct(const TriView<T>& t, int r0, T* xs) {
    for (int r = r0 + 32 + threadIdx.x; r < t.n; r += TC_THREADS) {
        T acc[C];
#pragma unroll
        for (int c = 0; c < C; ++c) acc[c] = T(0);
        const T* arow = t.a + (index_t)t.g(r) * t.ar;
#pragma unroll 8
        for (int j = 0; j < 32; ++j) {
            const T tr = arow[(index_t)t.g(r0 + j) * t.ac];
#pragma unroll
            for (int c = 0; c < C; ++c) acc[c] += tr * xs[t.g(r0 + j) * C + c];
        }
#pragma unroll
        for (int c = 0; c < C; ++c) xs[t.g(r) * C + c] -= acc[c];
    }
}

// One pass T X = X over the block's vectors xs (n x C in shared memory, row g(i) of T's order at
// xs[g(i) * C]).
template <typename T, int C>
__device__ void tri_cols_pass(const TriView<T>& t, int unit, T* xs, T* tiles, T* rds, T* wtiles,
                              int* bad) {
    const int n = t.n, nb = (n + 31) / 32;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    DiagStage<T> stage;
    stage.load(t, 0, unit);
    stage.store(t, 0, tiles, rds, bad);
    __syncthreads();
    for (int kb = 0; kb < nb; ++kb) {
        const int r0 = 32 * kb, rows = min(32, n - r0);
        const T* d = tiles + (kb & 1) * 32 * TC_TILE_LD;
        const T* rd = rds + (kb & 1) * 32;
        if (warp < C) {                          // vector `warp`: the diagonal block's chain
            T s = lane < rows ? xs[t.g(r0 + lane) * C + warp] : T(0);
#pragma unroll
            for (int j = 0; j < 32; ++j) {
                if (j >= rows) break;
                const T xj = __shfl_sync(0xffffffffu, s, j) * rd[j];
                if (lane == j) s = xj;
                else if (lane > j) s -= d[lane * TC_TILE_LD + j] * xj;
            }
            if (lane < rows) xs[t.g(r0 + lane) * C + warp] = s;
        }
        __syncthreads();
        const bool more = kb + 1 < nb;
        if (more) stage.load(t, kb + 1, unit);
        // Rows below the block: X(r, :) -= T(r, r0 : r0 + 32) X(r0 : r0 + 32, :).
        if (t.ac == 1) update_staged<T, C>(t, r0, xs, wtiles + warp * 32 * TC_TILE_LD);
        else update_direct<T, C>(t, r0, xs);
        if (more) stage.store(t, kb + 1, tiles + ((kb + 1) & 1) * 32 * TC_TILE_LD,
                              rds + ((kb + 1) & 1) * 32, bad);
        __syncthreads();
    }
}

// MODE TC_SOLVE / TC_INVERSE: one pass (rev, ar, ac as given); TC_POTRS: the pass as given, then
// the pass of its transpose in reversed order (L then L^T, or U^T then U). B is read from Bin
// (TC_INVERSE: not read; B = I) and X written to X (may be Bin), both with strides (xr, xc).
template <typename T, int C, int MODE>
__global__ void __launch_bounds__(TC_THREADS, 2)
tri_cols(const T* __restrict__ A, index_t sa, index_t ar, index_t ac, int rev, int unit, int n,
         int nvec, int batch, T alpha, const T* Bin, T* X, index_t sx, index_t xr, index_t xc,
         int* __restrict__ info) {
    static_assert(C >= 1 && C <= TC_WARPS, "a warp a vector in the diagonal solve");
    extern __shared__ __align__(16) unsigned char tc_smem[];
    T* xs = reinterpret_cast<T*>(tc_smem);
    T* tiles = xs + (n * C + 1) / 2 * 2;
    T* rds = tiles + 2 * 32 * TC_TILE_LD;
    T* wtiles = rds + 2 * 32;
    __shared__ int bad;
    const int c0 = blockIdx.x * C, tid = threadIdx.x;
    for (int k = blockIdx.y; k < batch; k += gridDim.y) {
        const TriView<T> t{A + (index_t)k * sa, ar, ac, n, rev};
        const index_t xoff = (index_t)k * sx;
        if (tid == 0) bad = n + 1;
        // Vector c0 + c, row i at xoff + i * xr + (c0 + c) * xc (A's order); c fastest where
        // a row's vectors are contiguous, else i.
        const bool cfast = xc == 1;
        for (int idx = tid; idx < n * C; idx += TC_THREADS) {
            const int i = cfast ? idx / C : idx % n, c = cfast ? idx % C : idx / n;
            const int col = c0 + c;
            T v = T(0);
            if (col < nvec) {
                if (MODE == TC_INVERSE) v = i == col ? alpha : T(0);
                else v = alpha * Bin[xoff + (index_t)i * xr + (index_t)col * xc];
            }
            xs[i * C + c] = v;
        }
        __syncthreads();
        tri_cols_pass<T, C>(t, unit, xs, tiles, rds, wtiles, &bad);
        if (MODE == TC_POTRS) {
            const TriView<T> tt{t.a, ac, ar, n, !rev};
            tri_cols_pass<T, C>(tt, unit, xs, tiles, rds, wtiles, &bad);
        }
        for (int idx = tid; idx < n * C; idx += TC_THREADS) {
            const int i = cfast ? idx / C : idx % n, c = cfast ? idx % C : idx / n;
            const int col = c0 + c;
            if (col < nvec) X[xoff + (index_t)i * xr + (index_t)col * xc] = xs[i * C + c];
        }
        if (info != nullptr && blockIdx.x == 0 && tid == 0) info[k] = bad <= n ? bad : 0;
        __syncthreads();
    }
}
