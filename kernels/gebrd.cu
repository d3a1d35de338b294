// gebrd.cu: batched reduction to bidiagonal form, Q^T A P = B, real float/double (LAPACK dgebd2
// semantics on the logical matrix).
//
// Layout: A (batch, m, n) row-major, overwritten as LAPACK's GEBRD leaves it: m >= n: B upper
// bidiagonal on the diagonal and first superdiagonal, the Householder vectors of Q below the
// diagonal (column i, implicit 1 at (i, i)) and of P right of the superdiagonal (row i,
// implicit 1 at (i, i+1)); m < n: B lower bidiagonal, Q's vectors below the subdiagonal, P's right
// of the diagonal. d (batch, min), e (batch, min-1), tauq, taup (batch, min), each contiguous.
// Reflectors H = I - tau v v^T with LAPACK's dlarfg convention (beta = -sign(alpha) ||(alpha,x)||).
//
// gebrd_cols<T>  (launcher: linalg/_cuda/bidiag.py; the default wherever the matrix fits)
//   One group of G threads per matrix (G a power of two >= max(m, n) by default, several groups
//   per warp when G < 32), the whole matrix in shared memory. The applications of the reflectors
//   need no reduction across threads: for the left reflector H C each thread owns whole columns
//   of C and computes w_j = v^T C(:, j) and C(:, j) -= tau w_j v alone; for the right one C H each
//   thread owns whole rows. v is read by every thread at the same address (a broadcast). The only
//   reductions are the norms of dlarfg (butterfly shuffles, one barrier when G > 32), so a step
//   costs two barriers plus the two norms, against several reductions and barriers per GEMV and
//   an integer division per updated element in gebrd_team. See "gebrd_cols" below. Two step
//   implementations: gebd2_fused (default; the two updates as one rank-2 update fused with the
//   next step's products: two passes a step) and gebd2_tall (four passes a step).
//
// gebrd_reg<T, N, TRS, STAGE, SHRINK>  (max(m, n) <= N <= 32, where the tuning table asks for it)
//   One group of N lanes per matrix, lane j holding column j in registers: the left update is
//   local to a lane, the right update's product a reduce-scatter over the lanes. See "gebrd_reg"
//   at the end of this file.
//
// gebrd_team<T, UNROLL, SMEM>  (the fallback: matrices that do not fit gebrd_cols)
//   One team per matrix (big-tile setting of seed 003/004 §4.1.2). SMEM: the whole matrix is
//   copied into shared memory (row stride n + 1, against bank conflicts), reduced there with the
//   GEMV device functions of gemv.cuh (team_gemv_t for the left reflector, team_gemv_n for the
//   right one) and rank-1 updates, and copied back; otherwise the same code runs on the matrix in
//   global memory (large matrices: correct, not fast).
#include "common.cuh"
#include "gemv.cuh"
#include "householder.cuh"

template <typename T>
__device__ __forceinline__ T team_max(const Team& tm, T v, T* scratch) {
    int w = tm.size < 32 ? tm.size : 32;
    for (int off = w / 2; off > 0; off >>= 1) v = fmax(v, __shfl_xor_sync(tm.mask, v, off, 32));
    if (tm.size <= 32) return v;
    tm.sync();
    if ((tm.rank & 31) == 0) scratch[tm.rank / 32] = v;
    tm.sync();
    T s = T(0);
    for (int i = 0; i < tm.size / 32; ++i) s = fmax(s, scratch[i]);
    tm.sync();
    return s;
}

// Householder reflector of the length-L vector p[0], p[s], ..., p[(L-1)s] (dlarfg): p[0] becomes
// beta, p[1..] the vector v (v[0] = 1 implied), vs[0..L-1] the full v; returns tau in all threads.
template <typename T>
__device__ T team_larfg(const Team& tm, int L, T* p, int s, T* vs, T* scratch) {
    const T alpha = p[0];
    T amax = T(0);
    for (int r = 1 + tm.rank; r < L; r += tm.size) amax = fmax(amax, fabs(p[(index_t)r * s]));
    amax = team_max(tm, amax, scratch);
    T ss = T(0);
    if (amax > T(0)) {
        const T inv = T(1) / amax;
        for (int r = 1 + tm.rank; r < L; r += tm.size) {
            T q = p[(index_t)r * s] * inv;
            ss += q * q;
        }
    }
    ss = team_sum(tm, ss, scratch);
    tm.sync();
    T tau = T(0), beta = alpha, scal = T(1);
    if (amax > T(0)) {
        const T xnorm = amax * sqrt(ss);
        beta = -copysign(hypot(alpha, xnorm), alpha);
        tau = (beta - alpha) / beta;
        scal = T(1) / (alpha - beta);
    }
    for (int r = tm.rank; r < L; r += tm.size) {
        if (r == 0) {
            p[0] = beta;
            vs[0] = T(1);
        } else {
            T q = p[(index_t)r * s] * scal;
            p[(index_t)r * s] = q;
            vs[r] = q;
        }
    }
    tm.sync();
    return tau;
}

// C (rows x cols, ldc) = (I - tau v v^T) C: w = C^T v, C -= tau v w^T.
template <typename T, int UNROLL>
__device__ void team_larf_left(const Team& tm, int rows, int cols, T* C, int ldc, const T* vs,
                               T tau, T* ws, T* red) {
    if (tau == T(0) || cols <= 0) return;
    team_gemv_t<T, 1, UNROLL>(tm, rows, cols, C, ldc, vs, red, [&](int j, T v) { ws[j] = v; });
    tm.sync();
    for (int e = tm.rank; e < rows * cols; e += tm.size) {
        const int r = e / cols, j = e % cols;
        C[(index_t)r * ldc + j] -= tau * vs[r] * ws[j];
    }
    tm.sync();
}

// C (rows x cols, ldc) = C (I - tau v v^T): w = C v, C -= tau w v^T.
template <typename T, int UNROLL>
__device__ void team_larf_right(const Team& tm, int rows, int cols, T* C, int ldc, const T* vs,
                                T tau, T* ws) {
    if (tau == T(0) || rows <= 0) return;
    team_gemv_n<T, 1, UNROLL>(tm, rows, cols, C, ldc, vs, [&](int i, T v) { ws[i] = v; });
    tm.sync();
    for (int e = tm.rank; e < rows * cols; e += tm.size) {
        const int r = e / cols, j = e % cols;
        C[(index_t)r * ldc + j] -= tau * ws[r] * vs[j];
    }
    tm.sync();
}

template <typename T, int UNROLL>
__device__ void gebd2(const Team& tm, int m, int n, T* M, int ld, T* d, T* e, T* tauq, T* taup,
                      T* vs, T* ws, T* red, T* scratch) {
    if (m >= n) {
        for (int i = 0; i < n; ++i) {
            T* aii = M + (index_t)i * ld + i;
            T tq = team_larfg(tm, m - i, aii, ld, vs, scratch);
            if (tm.rank == 0) { d[i] = aii[0]; tauq[i] = tq; }
            team_larf_left<T, UNROLL>(tm, m - i, n - i - 1, aii + 1, ld, vs, tq, ws, red);
            if (i < n - 1) {
                T tp = team_larfg(tm, n - i - 1, aii + 1, 1, vs, scratch);
                if (tm.rank == 0) { e[i] = aii[1]; taup[i] = tp; }
                team_larf_right<T, UNROLL>(tm, m - i - 1, n - i - 1, aii + ld + 1, ld, vs, tp, ws);
            } else if (tm.rank == 0) {
                taup[i] = T(0);
            }
        }
    } else {
        for (int i = 0; i < m; ++i) {
            T* aii = M + (index_t)i * ld + i;
            T tp = team_larfg(tm, n - i, aii, 1, vs, scratch);
            if (tm.rank == 0) { d[i] = aii[0]; taup[i] = tp; }
            team_larf_right<T, UNROLL>(tm, m - i - 1, n - i, aii + ld, ld, vs, tp, ws);
            if (i < m - 1) {
                T tq = team_larfg(tm, m - i - 1, aii + ld, ld, vs, scratch);
                if (tm.rank == 0) { e[i] = aii[ld]; tauq[i] = tq; }
                team_larf_left<T, UNROLL>(tm, m - i - 1, n - i - 1, aii + ld + 1, ld, vs, tq, ws,
                                          red);
            } else if (tm.rank == 0) {
                tauq[i] = T(0);
            }
        }
    }
}

