// tri_pair.cu: triangular multiply / solve with many vectors on matrices of 33 <= n <= 64, one
// thread block a matrix, each vector held in the registers of a pair of lanes.
//
// Operation:  tri_pair<T, MODE, THREADS> on each matrix pair of a strided batch, by `flags`
//             (the flag words of tri_warp.cu):
//               MUL (TRMM):    B := alpha op(A) B (left)  or  B := alpha B op(A) (right)
//               SOLVE (TRSM):  op(A) X = alpha B (left)  or  X op(A) = alpha B (right), X over B
//               POTRS:         A = L L^T (lower) or U^T U (upper) given its factor:
//                              B := alpha A^-1 B (left; both solves in one launch)
//             Every vector is independent: a column of B (left) or a row of B (right). The
//             effective triangle M (op(A) left, op(A)^T right) is renumbered into sweep order
//             t = r(i) (r(i) = i for a lower M, 63 - i for an upper one), where it is lower
//             triangular, so one column-oriented sweep serves every variant. MUL: columns u from
//             the last, x_t += m_tu x_u (t > u), then x_u *= m_uu. SOLVE: columns i from the first,
//             x_i *= 1/m_ii, then x_t -= m_ti x_i (t > i). POTRS solves with L (lower M) and then
//             with L^T, whose sweep order is the reverse of the first's.
// Split:      the two lanes of a pair (adjacent lanes, role h = 0, 1) hold the sweep positions
//             t = 2p + h, p = 0..31, of their vector (32 registers, not 64: a one-lane 64 class
//             of tri_warp spilled at 255 registers). Column u's pivot x_u is in the registers of
//             role u & 1 and reaches the other lane by one shuffle; the rows below it are split
//             evenly between the two (cyclic rows balance the triangle).
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec left, nvec x n right). Only the triangle of A selected by TRI_LOWER is
//             read; with TRI_UNIT not its diagonal either. Rows and columns n..63 are zero
//             padding (the size class is 64 for every n).
// Shared:     M in sweep order, packed by columns, one half tile per role: column u of half h
//             holds m(2p + h, u) for p = tp_first(u)..31 (zeros above the diagonal), so each
//             lane reads its rows of a column with 16-byte loads, the same address for every
//             pair of the warp (one broadcast a load); tp_half<T>() elements a half (its size
//             puts the two halves' columns in different banks), two tiles for POTRS (M and the
//             renumbered M^T). Dynamic: tp_smem_elems<T, MODE>() elements.
// Threads:    THREADS = 64 | 128 per block, one matrix a block (grid-stride loop over the batch),
//             THREADS / 2 vectors at a time (chunks of vectors over nvec). Left side: a warp
//             reads two rows of 16 consecutive columns of B a step (coalesced); right side:
//             16 rows, two consecutive entries each (sectors completed by the next step in L1).
// Template:   T = float | double; MODE = TRI_WARP_MUL | TRI_WARP_SOLVE | TRI_WARP_POTRS;
//             THREADS = 64 | 128; OUT (tri_pair_potrs too): B is read from B_in (same ldb and
//             sb, no overlap) and the result written to B; without it B_in is not read.
// info:       SOLVE/POTRS: j if the j-th diagonal entry is zero or not finite, else 0; MUL: 0.
// Measured:   H100, batch 10240, n vectors, ms against the previous path: float64 POTRS n = 64
//             1.02 (1.17, recursion into 32-leaves), TRSM blocks of n = 128 2.84 (3.04); lost for
//             TRSM n <= 64 (0.71 against 0.67), TRMM n = 64 (0.57 against 0.54) and float32; so
//             triangular.PAIR_RULES uses it for float64 POTRS and recursive TRSM only
//             (docs/design.md "tri_pair": the two load addresses a warp, the next steps).
// Launcher:   linalg/_cuda/triangular.py (tri_pair, PAIR_RULES: trsm, trmm; cholesky.py: potrs).
//
// tri_pair_potrs<T, NB> (end of this file) is the blocked POTRS that replaced tri_pair's POTRS
// mode where triangular.PAIR_POTRS says: 16-row blocks, inverted diagonal blocks, register tiles.
#include "common.cuh"
#include "triangular.cuh"

