// gebrd.cu: batched reduction to bidiagonal form, Q^T A P = B, real float/double (LAPACK dgebd2
// semantics on the logical matrix).
//
// Layout: A (batch, m, n) row-major, overwritten as LAPACK's GEBRD leaves it: m >= n: B upper
// bidiagonal on the diagonal and first superdiagonal, the Householder vectors of Q below the
// diagonal (column i, implicit 1 at (i, i)) and of P right of the superdiagonal (row i,
// implicit 1 at (i, i+1)); m < n: B lower bidiagonal, Q's vectors below the subdiagonal, P's right
// of the diagonal. d (batch, min), e (batch, min-1 ; allocated min), tauq, taup (batch, min).
// Reflectors H = I - tau v v^T with LAPACK's dlarfg convention (beta = -sign(alpha) ||(alpha,x)||).
//
// gebrd_team<T, UNROLL, SMEM>  (launcher: linalg/_cuda/bidiag.py)
//   One team per matrix (big-tile setting of seed 003/004 §4.1.2). SMEM: the whole matrix is
//   copied into shared memory (row stride n + 1, against bank conflicts), reduced there with the
//   GEMV device functions of gemv.cuh (team_gemv_t for the left reflector, team_gemv_n for the
//   right one) and rank-1 updates, and copied back; otherwise the same code runs on the matrix in
//   global memory (large matrices: correct, not fast).
#include "common.cuh"
#include "gemv.cuh"

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
        gebd2<T, UNROLL>(tm, m, n, M, ld, d + k * mnmin, e + k * mnmin, tauq + k * mnmin,
                         taup + k * mnmin, vs, ws, red, scratch);
        if (SMEM) {
            tm.sync();
            for (int q = tm.rank; q < m * n; q += tm.size) Ak[q] = Ms[(q / n) * ld_s + q % n];
        }
        tm.sync();
    }
}