template <typename T, int UNROLL, bool SMEM>
__global__ void gebrd_team(index_t batch, int m, int n, T* __restrict__ A, T* __restrict__ d,
                           T* __restrict__ e, T* __restrict__ tauq, T* __restrict__ taup,
                           int team) {
    extern __shared__ __align__(16) unsigned char gebrd_smem[];
    const Team tm = make_team(team);
    const int per_block = blockDim.x / team;
    const int mn = m > n ? m : n, mnmin = m < n ? m : n;
    const int ld_s = n + 1;
    const index_t per_team = (SMEM ? (index_t)m * ld_s : 0) + 2 * mn + team + 40;
    T* base = reinterpret_cast<T*>(gebrd_smem) + tm.index * per_team;
    T* Ms = base;
    T* vs = base + (SMEM ? (index_t)m * ld_s : 0);
    T* ws = vs + mn;
    T* red = ws + mn;
    T* scratch = red + team;
    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        T* Ak = A + k * m * n;
        T* M = Ak;
        int ld = n;
        if (SMEM) {
            copy_rows_to_shared<T, 1, 8>(Ak, m * n, n, Ms, ld_s, tm.rank, tm.size);
            M = Ms;
            ld = ld_s;
            tm.sync();
        }
        gebd2<T, UNROLL>(tm, m, n, M, ld, d + k * mnmin, e + k * (mnmin - 1), tauq + k * mnmin,
                         taup + k * mnmin, vs, ws, red, scratch);
        if (SMEM) {
            tm.sync();
            for (int q = tm.rank; q < m * n; q += tm.size) Ak[q] = Ms[(q / n) * ld_s + q % n];
        }
        tm.sync();
    }
}

// =============================================================================================
// gebrd_cols: thread per column / thread per row, no reductions in the updates.
//
// Shape. A wide matrix (m < n) is reduced as its transpose: LAPACK's m < n algorithm on A is,
// step for step, the m >= n algorithm on A^T with the roles of Q and P exchanged (the same
// reflectors, tauq and taup swapped, the same d and e). So the matrix is staged into shared memory
// as M = A (m >= n) or M = A^T (m < n), R x C with R = max(m, n) >= C = min(m, n), and only the
// tall algorithm exists. Leading dimension ld = C | 1 (odd): a warp walking down a column
// (thread per row, addresses r * ld + j) hits 32 different banks for float and 16 different
// bank pairs per half-warp for double; walking along a row (thread per column) is contiguous.
//
// Ownership. Entry (r, c) of M is updated by the thread of rank r % G in the right updates (thread
// per row) and by the thread of rank c % G in the left updates (thread per column); dlarfg of
// column i is computed by the row owners and dlarfg of row i by the column owners. So each dlarfg
// reads entries that the same thread wrote in the update just before it, and a step needs only
// two barriers, both before an update (which reads the other threads' reflector):
//   larfg(column i) -> barrier -> left update  (thread per column j > i, rows i..R-1)
//   larfg(row i)    -> barrier -> right update (thread per row r > i, columns i+1..C-1)
// Where an update is skipped (tau = 0), the entries were written by another thread before the
// preceding barrier. G need not reach R: a thread then owns rows/columns rank, rank + G, ...
//
// Norms. dlarfg needs ||x||: each thread sums the squares of its entries and takes their largest
// magnitude; one butterfly gives every thread both (bit-identical in all threads, so they all
// take the same branches; no barrier for G <= 32, one for G > 32). If max(|alpha|, max|x|) lies in
// a range where squaring can neither overflow nor lose accuracy to underflow, ||(alpha, x)|| =
// sqrt(alpha^2 + sum x^2); otherwise (rare) the entries are scaled by a power of two that brings
// that maximum near 1 and summed again (LAPACK's dnrm2/dlapy2 are overflow-safe; so is this).
// v = x / (alpha - beta) is a multiplication by the reciprocal, after scaling both by a power of
// two where alpha - beta is subnormal (its reciprocal would overflow).
// =============================================================================================

// norm_limits (householder.cuh): the ranges of dlarfg's norm.

// Shared memory of one matrix (elements), in this order: vq and vp (the current column and row
// reflectors, contiguous with their leading 1, so that the updates read them with 16-byte
// broadcast loads; pad4(R) elements each), M (R x ld), d, e, tauq, taup (C each; written out with
// the matrix, coalesced, so no global pointer stays live through the reduction) and the
// cross-warp reduction slots; the total is a multiple of 4 elements, so every matrix's buffers
// stay 16-byte aligned. The launcher (bidiag.py, _cols_smem_elems) computes the same number.
__host__ __device__ __forceinline__ int pad4(int x) { return (x + 3) & ~3; }

__host__ __device__ __forceinline__ index_t cols_smem_elems(int R, int C, int group) {
    const int warps = group > 32 ? group / 32 : 1;
    return pad4(2 * pad4(R) + R * (C | 1) + 4 * C + 4 * warps + 4);
}

// The threads of one matrix: a Team (gemv.cuh) whose span is known at compile time: WIDE = more
// than one warp (a named barrier, cross-warp reductions through shared memory), else a power of
// two <= 32 lanes of one warp (__syncwarp, shuffles only). The one-warp kernel carries no
// cross-warp code.
template <bool WIDE>
struct Group : Team {
    __device__ __forceinline__ explicit Group(int size) : Team(make_team(size)) {}
    __device__ __forceinline__ void sync() const {
        if (WIDE) {
            asm volatile("bar.sync %0, %1;" ::"r"(index + 1), "r"(size) : "memory");
        } else {
            __syncwarp(mask);
        }
    }
    // First index >= start owned by this thread (index p is owned by rank p % size).
    __device__ __forceinline__ int first_owned(int start) const {
        return start + ((rank - start) & (size - 1));
    }
};

// Over the group: the sum (MAX: the max) of `x` in every thread, split at a barrier of the
// caller's: start (before it) runs butterfly shuffles, which combine the same two numbers in both
// partners, so every thread ends with the same bits; in groups of more than 32 threads lane 0 of
// each warp then writes the warp's result to red[warp], and finish (after the barrier) combines
// red[0 .. warps) in the same order in every thread (one warp: x is complete after start). red
// must not be written again before the group's next barrier.
template <bool MAX, bool WIDE, typename T>
__device__ __forceinline__ void group_reduce_start(const Group<WIDE>& tm, T& x, T* red) {
    const int w = WIDE ? 32 : tm.size;
    for (int off = w / 2; off > 0; off >>= 1) {
        const T y = __shfl_xor_sync(tm.mask, x, off, 32);
        x = MAX ? fmax(x, y) : x + y;
    }
    if (WIDE && (tm.rank & 31) == 0) red[tm.rank / 32] = x;
}

template <bool MAX, bool WIDE, typename T>
__device__ __forceinline__ void group_reduce_finish(const Group<WIDE>& tm, T& x, const T* red) {
    if (!WIDE) return;
    x = red[0];
    for (int q = 1; q < tm.size / 32; ++q) x = MAX ? fmax(x, red[q]) : x + red[q];
}

// The reduction above with its own barrier (groups of more than 32 threads, red[0 .. warps]),
// plus the value `own` of the thread of rank `owner` (passed exactly, sign of zero included;
// owner < 0: none) in every thread.
template <bool MAX, bool WIDE, typename T>
__device__ __forceinline__ void group_allreduce(const Group<WIDE>& tm, T& x, T& own, int owner,
                                                T* red) {
    group_reduce_start<MAX>(tm, x, red);
    if (!WIDE) {
        if (owner >= 0) own = __shfl_sync(tm.mask, own, owner, tm.size);
        return;
    }
    const int warps = tm.size / 32;
    if (tm.rank == owner) red[warps] = own;
    tm.sync();
    group_reduce_finish<MAX>(tm, x, red);
    if (owner >= 0) own = red[warps];
}