// Registers (sweep positions) a lane holds: half of the size class 64.
constexpr int TP_ROWS = 32;

// Elements of T in one 16-byte shared load.
template <typename T>
__host__ __device__ constexpr int tp_vec() { return 16 / (int)sizeof(T); }

// First row index p staged in column u (both halves): u / 2 rounded down to whole 16-byte loads.
template <typename T>
__host__ __device__ constexpr int tp_first(int u) { return (u / 2) / tp_vec<T>() * tp_vec<T>(); }

// Offset of column u in a half tile: the sum over the columns w < u of their 32 - tp_first(w)
// entries, tp_first(w) = floor(w / q) * V with q = 2V (closed form: the staging scatter needs it
// at run time).
template <typename T>
__host__ __device__ constexpr int tp_col(int u) {
    constexpr int V = tp_vec<T>(), Q = 2 * tp_vec<T>();
    const int m = u / Q;
    return TP_ROWS * u - V * (Q * m * (m - 1) / 2 + m * (u - Q * m));
}

// Elements of one half tile: its 64 columns, padded so that the second half starts 16 bytes past
// a 128-byte boundary (the pair's two addresses of a load fall in different banks).
template <typename T>
__host__ __device__ constexpr int tp_half() {
    constexpr int V = tp_vec<T>(), line = 128 / (int)sizeof(T);
    return tp_col<T>(64) % line == V ? tp_col<T>(64) : tp_col<T>(64) + (V + line - tp_col<T>(64) % line) % line;
}

// Shared elements a block needs: two half tiles, twice for POTRS.
template <typename T, int MODE>
__host__ __device__ constexpr int tp_smem_elems() { return (MODE == TRI_WARP_POTRS ? 4 : 2) * tp_half<T>(); }

// Slot of m(t, u) (sweep order, t >= u) in a tile.
template <typename T>
__host__ __device__ __forceinline__ int tp_slot(int t, int u) {
    return (t & 1) * tp_half<T>() + tp_col<T>(u) + (t >> 1) - tp_first<T>(u);
}

// Column u's staged entries of one half, rows tp_first(u)..31 (16-byte loads into m[p]).
template <typename T>
__host__ __device__ __forceinline__ void tp_load_column(const T* half, int u, T (&m)[TP_ROWS]) {
    constexpr int V = tp_vec<T>();
    const T* col = half + tp_col<T>(u) - tp_first<T>(u);
#pragma unroll
    for (int p = tp_first<T>(u); p < TP_ROWS; p += V) {
        if constexpr (V == 2) {
            const double2 v = *reinterpret_cast<const double2*>(col + p);
            m[p] = (T)v.x;
            m[p + 1] = (T)v.y;
        } else {
            const float4 v = *reinterpret_cast<const float4*>(col + p);
            m[p] = (T)v.x;
            m[p + 1] = (T)v.y;
            m[p + 2] = (T)v.z;
            m[p + 3] = (T)v.w;
        }
    }
}

// Register of sweep position 2p + role: x[p], or x[31 - p] in the reversed order (POTRS's
// second solve renumbers t -> 63 - t, which swaps the roles and reverses the registers).
template <bool REV>
__host__ __device__ constexpr int tp_reg(int p) { return REV ? TP_ROWS - 1 - p : p; }

// The pivot of column u leaves the lane of role u & 1: the value it sends (both roles compute
// it; only the owner's is received). MUL: x_u before the column; SOLVE: x_u / m_uu.
template <typename T, int MODE, bool REV>
__host__ __device__ __forceinline__ T tp_pivot(const T (&x)[TP_ROWS], const T (&m)[TP_ROWS], int u) {
    const T xu = x[tp_reg<REV>(u / 2)];
    return MODE == TRI_WARP_MUL ? xu : xu * m[u / 2];
}

