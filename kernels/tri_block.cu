// tri_block.cu: triangular products of matrices of 33 <= n <= 64 by register tiles, one thread
// block a matrix at a time, the next matrix's operands copied in while this one computes.
//
// Operation:  tri_block_trmm<T, PBUF, QBUF> (TRMM, by `flags`, the flag words of tri_warp.cu):
//               B := alpha op(A) B (left)  or  B := alpha B op(A) (right)
//             tri_block_lauum<T, BUFS> (LAUUM, in place on A):
//               A := L^T L (lower: A holds L)  or  A := U U^T (upper: A holds U), both triangles
//             Both are one product C = P^T Q of two staged 64 x 64 operands, row k of each in
//             shared memory, C[i][j] = sum_k P[k][i] Q[k][j] over the k where the triangle can be
//             nonzero. TRMM: the effective triangle M (op(A) left, op(A)^T right: B op(A) =
//             (op(A)^T B^T)^T) staged transposed (P[k][i] = M[i][k]) and the vectors X (columns of B
//             left, rows right) as Q; M lower: k <= i, upper: k >= i. LAUUM: P = Q = the lower
//             factor F (L, or U^T for the upper variant: U U^T = (U^T)^T U^T), k >= max(i, j).
// Work items: TRMM: (matrix, chunk of 64 vectors), LAUUM: a matrix; a block loops over items
//             blockIdx.x, + gridDim.x, ... (the launcher's grid is what is resident at once).
// Pipeline:   staging is cp.async (one element a copy, all of a thread's copies in flight at
//             once; zeros and a unit diagonal by plain stores), waited for at the top of an item.
//             With two buffers of an operand (PBUF, QBUF, BUFS = 2) the next item's copy is issued
//             right after that wait and runs during this item's product and stores; with one, P is
//             copied after the product's reads and Q after the stores. Before cp.async the staging
//             loads sat one per branch, one memory latency after another. H100, batch 10240,
//             float64 n = 64, ms: synchronous staging LAUUM 0.33, TRMM 0.41-0.44; cp.async with the
//             output through shared memory 0.30 (one or two buffers alike), 0.38; and with the
//             stores below 0.233, 0.35-0.37 (one dense cuBLAS product of the shape: 0.227, 0.337).
// Stores:     LAUUM and left TRMM store each thread's tile straight from registers (a warp writes
//             whole 256-byte row pieces, 16-byte stores where aligned): no barrier between a warp's
//             product and its stores, so warps that finish early store while the others compute.
//             LAUUM computes every tile (the terms below max(i, j) are exact zeros, so C(i, j) and
//             C(j, i) are the same sums, bit for bit, for finite input). Right TRMM writes rows of
//             B along C's columns: its tiles go through shared memory (64 x 65, aliasing Q).
//             (Staged output had each block compute, then store, with barriers between: no
//             overlap of the two inside a block, and the resident blocks seemingly in step.)
// Tiles:      256 threads, each the 4 x 4 tile (gi, gj) of the 64 x 64 output in registers: rows
//             4 gi..4 gi + 3, columns tb_col(gj, 0..3) (float64: 2 gj, 2 gj + 1, 32 + 2 gj, 33 +
//             2 gj, so that a warp's 16-byte loads and stores of one column pair are 256
//             contiguous bytes; float32: 4 gj..4 gj + 3). A step k is two 4-wide shared loads
//             (row k of P at the tile's rows, of Q at its columns) and 16 FMAs. A warp holds the
//             32 tiles of two tile rows (a band of 8 rows of C) and one k range, uniform over the
//             warp (the extra terms meet zeros of the staged triangle); bands go to warps such
//             that the two warps of a scheduler (w and w + 4) hold equal work (tb_band).
// Shared:     P and Q: 64 rows of tb_ld<T>() elements, plain order (one 16-byte load of padding a
//             row, so that the transposing stage writes spread over the banks).
// Layout:     row-major; A(i, j) = A[k*sa + i*lda + j] (n x n), B(i, j) = B[k*sb + i*ldb + j]
//             (n x nvec left, nvec x n right). Only the triangle of A selected by TRI_LOWER (lower
//             for LAUUM) is read; with TRI_UNIT not its diagonal either. Rows and columns n..63 are
//             not staged (tb_for_places); TRMM takes the vectors 64 at a time. Matrices of the
//             batch must not overlap (the next one is read while this one is written).
// Template:   T = float | double; PBUF, QBUF, BUFS: buffers (1 or 2) of an operand (the tuned
//             choice: BLOCK_BUFFERS); OUT: B (LAUUM: A) is read from B_in (A_in), same strides,
//             no overlap, and the result written to B (A); without it B_in is not read. Blocks
//             an SM (launch bound): what the shared memory holds, at most TB_MAX_BLOCKS (80
//             registers).
// Launcher:   linalg/_cuda/triangular.py (tri_block_trmm, tri_block_lauum, BLOCK_RULES,
//             BLOCK_BUFFERS).
#include "common.cuh"
#include "triangular.cuh"