// dlarfg on the vector y[a * s] (alpha), y[(a + 1) * s], ..., y[(end - 1) * s] (x), entry p held
// by its owner (rank p % size), called by the whole group. Overwrites alpha with beta (by its
// owner) and x with v (each entry by its owner), and writes the whole reflector (1, v) to the
// contiguous vb[0 .. end - a - 1]; returns tau and beta in every thread. tau = 0 and nothing
// written when x = 0 (H = I, as LAPACK). Uses red[0 .. 2 * warps + 1] when size > 32.
// Common case, one reduction: sum x^2 lies in a range where neither overflow nor underflow can
// spoil it (every square <= the sum <= hi^2; underflowed squares < 2^-36 of the sum), and alpha
// is not huge: ||(alpha, x)|| = sqrt(alpha^2 + sum x^2). Otherwise (rare) max |x| is reduced too
// and the entries are scaled by a power of two that brings max(|alpha|, max |x|) near 1 (LAPACK's
// dnrm2/dlapy2 are overflow-safe; so is this). Scalings are by powers of two (exact).
template <bool WIDE, typename T>
__device__ T group_larfg(const Group<WIDE>& tm, T* y, int s, int a, int end, T* vb, T* red,
                         T& beta) {
    const int first = tm.first_owned(a + 1), owner = a & (tm.size - 1);
    const int warps = WIDE ? tm.size / 32 : 1;
    T ss = T(0), alpha = T(0);
    for (int p = first; p < end; p += tm.size) {
        const T x = y[p * s];
        ss += x * x;
    }
    if (tm.rank == owner) alpha = y[a * s];
    group_allreduce<false>(tm, ss, alpha, owner, red);
    beta = alpha;
    T norm;
    if (norm_safe(ss, alpha)) {
        norm = sqrt(alpha * alpha + ss);
    } else {
        T amax = T(0), none = T(0);
        for (int p = first; p < end; p += tm.size) amax = fmax(amax, fabs(y[p * s]));
        group_allreduce<true>(tm, amax, none, -1, red + warps + 1);
        if (amax == T(0)) return T(0);
        const int k = scale_exp(fmax(fabs(alpha), amax));
        const T up = ldexp(T(1), k);
        T s2 = T(0);
        for (int p = first; p < end; p += tm.size) {
            const T q = y[p * s] * up;
            s2 += q * q;
        }
        group_allreduce<false>(tm, s2, none, -1, red);   // red free: read before the last barrier
        const T q = alpha * up;
        norm = sqrt(q * q + s2) * ldexp(T(1), -k);
    }
    T tau, pre, scal;
    larfg_finish(alpha, norm, beta, tau, pre, scal);
    for (int p = first; p < end; p += tm.size) {
        const T v = (y[p * s] * pre) * scal;
        y[p * s] = v;
        vb[p - a] = v;
    }
    if (tm.rank == owner) {
        y[a * s] = beta;
        vb[0] = T(1);
    }
    return tau;
}

// 16 bytes at p (16-byte aligned) into r[0 .. 16 / sizeof(T)): one vector load.
template <typename T>
__device__ __forceinline__ void load16(const T* p, T* r) {
    if constexpr (sizeof(T) == 4) {
        const float4 q = *reinterpret_cast<const float4*>(p);
        r[0] = q.x; r[1] = q.y; r[2] = q.z; r[3] = q.w;
    } else {
        const double2 q = *reinterpret_cast<const double2*>(p);
        r[0] = q.x; r[1] = q.y;
    }
}

// c -= tau v (v^T c) for the length-L vector c[q * cs] and the contiguous v[q] (v[0] = 1 stored,
// 16-byte aligned, readable up to v[L + 7]), by one thread; c and v do not overlap. Eight entries
// a trip: eight partial sums keep eight multiply-adds in flight, v comes in 16-byte broadcast
// loads, and the update loads its eight entries of c before storing any (a store could otherwise
// alias the next loads, which would then wait for it). The last L % 8 entries run as one more
// trip with the entries past L masked (v beyond L is stale or uninitialised, c beyond L belongs to
// others): a serial tail loop costs up to seven dependent trips, most of the work at n <= 16.
template <typename T>
__device__ __forceinline__ void reflect(T* __restrict__ c, int cs, const T* __restrict__ v, int L,
                                        T tau) {
    constexpr int U = 32 / sizeof(T), V = 16 / sizeof(T);
    T w[U];
#pragma unroll
    for (int u = 0; u < U; ++u) w[u] = T(0);
    const T* cp = c;
#pragma unroll 1
    for (int q = 0; q < L; q += U, cp += U * cs) {
        T vv[U], cc[U];
#pragma unroll
        for (int h = 0; h < U; h += V) load16(v + q + h, vv + h);
        if (q + U <= L) {
#pragma unroll
            for (int u = 0; u < U; ++u) cc[u] = cp[u * cs];
        } else {
#pragma unroll
            for (int u = 0; u < U; ++u) {
                cc[u] = q + u < L ? cp[u * cs] : T(0);
                vv[u] = q + u < L ? vv[u] : T(0);
            }
        }
#pragma unroll
        for (int u = 0; u < U; ++u) w[u] += vv[u] * cc[u];
    }
#pragma unroll
    for (int h = U / 2; h > 0; h /= 2)
#pragma unroll
        for (int u = 0; u < h; ++u) w[u] += w[u + h];
    const T t = tau * w[0];
    T* cw = c;
#pragma unroll 1
    for (int q = 0; q < L; q += U, cw += U * cs) {
        T vv[U], cc[U];
#pragma unroll
        for (int h = 0; h < U; h += V) load16(v + q + h, vv + h);
        if (q + U <= L) {
#pragma unroll
            for (int u = 0; u < U; ++u) cc[u] = cw[u * cs];
#pragma unroll
            for (int u = 0; u < U; ++u) cw[u * cs] = cc[u] - vv[u] * t;
        } else {
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (q + u < L) cw[u * cs] -= vv[u] * t;
        }
    }
}

// dgebd2 on the tall R x C matrix M (R >= C, leading dimension ld) in shared memory, by the
// group; vq, vp hold the current column and row reflector (pad4(R) elements each, 16-byte
// aligned); d, e, tq (Q's taus), tp (P's taus) are out[0, C, 2C, 3C + i] (shared memory). vq is
// written by the column's dlarfg while the previous row reflector is still being applied, so the
// two need separate buffers.
template <bool WIDE, typename T>
__device__ void gebd2_tall(const Group<WIDE>& tm, int R, int C, T* M, int ld, T* vq, T* vp,
                           T* out, T* red) {
    T *d = out, *e = out + C, *tq = out + 2 * C, *tp = out + 3 * C;
    const int lastbit = tm.size - 1;
    for (int i = 0; i < C; ++i) {
        T beta;
        // H(i) annihilates M(i+1:R, i) (entries held by their row owners).
        const T tau_q = group_larfg(tm, M + i, ld, i, R, vq, red, beta);
        if (tm.rank == (i & lastbit)) {
            d[i] = beta;
            tq[i] = tau_q;
        }
        tm.sync();
        // Left update of M(i:R, i+1:C), thread per column; v = vq = (1, M(i+1:R, i)).
        if (tau_q != T(0))
            for (int j = tm.first_owned(i + 1); j < C; j += tm.size)
                reflect(M + i * ld + j, ld, vq, R - i, tau_q);
        if (i + 1 < C) {
            // G(i) annihilates M(i, i+2:C) (entries held by their column owners).
            const T tau_p = group_larfg(tm, M + i * ld, 1, i + 1, C, vp, red, beta);
            if (tm.rank == ((i + 1) & lastbit)) {
                e[i] = beta;
                tp[i] = tau_p;
            }
            tm.sync();
            // Right update of M(i+1:R, i+1:C), thread per row; u = vp = (1, M(i, i+2:C)).
            if (tau_p != T(0))
                for (int r = tm.first_owned(i + 1); r < R; r += tm.size)
                    reflect(M + r * ld + i + 1, 1, vp, C - i - 1, tau_p);
        } else if (tm.rank == 0) {
            tp[i] = T(0);
        }
    }
}