// Column u applied to one lane's rows (role h, pivot xu received from role u & 1). Rows below the
// pivot's register are all below the diagonal; at the pivot's register the owner scales (MUL) or
// takes the solved value (SOLVE), the other role updates its row if it lies below (h = 1, u even)
// and leaves it if above (h = 0, u odd: the slot is a zero, and 0 * inf must not reach it).
template <typename T, int MODE, bool REV>
__host__ __device__ __forceinline__ void tp_apply(T (&x)[TP_ROWS], const T (&m)[TP_ROWS], int u,
                                                  int h, T xu) {
    const int q0 = u / 2;
    const bool owner = h == (u & 1);
    T& xq = x[tp_reg<REV>(q0)];
    if (MODE == TRI_WARP_MUL) {
        const T below = (u & 1) ? xq : fma(m[q0], xu, xq);
        xq = owner ? xq * m[q0] : below;
    } else {
        const T below = (u & 1) ? xq : fma(-m[q0], xu, xq);
        xq = owner ? xu : below;
    }
#pragma unroll
    for (int p = q0 + 1; p < TP_ROWS; ++p) {
        T& xp = x[tp_reg<REV>(p)];
        xp = fma(MODE == TRI_WARP_MUL ? m[p] : -m[p], xu, xp);
    }
}

#ifdef __CUDACC__
// The pivot from the lane of role `from` in this lane's pair.
template <typename T>
__device__ __forceinline__ T tp_exchange(T v, int from) {
    return __shfl_sync(0xffffffffu, v, (threadIdx.x & 30) | from);
}

// Column u of a sweep: its entries, the pivot from its owner, the update.
template <typename T, int MODE, bool REV>
__device__ __forceinline__ void tp_column(const T* half, int u, int h, T (&x)[TP_ROWS]) {
    T m[TP_ROWS];
    __syncwarp();                              // no loads hoisted from later columns
    tp_load_column<T>(half, u, m);
    const T xu = tp_exchange(tp_pivot<T, MODE, REV>(x, m, u), (u & 1) ^ (REV ? 1 : 0));
    tp_apply<T, MODE, REV>(x, m, u, h, xu);
}

// 0..N-1 as a parameter pack (NVRTC has no <utility>, so no std::make_integer_sequence).
template <int... I> struct tp_seq {};
template <int N, int... I> struct tp_make_seq : tp_make_seq<N - 1, N - 1, I...> {};
template <int... I> struct tp_make_seq<0, I...> { using type = tp_seq<I...>; };

// Every column in sweep order, each a compile-time index (an unrolled loop was left rolled by
// the compiler for the multiply, which put x in local memory).
template <typename T, int MODE, bool REV, int... STEP>
__device__ __forceinline__ void tp_columns(const T* half, int h, T (&x)[TP_ROWS],
                                           tp_seq<STEP...>) {
    (tp_column<T, MODE, REV>(half, MODE == TRI_WARP_MUL ? 63 - STEP : STEP, h, x), ...);
}

// One sweep over the tile half of role h: MUL columns from the last, SOLVE from the first. REV:
// the registers are in reversed order and the roles swapped (POTRS's second solve; h is the
// role in that order).
template <typename T, int MODE, bool REV>
__device__ __forceinline__ void tp_sweep(const T* tile, int h, T (&x)[TP_ROWS]) {
    const T* half = tile + h * tp_half<T>();
    tp_columns<T, MODE, REV>(half, h, x, typename tp_make_seq<64>::type{});
}

// Stage the effective triangle M (op(A) with `transpose`) of one matrix into `tile` (zeroed
// before) in sweep order, its diagonal inverted when `invert`. Rows of A are read coalesced, a
// thread's TP_STAGE_LOADS loads in flight before any is stored. Against the element-by-element
// loop it replaced (H200, float64 TRSM, batch 10240, same call, the recursion's 64-blocks on
// tri_pair): n = 96 / 128 / 192 1.10 / 1.12 / 1.05x, n = 256 0.99x (reports/gpu_20261126).
constexpr int TP_STAGE_LOADS = 8;

