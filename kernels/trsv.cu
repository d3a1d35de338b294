// trsv.cu: batched triangular solve with one right-hand side, op(A_k) x_k = b_k, float/double.
//
// Layout: A (batch, n, n) row-major with leading dimension lda and batch stride stride_a; x
// (batch, n) with element stride incx and batch stride stride_x, overwritten with the solution;
// with the template flag OUT, b is read from X_in (same strides, no overlap) instead of X (the
// public call that keeps its right-hand side needs no copy of it); without it X_in is not read.
// lower: the lower triangle of A is referenced (else the upper); trans: op(A) = A^T;
// unit: the diagonal is taken as 1 (and not read). Only the referenced triangle is used (read,
// except trsv_warp's VEC > 1 diagonal blocks, below).
// info[k] = first j (1-based) with A[j-1, j-1] zero or not finite, 0 if none (unit: 0),
// computed on the device; a failed matrix keeps whatever was computed.
// The panel GEMVs are the lane-group device functions of gemv.cuh (seed 004 §3: TRSV blocked
// over the GEMV device function, the diagonal blocks solved in registers).
#include "common.cuh"
#include "gemv.cuh"

// ---------------------------------------------------------------------------------------------
// trsv_warp<T, W, OUT, VEC>  (launcher: linalg/_cuda/trsv.py; also the fused one-vector POTRS
// of linalg/_cuda/cholesky.py)
//   One group of W lanes (W = 4, 8, 16 or 32; 32 / W matrices per warp) per matrix, x in shared
//   memory, A streamed from global memory exactly once per solve, every load coalesced. Every
//   case is a forward substitution with a lower-triangular view M of op(A), reversed for the
//   backward ones (negative strides), in blocks of W rows:
//   * rows of M contiguous (trans == 0): y[blk] = b[blk] - M[blk, solved] x[solved] by the row
//     panel GEMV (W - 1 shuffle reduce-scatter), then the W x W diagonal block in registers (lane
//     r holds row r; double stages it through a shared tile so the loads stay coalesced);
//   * columns of M contiguous (trans == 1): the diagonal block (lane r holds row r: coalesced),
//     then x[unsolved] -= M[unsolved, blk] x[blk] by the column panel GEMV (no reduction).
//   potrs != 0 runs the second solve of POTRS on the same x (op(A) transposed), so A x = b with
//   A = L L^T (lower, trans = 0) or U^T U (upper, trans = 1) costs one launch.
//   VEC > 1: the row-contiguous solves load VEC adjacent entries of a row at once (the row
//   panels, and in float the full diagonal blocks), the column-contiguous ones VEC adjacent
//   entries of a column (the column panels, a lane owning VEC rows); the launcher passes it only
//   where every such load is aligned (A's base, lda and the batch stride multiples of VEC, and n
//   too, since the backward solves run from the ends). Those diagonal blocks are read whole, so
//   entries of the other triangle inside them are loaded, never used.
//   info[k] = first (1-based, original order) zero or non-finite diagonal entry, 0 if none/unit.

// The diagonal blocks of row-contiguous solves go through a shared W x (W + 1) tile in double
// only: measured on the H100 (batch 10240, lower N, W = 32), the tile took float64 from 1.30 to
// 1.16 ms at n = 256 but float32 from 0.82 to 1.60 ms, so float32 reads those rows directly.
template <typename T> struct trsv_stage { static constexpr bool value = sizeof(T) == 8; };
template <typename T, int W>
__host__ __device__ constexpr int trsv_tile() { return trsv_stage<T>::value ? W * (W + 1) : 0; }

template <typename T>
struct SharedVec {          // x(i) = p[i * step]: a vector in shared memory, possibly reversed
    T* p;
    int step;
    __device__ __forceinline__ T& operator()(int i) const { return p[i * step]; }
};

// Double only, the diagonal blocks are solved with reciprocals taken before the substitution
// (group_solve_diag). Measured on the H100 (batch 10240): float64 TRSV n = 64 / 128 0.102 / 0.302
// -> 0.092 / 0.290 ms; float32 gained nothing and lost at some widths (TRSV n = 256, W = 16
// without a register cap: 71 -> 100 registers, 0.82 -> 2.17 ms; one-vector POTRS n = 48 / 64
// 0.7x), so float32 divides in the chain.
template <typename T> struct trsv_reciprocal { static constexpr bool value = sizeof(T) == 8; };