// =============================================================================================
// gebrd_cols, fused step (FUSED = true, the default): the two rank-1 updates of a step as one
// rank-2 update, and that update fused with the next step's first product (the BLAS 2.5 idea of
// Howell et al.'s bidiagonalization with fused GEMVER/GEMVT). Step i of dgebd2 is
//   v, tau_q from column i;  w = C^T v;  t = tau_q w;  row i -= t;  u, tau_p from row i;
//   x = tau_p C' u with C' = C - v t^T;  C'' = C' - x u^T          (C: rows, columns > i)
// and x = tau_p (C u - v (t^T u)), so C'' = C - v t^T - x u^T needs C only twice: one row pass
// (thread per row: y = C u and s = t^T u, then x) and one column pass (thread per column:
// c -= v t_j + x u_j, and in the same loop the next w_j = v_next^T c). s is the same scalar
// for every row: each row thread computes it in its dot loop (one more multiply-add per entry
// and one more broadcast load per 16 bytes), or with SHARED_S the column owners, which wrote
// t_j and u_j themselves, sum t_j u_j over their columns and the group adds those up across the
// barrier before the row pass (a butterfly; no barrier of its own). The column pass needs the
// next column's reflector v_next first: the row owners update column i + 1 in the row pass and
// reduce it there (dlarfg by row owners, as in gebd2_tall). A step reads each trailing entry
// twice and writes it once (gebd2_tall: four reads, two writes) and has two passes, not four.
// Rounding: x is formed from C u - v s instead of C' u (SHARED_S: s summed in another order);
// each entry's update is the same two multiply-adds as before, in the same order. Where a tau is
// 0, its t or x is +0 and its v or u +0, so the update leaves every entry exactly as it was
// (LAPACK skips it; signs of zeros stay).
// Shared memory of one matrix (elements): vq (v_next, pad4(R)), vs and xs (v and x of the step,
// row-indexed from row i + 1, pad4(R) each), vp (u, pad4(C)), tb (t, from column i + 1,
// pad4(C)), wq (w by column, pad4(C)), then M (R x ld) and the reduction slots (group_larfg's
// red[0 .. 2 * warps + 1], SHARED_S's partial sums of s red[2 * warps + 2 ..]). The 16-byte
// loads of the masked last trip read up to 7 elements past a vector: the next buffer.
// =============================================================================================

__host__ __device__ __forceinline__ index_t fused_smem_elems(int R, int C, int group) {
    const int warps = group > 32 ? group / 32 : 1;
    return pad4(3 * pad4(R) + 3 * pad4(C) + R * (C | 1) + 4 * warps + 4);
}

// The loops below run 32-byte trips; the last one (L not a multiple of 32 bytes) is masked: the
// entries past L are read as zeros, the broadcast vectors' included (stale there). A trip is
// full, masked, or `either`: it tests which at run time, as every trip did before PEEL; there
// the two paths merge and the compiler copies every broadcast value between registers, 8 moves a
// float64 trip (sm_90 SASS). PEEL runs the full trips in a loop of their own, then the masked one.
enum class Trip { full, masked, either };

// One trip of the row pass, entries q .. q + U - 1: yw += u c, (PAIR) sw += u t.
template <bool PAIR, Trip KIND, typename T>
__device__ __forceinline__ void row_dots_trip(const T* __restrict__ c, const T* __restrict__ u,
                                              const T* __restrict__ t, int q, int L, T* yw,
                                              T* sw) {
    constexpr int U = 32 / sizeof(T), V = 16 / sizeof(T);
    T uu[U], tt[U], cc[U];
#pragma unroll
    for (int h = 0; h < U; h += V) {
        load16(u + q + h, uu + h);
        if (PAIR) load16(t + q + h, tt + h);
    }
    if (KIND == Trip::full || (KIND == Trip::either && q + U <= L)) {
#pragma unroll
        for (int k = 0; k < U; ++k) cc[k] = c[q + k];
    } else {
#pragma unroll
        for (int k = 0; k < U; ++k) {
            const bool in = q + k < L;
            cc[k] = in ? c[q + k] : T(0);
            uu[k] = in ? uu[k] : T(0);
            if (PAIR) tt[k] = in ? tt[k] : T(0);
        }
    }
#pragma unroll
    for (int k = 0; k < U; ++k) {
        yw[k] += uu[k] * cc[k];
        if (PAIR) sw[k] += uu[k] * tt[k];
    }
}

// Row pass: y = sum_k c[k] u[k] and (PAIR) s = sum_k t[k] u[k] over k < L, c contiguous (the
// thread's row), u and t 16-byte aligned broadcasts; without PAIR t is not read and s is left
// alone.
template <bool PAIR, bool PEEL, typename T>
__device__ __forceinline__ void row_dots(const T* __restrict__ c, const T* __restrict__ u,
                                         const T* __restrict__ t, int L, T& y, T& s) {
    constexpr int U = 32 / sizeof(T);
    T yw[U], sw[U];
#pragma unroll
    for (int k = 0; k < U; ++k) yw[k] = sw[k] = T(0);
    if (PEEL) {
        int q = 0;
        // Two trips an iteration: the second trip's loads issue before the first's products
        // (float64 n = 64 / 128 1.1 / 4.7 % faster; the column pass unrolled the same way was
        // slower: its stores come before the next trip's loads)
#pragma unroll 2
        for (; q + U <= L; q += U) row_dots_trip<PAIR, Trip::full>(c, u, t, q, L, yw, sw);
        if (q < L) row_dots_trip<PAIR, Trip::masked>(c, u, t, q, L, yw, sw);
    } else {
#pragma unroll 1
        for (int q = 0; q < L; q += U) row_dots_trip<PAIR, Trip::either>(c, u, t, q, L, yw, sw);
    }
#pragma unroll
    for (int h = U / 2; h > 0; h /= 2)
#pragma unroll
        for (int k = 0; k < h; ++k) {
            yw[k] += yw[k + h];
            if (PAIR) sw[k] += sw[k + h];
        }
    y = yw[0];
    if (PAIR) s = sw[0];
}

// One trip of the column pass, entries q .. q + U - 1 of the column, cp = c + q * cs: (UPDATE)
// c -= vs t + xs u, stored; w += v c. All loads come before the stores (a store could otherwise
// alias the next loads).
template <bool UPDATE, Trip KIND, typename T>
__device__ __forceinline__ void update_dot_trip(T* __restrict__ cp, int cs,
                                                const T* __restrict__ vs,
                                                const T* __restrict__ xs, T t, T u,
                                                const T* __restrict__ v, int q, int L, T* w) {
    constexpr int U = 32 / sizeof(T), V = 16 / sizeof(T);
    T vv[U], aa[U], xx[U], cc[U];
#pragma unroll
    for (int h = 0; h < U; h += V) {
        load16(v + q + h, vv + h);
        if (UPDATE) {
            load16(vs + q + h, aa + h);
            load16(xs + q + h, xx + h);
        }
    }
    const bool full = KIND == Trip::full || (KIND == Trip::either && q + U <= L);
    if (full) {
#pragma unroll
        for (int k = 0; k < U; ++k) cc[k] = cp[k * cs];
    } else {
#pragma unroll
        for (int k = 0; k < U; ++k) {
            const bool in = q + k < L;
            cc[k] = in ? cp[k * cs] : T(0);
            vv[k] = in ? vv[k] : T(0);
            if (UPDATE) {
                aa[k] = in ? aa[k] : T(0);
                xx[k] = in ? xx[k] : T(0);
            }
        }
    }
    if (UPDATE) {
#pragma unroll
        for (int k = 0; k < U; ++k) {
            cc[k] -= aa[k] * t;
            cc[k] -= xx[k] * u;
        }
        if (full) {
#pragma unroll
            for (int k = 0; k < U; ++k) cp[k * cs] = cc[k];
        } else {
#pragma unroll
            for (int k = 0; k < U; ++k)
                if (q + k < L) cp[k * cs] = cc[k];
        }
    }
#pragma unroll
    for (int k = 0; k < U; ++k) w[k] += vv[k] * cc[k];
}