template <typename T, int THREADS>
__device__ __forceinline__ void tp_stage(const T* __restrict__ a, index_t lda, T* tile, int n,
                                         bool lower, bool unit, bool transpose, bool invert) {
    const bool reversed = lower == transpose;           // M upper: sweep order t = 63 - i
    constexpr int R = TP_STAGE_LOADS;
    for (int e0 = threadIdx.x; e0 < n * n; e0 += THREADS * R) {
        T v[R];
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const int e = e0 + q * THREADS, r = e / n, c = e % n;
            const bool read = e < n * n && (lower ? c <= r : c >= r) && !(unit && r == c);
            v[q] = read ? a[r * lda + c] : T(1);
        }
#pragma unroll
        for (int q = 0; q < R; ++q) {
            const int e = e0 + q * THREADS, r = e / n, c = e % n;
            if (e >= n * n || (lower ? c > r : c < r)) continue;
            const T w = (invert && r == c) ? T(1) / v[q] : v[q];
            const int i = transpose ? c : r, j = transpose ? r : c;
            tile[tp_slot<T>(reversed ? 63 - i : i, reversed ? 63 - j : j)] = w;
        }
    }
}

// Blocks of each instantiation per SM the compiler plans for: caps it at 128 registers (left to
// itself ptxas takes 200-255 and float32 POTRS spills; at the cap: no spills but 16-80 bytes in
// float64 POTRS and float32 POTRS).
template <typename T, int THREADS>
__host__ __device__ constexpr int tri_pair_min_blocks() { return THREADS == 128 ? 4 : 8; }

template <typename T, int MODE, int THREADS, bool OUT>
__global__ void __launch_bounds__(THREADS, tri_pair_min_blocks<T, THREADS>())
tri_pair(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
         index_t sb, int n, int nvec, index_t batch, int flags, T alpha, int* __restrict__ info,
         const T* __restrict__ B_in) {
    static_assert(THREADS == 64 || THREADS == 128, "two or four warps a matrix");
    constexpr int PER_PASS = THREADS / 2;      // vectors a pass
    constexpr int ELEMS = tp_smem_elems<T, MODE>();
    extern __shared__ __align__(16) unsigned char tri_pair_smem[];
    T* tile = reinterpret_cast<T*>(tri_pair_smem);
    __shared__ int first_bad;
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    // POTRS: the first solve's M is L (lower) or U^T; the second's is its transpose.
    const bool transpose = MODE == TRI_WARP_POTRS ? !lower : (((flags & TRI_TRANS) != 0) != right);
    const bool reversed = MODE == TRI_WARP_POTRS ? false : lower == transpose;
    const int h = threadIdx.x & 1, vec = threadIdx.x >> 1;
    for (index_t k = blockIdx.x; k < batch; k += gridDim.x) {
        __syncthreads();                       // the previous matrix's tile is no longer read
        for (int e = threadIdx.x; e < ELEMS; e += THREADS) tile[e] = T(0);
        if (threadIdx.x == 0) first_bad = n + 1;
        __syncthreads();
        const T* a = A + k * sa;
        const bool invert = MODE != TRI_WARP_MUL;
        tp_stage<T, THREADS>(a, lda, tile, n, lower, unit, transpose, invert);
        if (MODE == TRI_WARP_POTRS)
            tp_stage<T, THREADS>(a, lda, tile + 2 * tp_half<T>(), n, lower, unit, !transpose, invert);
        if (invert && !unit)
            for (int r = threadIdx.x; r < n; r += THREADS)
                if (!is_finite_nonzero(a[r * lda + r])) atomicMin(&first_bad, r + 1);
        __syncthreads();
        if (threadIdx.x == 0) info[k] = first_bad > n ? 0 : first_bad;
        T* b = B + k * sb;
        const T* b_in = OUT ? B_in + k * sb : b;
        for (int v0 = 0; v0 < nvec; v0 += PER_PASS) {
            // Keeps the tile loads inside the pass (hoisted out of the loop they would take
            // thousands of registers).
            asm volatile("" ::: "memory");
            const int v = v0 + vec;
            const bool live = v < nvec;
            T x[TP_ROWS];
#pragma unroll
            for (int p = 0; p < TP_ROWS; ++p) {
                const int i = reversed ? 63 - 2 * p - h : 2 * p + h;     // row (column) of M
                const index_t at = right ? (index_t)v * ldb + i : (index_t)i * ldb + v;
                x[p] = (live && i < n) ? b_in[at] : T(0);
            }
            if (MODE == TRI_WARP_POTRS) {
                tp_sweep<T, TRI_WARP_SOLVE, false>(tile, h, x);
                tp_sweep<T, TRI_WARP_SOLVE, true>(tile + 2 * tp_half<T>(), h ^ 1, x);
            } else {
                tp_sweep<T, MODE, false>(tile, h, x);
            }
#pragma unroll
            for (int p = 0; p < TP_ROWS; ++p) {
                const int i = reversed ? 63 - 2 * p - h : 2 * p + h;
                const index_t at = right ? (index_t)v * ldb + i : (index_t)i * ldb + v;
                if (live && i < n) b[at] = alpha * x[p];
            }
        }
    }
}

