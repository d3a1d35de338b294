// gemv.cu: batched GEMV, y_k = alpha * op(A_k) x_k + beta * y_k, real float/double.
//
// Layout: C-contiguous strided batches (docs/design.md): A (batch, m, n) row-major, x and y
// (batch, len) contiguous; beta == 0 means y is not read (BLAS).
//
// Kernels (launcher: linalg/_cuda/blas.py, gemv; parameters from linalg/_tuning.py):
//   gemv_n_flat<T, VEC, UNROLL>   y = A x. The rows of the whole batch are one contiguous list
//       of batch*m rows of length n, so the kernel walks them flat: TX threads per row (run-time
//       power of two), 32/TX rows per warp, UNROLL row groups in flight per thread. Loads are
//       VEC-wide and aligned by the padding technique of seed 003/004 §6: a row starting at an
//       unaligned element is read from the aligned address below it and the elements outside the
//       row are masked (multiplied by nothing), so 9- or 27-wide rows still use 16-byte loads.
//   gemv_n_team<T, VEC, UNROLL>   y = A x, one team per matrix (below; the tuner picks it or flat).
//   gemv_t_team<T, VEC, UNROLL>   y = A^T x. One team of `team` threads per matrix
//       (team_gemv_t of gemv.cuh), teams loop over the batch with a grid stride.
//   gemv_n_warp<T, VEC>           y = A x, one warp per matrix (group_gemv_row_panel of
//       gemv.cuh, the panel GEMV of trsv.cu): 32 rows at a time, each row segment one coalesced
//       load (VEC elements a lane: n and the batch stride multiples of VEC), 32 loads in flight
//       per lane, one 31-shuffle reduce-scatter per 32 rows. For the classes with n >= 27 where
//       the tuning table picks it.
#include "common.cuh"
#include "gemv.cuh"

template <typename T, int VEC, int UNROLL>
__global__ void gemv_n_flat(index_t rows, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int tx) {
    const int lane = threadIdx.x & 31;
    const int gpw = 32 / tx;                 // row groups per warp
    const int g = lane / tx, gx = lane % tx;
    const unsigned gmask = (tx == 32) ? 0xffffffffu : (((1u << tx) - 1u) << (g * tx));
    const index_t total = rows * n;   // chunk offsets below are 32-bit: chunk_rows * n < 2^31
    const int pad = VEC > 1 ? 1 : 0;
    const int iters = ((n + VEC - 1) / VEC + pad + tx - 1) / tx;
    const index_t chunk_rows = (index_t)gpw * UNROLL;
    const index_t nchunks = (rows + chunk_rows - 1) / chunk_rows;
    const index_t warp = ((index_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const index_t nwarps = (index_t)gridDim.x * blockDim.x / 32;

    for (index_t c = warp; c < nchunks; c += nwarps) {
        // Chunk-relative 32-bit offsets: rows r0 + u*gpw + g start at element s0 + rel[u].
        const index_t r0 = c * chunk_rows;
        const index_t s0 = (r0 * n) / VEC * VEC;            // aligned base of the chunk
        const T* Ab = A + s0;
        const int rem = (int)(total - s0 < 0x7fffffff ? total - s0 : 0x7fffffff);
        T acc[UNROLL];
        int rel[UNROLL];
        const T* xr[UNROLL];
        const index_t k0 = r0 / m;                         // one 64-bit division per chunk
        const int rr0 = (int)(r0 - k0 * m);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int rr = rr0 + u * gpw + g;              // row relative to matrix k0
            const index_t r = r0 + (index_t)u * gpw + g;
            acc[u] = T(0);
            rel[u] = (int)(r * n - s0);
            xr[u] = r < rows ? x + (k0 + rr / m) * n : nullptr;
        }
        for (int it = 0; it < iters; ++it) {
            T a[UNROLL][VEC];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int vi = rel[u] / VEC + gx + it * tx;
                if (xr[u] != nullptr && vi * VEC < rel[u] + n) {
                    load_vec_tail<T, VEC>(Ab + vi * VEC, rem - vi * VEC, a[u]);
                } else {
#pragma unroll
                    for (int v = 0; v < VEC; ++v) a[u][v] = T(0);
                }
            }
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int vi = rel[u] / VEC + gx + it * tx;
                if (xr[u] != nullptr && vi * VEC < rel[u] + n) {
#pragma unroll
                    for (int v = 0; v < VEC; ++v) {
                        const int j = vi * VEC + v - rel[u];
                        if (j >= 0 && j < n) acc[u] += a[u][v] * __ldg(xr[u] + j);
                    }
                }
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            T s = acc[u];
            for (int off = tx / 2; off > 0; off >>= 1) s += __shfl_xor_sync(gmask, s, off, 32);
            index_t r = r0 + (index_t)u * gpw + g;
            if (gx == 0 && r < rows) y[r] = alpha * s + (beta == T(0) ? T(0) : beta * y[r]);
        }
    }
}