// Column pass on the thread's column c[q * cs], q < L: (UPDATE) c -= vs t, then c -= xs u, each
// entry stored; returns w = v^T c (the updated c). vs, xs, v 16-byte aligned broadcasts.
template <bool UPDATE, bool PEEL, typename T>
__device__ __forceinline__ T update_dot(T* __restrict__ c, int cs, const T* __restrict__ vs,
                                        const T* __restrict__ xs, T t, T u,
                                        const T* __restrict__ v, int L) {
    constexpr int U = 32 / sizeof(T);
    T w[U];
#pragma unroll
    for (int k = 0; k < U; ++k) w[k] = T(0);
    T* cp = c;
    if (PEEL) {
        int q = 0;
#pragma unroll 1
        for (; q + U <= L; q += U, cp += U * cs)
            update_dot_trip<UPDATE, Trip::full>(cp, cs, vs, xs, t, u, v, q, L, w);
        if (q < L) update_dot_trip<UPDATE, Trip::masked>(cp, cs, vs, xs, t, u, v, q, L, w);
    } else {
#pragma unroll 1
        for (int q = 0; q < L; q += U, cp += U * cs)
            update_dot_trip<UPDATE, Trip::either>(cp, cs, vs, xs, t, u, v, q, L, w);
    }
#pragma unroll
    for (int h = U / 2; h > 0; h /= 2)
#pragma unroll
        for (int k = 0; k < h; ++k) w[k] += w[k + h];
    return w[0];
}

// dgebd2 on the tall R x C matrix M (R >= C, leading dimension ld) in shared memory by the group,
// fused steps (see above); sm: the matrix's vector buffers (vq, vs, xs, vp, tb, wq); d, e, tq,
// tp: this matrix's outputs in global memory, written by the thread that computes them.
// Ownership as in gebd2_tall (entry (r, c): rank r % G in row passes, c % G in column passes).
// Barriers: after the row reflector (the row pass reads t and u; SHARED_S: and the warps' sums
// of s), after the column reflector (the column pass reads vs, xs, vq). One group of one warp
// also syncs before the row reflector overwrites vp (read by the previous column pass; wider
// groups reach a barrier in the reduction first). Every other buffer is read only after the next
// barrier of its writer. SHARED_S's slots s_red are written before the first of these barriers
// and read after it; their next writer (step i + 1) comes after the second.
template <bool SHARED_S, bool PEEL, bool WIDE, typename T>
__device__ void gebd2_fused(const Group<WIDE>& tm, int R, int C, T* M, int ld, T* sm, T* red,
                            T* d, T* e, T* tq, T* tp) {
    T *vq = sm, *vs = vq + pad4(R), *xs = vs + pad4(R), *vp = xs + pad4(R);
    T *tb = vp + pad4(C), *wq = tb + pad4(C);
    T* s_red = red + 2 * (WIDE ? tm.size / 32 : 1) + 2;     // past group_larfg's slots
    const int G = tm.size, last = G - 1;
    T beta;
    // Column 0's reflector, then w_j = v^T M(:, j) for every column j > 0.
    T tau_q = group_larfg(tm, M, ld, 0, R, vq, red, beta);
    if (tm.rank == 0) {
        d[0] = beta;
        tq[0] = tau_q;
    }
    tm.sync();
    for (int j = tm.first_owned(1); j < C; j += G)
        wq[j] = update_dot<false, PEEL>(M + j, ld, vq, vq, T(0), T(0), vq, R);
    for (int i = 0; i + 1 < C; ++i) {
        // Row i after the left update (v(0) = 1): M(i, j) -= t_j; G(i) from it.
        if (!WIDE) tm.sync();
        for (int j = tm.first_owned(i + 1); j < C; j += G) {
            const T t = tau_q == T(0) ? T(0) : tau_q * wq[j];
            M[i * ld + j] -= t;
            tb[j - i - 1] = t;
        }
        const T tau_p = group_larfg(tm, M + i * ld, 1, i + 1, C, vp, red, beta);
        // SHARED_S: s = t^T u, each column owner's t_k u_k from the tb and vp entries it wrote.
        T s = T(0);
        if (SHARED_S && tau_p != T(0)) {
            for (int j = tm.first_owned(i + 1); j < C; j += G) s += tb[j - i - 1] * vp[j - i - 1];
            group_reduce_start<false>(tm, s, s_red);
        }
        if (tm.rank == ((i + 1) & last)) {
            e[i] = beta;
            tp[i] = tau_p;
        }
        tm.sync();
        if (SHARED_S && tau_p != T(0)) group_reduce_finish<false>(tm, s, s_red);
        // Row pass, rows r > i: x_r = tau_p (M(r, :) u - v_r s); M(r, i + 1) updated; then
        // H(i + 1) from column i + 1 (by its row owners).
        const T tau_l = tau_q;
        for (int r = tm.first_owned(i + 1); r < R; r += G) {
            T* row = M + r * ld + i + 1;
            const T v = tau_l == T(0) ? T(0) : row[-1];
            T x = T(0);
            if (tau_p != T(0)) {
                T y;
                row_dots<!SHARED_S, PEEL>(row, vp, tb, C - i - 1, y, s);  // s unless SHARED_S
                x = tau_p * (y - v * s);
            }
            vs[r - i - 1] = v;
            xs[r - i - 1] = x;
            row[0] = (row[0] - v * tb[0]) - x;          // u(0) = 1
        }
        tau_q = group_larfg(tm, M + i + 1, ld, i + 1, R, vq, red, beta);
        if (tm.rank == ((i + 1) & last)) {
            d[i + 1] = beta;
            tq[i + 1] = tau_q;
        }
        tm.sync();
        // Column pass, columns j > i + 1, rows r > i: the rank-2 update and w_j of step i + 1.
        for (int j = tm.first_owned(i + 2); j < C; j += G) {
            const T t = tau_l == T(0) ? T(0) : tau_l * wq[j];
            const T u = tau_p == T(0) ? T(0) : vp[j - i - 1];
            wq[j] = update_dot<true, PEEL>(M + (i + 1) * ld + j, ld, vs, xs, t, u, vq,
                                           R - i - 1);
        }
    }
    if (tm.rank == ((C - 1) & last)) tp[C - 1] = T(0);
}

// Position of element e of a row-major matrix with `cols` columns, advanced by a fixed number of
// elements at a time without dividing: the copies below divide once per thread, not per element.
struct RowMajorWalk {
    int row, col, drow, dcol, cols;
    __device__ __forceinline__ RowMajorWalk(int e, int step, int cols_) : cols(cols_) {
        row = e / cols;
        col = e - row * cols;
        drow = step / cols;
        dcol = step - drow * cols;
    }
    __device__ __forceinline__ void advance() {
        row += drow;
        col += dcol;
        if (col >= cols) {
            col -= cols;
            ++row;
        }
    }
    // Offset in shared memory (leading dimension ld), transposed when `trans`.
    __device__ __forceinline__ int at(int ld, bool trans) const {
        return trans ? col * ld + row : row * ld + col;
    }
};

// A (rows x cols, contiguous row-major, global) into M (shared, leading dimension ld), transposed
// (M(c, r) = A(r, c)) when `trans`. Coalesced: thread tid copies elements tid, tid + nt, ...,
// each by cp.async, so all of a thread's copies are in flight at once and hold no registers (a
// group waits for its whole matrix here; with 8 loads in flight a thread, float64 n = 64 / 128
// took 1.9 / 2.5 % longer: reports/gpu_20261127f call 3). Both store patterns are
// conflict-free (ld odd). The caller's barrier follows.
template <typename T>
__device__ __forceinline__ void load_matrix(const T* __restrict__ src, int rows, int cols, T* M,
                                            int ld, bool trans, int tid, int nt) {
    const int count = rows * cols;
    RowMajorWalk at(tid, nt, cols);
    for (int e = tid; e < count; e += nt, at.advance())
        cp_async_element(M + at.at(ld, trans), src + e);
    cp_async_wait_all();
}