// Registers: lane r holds y_r, d[j] = M(r0 + r, r0 + j) (j < r, and j == r unless unit) and
// (trsv_reciprocal) rinv = 1 / M(r0 + r, r0 + r). Column-oriented substitution: x_j is scaled in
// lane j and broadcast by one shuffle. With the reciprocals, taken by all lanes at once before
// the substitution, its dependency chain holds a multiply a step (a float64 division in the
// unrolled loop also cost registers and code: trsv_warp<double, 16> at 96 registers spilled).
// RECIP: use rinv (else divide by d[j] in the chain; trsv_block always passes reciprocals).
template <int W, typename T, bool RECIP = trsv_reciprocal<T>::value>
__device__ __forceinline__ T group_solve_diag(const T (&d)[W], T y, int nb, const LaneGroup<W>& g,
                                              bool unit, T rinv) {
#pragma unroll
    for (int j = 0; j < W; ++j) {
        if (j < nb) {
            if (!unit && g.lane == j) y = RECIP ? y * rinv : y / d[j];
            const T xj = g.shfl(y, j);
            if (g.lane > j) y -= d[j] * xj;
        }
    }
    return y;
}

// Smallest original index (reversed: n - 1 - logical) of a bad diagonal entry among the block's
// lanes, or n.
template <int W, typename T>
__device__ __forceinline__ int group_first_bad(T dd, bool active, int logical, int n,
                                               bool reversed, const LaneGroup<W>& g) {
    const bool bad = active && !is_finite_nonzero(dd);
    int idx = bad ? (reversed ? n - 1 - logical : logical) : n;
#pragma unroll
    for (int off = W / 2; off >= 1; off >>= 1) idx = min(idx, g.shfl_xor(idx, off));
    return idx;
}

// Lane r's row of the diagonal block at r0 into d: d[j] = M(r0 + r, r0 + j) for j < r (and
// j == r unless unit), 0 elsewhere and in lanes past the block (active false). Direct loads:
// coalesced when columns are contiguous, else strided row reads served by L1.
template <int W, typename T>
__device__ __forceinline__ void load_diag_row(const StridedView<T>& M, int r0, int lane,
                                              bool active, bool unit, T (&d)[W]) {
#pragma unroll
    for (int j = 0; j < W; ++j)
        d[j] = (active && (j < lane || (j == lane && !unit))) ? M(r0 + lane, r0 + j) : T(0);
}

// The same for a full block of a row-contiguous view in VEC-wide loads (W / VEC instead of W
// loads, each touching W rows): the entries right of the diagonal, in the block and so in the
// matrix, are loaded and dropped.
template <int W, int VEC, typename T>
__device__ __forceinline__ void load_diag_row_vec(const StridedView<T>& M, int r0, int lane,
                                                  bool unit, T (&d)[W]) {
#pragma unroll
    for (int j0 = 0; j0 < W; j0 += VEC) {
        T t[VEC];
        view_row_vec<VEC>(M, r0 + lane, r0 + j0, t);
#pragma unroll
        for (int v = 0; v < VEC; ++v)
            d[j0 + v] = (j0 + v < lane || (j0 + v == lane && !unit)) ? t[v] : T(0);
    }
}

// Forward substitution M x = b on the lower-triangular view M (x holds b on entry); returns the
// first bad diagonal index (original order) or n; `check` == false skips the diagonal check.
template <int W, int VEC, typename T, bool ROWS_CONTIGUOUS,
          bool STAGE_DIAGONAL = trsv_stage<T>::value>