constexpr int TB_N = 64;                    // the size class
constexpr int TB_THREADS = 256;             // (64 / 4)^2 tiles of 4 x 4
constexpr int TB_OUT_LD = TB_N + 1;         // output staging: odd stride, transposed reads spread
constexpr int TB_MAX_BLOCKS = 3;            // H100 float64 TRMM: 3 blocks (80 registers) 0.42 ms,
                                            // 2 blocks (126 registers) 0.49 (synchronous staging)
constexpr int TB_SM_SHARED = 228 * 1024;    // shared memory of an SM (sm_90), 1 KB a block reserved

// Row stride of a staged operand: 64 entries and one 16-byte load of padding.
template <typename T>
__host__ __device__ constexpr int tb_ld() { return TB_N + 16 / (int)sizeof(T); }

// Elements of dynamic shared memory: `operands` staged operands (buffers included).
template <typename T>
__host__ __device__ constexpr int tb_smem_elems(int operands) {
    return operands * TB_N * tb_ld<T>();
}

// Blocks an SM for `operands` staged operands a block (the launch bound).
template <typename T>
__host__ __device__ constexpr int tb_blocks(int operands) {
    return TB_SM_SHARED / (tb_smem_elems<T>(operands) * (int)sizeof(T) + 1024) < TB_MAX_BLOCKS
               ? TB_SM_SHARED / (tb_smem_elems<T>(operands) * (int)sizeof(T) + 1024)
               : TB_MAX_BLOCKS;
}

// Column c (0..3) of the tiles of tile column g: float64 2g, 2g + 1, 32 + 2g, 33 + 2g; float32
// 4g + c (see Tiles).
template <typename T>
__host__ __device__ constexpr int tb_col(int g, int c) {
    return sizeof(T) == 8 ? (c >> 1) * 32 + 2 * g + (c & 1) : 4 * g + c;
}

// The band (pair of tile rows) of warp w. upper_m (k >= i, LAUUM too): the k ranges shrink along
// the bands, so bands 0..3 go to warps 0..3 and 7..4 to warps 4..7: warps w and w + 4 (one
// scheduler) hold bands b and 7 - b, whose k ranges add up to the same. Lower M (k <= i): the
// ranges grow along the bands and stop at n, so the same pairing runs over the m = ceil(n / 8)
// bands that meet the matrix, reversed: band (m - 1 - b) mod 8 (a permutation; the bands beyond
// n have no k range). With the upper pairing at n = 40 one scheduler held bands 3 and 4 (72 k
// steps), another band 0 (8); now at most 40 (n = 48: 72 -> 48, n = 56: 72 -> 56).
__host__ __device__ __forceinline__ int tb_band(int w, int n, bool upper_m) {
    const int b = w < 4 ? w : 11 - w;
    return upper_m ? b : (((n + 7) >> 3) - 1 - b) & 7;
}

// The tile (gi, gj) of thread t for an n x n triangle M (upper_m: see tb_band).
__host__ __device__ __forceinline__ void tb_tile_of(int t, int n, bool upper_m, int& gi,
                                                   int& gj) {
    gi = 2 * tb_band(t >> 5, n, upper_m) + ((t >> 4) & 1), gj = t & 15;
}