// The inverse of load_matrix (coalesced stores).
template <typename T>
__device__ __forceinline__ void store_matrix(T* __restrict__ dst, int rows, int cols, const T* M,
                                             int ld, bool trans, int tid, int nt) {
    const int count = rows * cols;
    RowMajorWalk at(tid, nt, cols);
    for (int e = tid; e < count; e += nt, at.advance()) dst[e] = M[at.at(ld, trans)];
}

// Launch: block = group * (matrices per block) threads, group a power of two: WIDE = group > 32
// (a named barrier per group, at most 15 groups per block, up to 512 threads a block), else
// several groups per warp (at most 256 threads a block). Dynamic shared memory = matrices per
// block * (FUSED ? fused_smem_elems : cols_smem_elems)(R, C, group) * sizeof(T). Groups loop over
// the batch with a grid stride. FUSED: gebd2_fused (the default), else gebd2_tall.
// REGS: registers a thread may use, 80 (bounds: 768 threads; 3 blocks of 256) or 128 (512
// threads; 2 blocks of 256). 64 made the unrolled updates spill; 80 makes gebd2_fused spill a
// little (it would take ~100; with PEEL it fits), 128 costs occupancy where registers, not shared
// memory, limit it (small n); the launcher's table picks per size class. FUSED only: SHARED_S,
// s = t^T u once per step for the group instead of in every row thread (gebd2_fused); PEEL, the
// masked last trip of the row and column loops out of them (see Trip).
template <typename T, bool WIDE, bool FUSED, int REGS, bool SHARED_S, bool PEEL>
__global__ void __launch_bounds__(REGS == 128 ? (WIDE ? 512 : 256) : (WIDE ? 768 : 256),
                                  REGS == 128 ? (WIDE ? 1 : 2) : (WIDE ? 1 : 3))
gebrd_cols(index_t batch, int m, int n, T* __restrict__ A, T* __restrict__ d, T* __restrict__ e,
           T* __restrict__ tauq, T* __restrict__ taup, int group) {
    extern __shared__ __align__(16) unsigned char gebrd_smem[];
    const Group<WIDE> tm(group);
    const int per_block = blockDim.x / group;
    const bool wide = m < n;                  // reduce A^T: see the section comment
    const int R = wide ? n : m, C = wide ? m : n;
    const int ld = C | 1;
    T* base = reinterpret_cast<T*>(gebrd_smem) +
              tm.index * (FUSED ? fused_smem_elems(R, C, group) : cols_smem_elems(R, C, group));
    T* vq = base;                             // gebd2_tall: vq, vp, M, out, red
    T* vp = vq + pad4(R);
    T* M = FUSED ? base + 3 * pad4(R) + 3 * pad4(C) : vp + pad4(R);
    T* out = M + R * ld;                      // d, e, tq, tp (gebd2_tall)
    T* red = FUSED ? out : out + 4 * C;
    T* tq = wide ? taup : tauq;               // Q of A^T is P of A
    T* tp = wide ? tauq : taup;
    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        T* Ak = A + k * m * n;
        load_matrix(Ak, m, n, M, ld, wide, tm.rank, tm.size);
        tm.sync();
        if constexpr (FUSED) {
            gebd2_fused<SHARED_S, PEEL>(tm, R, C, M, ld, base, red, d + k * C, e + k * (C - 1),
                                        tq + k * C, tp + k * C);
            tm.sync();
            store_matrix(Ak, m, n, M, ld, wide, tm.rank, tm.size);
        } else {
            gebd2_tall(tm, R, C, M, ld, vq, vp, out, red);
            tm.sync();
            store_matrix(Ak, m, n, M, ld, wide, tm.rank, tm.size);
            for (int q = tm.rank; q < C; q += tm.size) {
                d[k * C + q] = out[q];
                if (q + 1 < C) e[k * (C - 1) + q] = out[C + q];   // e: (batch, C - 1)
                tq[k * C + q] = out[2 * C + q];
                tp[k * C + q] = out[3 * C + q];
            }
        }
        tm.sync();                            // M is reloaded by the next matrix
    }
}

// =============================================================================================
// gebrd_reg<T, N, TRS, STAGE, SHRINK>: the matrix in registers, for max(m, n) <= N (N = 8, 16, 32;
// the launcher's "kernel": "reg"). One group of N lanes of one warp per matrix (32 / N matrices a warp). The
// tall R x C matrix M (M = A, or A^T for m < n, as in gebrd_cols) is held by columns: lane j
// keeps column j in c[0 .. N), rows past R and lanes past C zero. gebrd_cols streams every
// trailing entry through shared memory two or three times a step; here the left update
// (w_j = v^T c_j, c_j -= tau w_j v) is local to a lane, and the right update's product y = C u
// (a sum across lanes) is one reduce-scatter over the group's lanes (recursive halving by
// shuffles: N - 1 exchanges a lane, lane q ending with y_q), after which x = tau_p y goes to every
// lane through 2N elements of shared memory a matrix (vb: the column reflector, xb: x).
//
// Rotation. Register arrays must be indexed by compile-time constants; a step loop unrolled
// over i would be N copies of the step (tens of thousands of instructions at N = 32, more than
// the instruction cache holds). Instead local row 0 is always row i of the step: row i and
// column i are final after step i, so they are stored to global memory then, and every lane
// shifts its column up by one (c[r] = c[r + 1], a zero enters at the bottom). Loops run over all
// N registers; the rows past the matrix are zero and contribute nothing (exactly). SHRINK: once
// at most N / 2 rows are left, local rows N / 2 .. N - 1 are zero in every lane, so the later
// steps run a copy of the step with loops over N / 2 registers (then N / 4, down to 8): at
// N = 32 about 30% less of the per-row work over a whole reduction (reg_steps).
//
// Step i (L = R - i rows left; lanes i < j < C are the trailing columns):
//   1. lane i writes its column to vb; every lane reads it and computes the same dlarfg
//      (same operations on the same numbers: the same bits, the same branches);
//   2. lane q turns vb[q] into v_q and stores row i + q of column i; d, tauq;
//   3. left update of the trailing columns, in each lane alone, v read from vb;
//   4. G(i) from row i (c[0] of lanes i + 1 ..): sum of squares by a butterfly, alpha by a
//      shuffle (group_allreduce); row i stored; e, taup;
//   5. right update: p_r = u_j c_j[r] in lane j, reduce-scatter (or TRS: transposition through
//      shared memory) -> y_q in lane q, x = tau_p y through xb to every lane, c_j[r] -= x_r u_j;
//   6. rotate.
// dlarfg as group_larfg (LAPACK's convention, the same safe-norm scaling and subnormal guard):
// where tau = 0 (x = 0) nothing is written or applied, as LAPACK. Rounding: the dot products
// sum in four interleaved partial sums (ILP), an order different from LAPACK's serial one.
// =============================================================================================

