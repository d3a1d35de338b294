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

// op(B) (k x n) into shared memory transposed as Bt[kk][j], rows ld apart, zero past n (the one
// B of gemm_tall and gemm_stream), by the block's nt threads (t: this one's index); the caller
// synchronizes.
template <typename T>
__device__ __forceinline__ void stage_b_transposed(T* Bt, const T* __restrict__ B, int transb,
                                                   int n, int k, int ld, int t, int nt) {
    for (int e = t; e < k * ld; e += nt) {
        const int kk = e / ld, j = e % ld;
        Bt[e] = j < n ? (transb ? B[(index_t)j * k + kk] : B[(index_t)kk * n + j]) : T(0);
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
    stage_b_transposed(Bt, B, transb, n, k, np, t, nt);
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

// gemm_stream<T, NC, WIDE>  (launcher: linalg/_cuda/blas.py, gemm with one B, "cfg": "stream")
//   The same product as gemm_tall (one tall A_flat, one op(B)) fed by the bulk copy engine
//   (sm_90): a persistent grid, each block walking chunks of rp rows with a grid stride through
//   a ring of `stages` shared-memory buffers. Warp 0 keeps the next stages - 1 chunks in flight
//   (one cp.async.bulk per row into rows `lds` apart: lds = kc_ld(k) puts the rows of a
//   quarter-warp's 16-byte loads into distinct banks; or one copy per chunk when lds == k),
//   each buffer completing on its own mbarrier, while every thread computes from the buffer
//   that landed: thread (lr, cg) row lr, columns cg*NC .. cg*NC+NC-1 as gemm_tall, stores
//   straight to C. No thread holds a register or an instruction per element copied, so the
//   loads in flight are bounded by the ring, not by registers.
//   B^T's rows are ldb = np rounded up to 16 bytes apart (np = ceil(n / NC) * NC), so that a
//   thread's NC columns are read by 16-byte loads where they start on a 16-byte boundary: NC a
//   multiple of 16 / sizeof(T), or (WIDE, for one column group: n <= NC) the load reads the
//   padding past NC too (float64 NC = 9: five loads a k step instead of nine; each load is a
//   shared-memory wavefront, and those bound the kernel where B has few columns).
//   Needs k * sizeof(T) % 16 == 0 and A 16-byte aligned; blockDim = rp * ceil(n / NC); shared
//   memory: RING_BARRIER_BYTES of barriers (stages <= RING_BARRIERS), B^T (k x ldb), then
//   stages * rp * lds elements.
template <typename T, int NC, bool WIDE>
__device__ __forceinline__ void load_cols(const T* p, T (&r)[NC]) {
    constexpr int V = 16 / sizeof(T), NCV = (NC + V - 1) / V * V;
    if constexpr (NC % V == 0) {
        load_vec<T, NC>(p, r);
    } else if constexpr (WIDE) {
        T w[NCV];
        load_vec<T, NCV>(p, w);
#pragma unroll
        for (int c = 0; c < NC; ++c) r[c] = w[c];
    } else {
#pragma unroll
        for (int c = 0; c < NC; ++c) r[c] = p[c];
    }
}

template <typename T, int NC, bool WIDE>
__global__ void gemm_stream(index_t rows, int n, int k, T alpha, const T* __restrict__ A,
                            const T* __restrict__ B, int transb, T beta, T* __restrict__ C,
                            int rp, int lds, int stages) {
    constexpr int VEC = 16 / sizeof(T);
    extern __shared__ __align__(128) unsigned char gemm_stream_smem[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(gemm_stream_smem);
    const int ncg = (n + NC - 1) / NC;
    // B^T's row stride: ncg * NC rounded up to 16 bytes (written as the plain product where NC
    // is whole pieces: the rounding expression there cost NC = 16 18 registers, 83 -> 101)
    const int ldb = NC % VEC == 0 ? ncg * NC : (ncg * NC + VEC - 1) / VEC * VEC;
    T* Bt = reinterpret_cast<T*>(gemm_stream_smem + RING_BARRIER_BYTES);
    T* As = Bt + (k * ldb + VEC - 1) / VEC * VEC;
    const int t = threadIdx.x, nt = blockDim.x, lane = t % 32;
    const index_t chunks = (rows + rp - 1) / rp, step = gridDim.x;
    const unsigned row_bytes = k * sizeof(T);
    ring_init(bars, stages);
    stage_b_transposed(Bt, B, transb, n, k, ldb, t, nt);
    __syncthreads();
    // warp 0: chunk c into buffer s, its bytes registered on the buffer's barrier first
    auto issue = [&](index_t c, int s) {
        const index_t r0 = c * rp;
        const int nr = (int)min((index_t)rp, rows - r0);
        if (lane == 0) mbar_expect_bytes(&bars[s], nr * row_bytes);
        __syncwarp();
        T* dst = As + (index_t)s * rp * lds;
        if (lds == k) {
            if (lane == 0) bulk_copy_to_shared(dst, A + r0 * k, nr * row_bytes, &bars[s]);
        } else {
            for (int r = lane; r < nr; r += 32)
                bulk_copy_to_shared(dst + r * lds, A + (r0 + r) * k, row_bytes, &bars[s]);
        }
    };
    if (t < 32)
        for (int s = 0; s < stages; ++s)
            if (blockIdx.x + s * step < chunks) issue(blockIdx.x + s * step, s);
    const int lr = t % rp, cg = t / rp;
    int it = 0;
    for (index_t c = blockIdx.x; c < chunks; c += step, ++it) {
        const int s = ring_wait(bars, stages, it);
        const index_t r0 = c * rp;
        const int nr = (int)min((index_t)rp, rows - r0);
        if (lr < nr && cg < ncg) {
            T acc[NC];
#pragma unroll
            for (int j = 0; j < NC; ++j) acc[j] = T(0);
            const T* ar = As + ((index_t)s * rp + lr) * lds;
            const T* bt = Bt + cg * NC;
#pragma unroll 2
            for (int kk = 0; kk < k; kk += VEC) {
                T a[VEC];
                load_vec<T, VEC>(ar + kk, a);
#pragma unroll
                for (int v = 0; v < VEC; ++v) {
                    T b[NC];
                    load_cols<T, NC, WIDE>(bt + (index_t)(kk + v) * ldb, b);
#pragma unroll
                    for (int j = 0; j < NC; ++j) acc[j] += a[v] * b[j];
                }
            }
            T* cr = C + (r0 + lr) * n + cg * NC;
#pragma unroll
            for (int j = 0; j < NC; ++j)
                if (cg * NC + j < n)
                    cr[j] = alpha * acc[j] + (beta == T(0) ? T(0) : beta * cr[j]);
        }
        __syncthreads();        // buffer s is read: refill it with the chunk `stages` ahead
        if (t < 32 && c + stages * step < chunks) {
            fence_async_shared();
            issue(c + stages * step, s);
        }
    }
}

// gemm_stream_mma<T, MT, NBW, CH>  (launcher: linalg/_cuda/blas.py, gemm with one B, "cfg": "mma")
//   gemm_stream's product (one tall A_flat, rows x k, one op(B), k x n) on the float64 tensor
//   cores, for the wide hydro products (192x216 (27x216)^T), where gemm_stream's thread a row
//   is bound by its shared-memory loads of B^T. A DMMA 16 x 8 x 8 fragment (common.cuh
//   dmma_16x8x8) sums its 8 k products in any order as long as A and B agree, so k is permuted
//   inside each step of 8: fragment column q is k = 2q, column q + 4 is k = 2q + 1. A lane's two
//   values of an A row are then adjacent (one 16-byte load in float64, 8 in float32), and op(B)
//   is staged once per block as fragments (Bf: for each k step and n tile of 8, lane l's two
//   values side by side; one 16-byte load a fragment, a warp's 512 bytes contiguous; columns
//   past n zero).
//   The ring (gemm_stream's: warp 0 keeps the next items in flight by cp.async.bulk, an mbarrier
//   a buffer) carries items of rb rows x kc k steps (rows kc * 8 apart: kc odd puts the rows of
//   a fragment load in distinct banks; one copy an item of whole rows, else one a row); a row
//   block's items follow one another, its last one shorter where kc does not divide k / 8.
//   Warp (wm, wg) accumulates MT m tiles of 16 rows (wm * 16 * MT ..) by NBW n tiles of 8
//   (wg * NBW ..) over a row block's items in CH sums and stores after its last. float32 A is
//   widened on load: products and sums in float64.
//   Needs k % 8 == 0 and A 16-byte aligned; blockDim = 32 * (rb / (16 * MT)) * groups <= 256,
//   groups = ceil(ceil(n / 8) / NBW); shared memory: RING_BARRIER_BYTES, Bf (k * 8 * groups * NBW
//   doubles), then stages * rb * kc * 8 elements.
// Two adjacent values of A as double (one 16- or 8-byte load: gemv.cuh load_vec).
template <typename T>
__device__ __forceinline__ void load_pair(const T* p, double& x, double& y) {
    T v[2];
    load_vec<T, 2>(p, v);
    x = v[0];
    y = v[1];
}

// One k step of a warp's tile: MT m tiles' A fragments (rows ap, ap + 16 lds, ...; k step kk)
// times NBW n tiles' B fragments (bp: the step's first tile, tiles 32 double2 apart).
template <typename T, int MT, int NBW>
__device__ __forceinline__ void mma_k_step(double (&acc)[MT][NBW][4], const T* ap, int lds,
                                           const double2* bp, int kk, int tiles) {
    double a[MT][4];
#pragma unroll
    for (int m = 0; m < MT; ++m) {
        load_pair(ap + (m * 16) * lds + kk * 8, a[m][0], a[m][2]);
        load_pair(ap + (m * 16 + 8) * lds + kk * 8, a[m][1], a[m][3]);
    }
#pragma unroll
    for (int j = 0; j < NBW; ++j) {
        const double2 bv = bp[(kk * tiles + j) * 32];
        const double b[2] = {bv.x, bv.y};
#pragma unroll
        for (int m = 0; m < MT; ++m) dmma_16x8x8(acc[m][j], a[m], b);
    }
}

template <typename T, int MT, int NBW, int CH>
__global__ void __launch_bounds__(256)
gemm_stream_mma(index_t rows, int n, int k, T alpha, const T* __restrict__ A,
                const T* __restrict__ B, int transb, T beta, T* __restrict__ C, int rb, int kc,
                int stages) {
    extern __shared__ __align__(128) unsigned char gemm_mma_smem[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(gemm_mma_smem);
    const int groups = ((n + 7) / 8 + NBW - 1) / NBW, tiles = groups * NBW;
    const int steps = k / 8, slices = (steps + kc - 1) / kc, lds = kc * 8;
    double* Bf = reinterpret_cast<double*>(gemm_mma_smem + RING_BARRIER_BYTES);
    T* As = reinterpret_cast<T*>(Bf + (index_t)steps * tiles * 64);
    const int t = threadIdx.x, nt = blockDim.x, lane = t % 32, warp = t / 32;
    const int g = lane / 4, q = lane % 4;
    const index_t blocks = (rows + rb - 1) / rb;
    // the items of this block: its row blocks blockIdx.x + i * gridDim.x, each `slices` long
    const index_t mine = blockIdx.x < blocks ? (blocks - 1 - blockIdx.x) / gridDim.x + 1 : 0;
    const index_t items = mine * slices;
    ring_init(bars, stages);
    for (int e = t; e < steps * tiles * 64; e += nt) {
        const int l = (e % 64) / 2, kk = (e / 64 / tiles) * 8 + 2 * (l % 4) + e % 2;
        const int j = ((e / 64) % tiles) * 8 + l / 4;
        Bf[e] = j < n ? double(transb ? B[(index_t)j * k + kk] : B[(index_t)kk * n + j]) : 0.0;
    }
    __syncthreads();
    // warp 0: item `it` into buffer s, its bytes registered on the buffer's barrier first (one
    // copy where the item is whole rows, else one a row)
    auto issue = [&](index_t it, int s) {
        const index_t r0 = (blockIdx.x + it / slices * gridDim.x) * rb;
        const int slice = (int)(it % slices), nr = (int)min((index_t)rb, rows - r0);
        const int width = min(kc, steps - slice * kc) * 8;
        const unsigned bytes = width * sizeof(T);
        if (lane == 0) mbar_expect_bytes(&bars[s], nr * bytes);
        __syncwarp();
        T* dst = As + (index_t)s * rb * lds;
        const T* src = A + r0 * k + slice * lds;
        if (slices == 1) {
            if (lane == 0) bulk_copy_to_shared(dst, src, nr * bytes, &bars[s]);
        } else {
            for (int r = lane; r < nr; r += 32)
                bulk_copy_to_shared(dst + r * lds, src + (index_t)r * k, bytes, &bars[s]);
        }
    };
    if (t < 32)
        for (int s = 0; s < stages && s < items; ++s) issue(s, s);
    const int wg = warp % groups, row0 = warp / groups * 16 * MT;
    const double2* bf = reinterpret_cast<const double2*>(Bf) + wg * NBW * 32 + lane;
    // CH independent sums (k steps alternate between them): a warp's DMMAs into one
    // accumulator wait on each other
    double acc[CH][MT][NBW][4];
    for (index_t it = 0; it < items; ++it) {
        const int s = ring_wait(bars, stages, (int)it), slice = (int)(it % slices);
        const index_t r0 = (blockIdx.x + it / slices * gridDim.x) * rb;
        if (slice == 0) {
#pragma unroll
            for (int c = 0; c < CH; ++c)
#pragma unroll
                for (int m = 0; m < MT; ++m)
#pragma unroll
                    for (int j = 0; j < NBW; ++j)
#pragma unroll
                        for (int v = 0; v < 4; ++v) acc[c][m][j][v] = 0.0;
        }
        const int nk = min(kc, steps - slice * kc);
        if (r0 + row0 < rows) {
            const T* ap = As + ((index_t)s * rb + row0 + g) * lds + 2 * q;
            const double2* bp = bf + (index_t)slice * kc * tiles * 32;
            // unrolled by hand: nvcc 13 unrolled `#pragma unroll 3` here without a remainder
            // (k steps past nk read; reports/gpu_20261129f call 2)
            constexpr int U = 2 * CH;
            int kk = 0;
#pragma unroll 1
            for (; kk + U <= nk; kk += U) {
#pragma unroll
                for (int u = 0; u < U; ++u)
                    mma_k_step<T, MT, NBW>(acc[u % CH], ap, lds, bp, kk + u, tiles);
            }
#pragma unroll 1
            for (; kk < nk; ++kk) mma_k_step<T, MT, NBW>(acc[0], ap, lds, bp, kk, tiles);
        }
        if (slice == slices - 1 && r0 + row0 < rows) {
#pragma unroll
            for (int m = 0; m < MT; ++m)
#pragma unroll
                for (int j = 0; j < NBW; ++j)
#pragma unroll
                    for (int v = 0; v < 4; ++v) {
                        const index_t r = r0 + row0 + m * 16 + g + 8 * (v / 2);
                        const int col = (wg * NBW + j) * 8 + 2 * q + v % 2;
                        double sum = acc[0][m][j][v];
#pragma unroll
                        for (int c = 1; c < CH; ++c) sum += acc[c][m][j][v];
                        if (r < rows && col < n) {
                            T* cp = C + r * n + col;
                            const T val = alpha * T(sum);
                            *cp = beta == T(0) ? val : val + beta * *cp;
                        }
                    }
        }
        __syncthreads();        // buffer s is read: refill it with the item `stages` ahead
        if (t < 32 && it + stages < items) {
            fence_async_shared();
            issue(it + stages, s);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// gemm_small<T, RM, RN, KC>  (launcher: linalg/_cuda/blas.py, gemm, kernel "small")
//   Whole small matrices at once (every dim <= 32, and skinny products up to about 96 x 96 x 64):
//   a block stages op(A) and op(B) of a group of `mpb` consecutive matrices in shared memory,
//   then each thread computes an RM x RN set of entries of one matrix of the group (rows
//   ti + cm*r, columns tj + cn*c, cm = ceil(m/RM), cn = ceil(n/RN)) and stores it straight to C.
//   A group of a packed batch is one contiguous stream, so staging is one flat copy: coalesced
//   asynchronous copies (cp.async, one element each, all of a thread's copies in flight at once,
//   no registers held). Groups are walked with a grid stride; with stages == 2 a block issues
//   the copies of its next group before computing the current one (double buffering: the load
//   latency hides behind the compute of a persistent grid). With one B for the whole batch
//   (shared_b) B is staged once per block. Needs C-contiguous A, B, C (no leading dimensions).
//
//   Each operand sits in shared memory as it is stored (row-major, the same transposition), with
//   row stride staged_ld(cols) = cols | 1: along k, the threads of a warp read different rows of
//   A ("N") or of B ("T") at one column, and an odd stride puts those rows into distinct banks.
//   Other reads run along a row (consecutive threads, consecutive words), so all four trans
//   combinations are conflict-free, and a transpose is only a different pair of strides.
//
//   KC (k-contiguous: A "N", B "T", k a multiple of VEC = 16 / sizeof(T); the hydro A_z B^T
//   form): every read runs along k, so the inner loop takes VEC values of k per 16-byte shared
//   load (a quarter of the load instructions) and staging copies 16-byte pieces where A and B
//   are 16-byte aligned (vec_copy). Rows are then kc_ld(k) apart: a multiple of VEC with an odd
//   number of 16-byte pieces, so the 8 rows of a quarter-warp's 16-byte loads hit distinct banks.

__host__ __device__ __forceinline__ int staged_ld(int cols) { return cols | 1; }

template <typename T>
__host__ __device__ __forceinline__ int kc_ld(int k) {
    constexpr int VEC = 16 / sizeof(T);
    const int pieces = (k + VEC - 1) / VEC;
    return (pieces | 1) * VEC;
}

// One operand of one matrix as staged: entry (o, kk) of op(A) (o = row i) or of op(B)^T
// (o = column j) is at o * s_out + kk * s_k; `size` elements per matrix in shared memory.
struct StagedOperand {
    int cols;       // stored row length
    int ld;         // staged row stride
    int size;       // stored rows * ld
    int s_out, s_k;
};

// op(X) is outer x k when X is stored outer x k (A "N", B "T"), else X is stored k x outer;
// ld: the staged row stride (0: staged_ld of the row length).
__device__ __forceinline__ StagedOperand staged_operand(int outer, int k, bool outer_major,
                                                        int ld = 0) {
    StagedOperand s;
    const int rows = outer_major ? outer : k;
    s.cols = outer_major ? k : outer;
    s.ld = ld ? ld : staged_ld(s.cols);
    s.size = rows * s.ld;
    s.s_out = outer_major ? s.ld : 1;
    s.s_k = outer_major ? 1 : s.ld;
    return s;
}

// Issues dst[(e / cols) * ld + e % cols] = src[e] for e < count by threads tid, tid + nt, ...:
// consecutive threads copy consecutive elements (coalesced); (row, col) of e advance by a
// precomputed step instead of a division per element. VEC > 1: whole 16-byte pieces (cols, ld
// multiples of VEC, src and dst 16-byte aligned), same walk in units of pieces.
template <int VEC, typename T>
__device__ __forceinline__ void stage_rows_async(const T* __restrict__ src, int count, int cols,
                                                 int ld, T* dst, int tid, int nt) {
    const int units = count / VEC, ucols = cols / VEC;
    const int dq = nt / ucols, dr = nt - dq * ucols;
    int row = tid / ucols, col = tid - row * ucols;
    for (int u = tid; u < units; u += nt) {
        if constexpr (VEC == 1)
            cp_async_element(dst + row * ld + col, src + u);
        else
            cp_async_16(dst + row * ld + col * VEC, src + u * VEC);
        row += dq;
        col += dr;
        if (col >= ucols) { col -= ucols; ++row; }
    }
}

// One RM x RN set of C entries of one matrix from its staged operands: rows i_r = ti + cm*r,
// columns j_c = tj + cn*c (rows/columns past m/n read row m-1/column n-1 and are not stored).
template <typename T, int RM, int RN, bool KC>
__device__ __forceinline__ void small_tile(const T* As, const StagedOperand& sa, const T* Bs,
                                           const StagedOperand& sb, int m, int n, int k, int cm,
                                           int cn, int ti, int tj, T alpha, T beta, T* Cm) {
    int oa[RM], ob[RN];     // 32-bit shared-memory offsets (64-bit pointers cost registers)
#pragma unroll
    for (int r = 0; r < RM; ++r) oa[r] = min(ti + cm * r, m - 1) * sa.s_out;
#pragma unroll
    for (int c = 0; c < RN; ++c) ob[c] = min(tj + cn * c, n - 1) * sb.s_out;
    T acc[RM][RN];
#pragma unroll
    for (int r = 0; r < RM; ++r)
#pragma unroll
        for (int c = 0; c < RN; ++c) acc[r][c] = T(0);
    if constexpr (KC) {     // s_k == 1 for both, rows 16-byte aligned, k % VEC == 0
        constexpr int VEC = 16 / sizeof(T);
        for (int kk = 0; kk < k; kk += VEC) {
            T a[RM][VEC], b[RN][VEC];
#pragma unroll
            for (int r = 0; r < RM; ++r) load_vec<T, VEC>(As + oa[r] + kk, a[r]);
#pragma unroll
            for (int c = 0; c < RN; ++c) load_vec<T, VEC>(Bs + ob[c] + kk, b[c]);
#pragma unroll
            for (int v = 0; v < VEC; ++v)
#pragma unroll
                for (int r = 0; r < RM; ++r)
#pragma unroll
                    for (int c = 0; c < RN; ++c) acc[r][c] += a[r][v] * b[c][v];
        }
    } else {
#pragma unroll 2
        for (int kk = 0; kk < k; ++kk) {
            T a[RM], b[RN];
#pragma unroll
            for (int r = 0; r < RM; ++r) a[r] = As[oa[r] + kk * sa.s_k];
#pragma unroll
            for (int c = 0; c < RN; ++c) b[c] = Bs[ob[c] + kk * sb.s_k];
#pragma unroll
            for (int r = 0; r < RM; ++r)
#pragma unroll
                for (int c = 0; c < RN; ++c) acc[r][c] += a[r] * b[c];
        }
    }
#pragma unroll
    for (int r = 0; r < RM; ++r) {
        const int i = ti + cm * r;
        if (i >= m) break;
#pragma unroll
        for (int c = 0; c < RN; ++c) {
            const int j = tj + cn * c;
            if (j >= n) break;
            T* p = Cm + i * n + j;
            *p = alpha * acc[r][c] + (beta == T(0) ? T(0) : beta * *p);
        }
    }
}

// Shared memory: [B if shared_b] then `stages` buffers of mpb op(A) (+ mpb op(B) unless shared):
// (shared_b ? sb.size : 0) + stages * mpb * (sa.size + (shared_b ? 0 : sb.size)) elements.
// KC: transa == 0, transb == 1, k % (16 / sizeof(T)) == 0 (the launcher checks).
// Blocks of at most 256 threads (blas.py SMALL_THREADS: with <= 168 registers a thread, every
// instantiation launches). No register cap: capping the small tiles so that more blocks fit
// per SM (possible without spills) gained nothing on the H100 (16^3, 81x8x64).
template <typename T, int RM, int RN, bool KC>
__global__ void gemm_small(index_t batch, int m, int n, int k, T alpha, const T* __restrict__ A,
                           int transa, const T* __restrict__ B, int transb, int shared_b, T beta,
                           T* __restrict__ C, int mpb, int stages, int vec_copy) {
    extern __shared__ __align__(16) unsigned char gemm_small_smem[];
    const int ld = KC ? kc_ld<T>(k) : 0;
    const StagedOperand sa = staged_operand(m, k, !transa, ld);
    const StagedOperand sb = staged_operand(n, k, transb, ld);
    const int tid = threadIdx.x, nt = blockDim.x;
    const int cm = (m + RM - 1) / RM, cn = (n + RN - 1) / RN, team = cm * cn;
    const int size_a = m * k, size_b = n * k, size_c = m * n;
    const int buf_a = mpb * sa.size, buf = buf_a + (shared_b ? 0 : mpb * sb.size);
    T* const smem = reinterpret_cast<T*>(gemm_small_smem);
    T* const buffers = smem + (shared_b ? sb.size : 0);
    const index_t groups = (batch + mpb - 1) / mpb;

    // Copies of `count` elements (whole stored rows of operand `so`) into dst.
    auto stage = [&](const T* src, int count, const StagedOperand& so, T* dst) {
        if (KC && vec_copy)
            stage_rows_async<16 / sizeof(T)>(src, count, so.cols, so.ld, dst, tid, nt);
        else
            stage_rows_async<1>(src, count, so.cols, so.ld, dst, tid, nt);
    };
    auto issue = [&](index_t g, int s) {       // copies of group g into buffer s
        const index_t g0 = g * mpb;
        const int nmat = (int)min((index_t)mpb, batch - g0);
        stage(A + g0 * size_a, nmat * size_a, sa, buffers + s * buf);
        if (!shared_b) stage(B + g0 * size_b, nmat * size_b, sb, buffers + s * buf + buf_a);
    };

    index_t g = blockIdx.x;
    if (g >= groups) return;
    if (shared_b) stage(B, size_b, sb, smem);
    issue(g, 0);
    cp_async_commit();
    for (int s = 0; g < groups; g += gridDim.x) {
        const index_t next = g + gridDim.x;
        const bool ahead = stages > 1 && next < groups;
        if (ahead) issue(next, s ^ 1);
        cp_async_commit();
        cp_async_wait<1>();       // this thread's copies of group g have landed
        __syncthreads();                    // ... and every thread's
        const T* As = buffers + s * buf;
        const T* Bs = shared_b ? smem : As + buf_a;
        const index_t g0 = g * mpb;
        const int nmat = (int)min((index_t)mpb, batch - g0);
        for (int w = tid; w < nmat * team; w += nt) {
            const int mat = w / team, t = w - mat * team, ti = t / cn, tj = t - ti * cn;
            small_tile<T, RM, RN, KC>(As + mat * sa.size, sa,
                                      Bs + (shared_b ? 0 : mat * sb.size), sb, m, n, k, cm, cn,
                                      ti, tj, alpha, beta, C + (g0 + mat) * size_c);
        }
        __syncthreads();                    // buffer s is free again
        if (ahead) {
            s ^= 1;
        } else if (next < groups) {         // one stage: load the next group now
            issue(next, s);
            cp_async_commit();
        }
    }
}