// Entries 4g..4g+3 of a staged row into v (16-byte loads): P at a tile's rows.
template <typename T>
__host__ __device__ __forceinline__ void tb_load_rows(const T* row, int g, T (&v)[4]) {
    if constexpr (sizeof(T) == 8) {
        const double2 lo = *reinterpret_cast<const double2*>(row + 4 * g);
        const double2 hi = *reinterpret_cast<const double2*>(row + 4 * g + 2);
        v[0] = lo.x, v[1] = lo.y, v[2] = hi.x, v[3] = hi.y;
    } else {
        const float4 q = *reinterpret_cast<const float4*>(row + 4 * g);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    }
}

// Entries tb_col(g, 0..3) of a staged row into v (16-byte loads): Q at a tile's columns.
template <typename T>
__host__ __device__ __forceinline__ void tb_load_cols(const T* row, int g, T (&v)[4]) {
    if constexpr (sizeof(T) == 8) {
        const double2 lo = *reinterpret_cast<const double2*>(row + 2 * g);
        const double2 hi = *reinterpret_cast<const double2*>(row + 32 + 2 * g);
        v[0] = lo.x, v[1] = lo.y, v[2] = hi.x, v[3] = hi.y;
    } else {
        tb_load_rows<T>(row, g, v);
    }
}

// acc[r][c] += sum_{k0 <= k < k1} P[k][4 gi + r] Q[k][tb_col(gj, c)].
template <typename T>
__host__ __device__ __forceinline__ void tb_accumulate(const T* p, const T* q, int gi, int gj,
                                                       int k0, int k1, T (&acc)[4][4]) {
    constexpr int LD = tb_ld<T>();
#pragma unroll 4
    for (int k = k0; k < k1; ++k) {
        T a[4], b[4];
        tb_load_rows<T>(p + k * LD, gi, a);
        tb_load_cols<T>(q + k * LD, gj, b);
#pragma unroll
        for (int r = 0; r < 4; ++r)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
    }
}

// The k range [k0, k1) of the warp whose first tile row is g0 (uniform over its two tile rows).
// upper_m: k >= i (TRMM with an upper M, LAUUM); else k <= i. Empty for rows all beyond n.
__host__ __device__ __forceinline__ void tb_k_range(int g0, int n, bool upper_m, int& k0, int& k1) {
    if (4 * g0 >= n) {
        k0 = k1 = 0;
    } else if (upper_m) {
        k0 = 4 * g0, k1 = n;
    } else {
        k0 = 0, k1 = n < 4 * g0 + 8 ? n : 4 * g0 + 8;
    }
}

// One place of a staged operand: s[dst] gets src[off] (TB_COPY), zero or one.
enum { TB_ZERO = 0, TB_ONE = 1, TB_COPY = 2 };
struct tb_move {
    int dst, what;
    index_t off;
};

// Element e (0..4095) of staging a triangle of A: entry (r, c) = (e / 64, e % 64) of A (a row
// per 64 threads, coalesced), zero outside the triangle and beyond n, one on a unit diagonal;
// to s[r][c] or, with `swap`, to s[c][r].
template <typename T>
__host__ __device__ __forceinline__ tb_move tb_triangle_move(index_t lda, int n, bool lower,
                                                             bool unit, bool swap, int e) {
    const int r = e >> 6, c = e & 63;
    const bool inside = r < n && c < n && (lower ? c <= r : c >= r);
    tb_move m;
    m.dst = swap ? c * tb_ld<T>() + r : r * tb_ld<T>() + c;
    m.what = !inside ? TB_ZERO : ((unit && r == c) ? TB_ONE : TB_COPY);
    m.off = (index_t)r * lda + c;
    return m;
}

// Element e of staging the vectors v0..v0+63 of B (b points at vector v0) as X[k][j] (k: entry,
// j: vector - v0), read along rows of B (left: X = B[:, v0..]; right: X = B[v0.., :]^T), zero
// beyond n and nv.
template <typename T>
__host__ __device__ __forceinline__ tb_move tb_vector_move(index_t ldb, int n, int nv, bool right,
                                                           int e) {
    const int k = right ? e & 63 : e >> 6, j = right ? e >> 6 : e & 63;
    tb_move m;
    m.dst = k * tb_ld<T>() + j;
    m.what = k < n && j < nv ? TB_COPY : TB_ZERO;
    m.off = right ? (index_t)j * ldb + k : (index_t)k * ldb + j;
    return m;
}