// The right update's product y = C u over the N lanes of the group: lane j holds column j in
// c (local rows 0 .. NR - 1 live, rows NR .. N - 1 zero and not read) and u_j; returns
// y_q = sum_j u_j c_j[q] for q = the lane's rank mod NR, row 0 left out (y_0 = 0). Recursive
// halving over the NR-lane blocks: at each level a lane keeps the half of its partial sums whose
// index bit matches its own rank bit and sends the other half to its partner; the first level
// forms the products u_j c_j[r] as it goes, so only NR / 2 partial sums are live. Then (NR < N)
// a butterfly adds the N / NR blocks' sums (partners add the same two numbers: the same bits).
template <int N, int NR, typename T>
__device__ __forceinline__ T reduce_scatter_cu(const T (&c)[N], T u, unsigned mask, int rank) {
    T p[NR / 2];
    {
        constexpr int o = NR / 2;
        const bool upper = rank & o;
#pragma unroll
        for (int q = 0; q < o; ++q) {
            const T lo = q == 0 ? T(0) : u * c[q];
            const T hi = u * c[q + o];
            const T send = upper ? lo : hi;
            p[q] = (upper ? hi : lo) + __shfl_xor_sync(mask, send, o, N);
        }
    }
#pragma unroll
    for (int level = 2; level < NR; level *= 2) {
        const int o = NR / (2 * level);       // NR / 4, ..., 1
        const bool upper = rank & o;
#pragma unroll
        for (int q = 0; q < o; ++q) {
            const T send = upper ? p[q] : p[q + o];
            const T keep = upper ? p[q + o] : p[q];
            p[q] = keep + __shfl_xor_sync(mask, send, o, N);
        }
    }
    T y = p[0];
#pragma unroll
    for (int o = NR; o < N; o *= 2) y += __shfl_xor_sync(mask, y, o, N);
    return y;
}

// A compiler barrier every 8 elements of a loop over shared memory: the loads of one chunk may
// not be hoisted above the previous chunk's barrier, which bounds the loaded values live at once
// (register pressure at N = 32; ptxas still spills ~200 bytes for float64 N = 32 at 128).
template <typename T>
__device__ __forceinline__ void chunk_fence(int r) {
    if ((r + 16 / (int)sizeof(T)) % 8 == 0) asm volatile("" ::: "memory");
}

// y = C u by a transposition through shared memory instead (TRS): lane j writes u_j c_j[r] to
// row r of sb (N x (N + V), row r at r * (N + V): conflict-free stores, 16-byte aligned rows
// read without bank conflicts), and lane q sums row q (q < NR; rows NR .. N - 1 are zero and
// neither written nor read; other lanes return 0). Fewer instructions than the shuffles (no
// selects) and no partial sums held in registers, for N (N + V) elements of shared memory.
template <int N, int NR, typename T>
__device__ __forceinline__ T transpose_sum_cu(const T (&c)[N], T u, T* sb, int lane,
                                              const Group<false>& tm) {
    constexpr int V = 16 / sizeof(T), LDT = N + V;
#pragma unroll
    for (int r = 1; r < NR; ++r) sb[r * LDT + lane] = u * c[r];
    tm.sync();
    T y4[4] = {T(0), T(0), T(0), T(0)};
    if (lane > 0 && (NR == N || lane < NR)) {
#pragma unroll
        for (int k = 0; k < N; k += V) {
            T yy[V];
            load16(sb + lane * LDT + k, yy);
#pragma unroll
            for (int h = 0; h < V; ++h) y4[(k + h) & 3] += yy[h];
            chunk_fence<T>(k);
        }
    }
    return (y4[0] + y4[1]) + (y4[2] + y4[3]);
}

// Shared memory elements of one matrix of gebrd_reg: vb, xb (N each), for TRS sb (N (N + V)),
// for STAGE ob (N (N + 1)).
__host__ __device__ __forceinline__ int reg_smem_elems(int N, int V, bool trs, bool stage) {
    return 2 * N + (trs ? N * (N + V) : 0) + (stage ? N * (N + 1) : 0);
}

// One matrix of gebrd_reg as its steps see it: outputs in global memory (A, d, e, Q's and P's
// taus, already offset to this matrix), its shared memory (vb, xb, sb, ob: see the kernel) and
// the shape: R x C tall (M = A, or A^T), M(r, j) = A[r * rs + j * cs]; lane: the rank.
template <typename T>
struct RegMatrix {
    T *A, *d, *e, *tq, *tp;
    T *vb, *xb, *sb, *ob;
    int R, C, rs, cs, lane;
};

// Step i of gebrd_reg (the section comment's steps 1-6) with NR live local rows: requires
// L = R - i <= NR, so local rows NR .. N - 1 of every lane are zero (rows past R), and every loop
// over rows stops at NR. SHRINK runs the late steps with NR = N / 2, N / 4, ..., 8 (reg_steps).
template <int N, int NR, bool TRS, bool STAGE, typename T>
__device__ __forceinline__ void reg_step(const Group<false>& tm, const RegMatrix<T>& mx,
                                         T (&c)[N], int i) {
    constexpr int V = 16 / sizeof(T);         // elements of one 16-byte load
    constexpr int LDO = N + 1;
    const int lane = mx.lane, R = mx.R, C = mx.C, rs = mx.rs, cs = mx.cs;
    T *Ak = mx.A, *vb = mx.vb, *xb = mx.xb, *ob = mx.ob;
    const int L = R - i;                      // local rows 0 .. L - 1 = rows i .. R - 1
    // 1. H(i) from column i (x = vb[1 ..], alpha = vb[0]), computed by every lane.
    tm.sync();                                // the previous step's readers of vb and xb are done
    if (lane == i) {
#pragma unroll
        for (int r = 0; r < NR; r += 2) {
            if constexpr (sizeof(T) == 8) {
                *reinterpret_cast<double2*>(vb + r) = make_double2(c[r], c[r + 1]);
            } else {
                *reinterpret_cast<float2*>(vb + r) = make_float2(c[r], c[r + 1]);
            }
        }
    }
    tm.sync();
    T alpha, s4[4] = {T(0), T(0), T(0), T(0)};
#pragma unroll
    for (int r = 0; r < NR; r += V) {
        T xv[V];
        load16(vb + r, xv);
#pragma unroll
        for (int h = 0; h < V; ++h) {
            if (r + h == 0) alpha = xv[0];
            else s4[(r + h) & 3] += xv[h] * xv[h];
        }
        chunk_fence<T>(r);
    }
    const T ss = (s4[0] + s4[1]) + (s4[2] + s4[3]);
    T beta = alpha, tau = T(0), pre = T(1), scal = T(0);
    bool refl = true;
    if (norm_safe(ss, alpha)) {
        larfg_finish(alpha, sqrt(alpha * alpha + ss), beta, tau, pre, scal);
    } else {
        T amax = T(0);
        for (int r = 1; r < NR; ++r) amax = fmax(amax, fabs(vb[r]));
        refl = amax != T(0);
        if (refl) {
            const int ke = scale_exp(fmax(fabs(alpha), amax));
            const T up = ldexp(T(1), ke);
            T s2 = T(0);
            for (int r = 1; r < NR; ++r) {
                const T q = vb[r] * up;
                s2 += q * q;
            }
            const T q = alpha * up;
            larfg_finish(alpha, sqrt(q * q + s2) * ldexp(T(1), -ke), beta, tau, pre, scal);
        }
    }
    // 2. v = x / (alpha - beta) into vb (lane q its entry q, after every lane read x) and
    // column i out (row i + q by lane q: beta, v, or x where H = I). Lanes q >= NR hold no row.
    const bool row = NR == N || lane < NR;
    const T xq = row ? vb[lane] : T(0);
    tm.sync();
    T val = xq;
    if (refl && row) {
        val = lane == 0 ? beta : (xq * pre) * scal;
        vb[lane] = val;
    }
    if (lane < L) {
        if constexpr (STAGE) ob[(i + lane) * LDO + i] = val;
        else Ak[(i + lane) * rs + i * cs] = val;
    }
    if (lane == 0) {
        mx.d[i] = beta;
        mx.tq[i] = tau;
    }
    tm.sync();
    // 3. Left update of columns i + 1 .. C - 1, v = vb (vb[0] = beta stands for v(0) = 1).
    const bool trail = lane > i && lane < C;
    if (refl && trail) {
        T w4[4] = {c[0], T(0), T(0), T(0)};
#pragma unroll
        for (int r = 0; r < NR; r += V) {
            T vv[V];
            load16(vb + r, vv);
#pragma unroll
            for (int h = 0; h < V; ++h)
                if (r + h > 0) w4[(r + h) & 3] += vv[h] * c[r + h];
            chunk_fence<T>(r);
        }
        const T t = tau * ((w4[0] + w4[1]) + (w4[2] + w4[3]));
        c[0] -= t;
        // Load v again rather than keep NR values of it live from the loop above (the compiler
        // would: registers past 128 cost occupancy or spill).
        asm volatile("" ::: "memory");
#pragma unroll
        for (int r = 0; r < NR; r += V) {
            T vv[V];
            load16(vb + r, vv);
#pragma unroll
            for (int h = 0; h < V; ++h)
                if (r + h > 0) c[r + h] -= t * vv[h];
            chunk_fence<T>(r);
        }
    }
    if (i + 1 < C) {
        // 4. G(i) from row i: alpha in lane i + 1, x in lanes i + 2 .. C - 1.
        const T xv = c[0];
        const bool tail = lane > i + 1 && lane < C;
        T sq = tail ? xv * xv : T(0), al = xv;
        group_allreduce<false>(tm, sq, al, i + 1, (T*)nullptr);
        T bp = al, taup_i = T(0), prep = T(1), scalp = T(0);
        bool reflp = true;
        if (norm_safe(sq, al)) {
            larfg_finish(al, sqrt(al * al + sq), bp, taup_i, prep, scalp);
        } else {
            T amax = tail ? fabs(xv) : T(0), none = T(0);
            group_allreduce<true>(tm, amax, none, -1, (T*)nullptr);
            reflp = amax != T(0);
            if (reflp) {
                const int ke = scale_exp(fmax(fabs(al), amax));
                const T up = ldexp(T(1), ke);
                const T q = tail ? xv * up : T(0);
                T s2 = q * q;
                group_allreduce<false>(tm, s2, none, -1, (T*)nullptr);
                const T qa = al * up;
                larfg_finish(al, sqrt(qa * qa + s2) * ldexp(T(1), -ke), bp, taup_i, prep, scalp);
            }
        }
        T u = T(0);
        if (reflp) {
            if (lane == i + 1) {
                c[0] = bp;
                u = T(1);
            } else if (tail) {
                c[0] = (xv * prep) * scalp;
                u = c[0];
            }
        }
        if (lane == i + 1) {
            mx.e[i] = bp;
            mx.tp[i] = taup_i;
        }
        if (trail) {                                           // row i out
            if constexpr (STAGE) ob[i * LDO + lane] = c[0];
            else Ak[i * rs + lane * cs] = c[0];
        }
        // 5. Right update of rows i + 1 .. R - 1, columns i + 1 .. C - 1 (lanes with u = 0 add
        // zeros: their columns are finished or past C).
        if (reflp) {
            if constexpr (TRS) {
                xb[lane] = taup_i * transpose_sum_cu<N, NR>(c, u, mx.sb, lane, tm);
            } else {
                xb[lane] = taup_i * reduce_scatter_cu<N, NR>(c, u, tm.mask, lane);
            }
            tm.sync();
            if (trail) {
#pragma unroll
                for (int r = 0; r < NR; r += V) {
                    T xr[V];
                    load16(xb + r, xr);
#pragma unroll
                    for (int h = 0; h < V; ++h)
                        if (r + h > 0) c[r + h] -= xr[h] * u;
                    chunk_fence<T>(r);
                }
            }
        }
    } else if (lane == 0) {
        mx.tp[i] = T(0);
    }
    // 6. Rotate: local row 0 becomes row i + 1 (rows NR .. N - 1 stay zero).
#pragma unroll
    for (int r = 0; r + 1 < NR; ++r) c[r] = c[r + 1];
    c[NR - 1] = T(0);
}