template <typename T, int VEC, int UNROLL>
__global__ void gemv_t_team(index_t batch, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int team) {
    extern __shared__ __align__(16) unsigned char gemv_smem[];
    const Team tm = make_team(team);
    T* red = reinterpret_cast<T*>(gemv_smem) + (index_t)tm.index * team * VEC;
    const int per_block = blockDim.x / team;
    const index_t mn = (index_t)m * n;
    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        T* yk = y + k * n;
        team_gemv_t<T, VEC, UNROLL>(tm, m, n, A + k * mn, n, x + k * m, red, [&](int j, T s) {
            yk[j] = alpha * s + (beta == T(0) ? T(0) : beta * yk[j]);
        });
    }
}

// gemv_n_team<T, VEC, UNROLL>   y = A x with one team per matrix (team_gemv_n of gemv.cuh):
//   TX = pow2(ceil(n / VEC)) threads per row, TY = team / TX rows at a time. No per-row index
//   arithmetic and x read once per UNROLL rows; needs lda = n to be a multiple of VEC.
template <typename T, int VEC, int UNROLL>
__global__ void gemv_n_team(index_t batch, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int team) {
    const Team tm = make_team(team);
    const int per_block = blockDim.x / team;
    const index_t mn = (index_t)m * n;
    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        T* yk = y + k * m;
        team_gemv_n<T, VEC, UNROLL>(tm, m, n, A + k * mn, n, x + k * n, [&](int i, T s) {
            yk[i] = alpha * s + (beta == T(0) ? T(0) : beta * yk[i]);
        });
    }
}