#endif

// ---------------------------------------------------------------------------------------------
// tri_pair_potrs<T, NB>: POTRS (A = M M^T, M = L lower or U^T upper) by 16-row blocks, NB = 3
// (n <= 48) or 4 (n <= 64) of them, one block of 256 threads a matrix. The sweeps of the pair
// kernel above are 64 dependent columns of one FMA per shared load; here each block row is two
// small products with K = 16: forward, for J = 0..NB-1,
//     Y_J = inv(M_JJ) B_J,   B_I -= M_IJ Y_J (I > J),
// backward the same with M^T (J = NB-1..0, inv(M_JJ)^T, B_I -= M_JI^T Y_J for I < J). The
// diagonal blocks' inverses are formed once a matrix (64 threads, one column each; the usual
// blocked TRSM's trade: products instead of substitutions).
// Threads:    thread (r, c) = (tid / 16, tid % 16) holds x[s][q] = B(16 s + r, v0 + c + 16 q)
//             in registers (a 4-column tile of each block row), 64 vectors a pass over nvec.
//             A warp reads 2 rows x 16 consecutive columns of B (coalesced) and, a step k, two
//             addresses of M (one wavefront) and one 128-byte row of Y per q.
// Shared:     M (its lower triangle, rows/columns >= n zero, diagonal one) at row stride
//             16 NB + 2 (rows r and r + 1 in different banks), the inverted diagonal blocks
//             (stride 17), S (the block row being solved) and Y (its solution), 16 x 64 each.
// info:       j if the j-th diagonal entry of the factor is zero or not finite, else 0.
template <typename T, int NB>
struct tpp {
    static constexpr int LD = 16 * NB + 2;            // row stride of M
    static constexpr int DLD = 17;                    // row stride of an inverted block
    static constexpr int M_ELEMS = 16 * NB * LD;
    static constexpr int D_ELEMS = NB * 16 * DLD;
    static constexpr int V_ELEMS = 16 * 64;           // S and Y
    static constexpr int ELEMS = M_ELEMS + D_ELEMS + 2 * V_ELEMS;
};

template <typename T, int NB>
__host__ __device__ constexpr int tri_pair_potrs_smem_elems() { return tpp<T, NB>::ELEMS; }

#ifdef __CUDACC__
// threadIdx.x, read anew at each call: offsets computed from it are not hoisted out of the
// batch loop (16 loop-invariant 64-bit addresses of A and B each spilled).
__device__ __forceinline__ int tpp_tid() {
    int t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return t;
}