// f(e) for the elements e = first, first + TB_THREADS, ... of a staging (e / 64, e % 64 its
// place's coordinates, as the moves above read them) with e / 64 < rows and e % 64 < cols: the
// places of entries of the n x n matrix (n x nv vectors). The others are not written: the
// product reads rows k < n of P and Q only, and their entries i >= n (P) or j >= nv (Q) only into
// outputs that are never stored, so whatever those places hold (the last matrix's operands or
// output) does not reach a stored entry. Zeros are stored only inside the matrix (the other
// triangle: a warp's k range is uniform over its band and meets them).
// The loop keeps its fixed trip count (a runtime bound on e cost float32 n = 64 7-14 %).
template <typename F>
__host__ __device__ __forceinline__ void tb_for_places(int rows, int cols, int first, F f) {
#pragma unroll 4
    for (int e = first; e < TB_N * TB_N; e += TB_THREADS)
        if ((e >> 6) < rows && (e & 63) < cols) f(e);
}

// A move done by a plain load and store (the host tests' staging).
template <typename T>
__host__ __device__ __forceinline__ void tb_apply(const T* src, T* s, tb_move m) {
    s[m.dst] = m.what == TB_COPY ? src[m.off] : T(m.what);
}

// A thread's tile, scaled, straight to b (row-major, leading dimension ld): entries (4 gi + r,
// tb_col(gj, c)) inside rows x cols; 16-byte stores (column pairs, float32 groups of 4) where
// `vec` (b and ld 16-byte aligned) and the piece is whole.
template <typename T>
__host__ __device__ __forceinline__ void tb_store_tile(T* b, index_t ld, int rows, int cols,
                                                       int gi, int gj, const T (&acc)[4][4],
                                                       T alpha, bool vec) {
    constexpr int W = 16 / sizeof(T);       // entries a 16-byte store
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        const int i = 4 * gi + r;
        if (i >= rows) break;
        T* row = b + (index_t)i * ld;
#pragma unroll
        for (int c = 0; c < 4; c += W) {
            const int j = tb_col<T>(gj, c);
            if constexpr (sizeof(T) == 8) {
                if (vec && j + 1 < cols) {
                    *reinterpret_cast<double2*>(row + j) =
                        make_double2(alpha * acc[r][c], alpha * acc[r][c + 1]);
                    continue;
                }
            } else {
                if (vec && j + 3 < cols) {
                    *reinterpret_cast<float4*>(row + j) =
                        make_float4(alpha * acc[r][0], alpha * acc[r][1], alpha * acc[r][2],
                                    alpha * acc[r][3]);
                    continue;
                }
            }
#pragma unroll
            for (int u = 0; u < W; ++u)
                if (tb_col<T>(gj, c + u) < cols) row[tb_col<T>(gj, c + u)] = alpha * acc[r][c + u];
        }
    }
}

// True where 16-byte stores into rows of b (leading dimension ld) are aligned.
template <typename T>
__host__ __device__ __forceinline__ bool tb_vec_ok(const T* b, index_t ld) {
    return reinterpret_cast<unsigned long long>(b) % 16 == 0 && ld % (16 / sizeof(T)) == 0;
}

// A thread's tile, scaled, into the output staging o (64 x TB_OUT_LD, o[i][j] = C(i, j)).
template <typename T>
__host__ __device__ __forceinline__ void tb_put_tile(T* o, int gi, int gj, const T (&acc)[4][4],
                                                     T alpha) {
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c)
            o[(4 * gi + r) * TB_OUT_LD + tb_col<T>(gj, c)] = alpha * acc[r][c];
}

// Thread t's part of storing the staged output o transposed: C(i, j), i < n, j < nv, to
// b[j * ldb + i] (right TRMM: row j of B). Each thread keeps one column of a 64-wide row walk
// (t % 64) and steps 4 rows: coalesced rows of B, no division.
template <typename T>
__host__ __device__ __forceinline__ void tb_store_transposed(const T* o, T* b, index_t ldb, int n,
                                                             int nv, int t) {
    const int i = t & 63;
    if (i >= n) return;
    for (int j = t >> 6; j < nv; j += TB_THREADS / 64)
        b[(index_t)j * ldb + i] = o[i * TB_OUT_LD + j];
}

