// labrd.cu: one panel of the blocked reduction to bidiagonal form (LAPACK dlabrd, m >= n), the
// matrices in global memory; the launcher (linalg/_cuda/bidiag.py, gebrd_blocked) follows each
// panel with one batched GEMM for the trailing matrix and hands the last block that fits in shared
// memory to gebrd.cu. This is the "classic setting" of seed 003/004 §6, for matrices too large for
// gebrd_cols (float64 n > 167, float32 n > 237 on the H100, square).
//
// Layout: A (batch, M, N) row-major, M >= N (a wide matrix is reduced as its transpose by the
// launcher). The panel starts at (p, p); below, (r, c) are local to the block A(p:M, p:N) of
// Ms x Ns entries, Ns > nb. Workspaces, row-major with leading dimension 2 nb:
//   W (batch, M, 2 nb): W(r, 0:nb) = V (the column reflectors, written at the panel's end for
//                       r >= nb), W(r, nb:2nb) = X (dlabrd's X);
//   Z (batch, N, 2 nb): Z(c, 0:nb) = Y (dlabrd's Y), Z(c, nb:2nb) = U^T (the row reflectors,
//                       written at the panel's end for c >= nb, with U(nb-1, nb) = 1).
// so that the trailing update A(nb:Ms, nb:Ns) -= V Y^T + X U is the one product W2 Z2^T with
// k = 2 nb (the launcher's GEMM). d, e, tauq, taup of the panel's steps are written here, and A
// holds dgebrd's output for the panel's rows and columns when the kernel returns.
//
// One block of THREADS (256, 512 or 1024) per matrix (grid-stride loop over the batch). A step i
// of dlabrd reads the trailing block twice: the column sums A(i:Ms, :)^T v (Y's column) and the
// row sums A(:, i+1:Ns) u (X's column). Those two passes are the algorithm's memory traffic; the
// rest is O(Ms nb) work on the panel's columns. The "fused sweep" (fuse = 1, the default) halves
// it: the row sums of step i and the column sums of step i + 1 read the same rows A(r, :), r > i,
// and a warp can finish row r of step i -- z_r, X(r, i), then the update of column i + 1 in that
// row, col_r -- before it walks the row again (from L1) to add A(r, c) col_r into its own column
// sums in shared memory. Those sums use the column before dlarfg normalizes it (v = factor col,
// v = 1 in row i + 1): the sum of col_r^2 reduced with them gives the norm, and the next step takes
// w_c = A(i+1, c) + factor * sum. Where the unnormalized products could overflow or lose digits to
// underflow (max |A| max |col| outside product_limits, or the norm outside lb_larfg's fast range)
// the next step instead runs lb_larfg and the separate column pass on the normalized v
// (fuse = 0 runs that on every step, and the first step of every panel does). Requires nb <= 32
// (lane k holds panel column k in the warp-per-row passes).
#include "common.cuh"
#include "householder.cuh"

constexpr int LB_ROW_GROUPS = 8;    // the column pass: warps w, w + 8, ... share a sweep's columns
constexpr int LB_CHUNKS = 4;        // 32-column chunks a warp accumulates per sweep of the rows
// Rows a warp walks at once in the fused sweep: 2 in float (H100, n = 256 / 512 at batch 1024 /
// 256: 17.0 / 151.8 -> 16.2 / 139.0 us a matrix), 1 in float64 (n = 512 252 -> 302 with 2: spills).
template <typename T> struct sweep_rows { static constexpr int value = sizeof(T) == 4 ? 2 : 1; };

