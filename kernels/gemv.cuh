// gemv.cuh: GEMV device functions shared by the batched GEMV, TRSV and GEBRD kernels
// (seed 004 §4.1: one copy of the device function, several kernels calling it).
//
// Layout: row-major. A (m x n) with leading dimension lda: entry (i, j) is A[i * lda + j].
//   "N"  (y = A x):   y_i = sum_j A[i, j] x_j   -- reduction along the contiguous rows;
//   "T"  (y = A^T x): y_j = sum_i A[i, j] x_i   -- reduction across rows, outputs contiguous.
// A and x may live in global or shared memory (the GEBRD panel keeps A in shared memory).
//
// A *team* is a group of threads that works on one matrix: a power of two <= 32 threads inside
// one warp (synchronized by __syncwarp with the team's lane mask) or a multiple of 32 threads
// (synchronized by a named barrier, id = team index in the block + 1; at most 15 teams of more
// than 32 threads per block). Teams loop over the batch independently.
//
// Tuning parameters (seed 004 Table 1) as template parameters:
//   VEC    elements per load (1, 2, 4; 16-byte vectors where possible): the caller guarantees
//          that lda and the base pointer are multiples of VEC elements when VEC > 1;
//   UNROLL rows (N) or row steps (T) in flight per thread (BLK-M of the table);
// and as run-time values: the team size and the split of the team into TX threads along a row
// and TY = size / TX threads across rows (DIM-X, DIM-Y of the table).
#pragma once
#include "common.cuh"

// ---------------------------------------------------------------------------------------------
// Teams

struct Team {
    int size;       // threads in the team
    int rank;       // 0 .. size-1
    int index;      // team index within the block
    unsigned mask;  // lanes of a team of <= 32 threads

    __device__ __forceinline__ void sync() const {
        if (size <= 32) {
            __syncwarp(mask);
        } else {
            asm volatile("bar.sync %0, %1;" ::"r"(index + 1), "r"(size) : "memory");
        }
    }
};

__device__ __forceinline__ Team make_team(int size) {
    Team t;
    int tid = threadIdx.x;
    t.size = size;
    t.rank = tid % size;
    t.index = tid / size;
    if (size < 32) {
        int lane = tid & 31;
        t.mask = ((1u << size) - 1u) << (lane / size * size);
    } else {
        t.mask = 0xffffffffu;
    }
    return t;
}

// Sum over the team; every thread gets the result. scratch: >= size/32 elements of shared memory
// private to the team (unused for teams of <= 32 threads).
template <typename T>
__device__ __forceinline__ T team_sum(const Team& tm, T v, T* scratch) {
    int w = tm.size < 32 ? tm.size : 32;
    for (int off = w / 2; off > 0; off >>= 1) v += __shfl_xor_sync(tm.mask, v, off, 32);
    if (tm.size <= 32) return v;
    int nw = tm.size / 32;
    tm.sync();
    if ((tm.rank & 31) == 0) scratch[tm.rank / 32] = v;
    tm.sync();
    T s = T(0);
    for (int i = 0; i < nw; ++i) s += scratch[i];
    tm.sync();
    return s;
}

// ---------------------------------------------------------------------------------------------
// Vector loads

template <typename T, int VEC>
__device__ __forceinline__ void load_vec(const T* p, T (&r)[VEC]) {
    if constexpr (VEC == 1) {
        r[0] = p[0];
    } else if constexpr (sizeof(T) * VEC == 8) {
        float2 v = *reinterpret_cast<const float2*>(p);
        r[0] = v.x;
        r[1] = v.y;
    } else if constexpr (sizeof(T) == 4) {
#pragma unroll
        for (int c = 0; c < VEC / 4; ++c) {
            float4 v = *reinterpret_cast<const float4*>(p + 4 * c);
            r[4 * c] = v.x; r[4 * c + 1] = v.y; r[4 * c + 2] = v.z; r[4 * c + 3] = v.w;
        }
    } else {
#pragma unroll
        for (int c = 0; c < VEC / 2; ++c) {
            double2 v = *reinterpret_cast<const double2*>(p + 2 * c);
            r[2 * c] = v.x; r[2 * c + 1] = v.y;
        }
    }
}