// Steps i, i + 1, ... with NR live rows while more than NR / 2 rows are left (SHRINK), then the
// rest with NR / 2 (down to 8); without SHRINK every step with NR = N. A step's row loops,
// reduce-scatter and rotation cost ~NR, so SHRINK runs the second half of the steps at half
// that or less (the instruction count, not occupancy, limits gebrd_reg at N = 32). Each NR is
// one more copy of the step's code.
template <int N, int NR, bool SHRINK, bool TRS, bool STAGE, typename T>
__device__ __forceinline__ void reg_steps(const Group<false>& tm, const RegMatrix<T>& mx,
                                          T (&c)[N], int& i) {
    constexpr bool last = !SHRINK || NR == 8;
#pragma unroll 1
    for (; i < mx.C && (last || mx.R - i > NR / 2); ++i) reg_step<N, NR, TRS, STAGE>(tm, mx, c, i);
    if constexpr (!last) reg_steps<N, NR / 2, SHRINK, TRS, STAGE>(tm, mx, c, i);
}

// Launch: block = N * (matrices per block) threads (at most 128), dynamic shared memory =
// matrices per block * reg_smem_elems(N, 16 / sizeof(T), TRS, STAGE) * sizeof(T); grid-stride
// over the batch; requires max(m, n) <= N. Registers: c (N values) and, without TRS, N / 2
// partial sums are the arrays a lane keeps; the reflectors and x are read from shared memory
// where used (16-byte broadcasts), not held. At most 128 registers (16 warps an SM; H100 batch
// 10240 2026-11-23: float64 n = 16 0.097 ms against 0.108 at 106 registers, n = 32 0.531 against
// 0.650 at 186; the float64 N = 32 kernel spills a little there). SHRINK: see reg_steps.
template <typename T, int N, bool TRS, bool STAGE, bool SHRINK>
__global__ void __launch_bounds__(128, 4)
gebrd_reg(index_t batch, int m, int n, T* __restrict__ A, T* __restrict__ d, T* __restrict__ e,
          T* __restrict__ tauq, T* __restrict__ taup, int group) {
    static_assert(N == 8 || N == 16 || N == 32, "gebrd_reg: N = 8, 16 or 32");
    constexpr int V = 16 / sizeof(T);         // elements of one 16-byte load
    extern __shared__ __align__(16) unsigned char gebrd_smem[];
    const Group<false> tm(N);
    const int lane = tm.rank;
    const int per_block = blockDim.x / N;
    const bool wide = m < n;                  // reduce A^T (see gebrd_cols)
    const int R = wide ? n : m, C = wide ? m : n;
    const int rs = wide ? 1 : n, cs = wide ? n : 1;     // M(r, j) = A[r * rs + j * cs]
    T* vb = reinterpret_cast<T*>(gebrd_smem) + tm.index * reg_smem_elems(N, V, TRS, STAGE);
    T* xb = vb + N;
    T* sb = xb + N;                           // TRS only
    // STAGE: the output, M(r, j) at ob[r * (N + 1) + j] (odd leading dimension: the column
    // writes of a step are conflict-free), stored to A coalesced after the reduction; otherwise
    // column i goes to A directly (one row per lane: scattered 8-byte stores).
    T* ob = sb + (TRS ? N * (N + V) : 0);
    constexpr int LDO = N + 1;
    T* tq = wide ? taup : tauq;               // Q of A^T is P of A
    T* tp = wide ? tauq : taup;
    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        T* Ak = A + k * m * n;
        const RegMatrix<T> mx{Ak, d + k * C, e + k * (C - 1), tq + k * C, tp + k * C,
                              vb, xb, sb, ob, R, C, rs, cs, lane};
        T c[N];
#pragma unroll
        for (int r = 0; r < N; ++r) c[r] = lane < C && r < R ? Ak[r * rs + lane * cs] : T(0);
        if constexpr (SHRINK) {
            int i = 0;
            reg_steps<N, N, SHRINK, TRS, STAGE>(tm, mx, c, i);
        } else {                              // one loop, every step with NR = N
#pragma unroll 1
            for (int i = 0; i < C; ++i) reg_step<N, N, TRS, STAGE>(tm, mx, c, i);
        }
        if constexpr (STAGE) {
            tm.sync();                        // ob complete
            // A (m x n, row-major) from ob: element (r, q) of A is M(r, q), or M(q, r) when
            // wide; coalesced stores, conflict-free reads (LDO odd).
            RowMajorWalk at(lane, N, n);
            for (int q = lane; q < m * n; q += N, at.advance())
                Ak[q] = ob[wide ? at.col * LDO + at.row : at.row * LDO + at.col];
            tm.sync();                        // ob is rewritten by the next matrix
        }
    }
}