__device__ int group_forward(int n, const StridedView<T>& M, const SharedVec<T>& x, T* tile,
                             bool unit, bool check, bool reversed, const LaneGroup<W>& g) {
    const int lane = g.lane;
    int bad = n;
    for (int r0 = 0; r0 < n; r0 += W) {
        const int nb = min(W, n - r0);
        const bool active = lane < nb;
        T y = active ? x(r0 + lane) : T(0);
        if (ROWS_CONTIGUOUS && r0 > 0) y -= group_gemv_row_panel<W, VEC>(M, r0, nb, r0, x, g);
        T d[W], own;               // own: this lane's diagonal entry (or 1; double only used)
        if (ROWS_CONTIGUOUS && STAGE_DIAGONAL) {
            // Row r of the block is contiguous: stage the block through shared memory (row by
            // row, coalesced), then lane r takes its row (row stride W + 1: few bank conflicts).
#pragma unroll 8
            for (int r = 0; r < W; ++r)
                if (r < nb && lane <= r) tile[r * (W + 1) + lane] = M(r0 + r, r0 + lane);
            g.sync();
#pragma unroll
            for (int j = 0; j < W; ++j)
                d[j] = (active && (j < lane || (j == lane && !unit))) ? tile[lane * (W + 1) + j]
                                                                      : T(0);
            own = (active && !unit) ? tile[lane * (W + 1) + lane] : T(1);
            g.sync();
        } else if (ROWS_CONTIGUOUS && VEC > 1 && nb == W) {
            load_diag_row_vec<W, VEC>(M, r0, lane, unit, d);
            own = unit ? T(1) : M(r0 + lane, r0 + lane);
        } else {
            load_diag_row<W>(M, r0, lane, active, unit, d);
            own = (active && !unit) ? M(r0 + lane, r0 + lane) : T(1);
        }
        if (check && !unit) {
            const T dd = active ? M(r0 + lane, r0 + lane) : T(1);
            bad = min(bad, group_first_bad<W>(dd, active, r0 + lane, n, reversed, g));
        }
        const T rinv = trsv_reciprocal<T>::value ? T(1) / own : T(1);
        y = group_solve_diag<W>(d, y, nb, g, unit, rinv);
        if (active) x(r0 + lane) = y;
        g.sync();
        if (!ROWS_CONTIGUOUS && r0 + W < n) {
            group_gemv_col_panel_sub<W, VEC>(M, r0 + W, n, r0, W, x, x, g);
            g.sync();
        }
    }
    return bad;
}

// One solve op(A) x = b as a forward substitution on the (possibly reversed) view of op(A).
template <int W, int VEC, typename T>
__device__ int group_trsv(int n, const T* Ak, index_t lda, T* xs, T* tile, bool lower,
                          bool trans, bool unit, bool check, const LaneGroup<W>& g) {
    const bool reversed = lower == trans;          // op(A) upper: backward substitution
    const index_t last = (index_t)(n - 1) * lda + (n - 1);
    const T* p = reversed ? Ak + last : Ak;
    const index_t s = reversed ? -1 : 1;
    const SharedVec<T> x{reversed ? xs + n - 1 : xs, (int)s};
    if (!trans) {                                  // M(i, j) = A(i, j): rows contiguous
        const StridedView<T> M{p, s * lda, s};
        return group_forward<W, VEC, T, true>(n, M, x, tile, unit, check, reversed, g);
    }
    const StridedView<T> M{p, s, s * lda};         // M(i, j) = A(j, i): columns contiguous
    return group_forward<W, VEC, T, false>(n, M, x, tile, unit, check, reversed, g);
}

template <typename T, int W, bool OUT, int VEC = 1>
__global__ void trsv_warp(index_t batch, int n, const T* __restrict__ A, index_t lda,
                          index_t stride_a, T* __restrict__ X, index_t incx, index_t stride_x,
                          int* __restrict__ info, int lower, int trans, int unit, int potrs,
                          const T* __restrict__ X_in) {
    extern __shared__ __align__(16) unsigned char trsv_warp_smem[];
    const LaneGroup<W> g = LaneGroup<W>::make();
    const int group = threadIdx.x / W, groups = blockDim.x / W;
    // Per group: x (n elements), then (double) a W x (W + 1) tile for the diagonal blocks, then
    // one element of padding: the groups of a warp broadcast-load the same offsets of their own
    // parts, which would otherwise fall into the same banks whenever the part's size is a
    // multiple of 32 words (Nsight Compute, float64 one-vector POTRS n = 64 / 128: 0.29 / 0.36
    // of the shared-load wavefronts were conflicts).
    T* xs = reinterpret_cast<T*>(trsv_warp_smem) + (index_t)group * (n + trsv_tile<T, W>() + 1);
    T* tile = xs + n;
    for (index_t k = (index_t)blockIdx.x * groups + group; k < batch;
         k += (index_t)gridDim.x * groups) {
        const T* Ak = A + k * stride_a;
        T* xk = X + k * stride_x;
        const T* bk = OUT ? X_in + k * stride_x : xk;
        for (int i = g.lane; i < n; i += W) xs[i] = bk[(index_t)i * incx];
        g.sync();
        int bad = group_trsv<W, VEC>(n, Ak, lda, xs, tile, lower != 0, trans != 0, unit != 0,
                                     true, g);
        if (potrs)
            group_trsv<W, VEC>(n, Ak, lda, xs, tile, lower != 0, trans == 0, false, false, g);
        for (int i = g.lane; i < n; i += W) xk[(index_t)i * incx] = xs[i];
        if (g.lane == 0) info[k] = bad < n ? bad + 1 : 0;
        g.sync();
    }
}

