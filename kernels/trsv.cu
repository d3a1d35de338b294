// trsv.cu: batched triangular solve with one right-hand side, op(A_k) x_k = b_k, float/double.
//
// Layout: A (batch, n, n) row-major, x (batch, n) contiguous, overwritten with the solution.
// lower: the lower triangle of A is referenced (else the upper); trans: op(A) = A^T;
// unit: the diagonal is taken as 1 (and not read). Only the referenced triangle is read.
// info[k] = first j (1-based) with A[j-1, j-1] zero or not finite, 0 if none (unit: 0),
// computed on the device; a failed matrix keeps whatever was computed.
//
// trsv_blocked<T, NB, UNROLL>  (launcher: linalg/_cuda/trsv.py)
//   Blocked substitution of seed 004 §3 over the GEMV device functions of gemv.cuh, one team
//   (run-time size: 32 threads or a multiple of 32) per matrix, x kept in shared memory.
//   op(A) is lower ("forward", lower != trans) or upper ("backward"). Blocks of NB <= 32 rows:
//   * trans == 0 (left-looking): x[blk] -= A[blk, solved] x[solved]   -- team_gemv_n on NB rows
//     of A, contiguous; then the NB x NB diagonal block is solved;
//   * trans == 1 (right-looking): the diagonal block is solved, then
//     x[unsolved] -= A[blk, unsolved]^T x[blk]                        -- team_gemv_t on NB rows.
//   Both read rows of A, so every access to A is coalesced. The diagonal block is staged in
//   shared memory (op applied, padded rows) and solved by one warp with shuffles.
#include "common.cuh"
#include "gemv.cuh"

// One warp solves the nb x nb triangle D (row stride NB + 1, op already applied) in place on xb.
template <typename T, int NB>
__device__ __forceinline__ void trsv_diag_warp(int nb, const T* D, T* xb, bool forward,
                                               bool unit) {
    const int lane = threadIdx.x & 31;
    T v = lane < nb ? xb[lane] : T(0);
    for (int s = 0; s < nb; ++s) {
        const int j = forward ? s : nb - 1 - s;
        T xj = v;
        if (lane == j && !unit) xj = v / D[j * (NB + 1) + j];
        xj = __shfl_sync(0xffffffffu, xj, j);
        if (lane == j) v = xj;
        const bool below = forward ? (lane > j) : (lane < j);
        if (below && lane < nb) v -= D[lane * (NB + 1) + j] * xj;
    }
    if (lane < nb) xb[lane] = v;
}

template <typename T, int NB, int UNROLL>
__global__ void trsv_blocked(index_t batch, int n, const T* __restrict__ A, T* __restrict__ X,
                             int* __restrict__ info, int lower, int trans, int unit, int team) {
    static_assert(NB <= 32, "the diagonal block is solved by one warp");
    extern __shared__ __align__(16) unsigned char trsv_smem[];
    const Team tm = make_team(team);
    const int per_block = blockDim.x / team;
    // Per team: x (n), D (NB x (NB+1)), red (team), flag (1 int).
    const int xs_len = (n + 1) / 2 * 2;
    T* base = reinterpret_cast<T*>(trsv_smem) +
              (index_t)tm.index * (xs_len + NB * (NB + 1) + team + 2);
    T* xs = base;
    T* D = xs + xs_len;
    T* red = D + NB * (NB + 1);
    int* flag = reinterpret_cast<int*>(red + team);
    const bool forward = (lower != 0) != (trans != 0);
    const int nblk = (n + NB - 1) / NB;

    for (index_t k = (index_t)blockIdx.x * per_block + tm.index; k < batch;
         k += (index_t)gridDim.x * per_block) {
        const T* Ak = A + k * n * n;
        T* xk = X + k * n;
        if (tm.rank == 0) *flag = 0x7fffffff;
        tm.sync();
        for (int i = tm.rank; i < n; i += tm.size) {
            xs[i] = xk[i];
            if (!unit && !is_finite_nonzero(Ak[(index_t)i * n + i])) atomicMin(flag, i + 1);
        }
        tm.sync();
        if (tm.rank == 0) info[k] = *flag == 0x7fffffff ? 0 : *flag;

        for (int s = 0; s < nblk; ++s) {
            const int b = forward ? s : nblk - 1 - s;
            const int r0 = b * NB, nb = min(NB, n - r0);
            // Columns already solved (trans == 0) or still unsolved (trans == 1).
            const int c0 = (forward == (trans == 0)) ? 0 : r0 + nb;
            const int c1 = (forward == (trans == 0)) ? r0 : n;
            if (!trans && c1 > c0) {
                team_gemv_n<T, 1, UNROLL>(tm, nb, c1 - c0, Ak + (index_t)r0 * n + c0, n, xs + c0,
                                          [&](int i, T v) { xs[r0 + i] -= v; });
                tm.sync();
            }
            // Diagonal block of op(A): D[i][j] = op(A)[r0+i, r0+j] on the referenced triangle.
            // 8 loads in flight per thread (a load-store loop would wait on every load).
            for (int e0 = tm.rank; e0 < nb * nb; e0 += tm.size * 8) {
                T v[8];
                bool need[8];
#pragma unroll
                for (int u = 0; u < 8; ++u) {
                    const int e = e0 + u * tm.size, i = e / nb, j = e % nb;
                    need[u] = e < nb * nb && (forward ? (j < i || (j == i && !unit))
                                                      : (j > i || (j == i && !unit)));
                    v[u] = need[u] ? (trans ? Ak[(index_t)(r0 + j) * n + r0 + i]
                                            : Ak[(index_t)(r0 + i) * n + r0 + j])
                                   : T(0);
                }
#pragma unroll
                for (int u = 0; u < 8; ++u) {
                    const int e = e0 + u * tm.size;
                    if (need[u]) D[(e / nb) * (NB + 1) + e % nb] = v[u];
                }
            }
            tm.sync();
            if (tm.rank < 32) trsv_diag_warp<T, NB>(nb, D, xs + r0, forward, unit != 0);
            tm.sync();
            if (trans && c1 > c0) {
                team_gemv_t<T, 1, UNROLL>(tm, nb, c1 - c0, Ak + (index_t)r0 * n + c0, n, xs + r0,
                                          red, [&](int j, T v) { xs[c0 + j] -= v; });
                tm.sync();
            }
        }
        for (int i = tm.rank; i < n; i += tm.size) xk[i] = xs[i];
        tm.sync();
    }
}