#ifdef __CUDACC__
// A move as an asynchronous copy (cp.async, sm_80+; .ca takes the 4 or 8 bytes of one element)
// or a plain shared store of zero or one.
template <typename T>
__device__ __forceinline__ void tb_apply_async(const T* src, T* s, tb_move m) {
    if (m.what == TB_COPY) {
        cp_async_element(s + m.dst, src + m.off);
    } else {
        s[m.dst] = T(m.what);
    }
}

// Issue the copies of a triangle of A into s (see tb_triangle_move), its n x n places only.
template <typename T>
__device__ __forceinline__ void tb_copy_triangle(const T* a, index_t lda, T* s, int n, bool lower,
                                                 bool unit, bool swap) {
    tb_for_places(n, n, threadIdx.x, [&](int e) {
        tb_apply_async<T>(a, s, tb_triangle_move<T>(lda, n, lower, unit, swap, e));
    });
}

// Issue the copies of the vectors of B at b (vector v0 of a chunk) into x (see tb_vector_move),
// the places of entries k < n of vectors j < nv only.
template <typename T>
__device__ __forceinline__ void tb_copy_vectors(const T* b, index_t ldb, T* x, int n, int nv,
                                                bool right) {
    tb_for_places(right ? nv : n, right ? n : nv, threadIdx.x, [&](int e) {
        tb_apply_async<T>(b, x, tb_vector_move<T>(ldb, n, nv, right, e));
    });
}

// This thread's tile (gi, gj) of C = P^T Q over its warp's k range.
template <typename T>
__device__ __forceinline__ void tb_tile_product(const T* p, const T* q, int n, bool upper_m,
                                                T (&acc)[4][4], int& gi, int& gj) {
    int k0, k1;
    tb_tile_of(threadIdx.x, n, upper_m, gi, gj);
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[r][c] = T(0);
    tb_k_range(gi & ~1, n, upper_m, k0, k1);
    tb_accumulate<T>(p, q, gi, gj, k0, k1, acc);
}

// The TRMM operands of one work item t (matrix t / chunks, vectors 64 (t % chunks) on).
struct tb_item {
    index_t matrix;
    int v0, nv;
};
__device__ __forceinline__ tb_item tb_item_of(index_t t, int chunks, int nvec) {
    tb_item it;
    it.matrix = t / chunks;
    it.v0 = (int)(t - it.matrix * chunks) * TB_N;
    it.nv = min(TB_N, nvec - it.v0);
    return it;
}