template <typename T, int VEC = 1>
__global__ void gemv_n_warp(index_t batch, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int unused) {
    const LaneGroup<32> g = LaneGroup<32>::make();
    const int warps = blockDim.x >> 5;
    const index_t mn = (index_t)m * n;
    for (index_t k = (index_t)blockIdx.x * warps + (threadIdx.x >> 5); k < batch;
         k += (index_t)gridDim.x * warps) {
        const StridedView<T> Ak{A + k * mn, n, 1};
        const T* xk = x + k * n;
        T* yk = y + k * m;
        const auto xv = [&](int j) { return __ldg(xk + j); };
        for (int r0 = 0; r0 < m; r0 += 32) {
            const int nrows = min(32, m - r0);
            const T s = group_gemv_row_panel<32, VEC>(Ak, r0, nrows, n, xv, g);
            if (g.lane < nrows)
                yk[r0 + g.lane] = alpha * s + (beta == T(0) ? T(0) : beta * yk[r0 + g.lane]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// gemv_staged<T>   y = A x or A^T x for small matrices, `tile` whole matrices per block.
//   The block first copies its tile of A and of x into shared memory as one flat stream of
//   16-byte loads (the matrices of a strided batch are contiguous), then computes from shared
//   memory. Every global access is then a full coalesced vector whatever m and n are: the register
//   kernels above issue one scalar x load per row element and leave partial sectors at odd row
//   lengths, which held the hydro shapes (18x4, 32x9, ...) at 30-70 % of copy bandwidth.
//   The outputs from shared memory: tile_gemv.

// dst[i] = src[i] for i < count. 16-byte loads from the aligned address at or below src, STAGE
// per thread issued before any store (memory-level parallelism); partial vectors at either end
// are read element by element, so nothing outside [src, src + count) is touched. dst must be
// 16-byte aligned.
template <typename T, int STAGE>
__device__ __forceinline__ void stage_to_shared(const T* __restrict__ src, int count, T* dst) {
    constexpr int V = 16 / sizeof(T);
    const int head = (int)((reinterpret_cast<size_t>(src) / sizeof(T)) % V);
    const T* base = src - head;
    const int nvec = (head + count + V - 1) / V;
    for (int v0 = threadIdx.x; v0 < nvec; v0 += STAGE * blockDim.x) {
        T r[STAGE][V];
#pragma unroll
        for (int s = 0; s < STAGE; ++s) {
            const int v = v0 + s * blockDim.x, first = v * V - head;
            if (v >= nvec) continue;
            if (first >= 0 && first + V <= count) {
                load_vec<T, V>(base + v * V, r[s]);
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e)
                    r[s][e] = (first + e >= 0 && first + e < count) ? base[v * V + e] : T(0);
            }
        }
#pragma unroll
        for (int s = 0; s < STAGE; ++s) {
            const int v = v0 + s * blockDim.x, first = v * V - head;
            if (v >= nvec) continue;
            if (head == 0 && first + V <= count) {          // dst + first is 16-byte aligned
                store_vec<T, V>(dst + first, r[s]);
            } else {
#pragma unroll
                for (int e = 0; e < V; ++e)
                    if (first + e >= 0 && first + e < count) dst[first + e] = r[s][e];
            }
        }
    }
}

// GEMV-T of tile_gemv (below) on rows of whole 16-byte pieces: an output is a piece of V = 16 /
// sizeof(T) columns, its V sums over rows g, g + group, ... by one 16-byte shared load a row,
// then summed over the group's lanes.
template <typename T>
__device__ __forceinline__ void tile_gemv_t_pieces(const T* As, const T* xs, int count, int m,
                                                   int n, T alpha, T beta, T* __restrict__ y,
                                                   int group, int g, unsigned gmask) {
    constexpr int V = 16 / sizeof(T);
    const int np = n / V;
    for (int o = threadIdx.x / group; o < count * np; o += blockDim.x / group) {
        const int k = o / np, p = o - k * np;
        const T* a = As + k * m * n + p * V;
        const T* xk = xs + k * m;
        T sum[V];
#pragma unroll
        for (int e = 0; e < V; ++e) sum[e] = T(0);
        for (int i = g; i < m; i += group) {
            T av[V];
            load_vec<T, V>(a + i * n, av);
            const T xi = xk[i];
#pragma unroll
            for (int e = 0; e < V; ++e) sum[e] += av[e] * xi;
        }
#pragma unroll
        for (int e = 0; e < V; ++e)
            for (int off = group / 2; off > 0; off >>= 1)
                sum[e] += __shfl_xor_sync(gmask, sum[e], off, 32);
        if (g == 0) {
            T* yo = y + k * n + p * V;
#pragma unroll
            for (int e = 0; e < V; ++e)
                yo[e] = alpha * sum[e] + (beta == T(0) ? T(0) : beta * yo[e]);
        }
    }
}

// The outputs of `count` matrices staged in shared memory (gemv_staged, gemv_stream): As holds
// them packed (m x n row-major each, 16-byte aligned), xs their vectors (packed, 16-byte
// aligned), y the first output in global memory. An output (a row for N, a column for T) is one
// dot product summed by `group` lanes (a power of two <= 32) and a shuffle reduction. Rows of
// whole 16-byte pieces (n a multiple of 16 / sizeof(T)) are read a piece (one 16-byte shared
// load) at a time: N, a lane takes pieces g, g + group, ... of its row, so that the lanes of a
// row read consecutive pieces; T (tile_gemv_t_pieces), a lane sums the piece's columns. Rows of
// 4 or 8 elements read an element a lane were 4- to 8-way bank-conflicted. Else an element a
// step.
template <typename T, bool TRANS>
__device__ __forceinline__ void tile_gemv(const T* As, const T* xs, int count, int m, int n,
                                          T alpha, T beta, T* __restrict__ y, int group) {
    constexpr int V = 16 / sizeof(T);
    const int mn = m * n;
    const int xlen = TRANS ? m : n, ylen = TRANS ? n : m;
    const int len = TRANS ? m : n, step = TRANS ? n : 1;
    const int lane = threadIdx.x & 31, g = lane % group;
    const unsigned gmask = group == 32 ? 0xffffffffu
                                       : ((1u << group) - 1u) << (lane / group * group);
    const bool pieces = n % V == 0;
    if (TRANS && pieces) {
        tile_gemv_t_pieces<T>(As, xs, count, m, n, alpha, beta, y, group, g, gmask);
        return;
    }
    for (int o = threadIdx.x / group; o < count * ylen; o += blockDim.x / group) {
        const int k = o / ylen, i = o - k * ylen;
        const T* a = TRANS ? As + k * mn + i : As + o * n;   // N: rows are contiguous
        const T* xk = xs + k * xlen;
        T sum = T(0);
        if (!TRANS && pieces) {
            for (int p = g; p < n / V; p += group) {
                T av[V], xv[V];
                load_vec<T, V>(a + p * V, av);
                load_vec<T, V>(xk + p * V, xv);
#pragma unroll
                for (int e = 0; e < V; ++e) sum += av[e] * xv[e];
            }
        } else {
            for (int e = g; e < len; e += group) sum += a[e * step] * xk[e];
        }
        for (int off = group / 2; off > 0; off >>= 1) sum += __shfl_xor_sync(gmask, sum, off, 32);
        if (g == 0) y[o] = alpha * sum + (beta == T(0) ? T(0) : beta * y[o]);
    }
}

template <typename T, bool TRANS>
__global__ void gemv_staged(index_t batch, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int tile,
                            int group) {
    extern __shared__ __align__(16) unsigned char gemv_smem[];
    const int mn = m * n;
    const int xlen = TRANS ? m : n;
    T* As = reinterpret_cast<T*>(gemv_smem);
    T* xs = As + (tile * mn + 3) / 4 * 4;              // 16-byte aligned
    for (index_t k0 = (index_t)blockIdx.x * tile; k0 < batch; k0 += (index_t)gridDim.x * tile) {
        const int count = (int)min((index_t)tile, batch - k0);
        stage_to_shared<T, 4>(A + k0 * mn, count * mn, As);
        stage_to_shared<T, 1>(x + k0 * xlen, count * xlen, xs);
        __syncthreads();
        tile_gemv<T, TRANS>(As, xs, count, m, n, alpha, beta, y + k0 * (TRANS ? n : m), group);
        __syncthreads();
    }
}

// ---------------------------------------------------------------------------------------------
// gemv_stream<T, TRANS>   gemv_staged's work fed by the bulk copy engine (sm_90; launcher:
//   linalg/_cuda/blas.py, table "kernel": "stream"). A persistent grid; each block walks tiles
//   of `tile` consecutive matrices (and their x) with a grid stride through a ring of `stages`
//   shared-memory buffers. Thread 0 keeps the next stages - 1 tiles in flight: one cp.async.bulk
//   for the tile's matrices and one for its vectors (whole 16-byte pieces; the < 16 bytes after
//   them it copies itself before its arrival on the buffer's mbarrier, whose release makes them
//   visible with the bytes), while every thread computes from the buffer that landed as
//   gemv_staged does. The tile (a multiple of 16 / sizeof(T) matrices) starts every chunk on a
//   16-byte boundary; A and x must be packed and 16-byte aligned. Shared memory:
//   RING_BARRIER_BYTES of barriers (stages <= RING_BARRIERS), then per stage the tile's A and
//   x, each padded to 16 bytes.
template <typename T, bool TRANS>
__global__ void gemv_stream(index_t batch, int m, int n, T alpha, const T* __restrict__ A,
                            const T* __restrict__ x, T beta, T* __restrict__ y, int tile,
                            int group, int stages) {
    constexpr int V = 16 / sizeof(T);
    extern __shared__ __align__(128) unsigned char gemv_stream_smem[];
    unsigned long long* bars = reinterpret_cast<unsigned long long*>(gemv_stream_smem);
    T* ring = reinterpret_cast<T*>(gemv_stream_smem + RING_BARRIER_BYTES);
    const int mn = m * n;
    const int xlen = TRANS ? m : n, ylen = TRANS ? n : m;
    const int a_size = (tile * mn + V - 1) / V * V, x_size = (tile * xlen + V - 1) / V * V;
    const index_t chunks = (batch + tile - 1) / tile, stride = gridDim.x;
    ring_init(bars, stages);
    __syncthreads();
    // thread 0: tile c into buffer s
    auto issue = [&](index_t c, int s) {
        const index_t k0 = c * tile;
        const int count = (int)min((index_t)tile, batch - k0);
        T* As = ring + (index_t)s * (a_size + x_size);
        T* xs = As + a_size;
        const int a_count = count * mn, x_count = count * xlen;
        const int a_bulk = a_count / V * V, x_bulk = x_count / V * V;
        for (int e = a_bulk; e < a_count; ++e) As[e] = A[k0 * mn + e];
        for (int e = x_bulk; e < x_count; ++e) xs[e] = x[k0 * xlen + e];
        mbar_expect_bytes(&bars[s], (a_bulk + x_bulk) * sizeof(T));
        if (a_bulk) bulk_copy_to_shared(As, A + k0 * mn, a_bulk * sizeof(T), &bars[s]);
        if (x_bulk) bulk_copy_to_shared(xs, x + k0 * xlen, x_bulk * sizeof(T), &bars[s]);
    };
    if (threadIdx.x == 0)
        for (int s = 0; s < stages; ++s)
            if (blockIdx.x + s * stride < chunks) issue(blockIdx.x + s * stride, s);
    int it = 0;
    for (index_t c = blockIdx.x; c < chunks; c += stride, ++it) {
        const int s = ring_wait(bars, stages, it);
        const index_t k0 = c * tile;
        const int count = (int)min((index_t)tile, batch - k0);
        const T* As = ring + (index_t)s * (a_size + x_size);
        tile_gemv<T, TRANS>(As, As + a_size, count, m, n, alpha, beta, y + k0 * ylen, group);
        __syncthreads();        // buffer s is read: refill it with the tile `stages` ahead
        if (threadIdx.x == 0 && c + stages * stride < chunks) {
            fence_async_shared();
            issue(c + stages * stride, s);
        }
    }
}