template <typename T>
__device__ __forceinline__ T lb_warp_sum(T v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <typename T>
__device__ __forceinline__ T lb_warp_max(T v) {
    for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

// Sum (or max) over the block of THREADS; every thread gets the same value. scratch: one element
// a warp.
template <int THREADS, bool MAX, typename T>
__device__ T lb_block_reduce(T v, T* scratch) {
    constexpr int LB_WARPS = THREADS / 32;
    v = MAX ? lb_warp_max(v) : lb_warp_sum(v);
    if ((threadIdx.x & 31) == 0) scratch[threadIdx.x >> 5] = v;
    __syncthreads();
    T s = scratch[0];
    for (int w = 1; w < LB_WARPS; ++w) s = MAX ? fmax(s, scratch[w]) : s + scratch[w];
    __syncthreads();
    return s;
}

// dlarfg on x[0 .. L) in shared memory: returns tau and beta (the same in every thread), leaves
// v in x with x[0] = 1. Overflow-safe as gebrd.cu's group_larfg: sqrt(alpha^2 + sum x^2) where
// the squares cannot overflow or underflow badly, otherwise scaled by a power of two.
template <int THREADS, typename T>
__device__ T lb_larfg(T* x, int L, T& beta, T* scratch) {
    constexpr int LB_THREADS = THREADS;
    const T alpha = x[0];
    T ss = T(0);
    for (int t = 1 + threadIdx.x; t < L; t += LB_THREADS) ss += x[t] * x[t];
    ss = lb_block_reduce<THREADS, false>(ss, scratch);
    beta = alpha;
    T norm;
    if (norm_safe(ss, alpha)) {
        norm = sqrt(alpha * alpha + ss);
    } else {
        T amax = T(0);
        for (int t = 1 + threadIdx.x; t < L; t += LB_THREADS) amax = fmax(amax, fabs(x[t]));
        amax = lb_block_reduce<THREADS, true>(amax, scratch);
        if (amax == T(0)) {                 // H = I (dlarfg: tau = 0, beta = alpha)
            if (threadIdx.x == 0) x[0] = T(1);
            __syncthreads();
            return T(0);
        }
        const int k = scale_exp(fmax(fabs(alpha), amax));
        const T up = ldexp(T(1), k);
        T s2 = T(0);
        for (int t = 1 + threadIdx.x; t < L; t += LB_THREADS) {
            const T q = x[t] * up;
            s2 += q * q;
        }
        s2 = lb_block_reduce<THREADS, false>(s2, scratch);
        const T q = alpha * up;
        norm = sqrt(q * q + s2) * ldexp(T(1), -k);
    }
    T tau, pre, scal;
    larfg_finish(alpha, norm, beta, tau, pre, scal);
    for (int t = 1 + threadIdx.x; t < L; t += LB_THREADS) x[t] = (x[t] * pre) * scal;
    if (threadIdx.x == 0) x[0] = T(1);
    __syncthreads();
    return tau;
}

// Shared memory of the panel kernel (elements of T); the launcher computes the same number.
__host__ __device__ __forceinline__ int lb_round32(int x) { return (x + 31) & ~31; }
__host__ __device__ __forceinline__ index_t labrd_smem_elems(int M, int N, int threads) {
    return 2 * (index_t)M + N + (index_t)(threads / 32) * (lb_round32(N) + 32) + 9 * 32
           + 35 * (threads / 32);
}

// The fused sweep sums A(r, c) * col_r before col is normalized: it is used where every such
// product and their sums stay normal and finite (max |A| * max |col| within [lo, hi]), otherwise
// the step falls back to the column pass with the normalized v.
template <typename T> struct product_limits;
template <> struct product_limits<float> {
    __device__ static float lo() { return 0x1p-90f; }
    __device__ static float hi() { return 0x1p+100f; }
};
template <> struct product_limits<double> {
    __device__ static double lo() { return 0x1p-900; }
    __device__ static double hi() { return 0x1p+1000; }
};

// 80 registers at 256 threads (3 blocks an SM), 64 at 512 and 1024.
template <typename T, int THREADS>
__global__ void __launch_bounds__(THREADS, THREADS == 256 ? 3 : 1024 / THREADS)
labrd_panel(index_t batch, int M, int N, int p, int nb, T* __restrict__ A, T* __restrict__ W,
            T* __restrict__ Z, T* __restrict__ d, T* __restrict__ e, T* __restrict__ tauq,
            T* __restrict__ taup, int fuse) {
    constexpr int LB_THREADS = THREADS, LB_WARPS = THREADS / 32, SR = sweep_rows<T>::value;
    static_assert(LB_WARPS % LB_ROW_GROUPS == 0, "THREADS: a multiple of 256");
    extern __shared__ __align__(16) unsigned char labrd_smem[];
    T* vs = reinterpret_cast<T*>(labrd_smem);     // column reflector, vs[r - i] for rows r >= i
    T* zs = vs + M;                                // the row pass's products, zs[r]
    T* us = zs + M;                                // row reflector, us[c - i - 1] for c > i
    T* red = us + N;                               // column sums: LB_WARPS rows of rw
    const int Ms = M - p, Ns = N - p, ld = 2 * nb, mn = N;
    const int ncol = lb_round32(Ns);
    const int rw = ncol + 32;                      // the last 32 slots: X's columns
    T* coef = red + (index_t)LB_WARPS * (lb_round32(N) + 32);    // vectors of 32 (128: spare)
    T* t1 = coef;           // A(i:Ms, 0:i)^T v
    T* t2 = coef + 32;      // X(i:Ms, 0:i)^T v
    T* ar = coef + 64;      // A(i, 0:i+1)
    T* xr = coef + 96;      // X(i, 0:i)
    T* yn = coef + 160;     // Y(i+1, 0:i+1)
    T* an = coef + 192;     // A(0:i+1, i+1)
    T* ds = coef + 224;     // d of the panel's steps
    T* es = coef + 256;     // e
    T* red2 = coef + 288;   // partials of Y(i+1:Ns, 0:i+1)^T u, LB_WARPS x 32
    T* scratch = red2 + LB_WARPS * 32;             // reductions: 3 LB_WARPS
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int row_group = warp % LB_ROW_GROUPS, col_group = warp / LB_ROW_GROUPS;

    for (index_t b = blockIdx.x; b < batch; b += gridDim.x) {
        T* a = A + b * M * N + (index_t)p * N + p;
        T* w = W + b * M * ld;
        T* z = Z + b * N * ld;
        auto at = [&](int r, int c) -> T& { return a[(index_t)r * N + c]; };
        auto xt = [&](int r, int k) -> T& { return w[(index_t)r * ld + nb + k]; };
        auto yt = [&](int c, int k) -> T& { return z[(index_t)c * ld + k]; };

        for (int r = threadIdx.x; r < Ms; r += LB_THREADS) vs[r] = at(r, 0);
        __syncthreads();
        // Where the previous step's fused sweep produced this step's column reflector and the
        // column sums: w_c = A(i, c) + factor * sum of red's LB_WARPS rows (red holds sums of
        // A(r, c) col_r over r > i with the unnormalized column, v = factor * col).
        bool fused = false;
        T factor = T(1), tq = T(0);
        for (int i = 0; i < nb; ++i) {
            int groups = LB_WARPS;
            if (!fused) {
                // Column reflector: vs = A(i:Ms, i), updated by the previous step.
                T beta;
                tq = lb_larfg<THREADS>(vs, Ms - i, beta, scratch);
                for (int r = i + threadIdx.x; r < Ms; r += LB_THREADS) at(r, i) = vs[r - i];
                if (threadIdx.x == 0) {
                    ds[i] = beta;
                    d[b * mn + p + i] = beta;
                    tauq[b * mn + p + i] = tq;
                }
                // Column pass: partial sums of A(i:Ms, c)^T v for every column c (c < i: t1;
                // c > i: Y's raw column) and of X(i:Ms, k)^T v (k < i: t2), per row group
                // (warps of one column group take sweeps of 32 LB_CHUNKS columns in turn).
                groups = LB_ROW_GROUPS;
                factor = T(1);
                for (int c0 = 32 * LB_CHUNKS * col_group; c0 < ncol + 32;
                     c0 += 32 * LB_CHUNKS * (LB_WARPS / LB_ROW_GROUPS)) {
                    T acc[LB_CHUNKS];
#pragma unroll
                    for (int q = 0; q < LB_CHUNKS; ++q) acc[q] = T(0);
#pragma unroll 2
                    for (int r = i + row_group; r < Ms; r += LB_ROW_GROUPS) {
                        const T v = vs[r - i];
                        const T* row = &at(r, 0);
#pragma unroll
                        for (int q = 0; q < LB_CHUNKS; ++q) {
                            const int c = c0 + 32 * q + lane;
                            if (c < Ns) acc[q] += row[c] * v;
                            else if (c >= ncol && c - ncol < i) acc[q] += xt(r, c - ncol) * v;
                        }
                    }
#pragma unroll
                    for (int q = 0; q < LB_CHUNKS; ++q) {
                        const int c = c0 + 32 * q + lane;
                        if (c < rw) red[(index_t)row_group * rw + c] = acc[q];
                    }
                }
                __syncthreads();
            }
            if (threadIdx.x < 32) {
                const int k = threadIdx.x;
                T s1 = T(0), s2 = T(0);
                if (k < i) {
                    for (int q = 0; q < groups; ++q) {
                        s1 += red[(index_t)q * rw + k];
                        s2 += red[(index_t)q * rw + ncol + k];
                    }
                    s1 = (fused ? at(i, k) : T(0)) + factor * s1;
                    s2 = (fused ? xt(i, k) : T(0)) + factor * s2;
                }
                t1[k] = s1;
                t2[k] = s2;
                ar[k] = k <= i ? at(i, k) : T(0);       // A(i, i) = 1 (written above)
                xr[k] = k < i ? xt(i, k) : T(0);
            }
            __syncthreads();
            // Y(i+1:Ns, i) and the row i update, a thread per column c > i; us = A(i, i+1:Ns).
            for (int c = i + 1 + threadIdx.x; c < Ns; c += LB_THREADS) {
                T wsum = T(0);
                for (int q = 0; q < groups; ++q) wsum += red[(index_t)q * rw + c];
                const T arow = at(i, c);
                wsum = (fused ? arow : T(0)) + factor * wsum;
                T s1 = T(0), s2 = T(0), s3 = T(0), s4 = T(0);
                for (int k = 0; k < i; ++k) {
                    const T yk = yt(c, k), ak = at(k, c);
                    s1 += yk * t1[k];
                    s2 += ak * t2[k];
                    s3 += yk * ar[k];
                    s4 += ak * xr[k];
                }
                const T y = tq * (wsum - s1 - s2);
                yt(c, i) = y;
                us[c - i - 1] = arow - s3 - y - s4;     // - y * A(i, i), A(i, i) = 1
            }
            __syncthreads();
            // Row reflector.
            T beta_e;
            const T tp = lb_larfg<THREADS>(us, Ns - i - 1, beta_e, scratch);
            for (int c = i + 1 + threadIdx.x; c < Ns; c += LB_THREADS) at(i, c) = us[c - i - 1];
            if (threadIdx.x == 0) {
                es[i] = beta_e;
                e[b * (mn - 1) + p + i] = beta_e;
                taup[b * mn + p + i] = tp;
            }
            // t3 partials (lane k, warps over the columns), the next column's coefficients.
            const bool next = i + 1 < nb;
            {
                T acc = T(0);
                if (lane <= i)
                    for (int c = i + 1 + warp; c < Ns; c += LB_WARPS)
                        acc += yt(c, lane) * us[c - i - 1];
                red2[warp * 32 + lane] = acc;
            }
            if (threadIdx.x < 32) {
                const int k = threadIdx.x;
                yn[k] = next && k <= i ? yt(i + 1, k) : T(0);
                an[k] = next && k <= i ? (k == i ? T(1) : at(k, i + 1)) : T(0);
            }
            // Row pass: zs[r] = A(r, i+1:Ns) u for the rows r < i (X's t4 correction) and, on the
            // panel's last step or without `fuse`, r > i; otherwise the fused sweep below takes
            // those.
            const bool sweep = next && fuse;
            for (int r = warp; r < (sweep ? i : Ms); r += LB_WARPS) {
                if (r == i) continue;
                const T* row = &at(r, 0);
                T acc = T(0);
#pragma unroll 4
                for (int c = i + 1 + lane; c < Ns; c += 32) acc += row[c] * us[c - i - 1];
                acc = lb_warp_sum(acc);
                if (lane == 0) zs[r] = acc;
            }
            __syncthreads();
            // Y(i+1:Ns, 0:i+1)^T u, summed by every warp from the partials (no barrier).
            T t3k = T(0);
            if (lane <= i)
                for (int q = 0; q < LB_WARPS; ++q) t3k += red2[q * 32 + lane];
            const T t4 = lane < i ? zs[lane] : T(0);
            const T ynk = yn[lane], ank = an[lane];
            if (!sweep) {
                // X(i+1:Ms, i) = taup (zs - A(:, 0:i+1) t3 - X(:, 0:i) t4), t4 = zs[0:i], and
                // the next column's update A(r, i+1) -= A(r, 0:i+1) Y(i+1, 0:i+1)^T
                // + X(r, 0:i+1) A(0:i+1, i+1) into vs (the next step's lb_larfg and column pass).
                for (int r = i + 1 + warp; r < Ms; r += LB_WARPS) {
                    const T ak = lane <= i ? at(r, lane) : T(0);
                    const T xk = lane < i ? xt(r, lane) : T(0);
                    const T x = tp * (zs[r] - lb_warp_sum(ak * t3k + xk * t4));
                    if (lane == 0) xt(r, i) = x;
                    if (next) {
                        const T xk1 = lane == i ? x : xk;
                        const T col = at(r, i + 1) - lb_warp_sum(ak * ynk + xk1 * ank);
                        if (lane == 0) {
                            at(r, i + 1) = col;
                            vs[r - i - 1] = col;
                        }
                    }
                }
                fused = false;
                __syncthreads();
                continue;
            }
            // Fused sweep, a warp per row r > i, each row read once from memory (its second
            // walk hits L1): z_r = A(r, i+1:Ns) u, X(r, i) = taup (z_r - A(r, 0:i+1) t3 -
            // X(r, 0:i) t4), the next column col_r = A(r, i+1) - A(r, 0:i+1) Y(i+1, 0:i+1)^T -
            // X(r, 0:i+1) A(0:i+1, i+1), and for r > i + 1 the next step's column sums
            // red(warp, c) += A(r, c) col_r (and X(r, k) col_r), with sum col_r^2 for its norm.
            T* mine = red + (index_t)warp * rw;
            for (int c = lane; c < rw; c += 32) mine[c] = T(0);
            __syncwarp();
            T ss = T(0), amax_a = T(0), amax_c = T(0);
            // SR rows a warp at a time (SR times the loads in flight per walk; float only: in
            // float64 at 64 registers two rows spill and lost 20 % at n = 512).
            for (int r = i + 1 + SR * warp; r < Ms; r += SR * LB_WARPS) {
                const T* rows[SR];
                bool in[SR];
#pragma unroll
                for (int q = 0; q < SR; ++q) {
                    in[q] = r + q < Ms;
                    rows[q] = &at(in[q] ? r + q : r, 0);
                }
                T zq[SR];
#pragma unroll
                for (int q = 0; q < SR; ++q) zq[q] = T(0);
#pragma unroll 4
                for (int c = i + 1 + lane; c < Ns; c += 32) {
                    const T uc = us[c - i - 1];
#pragma unroll
                    for (int q = 0; q < SR; ++q) zq[q] += rows[q][c] * uc;
                }
                T xn[SR], cq[SR];
                bool use[SR], any = false;
#pragma unroll
                for (int q = 0; q < SR; ++q) {
                    const T zr = lb_warp_sum(zq[q]);
                    const T ak = lane <= i ? rows[q][lane] : T(0);
                    const T xk = lane < i && in[q] ? xt(r + q, lane) : T(0);
                    const T x = tp * (zr - lb_warp_sum(ak * t3k + xk * t4));
                    xn[q] = lane == i ? x : xk;
                    const T col = rows[q][i + 1] - lb_warp_sum(ak * ynk + xn[q] * ank);
                    if (lane == 0 && in[q]) {
                        xt(r + q, i) = x;
                        vs[r + q - i - 1] = col;
                    }
                    // row i + 1 is v's leading 1 (w_c's base A(i+1, c)), not a product
                    use[q] = in[q] && r + q > i + 1;
                    any = any || use[q];
                    cq[q] = use[q] ? col : T(0);
                }
                if (!any) continue;                 // row i + 1 alone
                // amax_a takes every walked row's entries (row i + 1's too: a larger bound only
                // makes the range check below more cautious)
#pragma unroll 4
                for (int c = lane; c < Ns; c += 32) {
                    T acc = rows[0][c] * cq[0];
                    amax_a = fmax(amax_a, fabs(rows[0][c]));
#pragma unroll
                    for (int q = 1; q < SR; ++q) {
                        const T v = rows[q][c];
                        acc += v * cq[q];
                        amax_a = fmax(amax_a, fabs(v));
                    }
                    mine[c] += acc;
                }
                if (lane <= i) {
                    T acc = T(0);
#pragma unroll
                    for (int q = 0; q < SR; ++q) acc += xn[q] * cq[q];
                    mine[ncol + lane] += acc;
                }
#pragma unroll
                for (int q = 0; q < SR; ++q) {
                    ss += cq[q] * cq[q];
                    amax_c = fmax(amax_c, fabs(cq[q]));
                }
            }
            // One barrier for the three reductions (ss and amax_c are the same in a warp's lanes;
            // scratch is next written after the step's last barrier).
            amax_a = lb_warp_max(amax_a);
            if (lane == 0) {
                scratch[3 * warp] = ss;
                scratch[3 * warp + 1] = amax_a;
                scratch[3 * warp + 2] = amax_c;
            }
            __syncthreads();
            ss = T(0);
            amax_a = T(0);
            amax_c = T(0);
            for (int q = 0; q < LB_WARPS; ++q) {
                ss += scratch[3 * q];
                amax_a = fmax(amax_a, scratch[3 * q + 1]);
                amax_c = fmax(amax_c, scratch[3 * q + 2]);
            }
            // The next column's reflector from these sums where they are safe (lb_larfg's fast
            // branch); otherwise the next step runs lb_larfg and the column pass on vs.
            const T alpha = vs[0];
            const T prod = amax_a * amax_c;
            fused = norm_safe(ss, alpha) && prod >= product_limits<T>::lo()
                    && prod <= product_limits<T>::hi();
            if (fused) {
                T beta, pre, scal;
                larfg_finish(alpha, sqrt(alpha * alpha + ss), beta, tq, pre, scal);
                factor = pre * scal;
                for (int r = i + 1 + threadIdx.x; r < Ms; r += LB_THREADS) {
                    const T v = r == i + 1 ? T(1) : (vs[r - i - 1] * pre) * scal;
                    vs[r - i - 1] = v;
                    at(r, i + 1) = v;
                }
                if (threadIdx.x == 0) {
                    ds[i + 1] = beta;
                    d[b * mn + p + i + 1] = beta;
                    tauq[b * mn + p + i + 1] = tq;
                }
            }
            __syncthreads();
        }
        // The trailing product's operands: V below the panel into W, U^T right of it into Z
        // (U(nb-1, nb) = 1 is still in A); then A's diagonal and superdiagonal get d and e.
        for (index_t q = threadIdx.x; q < (index_t)(Ms - nb) * nb; q += LB_THREADS) {
            const int r = nb + (int)(q / nb), k = (int)(q % nb);
            w[(index_t)r * ld + k] = at(r, k);
        }
        for (index_t q = threadIdx.x; q < (index_t)(Ns - nb) * nb; q += LB_THREADS) {
            const int k = (int)(q / (Ns - nb)), c = nb + (int)(q % (Ns - nb));
            z[(index_t)c * ld + nb + k] = at(k, c);
        }
        __syncthreads();
        if (threadIdx.x < nb) {
            at(threadIdx.x, threadIdx.x) = ds[threadIdx.x];
            at(threadIdx.x, threadIdx.x + 1) = es[threadIdx.x];
        }
        __syncthreads();
    }
}