// Stage M (lower: M = A's lower triangle; upper: M(i, j) = A(j, i)) into m, rows of A read
// coalesced; entries past n are the identity's. Returns nothing; flags a bad diagonal entry.
template <typename T, int NB>
__device__ __forceinline__ void tpp_stage(const T* __restrict__ a, index_t lda, T* m, int n,
                                          bool lower, int* first_bad) {
    constexpr int N = 16 * NB, ITEMS = N * N / 256, CHUNK = 8, LD = tpp<T, NB>::LD;
    const int tid = tpp_tid();
#pragma unroll
    for (int i0 = 0; i0 < ITEMS; i0 += CHUNK) {        // CHUNK loads in flight before a store
        T v[CHUNK];
#pragma unroll
        for (int it = 0; it < CHUNK && i0 + it < ITEMS; ++it) {
            const int e = (i0 + it) * 256 + tid, r = e / N, c = e % N;
            const bool used = (lower ? c <= r : c >= r) && r < n && c < n;
            v[it] = used ? a[r * lda + c] : T(r == c);
        }
#pragma unroll
        for (int it = 0; it < CHUNK && i0 + it < ITEMS; ++it) {
            const int e = (i0 + it) * 256 + tid, r = e / N, c = e % N;
            const int i = lower ? r : c, j = lower ? c : r;
            if (i >= j) m[i * LD + j] = v[it];
            if (r == c && r < n && !is_finite_nonzero(v[it])) atomicMin(first_bad, r + 1);
        }
    }
}

// Inverse of diagonal block jb of m into d (column j of it, by this thread): forward
// substitution of M_JJ z = e_j (entries above j come out zero). The 16 threads of a block are in
// one warp; each first puts 1 / m_jj in the spare column 16 of d (one division a thread: a
// division in the loop is a call that spilled the live z).
template <typename T, int NB>
__device__ __forceinline__ void tpp_invert(const T* m, T* d, int jb, int j) {
    constexpr int LD = tpp<T, NB>::LD, DLD = tpp<T, NB>::DLD;
    const T* mb = m + 16 * jb * (LD + 1);
    T* db = d + jb * 16 * DLD;
    db[j * DLD + 16] = T(1) / mb[j * LD + j];
    __syncwarp(0xffffu << (16 * (jb & 1)));           // this block's 16 lanes (NB = 3: warp 1 half)
    T z[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        T s = T(i == j);
#pragma unroll
        for (int k = 0; k < i; ++k) s = fma(-mb[i * LD + k], z[k], s);
        z[i] = s * db[i * DLD + 16];
        db[i * DLD + j] = z[i];
    }
}

// Block row J of a sweep, the rows of B of that block in x[J] (FWD: Y_J = inv(M_JJ) B_J and the
// rows below updated; else Y_J = inv(M_JJ)^T B_J and the rows above updated with M^T).
template <typename T, int NB, bool FWD, int J>
__device__ __forceinline__ void tpp_step(const T* m, const T* d, T* sb, T* yb, int r, int c,
                                         T (&x)[NB][4]) {
    constexpr int LD = tpp<T, NB>::LD, DLD = tpp<T, NB>::DLD;
#pragma unroll
    for (int q = 0; q < 4; ++q) sb[r * 64 + c + 16 * q] = x[J][q];
    __syncthreads();                                   // S complete (and the inverses, J first)
    const T* db = d + J * 16 * DLD;
    T y[4] = {T(0), T(0), T(0), T(0)};
#pragma unroll
    for (int k = 0; k < 16; ++k) {
        const T w = FWD ? db[r * DLD + k] : db[k * DLD + r];
#pragma unroll
        for (int q = 0; q < 4; ++q) y[q] = fma(w, sb[k * 64 + c + 16 * q], y[q]);
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        x[J][q] = y[q];
        yb[r * 64 + c + 16 * q] = y[q];
    }
    constexpr int LO = FWD ? J + 1 : 0, HI = FWD ? NB : J;     // block rows updated
    // Y complete, and every read of S done: the next step (or the next sweep, or the next 64
    // vectors) writes S before its own barrier, so a step without an update needs this one too
    // (without it racecheck reported S written while still read, and results were wrong).
    __syncthreads();
    if (LO >= HI) return;
#pragma unroll
    for (int k = 0; k < 16; ++k) {
        T yk[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) yk[q] = yb[k * 64 + c + 16 * q];
#pragma unroll
        for (int s = LO; s < HI; ++s) {
            const T w = FWD ? m[(16 * s + r) * LD + 16 * J + k] : m[(16 * J + k) * LD + 16 * s + r];
#pragma unroll
            for (int q = 0; q < 4; ++q) x[s][q] = fma(-w, yk[q], x[s][q]);
        }
    }
}