// ---------------------------------------------------------------------------------------------
// trsv_block<T, OUT, VEC>  (launcher: linalg/_cuda/trsv.py launch_block, for small batches)
//   One block of NW = blockDim.x / 32 warps per matrix. trsv_warp gives a matrix one group of
//   lanes, so a batch too small to fill the GPU runs at the latency of that group: one warp
//   streams the whole triangle (H100, float64 n = 256, one matrix, 32 lanes: 0.045 ms, where
//   cuBLAS's call takes 0.043 with its host time). Here the same substitution in blocks of 32
//   rows (group_forward's, with W = 32) shares each block row's panel GEMV among the warps: the
//   row panel's 32 * VEC-column trips go round-robin to the warps, whose partial sums warp 0
//   adds before it solves the diagonal block; the column panel's rows go round-robin likewise
//   (no reduction). Two barriers a block row. x, and NW x 32 partial sums, in shared memory.
//   Arguments, info, VEC and potrs as trsv_warp's.
template <int VEC, typename T, bool ROWS_CONTIGUOUS>
__device__ int block_forward(int n, const StridedView<T>& M, const SharedVec<T>& x, T* part,
                             bool unit, bool check, bool reversed) {
    constexpr int W = 32;
    const LaneGroup<W> g = LaneGroup<W>::make();
    const int warp = threadIdx.x >> 5, warps = blockDim.x >> 5, lane = g.lane;
    int bad = n;
    for (int r0 = 0; r0 < n; r0 += W) {
        const int nb = min(W, n - r0);
        const bool active = lane < nb;
        if (ROWS_CONTIGUOUS && r0 > 0) {
            part[warp * W + lane] = group_gemv_row_panel<W, VEC>(M, r0, nb, r0, x, g, warp * W * VEC,
                                                                  warps * W * VEC);
            __syncthreads();
        }
        if (warp == 0) {
            T y = active ? x(r0 + lane) : T(0);
            if (ROWS_CONTIGUOUS && r0 > 0)
                for (int w = 0; w < warps; ++w) y -= part[w * W + lane];
            T d[W];
            if (ROWS_CONTIGUOUS && VEC > 1 && nb == W)
                load_diag_row_vec<W, VEC>(M, r0, lane, unit, d);
            else
                load_diag_row<W>(M, r0, lane, active, unit, d);
            const T own = (active && !unit) ? M(r0 + lane, r0 + lane) : T(1);
            if (check && !unit)
                bad = min(bad, group_first_bad<W>(own, active, r0 + lane, n, reversed, g));
            // Reciprocals in float too: here a call's time is the dependency chain, where a
            // float division (a subroutine) a step cost 2-3x (float32 n = 128, one matrix,
            // upper T: 0.034 ms with divisions against 0.013 for float64).
            y = group_solve_diag<W, T, true>(d, y, nb, g, unit, T(1) / own);
            if (active) x(r0 + lane) = y;
        }
        __syncthreads();
        if (!ROWS_CONTIGUOUS && r0 + W < n) {
            group_gemv_col_panel_sub<W, VEC>(M, r0 + W + warp * W * VEC, n, r0, W, x, x, g,
                                             warps * W * VEC);
            __syncthreads();
        }
    }
    return bad;
}

// One solve op(A) x = b by the block (group_trsv's views); the returned index is warp 0's.
template <int VEC, typename T>
__device__ int block_trsv(int n, const T* Ak, index_t lda, T* xs, T* part, bool lower,
                          bool trans, bool unit, bool check) {
    const bool reversed = lower == trans;
    const index_t last = (index_t)(n - 1) * lda + (n - 1);
    const T* p = reversed ? Ak + last : Ak;
    const index_t s = reversed ? -1 : 1;
    const SharedVec<T> x{reversed ? xs + n - 1 : xs, (int)s};
    if (!trans) {
        const StridedView<T> M{p, s * lda, s};
        return block_forward<VEC, T, true>(n, M, x, part, unit, check, reversed);
    }
    const StridedView<T> M{p, s, s * lda};
    return block_forward<VEC, T, false>(n, M, x, part, unit, check, reversed);
}