// VEC elements from p, or fewer (zero-filled) where only `valid` < VEC remain.
template <typename T, int VEC>
__device__ __forceinline__ void load_vec_tail(const T* p, int valid, T (&r)[VEC]) {
    if (valid >= VEC) {
        load_vec<T, VEC>(p, r);
    } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v) r[v] = v < valid ? p[v] : T(0);
    }
}

// One 16-byte store of r to p (16-byte aligned), the counterpart of load_vec.
template <typename T, int V>
__device__ __forceinline__ void store_vec(T* p, const T (&r)[V]) {
    static_assert(sizeof(T) * V == 16, "one 16-byte store");
    if constexpr (sizeof(T) == 4)
        *reinterpret_cast<float4*>(p) = make_float4(r[0], r[1], r[2], r[3]);
    else
        *reinterpret_cast<double2*>(p) = make_double2(r[0], r[1]);
}

__host__ __device__ __forceinline__ int pow2_ceil(int x) {
    int p = 1;
    while (p < x) p <<= 1;
    return p;
}

// ---------------------------------------------------------------------------------------------
// GEMV "N" for one matrix by one team: out(i, sum_j A[i, j] x[j]) for every row i < m,
// called by exactly one thread per row. TX threads per row (a power of two <= 32, a shuffle
// group), TY = size / TX rows at a time, UNROLL row groups in flight.
template <typename T, int VEC, int UNROLL, typename Out>
__device__ __forceinline__ void team_gemv_n(const Team& tm, int m, int n, const T* A, int lda,
                                            const T* x, Out out) {
    int tx = pow2_ceil((n + VEC - 1) / VEC);
    if (tx > 32) tx = 32;
    if (tx > tm.size) tx = tm.size;
    const int ty = tm.size / tx;
    const int gx = tm.rank % tx, gy = tm.rank / tx;
    const int lane = threadIdx.x & 31;
    const unsigned gmask = (tx == 32) ? 0xffffffffu : (((1u << tx) - 1u) << (lane / tx * tx));
    for (int i0 = gy; i0 < m; i0 += ty * UNROLL) {
        T acc[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) acc[u] = T(0);
        for (int j = gx * VEC; j < n; j += tx * VEC) {
            T xv[VEC];
#pragma unroll
            for (int v = 0; v < VEC; ++v) xv[v] = (j + v < n) ? x[j + v] : T(0);
            T a[UNROLL][VEC];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                int i = i0 + u * ty;
                if (i < m) {
                    load_vec_tail<T, VEC>(A + (index_t)i * lda + j, n - j, a[u]);
                } else {
#pragma unroll
                    for (int v = 0; v < VEC; ++v) a[u][v] = T(0);
                }
            }
#pragma unroll
            for (int u = 0; u < UNROLL; ++u)
#pragma unroll
                for (int v = 0; v < VEC; ++v) acc[u] += a[u][v] * xv[v];
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            T s = acc[u];
            for (int off = tx / 2; off > 0; off >>= 1) s += __shfl_xor_sync(gmask, s, off, 32);
            int i = i0 + u * ty;
            if (gx == 0 && i < m) out(i, s);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GEMV "T" for one matrix by one team: out(j, sum_i A[i, j] x[i]) for every column j < n,
// called by exactly one thread per column. TX = min(size, ceil(n / VEC)) threads along a row
// (for n <= size * VEC the team reads TY whole consecutive rows: contiguous), TY = size / TX
// rows at a time, partial sums reduced through `red` (size * VEC elements of shared memory
// private to the team). Columns are processed in passes of TX * VEC.
template <typename T, int VEC, int UNROLL, typename Out>
__device__ __forceinline__ void team_gemv_t(const Team& tm, int m, int n, const T* A, int lda,
                                            const T* x, T* red, Out out) {
    const int nv = (n + VEC - 1) / VEC;
    const int tx = nv < tm.size ? nv : tm.size;
    const int ty = tm.size / tx;
    const int gx = tm.rank % tx, gy = tm.rank / tx;
    const bool active = gy < ty;
    for (int c0 = 0; c0 < n; c0 += tx * VEC) {
        T acc[VEC];
#pragma unroll
        for (int v = 0; v < VEC; ++v) acc[v] = T(0);
        const int j = c0 + gx * VEC;
        if (active && j < n) {
            for (int i0 = gy; i0 < m; i0 += ty * UNROLL) {
                T a[UNROLL][VEC];
                T xv[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) {
                    int i = i0 + u * ty;
                    if (i < m) {
                        load_vec_tail<T, VEC>(A + (index_t)i * lda + j, n - j, a[u]);
                        xv[u] = x[i];
                    } else {
                        xv[u] = T(0);
#pragma unroll
                        for (int v = 0; v < VEC; ++v) a[u][v] = T(0);
                    }
                }
#pragma unroll
                for (int u = 0; u < UNROLL; ++u)
#pragma unroll
                    for (int v = 0; v < VEC; ++v) acc[v] += a[u][v] * xv[u];
            }
        }
        if (ty == 1) {
#pragma unroll
            for (int v = 0; v < VEC; ++v)
                if (active && j + v < n) out(j + v, acc[v]);
        } else {
#pragma unroll
            for (int v = 0; v < VEC; ++v) red[v * tm.size + tm.rank] = acc[v];
            tm.sync();
            for (int q = tm.rank; q < tx * VEC; q += tm.size) {
                const int gq = q / VEC, v = q % VEC;
                T s = T(0);
                for (int g = 0; g < ty; ++g) s += red[v * tm.size + g * tx + gq];
                if (c0 + q < n) out(c0 + q, s);
            }
            tm.sync();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Staging a contiguous row-major block (count = rows * cols elements) into shared memory with
// row stride ld: dst[(e / cols) * ld + e % cols] = src[e]. Threads tid, tid + nt, ... each keep
// BATCH vector loads in flight before storing (a plain load-store loop waits on every load).
// Needs cols % VEC == 0 and src aligned to VEC elements.
template <typename T, int VEC, int BATCH>
__device__ __forceinline__ void copy_rows_to_shared(const T* __restrict__ src, int count,
                                                    int cols, T* dst, int ld, int tid, int nt) {
    const int nvec = count / VEC;
    for (int v0 = tid; v0 < nvec; v0 += nt * BATCH) {
        T r[BATCH][VEC];
#pragma unroll
        for (int b = 0; b < BATCH; ++b) {
            const int v = v0 + b * nt;
            if (v < nvec) load_vec<T, VEC>(src + (index_t)v * VEC, r[b]);
        }
#pragma unroll
        for (int b = 0; b < BATCH; ++b) {
            const int v = v0 + b * nt;
            if (v < nvec) {
                const int e = v * VEC, row = e / cols, col = e - row * cols;
#pragma unroll
                for (int u = 0; u < VEC; ++u) dst[row * ld + col + u] = r[b][u];
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lane-group panel GEMVs on a strided view (the building blocks of trsv.cu's warp kernel and of
// gemv.cu's gemv_n_warp). A group is W consecutive lanes of a warp (W = 8, 16 or 32) working on
// one matrix; rows come in panels of W. A StridedView holds entry (i, j) at p[i * rs + j * cs];
// negative strides address a reversed matrix (the backward substitutions run as forward ones on
// the reversed view). x and y are accessors (shared-memory vectors, possibly reversed).

template <typename T>
struct StridedView {
    const T* p;
    index_t rs, cs;
    __device__ __forceinline__ T operator()(int i, int j) const {
        return p[(index_t)i * rs + (index_t)j * cs];
    }
};

template <int W>
struct LaneGroup {
    int lane;        // 0 .. W-1 within the group
    unsigned mask;   // the group's lanes in the warp
    __device__ __forceinline__ static LaneGroup make() {
        const int l = threadIdx.x & 31;
        LaneGroup g;
        g.lane = l % W;
        g.mask = W == 32 ? 0xffffffffu : (((1u << W) - 1u) << (l / W * W));
        return g;
    }
    __device__ __forceinline__ void sync() const { __syncwarp(mask); }
    template <typename T>
    __device__ __forceinline__ T shfl(T v, int src) const { return __shfl_sync(mask, v, src, W); }
    template <typename T>
    __device__ __forceinline__ T shfl_xor(T v, int off) const {
        return __shfl_xor_sync(mask, v, off, W);
    }
};

template <int S, int W, typename T>
__device__ __forceinline__ void reduce_scatter_step(T (&p)[W], const LaneGroup<W>& g) {
    const bool upper = g.lane & S;
#pragma unroll
    for (int r = 0; r < S; ++r) {
        const T send = upper ? p[r] : p[r + S];
        const T keep = upper ? p[r + S] : p[r];
        p[r] = keep + g.shfl_xor(send, S);
    }
}

// Across the group, lane r receives the sum over the group's lanes of p[r] (a butterfly
// reduce-scatter: W - 1 shuffles for W sums instead of log2(W) per sum).
template <int W, typename T>
__device__ __forceinline__ T group_reduce_scatter(T (&p)[W], const LaneGroup<W>& g) {
    if constexpr (W >= 32) reduce_scatter_step<16>(p, g);
    if constexpr (W >= 16) reduce_scatter_step<8>(p, g);
    if constexpr (W >= 8) reduce_scatter_step<4>(p, g);
    reduce_scatter_step<2>(p, g);
    reduce_scatter_step<1>(p, g);
    return p[0];
}

// q[o s], q[(o + 1) s], ..., q[(o + VEC - 1) s] for a unit stride s = +-1 as one VEC-wide load
// (reversed in registers where s == -1). The caller guarantees the alignment: q + o (s == 1) or
// q - o - VEC + 1 (s == -1) a multiple of VEC elements.
template <int VEC, typename T>
__device__ __forceinline__ void load_unit_stride_vec(const T* q, index_t s, int o, T (&r)[VEC]) {
    if (s > 0) {
        load_vec<T, VEC>(q + o, r);
    } else {
        T t[VEC];
        load_vec<T, VEC>(q - o - (VEC - 1), t);
#pragma unroll
        for (int v = 0; v < VEC; ++v) r[v] = t[VEC - 1 - v];
    }
}

// M(i, j), ..., M(i, j + VEC - 1) of a view with |cs| == 1 (view_col_vec: M(i, j), ...,
// M(i + VEC - 1, j) with |rs| == 1) as one VEC-wide load.
template <int VEC, typename T>
__device__ __forceinline__ void view_row_vec(const StridedView<T>& M, int i, int j,
                                             T (&r)[VEC]) {
    load_unit_stride_vec<VEC>(M.p + (index_t)i * M.rs, M.cs, j, r);
}

template <int VEC, typename T>
__device__ __forceinline__ void view_col_vec(const StridedView<T>& M, int i, int j,
                                             T (&r)[VEC]) {
    load_unit_stride_vec<VEC>(M.p + (index_t)j * M.cs, M.rs, i, r);
}

// Row panel, rows contiguous (|cs| == 1): lane r < nrows <= W receives
// sum_{j < ncols} A(r0 + r, j) x(j) (columns >= ncols are neither loaded nor counted). Every
// load is one coalesced row segment; W rows' loads are in flight per lane.
// VEC > 1: each lane loads VEC adjacent entries of a row at once (view_row_vec: aligned rows,
// ncols a multiple of VEC), so a group covers W * VEC columns a trip; lanes past the panel's
// rows or columns load a clamped entry inside it and add nothing (no load behind a branch).
// Float32 with one element a lane moved 4 bytes per lane and load (H100, TRSV float32 n = 128
// at 49 % of the copy bandwidth against float64's 77 %).
// cbeg / cstep: the group takes the W * VEC-column trips starting at cbeg, cbeg + cstep, ...
// (several warps sharing one panel, trsv.cu trsv_block; by default all of them).
template <int W, int VEC = 1, typename T, typename X>
__device__ __forceinline__ T group_gemv_row_panel(const StridedView<T>& A, int r0, int nrows,
                                                  int ncols, const X& x, const LaneGroup<W>& g,
                                                  int cbeg = 0, int cstep = W * VEC) {
    T p[W];
#pragma unroll
    for (int r = 0; r < W; ++r) p[r] = T(0);
    if constexpr (VEC == 1) {
        for (int c0 = cbeg; c0 < ncols; c0 += cstep) {
            const int c = c0 + g.lane;
            const bool in = c < ncols;
            const T xc = in ? x(c) : T(0);
#pragma unroll
            for (int r = 0; r < W; ++r)
                if (r < nrows && in) p[r] += A(r0 + r, c) * xc;
        }
    } else {
        for (int c0 = cbeg; c0 < ncols; c0 += cstep) {
            const int c = c0 + g.lane * VEC;
            const bool in = c < ncols;
            const int cc = in ? c : ncols - VEC;
            T xv[VEC];
#pragma unroll
            for (int v = 0; v < VEC; ++v) xv[v] = in ? x(c + v) : T(0);
            T a[W][VEC];
#pragma unroll
            for (int r = 0; r < W; ++r) view_row_vec<VEC>(A, r0 + min(r, nrows - 1), cc, a[r]);
#pragma unroll
            for (int r = 0; r < W; ++r)
                if (r < nrows)
#pragma unroll
                    for (int v = 0; v < VEC; ++v) p[r] += a[r][v] * xv[v];
        }
    }
    return group_reduce_scatter<W>(p, g);
}

// Column panel, columns contiguous (|rs| == 1): y(i) -= sum_{j < ncols} A(i, c0 + j) x(c0 + j)
// for every row rbeg <= i < rend, ncols <= W; each lane owns rows rbeg + lane + W t, so no
// reduction; every load is one coalesced column segment. VEC > 1: each lane owns VEC adjacent
// rows and loads them at once (view_col_vec; rbeg and rend - rbeg multiples of VEC).
// istep: the rows of the group's lanes advance by istep (several warps sharing one panel, each
// starting W * VEC rows after the previous one, trsv.cu trsv_block; by default W * VEC).
template <int W, int VEC = 1, typename T, typename X, typename Y>
__device__ __forceinline__ void group_gemv_col_panel_sub(const StridedView<T>& A, int rbeg,
                                                         int rend, int c0, int ncols, const X& x,
                                                         const Y& y, const LaneGroup<W>& g,
                                                         int istep = W * VEC) {
    if constexpr (VEC == 1) {
        for (int i = rbeg + g.lane; i < rend; i += istep) {
            T acc = T(0);
#pragma unroll
            for (int j = 0; j < W; ++j)
                if (j < ncols) acc += A(i, c0 + j) * x(c0 + j);
            y(i) -= acc;
        }
    } else {
        for (int i = rbeg + g.lane * VEC; i < rend; i += istep) {
            T acc[VEC];
#pragma unroll
            for (int v = 0; v < VEC; ++v) acc[v] = T(0);
#pragma unroll
            for (int j = 0; j < W; ++j) {
                if (j < ncols) {
                    T a[VEC];
                    view_col_vec<VEC>(A, i, c0 + j, a);
                    const T xj = x(c0 + j);
#pragma unroll
                    for (int v = 0; v < VEC; ++v) acc[v] += a[v] * xj;
                }
            }
#pragma unroll
            for (int v = 0; v < VEC; ++v) y(i + v) -= acc[v];
        }
    }
}