template <typename T, int NB, bool FWD, int... STEP>
__device__ __forceinline__ void tpp_sweep(const T* m, const T* d, T* sb, T* yb, int r, int c,
                                          T (&x)[NB][4], tp_seq<STEP...>) {
    (tpp_step<T, NB, FWD, FWD ? STEP : NB - 1 - STEP>(m, d, sb, yb, r, c, x), ...);
}

template <typename T, int NB, bool OUT>
__global__ void __launch_bounds__(256, 3)     // 80 registers: 3 blocks an SM (shared: 58 KB)
tri_pair_potrs(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
               index_t sb, int n, int nvec, index_t batch, int flags, T alpha,
               int* __restrict__ info, const T* __restrict__ B_in) {
    using P = tpp<T, NB>;
    extern __shared__ __align__(16) unsigned char tri_pair_smem[];
    T* m = reinterpret_cast<T*>(tri_pair_smem);
    T* d = m + P::M_ELEMS;
    T* sbuf = d + P::D_ELEMS;
    T* ybuf = sbuf + P::V_ELEMS;
    __shared__ int first_bad;
    const bool lower = flags & TRI_LOWER;
    const int r = threadIdx.x >> 4, c = threadIdx.x & 15;
    if (threadIdx.x == 0) first_bad = n + 1;
    for (index_t k = blockIdx.x; k < batch; k += gridDim.x) {
        __syncthreads();                               // the previous matrix's M is no longer read
        tpp_stage<T, NB>(A + k * sa, lda, m, n, lower, &first_bad);
        __syncthreads();
        if (threadIdx.x == 0) {
            info[k] = first_bad > n ? 0 : first_bad;
            first_bad = n + 1;
        }
        // The inverses (the first step's barrier publishes them).
        if (threadIdx.x < 16 * NB) tpp_invert<T, NB>(m, d, threadIdx.x >> 4, threadIdx.x & 15);
        T* b = B + k * sb;
        const T* b_in = OUT ? B_in + k * sb : b;
        for (int v0 = 0; v0 < nvec; v0 += 64) {
            T x[NB][4];
            const int rr = tpp_tid() >> 4;
#pragma unroll
            for (int s = 0; s < NB; ++s)
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int i = 16 * s + rr, v = v0 + c + 16 * q;
                    x[s][q] = (i < n && v < nvec) ? b_in[(index_t)i * ldb + v] : T(0);
                }
            tpp_sweep<T, NB, true>(m, d, sbuf, ybuf, r, c, x, typename tp_make_seq<NB>::type{});
            tpp_sweep<T, NB, false>(m, d, sbuf, ybuf, r, c, x, typename tp_make_seq<NB>::type{});
            const int rs = tpp_tid() >> 4;
#pragma unroll
            for (int s = 0; s < NB; ++s)
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int i = 16 * s + rs, v = v0 + c + 16 * q;
                    if (i < n && v < nvec) b[(index_t)i * ldb + v] = alpha * x[s][q];
                }
        }
    }
}
#endif