template <typename T, int PBUF, int QBUF, bool OUT>
__global__ void __launch_bounds__(TB_THREADS, tb_blocks<T>(PBUF + QBUF))
tri_block_trmm(const T* __restrict__ A, index_t lda, index_t sa, T* __restrict__ B, index_t ldb,
               index_t sb, int n, int nvec, index_t batch, int flags, T alpha,
               const T* __restrict__ B_in) {
    static_assert(PBUF >= 1 && PBUF <= QBUF && QBUF <= 2, "buffers: (1, 1), (1, 2) or (2, 2)");
    extern __shared__ __align__(16) unsigned char tri_block_smem[];
    T* const p0 = reinterpret_cast<T*>(tri_block_smem);
    T* const q0 = p0 + PBUF * TB_N * tb_ld<T>();
    constexpr int STRIDE = TB_N * tb_ld<T>();
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    const bool transpose = ((flags & TRI_TRANS) != 0) != right;   // M = A^T
    const bool upper_m = lower == transpose;
    const int chunks = (nvec + TB_N - 1) / TB_N;
    const index_t items = batch * chunks;
    // P[k][i] = M[i][k]: A(r, c) is M(c, r) when M = A^T (P[r][c]), else P[c][r].
    auto copy_p = [&](index_t t, T* p) {
        tb_copy_triangle<T>(A + tb_item_of(t, chunks, nvec).matrix * sa, lda, p, n, lower, unit,
                            !transpose);
    };
    auto vectors = [&](index_t t) {
        const tb_item it = tb_item_of(t, chunks, nvec);
        return B + it.matrix * sb + (right ? (index_t)it.v0 * ldb : it.v0);
    };
    auto copy_q = [&](index_t t, T* q) {       // from B_in (OUT) or B: same offsets
        const T* src = OUT ? B_in + (vectors(t) - B) : vectors(t);
        tb_copy_vectors<T>(src, ldb, q, n, tb_item_of(t, chunks, nvec).nv, right);
    };
    index_t t = blockIdx.x;
    if (t < items) copy_p(t, p0), copy_q(t, q0);
    for (int i = 0; t < items; t += gridDim.x, ++i) {
        T* const p = p0 + (PBUF == 2 ? (i & 1) : 0) * STRIDE;
        T* const q = q0 + (QBUF == 2 ? (i & 1) : 0) * STRIDE;
        const index_t next = t + gridDim.x;
        cp_async_wait_all();
        __syncthreads();                      // item t staged; the last item's stores are done
        if (next < items) {                   // into the other buffers, during this product
            if (PBUF == 2) copy_p(next, p0 + ((i + 1) & 1) * STRIDE);
            if (QBUF == 2) copy_q(next, q0 + ((i + 1) & 1) * STRIDE);
        }
        T acc[4][4];
        int gi, gj;
        tb_tile_product<T>(p, q, n, upper_m, acc, gi, gj);
        T* const bv = vectors(t);
        const int nv = tb_item_of(t, chunks, nvec).nv;
        if (PBUF == 1 || QBUF == 1 || right) __syncthreads();     // every read of p and q is done
        if (PBUF == 1 && next < items) copy_p(next, p0);
        if (!right) {                         // rows of C are rows of B: from registers
            if (QBUF == 1 && next < items) copy_q(next, q0);
            tb_store_tile<T>(bv, ldb, n, nv, gi, gj, acc, alpha, tb_vec_ok<T>(bv, ldb));
        } else {                              // through q: rows of B are columns of C
            tb_put_tile<T>(q, gi, gj, acc, alpha);
            __syncthreads();
            tb_store_transposed<T>(q, bv, ldb, n, nv, threadIdx.x);
            if (QBUF == 1 && next < items) {
                __syncthreads();              // every store has read q
                copy_q(next, q0);
            }
        }
    }
}

template <typename T, int BUFS, bool OUT>
__global__ void __launch_bounds__(TB_THREADS, tb_blocks<T>(BUFS))
tri_block_lauum(T* __restrict__ A, index_t lda, index_t sa, int n, index_t batch, int lower,
                const T* __restrict__ A_in) {
    static_assert(BUFS == 1 || BUFS == 2, "buffers: 1 or 2");
    extern __shared__ __align__(16) unsigned char tri_block_smem[];
    T* const f0 = reinterpret_cast<T*>(tri_block_smem);
    constexpr int STRIDE = TB_N * tb_ld<T>();
    // F = L (F[r][c] = A(r, c)) or U^T (F[c][r] = A(r, c)).
    auto copy_f = [&](index_t k, T* f) {
        tb_copy_triangle<T>((OUT ? A_in : A) + k * sa, lda, f, n, lower != 0, false, lower == 0);
    };
    index_t k = blockIdx.x;
    if (k < batch) copy_f(k, f0);
    for (int i = 0; k < batch; k += gridDim.x, ++i) {
        T* const f = f0 + (BUFS == 2 ? (i & 1) : 0) * STRIDE;
        const index_t next = k + gridDim.x;
        cp_async_wait_all();
        __syncthreads();                      // matrix k staged; the last matrix's stores are done
        if (BUFS == 2 && next < batch) copy_f(next, f0 + ((i + 1) & 1) * STRIDE);
        T acc[4][4];
        int gi, gj;
        tb_tile_product<T>(f, f, n, true, acc, gi, gj);
        if (BUFS == 1 && next < batch) {
            __syncthreads();                  // every read of f is done
            copy_f(next, f0);
        }
        T* const a = A + k * sa;
        tb_store_tile<T>(a, lda, n, n, gi, gj, acc, T(1), tb_vec_ok<T>(a, lda));
    }
}
#endif