template <typename T, bool OUT, int VEC = 1>
__global__ void trsv_block(index_t batch, int n, const T* __restrict__ A, index_t lda,
                           index_t stride_a, T* __restrict__ X, index_t incx, index_t stride_x,
                           int* __restrict__ info, int lower, int trans, int unit, int potrs,
                           const T* __restrict__ X_in) {
    extern __shared__ __align__(16) unsigned char trsv_block_smem[];
    T* xs = reinterpret_cast<T*>(trsv_block_smem);
    T* part = xs + n;                      // blockDim.x partial sums
    for (index_t k = blockIdx.x; k < batch; k += gridDim.x) {
        const T* Ak = A + k * stride_a;
        T* xk = X + k * stride_x;
        const T* bk = OUT ? X_in + k * stride_x : xk;
        for (int i = threadIdx.x; i < n; i += blockDim.x) xs[i] = bk[(index_t)i * incx];
        __syncthreads();
        const int bad = block_trsv<VEC>(n, Ak, lda, xs, part, lower != 0, trans != 0, unit != 0,
                                        true);
        if (potrs) block_trsv<VEC>(n, Ak, lda, xs, part, lower != 0, trans == 0, false, false);
        for (int i = threadIdx.x; i < n; i += blockDim.x) xk[(index_t)i * incx] = xs[i];
        if (threadIdx.x == 0) info[k] = bad < n ? bad + 1 : 0;
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------
// trsv_split<T, OUT>  (launcher: linalg/_cuda/trsv.py launch_split, for one matrix or a few)
//   One block of TRSV_SPLIT_WARPS warps per 32-row block of a matrix, so one matrix spreads over
//   n / 32 SMs. trsv_block gives a matrix one block: at batch 1 that is one SM streaming the
//   whole triangle in a chain of block rows (H100 float64 n = 512: 0.067 ms GPU time, where
//   cuBLAS's one-matrix call takes 0.059 with its host time). Here block j of the forward view M
//   (group_trsv's, reversed for the backward solves) owns logical rows r0 = 32 j .. r0 + nb - 1:
//   its warps stage the tiles M(r0.., 32 k..), k < j, round-robin into shared memory (the loads
//   issued before the tile's x is ready, so they wait off the critical path), and as each x_k is
//   published add tile * x_k to their partial sums; warp 0 then subtracts the sums from b_j,
//   solves the diagonal block (staged first) by group_solve_diag and publishes x_j.
//   Publishing: x_j goes to X and to the exchange vector ex (n values a matrix, in global
//   memory), where every entry holds the SplitBits sentinel (a NaN with a payload of ours) until
//   it is published; a consumer warp polls its 32 entries of ex (relaxed loads, through L2) until
//   none is the sentinel, so the value arrives with the signal (one L2 round trip a hand-over,
//   no flag and no fence). A solution entry that happens to have the sentinel's bits is
//   published as the default NaN instead (the same number to every reader; X gets the result).
//   Blocks take their (matrix, block row) from a ticket (atomicAdd on *counter) rather than
//   blockIdx, so a block only ever waits on blocks that started before it: no deadlock whatever
//   the scheduler's order or the other work on the GPU. The workspace goes back to its rest
//   state within the launch: the last ticket resets the counter; the last block row of a matrix,
//   which has seen every other entry of ex published (so nobody polls them any more), puts the
//   sentinel back. So launches on one stream share one workspace, and a launch replayed from a
//   CUDA graph works.
//   info[m]: block 0 stores its own result, a fence, then publishes x_0; a later block with a
//   bad diagonal entry (known once it saw x_0: a fence, then) lowers it by compare-and-swap.
//   Arguments as trsv_warp's (no potrs: the launcher runs POTRS's second solve as a second
//   launch); ex: batch * n values of T, all the sentinel on entry; counter: one int, 0 on entry.
constexpr int TRSV_SPLIT_WARPS = 4;
constexpr int TRSV_SPLIT_LD = 33;                     // tile row stride: conflict-free both ways

template <typename T> struct SplitBits;
template <> struct SplitBits<double> {
    typedef unsigned long long U;
    static constexpr U SENTINEL = 0x7ff4a5a5a5a5a5a5ull;     // a signalling NaN, our payload
    static constexpr U DEFAULT_NAN = 0x7ff8000000000000ull;
    __device__ static U bits(double v) { return (U)__double_as_longlong(v); }
    __device__ static double value(U b) { return __longlong_as_double((long long)b); }
    __device__ static U load(const double* p) {
        U v;
        asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
        return v;
    }
    __device__ static void store(double* p, U v) {
        asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
    }
};
template <> struct SplitBits<float> {
    typedef unsigned int U;
    static constexpr U SENTINEL = 0x7fa5a5a5u;
    static constexpr U DEFAULT_NAN = 0x7fc00000u;
    __device__ static U bits(float v) { return (U)__float_as_int(v); }
    __device__ static float value(U b) { return __int_as_float((int)b); }
    __device__ static U load(const float* p) {
        U v;
        asm volatile("ld.relaxed.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
        return v;
    }
    __device__ static void store(float* p, U v) {
        asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
    }
};

// tile[r * LD + c] = M(r0 + r, c0 + c) for r < nr (rows past nr: a copy of row nr - 1, never
// used), c < 32; `diagonal`: the block on the diagonal, entries right of it clamped onto the
// diagonal (so only the referenced triangle is read; they are never used either). Coalesced
// along M's contiguous direction; every load issued before the first store.
template <typename T>
__device__ __forceinline__ void split_stage_tile(const StridedView<T>& M, int r0, int c0, int nr,
                                                 bool rows_contiguous, bool diagonal, T* tile,
                                                 int lane) {
    T v[32];
#pragma unroll
    for (int u = 0; u < 32; ++u) {
        const int r = min(rows_contiguous ? u : lane, nr - 1);
        const int c = diagonal ? min(rows_contiguous ? lane : u, r) : (rows_contiguous ? lane : u);
        v[u] = M(r0 + r, c0 + c);
    }
#pragma unroll
    for (int u = 0; u < 32; ++u) {
        const int r = rows_contiguous ? u : lane, c = rows_contiguous ? lane : u;
        tile[r * TRSV_SPLIT_LD + c] = v[u];
    }
}

template <typename T, bool OUT>
__global__ void __launch_bounds__(TRSV_SPLIT_WARPS * 32)
trsv_split(index_t batch, int n, const T* __restrict__ A, index_t lda, index_t stride_a,
           T* __restrict__ X, index_t incx, index_t stride_x, int* __restrict__ info, int lower,
           int trans, int unit, const T* __restrict__ X_in, T* ex, int* counter) {
    typedef SplitBits<T> B;
    constexpr int W = 32, NW = TRSV_SPLIT_WARPS, TILE = W * TRSV_SPLIT_LD;
    extern __shared__ __align__(16) unsigned char trsv_split_smem[];
    T* tiles = reinterpret_cast<T*>(trsv_split_smem);   // NW product tiles, then the diagonal one
    T* diag = tiles + NW * TILE;
    T* xk = diag + TILE;                                  // NW x 32: each warp's current x_k
    T* part = xk + NW * W;                                // NW x 32 partial sums
    __shared__ int ticket_s;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nblk = (n + W - 1) / W;
    if (threadIdx.x == 0) {
        const int t = atomicAdd(counter, 1);
        if ((index_t)t == batch * nblk - 1) atomicExch(counter, 0);   // the last ticket
        ticket_s = t;
    }
    __syncthreads();
    const index_t m = ticket_s / nblk;
    const int j = ticket_s % nblk, r0 = j * W, nb = min(W, n - r0);
    const bool reversed = (lower != 0) == (trans != 0);
    const bool rows_contiguous = trans == 0;
    const index_t s = reversed ? -1 : 1, last = (index_t)(n - 1) * lda + (n - 1);
    const T* Ak = A + m * stride_a + (reversed ? last : 0);
    const StridedView<T> M = rows_contiguous ? StridedView<T>{Ak, s * lda, s}
                                             : StridedView<T>{Ak, s, s * lda};
    T* xm = X + m * stride_x;
    T* em = ex + m * n;                                   // logical order
    const LaneGroup<W> g = LaneGroup<W>::make();
    auto orig = [&](int i) { return (index_t)(reversed ? n - 1 - i : i) * incx; };
    T y = T(0);
    if (warp == 0) {
        const T* bm = OUT ? X_in + m * stride_x : xm;
        if (lane < nb) y = bm[orig(r0 + lane)];
        split_stage_tile(M, r0, r0, nb, rows_contiguous, true, diag, lane);
    }
    T acc = T(0);                                          // lane r: row r0 + r's partial sum
    T* tile = tiles + warp * TILE;
    T* xw = xk + warp * W;
    for (int k = warp; k < j; k += NW) {
        split_stage_tile(M, r0, k * W, nb, rows_contiguous, false, tile, lane);
        typename B::U v;
        do {
            v = B::load(em + k * W + lane);
        } while (!__all_sync(0xffffffffu, v != B::SENTINEL));
        xw[lane] = B::value(v);
        __syncwarp();
#pragma unroll 8
        for (int c = 0; c < W; ++c) acc += tile[lane * TRSV_SPLIT_LD + c] * xw[c];
        __syncwarp();                                      // the tile and xw are reused
    }
    part[warp * W + lane] = acc;
    __syncthreads();
    if (j + 1 == nblk)                                     // every other x_k seen: rest state
        for (int i = threadIdx.x; i < r0; i += blockDim.x) B::store(em + i, B::SENTINEL);
    if (warp != 0) return;
    const bool active = lane < nb;
    for (int w = 0; w < NW; ++w) y -= part[w * W + lane];
    T d[W];
#pragma unroll
    for (int c = 0; c < W; ++c)
        d[c] = (active && (c < lane || (c == lane && !unit))) ? diag[lane * TRSV_SPLIT_LD + c]
                                                             : T(0);
    const T own = (active && !unit) ? diag[lane * TRSV_SPLIT_LD + lane] : T(1);
    int bad = n;
    if (!unit) bad = group_first_bad<W>(own, active, r0 + lane, n, reversed, g);
    y = group_solve_diag<W, T, true>(d, y, nb, g, unit != 0, T(1) / own);
    if (j == 0) {
        if (lane == 0) info[m] = bad < n ? bad + 1 : 0;
        __threadfence();                                   // info before x_0 (see above)
        __syncwarp();
    } else if (bad < n && lane == 0) {                     // lower info[m] to bad + 1
        __threadfence();
        int old = info[m];
        while (old == 0 || old > bad + 1) {
            const int seen = atomicCAS(info + m, old, bad + 1);
            if (seen == old) break;
            old = seen;
        }
    }
    if (!active) return;
    xm[orig(r0 + lane)] = y;
    if (j + 1 < nblk) {
        const typename B::U v = B::bits(y);
        B::store(em + r0 + lane, v == B::SENTINEL ? B::DEFAULT_NAN : v);
    }
}

// ---------------------------------------------------------------------------------------------
// trsv_staged<T>  (launcher: linalg/_cuda/trsv.py launch_staged, for the measured n of STAGED_RANGE
// / STAGED_POTRS_RANGE) for n <= TRSV_STAGED_MAX, one warp a matrix. trsv_warp's lane groups read A
// inside the solve, one dependent block of rows at a time (H100 float64 n = 32, batch 10240: 35 %
// of the copy bandwidth). Here the warp first copies the lower-triangular view M of op(A) (as
// group_trsv defines it, reversed for the backward cases) into a shared tile, 8 rows of M (or
// columns: rows of A) a step with every load issued before any store, so the copy runs at memory
// rate; then it solves from the tile by columns: lane i holds x_i, step j scales x_j by 1 / M(j, j)
// in lane j (the reciprocals are taken before the solve, off its dependency chain) and broadcasts
// it, lanes i > j subtract M(i, j) x_j. info as trsv_warp's. potrs != 0 adds POTRS's second solve,
// M^T x = y, from the same tile (lower, trans = 0: M = L; upper, trans = 1: M = U^T), so the factor
// is read from memory once for both solves.
// The tile holds M's triangle packed by rows, M(i, j) at i (i + 1) / 2 + j: half the shared
// memory of a square tile, so more warps fit an SM (a square 32 x 33 float64 tile a warp held
// the kernel to 24 warps an SM; packed, registers set the limit). Still conflict-free:
// i (i + 1) / 2 runs through every residue mod 32 (and mod 16) as i runs over a warp
// (half-warp), so a column of M across the lanes hits distinct banks, and a row is contiguous.
// Shared: warps per block * TRSV_STAGED_TILE elements of T.
constexpr int TRSV_STAGED_MAX = 32;
constexpr int TRSV_STAGED_TILE = TRSV_STAGED_MAX * (TRSV_STAGED_MAX + 1) / 2;

// Offset of M(i, j), j <= i, in the packed tile.
__host__ __device__ constexpr int trsv_staged_at(int i, int j) { return i * (i + 1) / 2 + j; }
constexpr int TRSV_STAGED_BATCH = 8;                     // rows of M a lane loads before storing

// Lane `lane`'s part of the copy of M (n x n, M(i, j) = p[i rs + j cs], j <= i read) into tile
// (packed, trsv_staged_at): lane j of each row of M where its rows are contiguous, else lane i
// of each column. Entries above the diagonal are neither read nor written.
template <typename T>
__host__ __device__ inline void trsv_staged_copy(const T* p, index_t rs, index_t cs, int n,
                                                 bool rows_contiguous, T* tile, int lane) {
    for (int r0 = 0; r0 < n; r0 += TRSV_STAGED_BATCH) {
        T v[TRSV_STAGED_BATCH];
#pragma unroll
        for (int u = 0; u < TRSV_STAGED_BATCH; ++u) {
            // Lanes off the triangle load an entry of the same row / column that the warp reads
            // anyway (clamped into the triangle), so no load sits behind a branch: with the
            // guarded load, ptxas serialised the column copy (H100 float64 n = 32: 1.8x the row
            // copy's time, long-scoreboard stalls 18 cycles an instruction against 4.6).
            const int r = r0 + u, i = rows_contiguous ? r : lane, j = rows_contiguous ? lane : r;
            int ic = min(i, n - 1), jc = min(j, n - 1);
            if (rows_contiguous) jc = min(jc, ic); else ic = max(ic, jc);
            v[u] = p[(index_t)ic * rs + (index_t)jc * cs];
        }
#pragma unroll
        for (int u = 0; u < TRSV_STAGED_BATCH; ++u) {
            const int r = r0 + u, i = rows_contiguous ? r : lane, j = rows_contiguous ? lane : r;
            if (r < n && i < n && j <= i) tile[trsv_staged_at(i, j)] = v[u];
        }
    }
}

// Lane `lane`'s x after step j of the column solve (xj: the solved x_j of lane j).
template <typename T>
__host__ __device__ inline T trsv_staged_step(T x, const T* tile, int n, int lane, int j, T xj) {
    return (lane > j && lane < n) ? x - tile[trsv_staged_at(lane, j)] * xj : x;
}

// The same for the backward solve with M^T (POTRS's second solve, j from n - 1 down): lanes
// i < j subtract M(j, i) x_j, a row of the tile (adjacent entries across the lanes).
template <typename T>
__host__ __device__ inline T trsv_staged_back_step(T x, const T* tile, int lane, int j, T xj) {
    return lane < j ? x - tile[trsv_staged_at(j, lane)] * xj : x;
}

template <typename T, bool OUT>
__global__ void trsv_staged(index_t batch, int n, const T* __restrict__ A, index_t lda,
                            index_t stride_a, T* __restrict__ X, index_t incx, index_t stride_x,
                            int* __restrict__ info, int lower, int trans, int unit, int potrs,
                            const T* __restrict__ X_in) {
    extern __shared__ __align__(16) unsigned char trsv_staged_smem[];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    T* tile = reinterpret_cast<T*>(trsv_staged_smem) + warp * TRSV_STAGED_TILE;
    const bool reversed = (lower != 0) == (trans != 0);     // op(A) upper: backward substitution
    const index_t s = reversed ? -1 : 1;
    const index_t rs = trans ? s : s * lda, cs = trans ? s * lda : s;
    const index_t last = (index_t)(n - 1) * lda + (n - 1);
    const int orig = reversed ? n - 1 - lane : lane;        // this lane's row in A's order
    for (index_t k = (index_t)blockIdx.x * warps + warp; k < batch;
         k += (index_t)gridDim.x * warps) {
        const T* Ak = A + k * stride_a;
        T* xk = X + k * stride_x;
        const T* bk = OUT ? X_in + k * stride_x : xk;
        T x = lane < n ? bk[(index_t)orig * incx] : T(0);
        trsv_staged_copy(reversed ? Ak + last : Ak, rs, cs, n, trans == 0, tile, lane);
        __syncwarp();
        const T d = lane < n ? tile[trsv_staged_at(lane, lane)] : T(1);
        const T rinv = unit ? T(1) : T(1) / d;
        for (int j = 0; j < n; ++j) {
            if (lane == j) x *= rinv;
            const T xj = __shfl_sync(0xffffffffu, x, j);
            x = trsv_staged_step(x, tile, n, lane, j, xj);
        }
        if (potrs) {                                         // M^T x = y: backward
            for (int j = n - 1; j >= 0; --j) {
                if (lane == j) x *= rinv;
                const T xj = __shfl_sync(0xffffffffu, x, j);
                x = trsv_staged_back_step(x, tile, lane, j, xj);
            }
        }
        if (lane < n) xk[(index_t)orig * incx] = x;
        const int first = group_first_bad<32>(d, !unit && lane < n, lane, n, reversed,
                                              LaneGroup<32>::make());
        if (lane == 0) info[k] = first < n ? first + 1 : 0;
        __syncwarp();                                        // the tile is reused
    }
}
