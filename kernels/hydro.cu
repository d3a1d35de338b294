// hydro.cu: the hydro driver's per-step kernels on the GPU (float64).
//
// quadrature_physics<D>: everything the Lagrangian step computes at a quadrature point, in one
//   pass over the points (hydro/lagrangian.py quadrature_physics is the NumPy/CuPy
//   reference, operation for operation): the Jacobian's determinant and inverse (cofactors),
//   density rho = rho0 |J0| w / (|J| w), ideal-gas pressure and sound speed, the tensor
//   artificial viscosity (smallest eigenpair of sym(grad v) by cyclic Jacobi rotations, the
//   directional length scale h0 |J J0^{-1} s| / |s|), the stress sigma = -p I + mu sym(grad v)
//   weighted as sigma J^{-T} w |J|, and the point's CFL step (smallest singular value of J by
//   one-sided Jacobi rotations). The reference spends its time in batched 3 x 3 eigen- and
//   singular-value solvers and some 60 elementwise passes; here each point's data is read once.
// assemble_forces<D>: -F . 1 summed into the global dofs (the momentum right-hand side), by a
//   gather over each dof's zone entries (no atomics: deterministic, in a scatter-add's order).
// force_rhs<D, P, Q, E, ZB, CB>, force_energy<D, P, Q, E, ZB, CB>: the corner forces' F_z . 1
//   and F_z^T v by partial assembly (sum factorization over the tensor-product bases; F_z never
//   formed), ZB zones and CB velocity components a block at a time (the section "Partial
//   assembly" below).
// mass_zone<D, P, Q, ZB, K>: the kinematic mass applied zone by zone by partial assembly.
// pcg_gather_apply<K>, pcg_update<K, OWNED>, pcg_direction<K>: an iteration of the velocity's
//   PCG on K components at once (mass_zone's results summed into the dofs), the CG's scalars
//   kept on the device (the section at the end).
//
// Layout (row-major, C-contiguous):
//   Jg, Vg   (D, Z, D * NQ)  reference gradients of position / velocity: J[z,q][c][g] =
//                            Jg[(c * Z + z) * D * NQ + g * NQ + q] (hydro ref_gradient's matmul)
//   e_q, rho0w, rho, p, dt   (Z, NQ);  w (NQ);  gamma (Z)
//   Jac0inv, stress          (Z, NQ, D, D)
//   h1_B1, h1_G1 (Q, P);  l2_B1 (Q, E): 1-D tables, NQ = Q^D points, ND = P^D, NE = E^D dofs
//   v (D, n);  dofs (Z, ND) zone z's H1 dofs;  f1 (Z, D * ND) F . 1, row c * ND + i;  e (Z, NE)
//   d, z (n, K) interleaved PCG vectors;  w (Z, NQ) mass weights;  yz (Z * ND, K)
// Launcher:  hydro/gpu_kernels.py.
#include "common.cuh"

// +inf without math.h (NVRTC has no INFINITY macro).
__device__ __forceinline__ double positive_infinity() {
    return __longlong_as_double(0x7ff0000000000000LL);
}

// Smallest eigenvalue and a unit eigenvector of the symmetric D x D matrix a (overwritten).
// D = 2: one Jacobi rotation (exact); D = 3: cyclic sweeps until the off-diagonal entries are
// zero (rotations skipped once an entry is negligible beside both diagonal entries, as in
// Numerical Recipes' jacobi). Ties go to the first index (hydro min_eigenpair's rule).
template <int D>
__device__ __forceinline__ void min_eigenpair(double (&a)[D][D], double& lam, double (&s)[D]) {
    double v[D][D];
#pragma unroll
    for (int i = 0; i < D; ++i)
#pragma unroll
        for (int j = 0; j < D; ++j) v[i][j] = (i == j) ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 50 && D > 1; ++sweep) {
        bool rotated = false;
#pragma unroll
        for (int p = 0; p < D - 1; ++p) {
#pragma unroll
            for (int q = p + 1; q < D; ++q) {
                const double apq = a[p][q];
                if (apq == 0.0) continue;
                const double g = 100.0 * fabs(apq);
                if (sweep > 3 && fabs(a[p][p]) + g == fabs(a[p][p]) &&
                    fabs(a[q][q]) + g == fabs(a[q][q])) {
                    a[p][q] = a[q][p] = 0.0;
                    continue;
                }
                rotated = true;
                const double zeta = (a[q][q] - a[p][p]) / (2.0 * apq);
                const double t =
                    (zeta >= 0.0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
                const double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
                a[p][p] -= t * apq;
                a[q][q] += t * apq;
                a[p][q] = a[q][p] = 0.0;
#pragma unroll
                for (int r = 0; r < D; ++r) {
                    if (r != p && r != q) {
                        const double arp = a[r][p], arq = a[r][q];
                        a[r][p] = a[p][r] = c * arp - sn * arq;
                        a[r][q] = a[q][r] = sn * arp + c * arq;
                    }
                    const double vp = v[r][p], vq = v[r][q];
                    v[r][p] = c * vp - sn * vq;
                    v[r][q] = sn * vp + c * vq;
                }
            }
        }
        if (!rotated) break;
    }
    // Compile-time indices only (a runtime column index would put v in local memory).
    lam = a[0][0];
#pragma unroll
    for (int i = 0; i < D; ++i) s[i] = v[i][0];
#pragma unroll
    for (int k = 1; k < D; ++k)
        if (a[k][k] < lam) {
            lam = a[k][k];
#pragma unroll
            for (int i = 0; i < D; ++i) s[i] = v[i][k];
        }
}

// Smallest singular value of J (D x D) with determinant det. D = 2: |det| / sigma_max (no
// cancellation); D = 3: one-sided Jacobi rotations orthogonalize J's columns (high relative
// accuracy), sigma_min = the smallest column norm.
template <int D>
__device__ __forceinline__ double min_singular_value(const double (&J)[D][D], double det) {
    if constexpr (D == 1) {
        return fabs(J[0][0]);
    } else if constexpr (D == 2) {
        double f2 = 0.0;
#pragma unroll
        for (int i = 0; i < D; ++i)
#pragma unroll
            for (int j = 0; j < D; ++j) f2 += J[i][j] * J[i][j];
        const double disc = sqrt(fmax(f2 * f2 - 4.0 * det * det, 0.0));
        return fabs(det) / sqrt(0.5 * (f2 + disc));
    } else {
        double u[D][D];
#pragma unroll
        for (int i = 0; i < D; ++i)
#pragma unroll
            for (int j = 0; j < D; ++j) u[i][j] = J[i][j];
        for (int sweep = 0; sweep < 50; ++sweep) {
            bool rotated = false;
#pragma unroll
            for (int p = 0; p < D - 1; ++p) {
#pragma unroll
                for (int q = p + 1; q < D; ++q) {
                    double alpha = 0.0, beta = 0.0, gamma = 0.0;
#pragma unroll
                    for (int r = 0; r < D; ++r) {
                        alpha += u[r][p] * u[r][p];
                        beta += u[r][q] * u[r][q];
                        gamma += u[r][p] * u[r][q];
                    }
                    if (gamma == 0.0 || fabs(gamma) <= 1e-15 * sqrt(alpha * beta)) continue;
                    rotated = true;
                    const double zeta = (beta - alpha) / (2.0 * gamma);
                    const double t =
                        (zeta >= 0.0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
                    const double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
#pragma unroll
                    for (int r = 0; r < D; ++r) {
                        const double up = u[r][p], uq = u[r][q];
                        u[r][p] = c * up - sn * uq;
                        u[r][q] = sn * up + c * uq;
                    }
                }
            }
            if (!rotated) break;
        }
        double smin2 = positive_infinity();
#pragma unroll
        for (int j = 0; j < D; ++j) {
            double n2 = 0.0;
#pragma unroll
            for (int r = 0; r < D; ++r) n2 += u[r][j] * u[r][j];
            smin2 = fmin(smin2, n2);
        }
        return sqrt(smin2);
    }
}

// C^1 step from 0 (x <= -eps) to 1 (x >= eps), as hydro smooth_step.
__device__ __forceinline__ double smooth_step(double x, double eps) {
    const double y = fmin(fmax((x + eps) / (2.0 * eps), 0.0), 1.0);
    return (3.0 - 2.0 * y) * y * y;
}

template <int D>
__global__ void quadrature_physics(const double* __restrict__ Jg, const double* __restrict__ Vg,
                                   const double* __restrict__ e_q,
                                   const double* __restrict__ rho0w, const double* __restrict__ w,
                                   const double* __restrict__ gamma,
                                   const double* __restrict__ Jac0inv, double* __restrict__ rho_out,
                                   double* __restrict__ p_out, double* __restrict__ stress_out,
                                   double* __restrict__ dt_out, index_t Z, int NQ, int viscosity,
                                   int vorticity, double h0, double q1, double q2, double cfl,
                                   double order) {
    const index_t points = Z * NQ;
    for (index_t t = (index_t)blockIdx.x * blockDim.x + threadIdx.x; t < points;
         t += (index_t)gridDim.x * blockDim.x) {
        const index_t z = t / NQ;
        const int q = (int)(t - z * NQ);
        double J[D][D], inv[D][D], det;
#pragma unroll
        for (int c = 0; c < D; ++c)
#pragma unroll
            for (int g = 0; g < D; ++g) J[c][g] = Jg[(c * Z + z) * D * NQ + g * NQ + q];
        if constexpr (D == 1) {
            det = J[0][0];
            inv[0][0] = 1.0 / J[0][0];
        } else if constexpr (D == 2) {
            det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
            inv[0][0] = J[1][1] / det;
            inv[0][1] = -J[0][1] / det;
            inv[1][0] = -J[1][0] / det;
            inv[1][1] = J[0][0] / det;
        } else {
            double cof[D][D];
#pragma unroll
            for (int i = 0; i < D; ++i)
#pragma unroll
                for (int j = 0; j < D; ++j) {
                    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
                    const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
                    cof[j][i] = J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1];
                }
            det = 0.0;
#pragma unroll
            for (int k = 0; k < D; ++k) det += J[0][k] * cof[k][0];
#pragma unroll
            for (int i = 0; i < D; ++i)
#pragma unroll
                for (int j = 0; j < D; ++j) inv[i][j] = cof[i][j] / det;
        }
        const double wq = w[q];
        const double rho = rho0w[t] / (det * wq);
        const double E = fmax(e_q[t], 0.0), gam = gamma[z];
        const double p = (gam - 1.0) * rho * E;
        const double cs = sqrt(gam * (gam - 1.0) * E);
        double stress[D][D];
#pragma unroll
        for (int i = 0; i < D; ++i)
#pragma unroll
            for (int j = 0; j < D; ++j) stress[i][j] = (i == j) ? -p : 0.0;
        double visc = 0.0;
        if (viscosity) {
            double dv[D][D], gradv[D][D], sym[D][D], s[D], lam;
#pragma unroll
            for (int c = 0; c < D; ++c)
#pragma unroll
                for (int g = 0; g < D; ++g) dv[c][g] = Vg[(c * Z + z) * D * NQ + g * NQ + q];
            double gnorm2 = 0.0, trace = 0.0;
#pragma unroll
            for (int c = 0; c < D; ++c)
#pragma unroll
                for (int k = 0; k < D; ++k) {
                    double acc = 0.0;
#pragma unroll
                    for (int g = 0; g < D; ++g) acc += dv[c][g] * inv[g][k];
                    gradv[c][k] = acc;
                    gnorm2 += acc * acc;
                    if (c == k) trace += acc;
                }
            double psi = 1.0;
            if (vorticity) {
                const double gnorm = sqrt(gnorm2);
                psi = gnorm > 0.0 ? fabs(trace) / gnorm : 1.0;
            }
#pragma unroll
            for (int i = 0; i < D; ++i)
#pragma unroll
                for (int j = 0; j < D; ++j) sym[i][j] = 0.5 * (gradv[i][j] + gradv[j][i]);
            double work[D][D];
#pragma unroll
            for (int i = 0; i < D; ++i)
#pragma unroll
                for (int j = 0; j < D; ++j) work[i][j] = sym[i][j];
            min_eigenpair<D>(work, lam, s);
            // h = h0 |J J0^{-1} s| / |s|: s mapped from the initial to the current zone.
            const double* j0 = Jac0inv + t * D * D;
            double ph2 = 0.0, s2 = 0.0;
#pragma unroll
            for (int c = 0; c < D; ++c) {
                double phc = 0.0;
#pragma unroll
                for (int k = 0; k < D; ++k) {
                    double jj = 0.0;
#pragma unroll
                    for (int g = 0; g < D; ++g) jj += J[c][g] * j0[g * D + k];
                    phc += jj * s[k];
                }
                ph2 += phc * phc;
                s2 += s[c] * s[c];
            }
            const double h = h0 * sqrt(ph2) / sqrt(s2);
            const double eps = 1e-12;
            visc = q2 * rho * h * h * fabs(lam);
            visc += q1 * rho * h * cs * psi * (1.0 - smooth_step(lam - 2.0 * eps, eps));
#pragma unroll
            for (int i = 0; i < D; ++i)
#pragma unroll
                for (int j = 0; j < D; ++j) stress[i][j] += visc * sym[i][j];
        }
        // CFL: cfl / (c_s / h + 2.5 mu / (rho h^2)) with h = sigma_min(J) / order.
        const double hmin = min_singular_value<D>(J, det) / order;
        const double idt = cs / hmin + 2.5 * visc / rho / (hmin * hmin);
        double dt = idt > 0.0 ? cfl / idt : positive_infinity();
        if (det < 0.0) dt = 0.0;
        const double scale = wq * det;
        double* out = stress_out + t * D * D;
#pragma unroll
        for (int c = 0; c < D; ++c)
#pragma unroll
            for (int k = 0; k < D; ++k) {
                double acc = 0.0;
#pragma unroll
                for (int g = 0; g < D; ++g) acc += stress[c][g] * inv[k][g];
                out[c * D + k] = acc * scale;
            }
        rho_out[t] = rho;
        p_out[t] = p;
        dt_out[t] = dt;
    }
}

// ---------------------------------------------------------------------------------------------
// Partial assembly. The corner forces: F . 1 and F^T v straight from the quadrature stress,
// F never formed. Every basis table is a tensor product of 1-D tables (P H1 dofs, Q points and E
// L2 dofs an axis; hydro/basis.py): dw_i/dxi_g(q) = prod_a T_a[q_a][i_a], T_a the 1-D derivative
// table gq for a = g and the values bq otherwise, and phi_j(q) = prod_a bl[q_a][j_a]. So
//   (F . 1)_{(c,i)} = sum_{q,g} s_zq[c][g] (sum_j phi_j(q)) dw_i/dxi_g(q)
//   (F^T v)_j       = sum_q phi_j(q) sum_{c,g} s_zq[c][g] dv_c/dxi_g(q)
// are sums of products of 1-D factors, taken one axis at a time (sum factorization): D
// contractions of Q or P entries an output instead of one of D Q^D. A block holds ZB zones and
// CB of their D velocity components at a time, a "chain" of contractions for each (zone,
// component, derivative direction g); its threads share each step's fibers (a strided loop, so
// the host build's single "thread" walks them all) and meet at a barrier after it. The tensors
// live in shared memory.
constexpr int FORCE_THREADS = 128;
constexpr int STAGE = 4;        // global loads a thread keeps in flight when staging a block

__device__ constexpr int ipow(int base, int exponent) {
    return exponent <= 0 ? 1 : base * ipow(base, exponent - 1);
}

// Entries of the largest tensor a chain holds: every step's extents mix P, Q and E.
__device__ constexpr int tensor_capacity(int D, int P, int Q, int E) {
    return ipow(P > Q ? (P > E ? P : E) : (Q > E ? Q : E), D);
}

// Where a step's input tensor t keeps its entry e: tensor t starts at (t / DIV) * MUL +
// (t % DIV) * OFF, its entries ES apart. Packed<SIZE>: tensor after tensor.
template <int DIV, int MUL, int OFF, int ES>
struct Layout {
    static __device__ __forceinline__ int at(int t, int e) {
        return (t / DIV) * MUL + (t % DIV) * OFF + e * ES;
    }
};
template <int SIZE> using Packed = Layout<1, SIZE, 0, 1>;

// Step S (0 .. D-1) of sum factorization on a block's T tensors of D axes: the S axes already
// contracted have OUT entries, the others IN; one of the others goes from IN entries to OUT,
// y = sum_k tab[o * SO + k * SK] x_k along it, tab = gtab for tensor t when GRAD and that axis
// is t's derivative direction (t % D), else btab. A thread takes a fiber (the IN entries along
// the axis) at a time: each x entry is read once, and the tables sit in registers (constant
// indices once the loops unroll). The axes rotate so that shared memory is read or written with
// an odd stride (no bank conflicts): with OUT odd (or IN even) the slowest axis is contracted
// and its result becomes the fastest, else the fastest is contracted and becomes the slowest.
// After D steps the axes are back in their order (axis 0 fastest). x's layout XL; y packed.
template <int D, int S, int IN, int OUT, int T, bool GRAD, int SO, int SK, typename XL>
__device__ __forceinline__ void contract_step(const double* x, double* y, const double* btab,
                                              const double* gtab) {
    constexpr bool slow_in = OUT % 2 == 1 || IN % 2 == 0;
    constexpr int axis = slow_in ? D - 1 - S : S;       // the axis contracted, in point order
    constexpr int R = ipow(IN, D - 1 - S) * ipow(OUT, S);  // fibers a tensor
    double b[OUT][IN], g[GRAD ? OUT : 1][IN];
#pragma unroll
    for (int o = 0; o < OUT; ++o)
#pragma unroll
        for (int k = 0; k < IN; ++k) {
            b[o][k] = btab[o * SO + k * SK];
            if (GRAD) g[GRAD ? o : 0][k] = gtab[o * SO + k * SK];
        }
    for (int fiber = threadIdx.x; fiber < T * R; fiber += blockDim.x) {
        const int t = fiber / R, r = fiber - t * R;
        const bool deriv = GRAD && t % D == axis;
        double xv[IN];
#pragma unroll
        for (int k = 0; k < IN; ++k) xv[k] = x[XL::at(t, slow_in ? k * R + r : r * IN + k)];
        double* yt = y + t * R * OUT;
#pragma unroll
        for (int o = 0; o < OUT; ++o) {
            double acc = 0.0;
#pragma unroll
            for (int k = 0; k < IN; ++k) acc += (deriv ? g[GRAD ? o : 0][k] : b[o][k]) * xv[k];
            yt[slow_in ? r * OUT + o : o * R + r] = acc;
        }
    }
    __syncthreads();
}

// All D steps on the T tensors of x0 (layout XL0): step 0 writes y, the next ones ping-pong
// between x and y (x may be x0). Returns where the result is, packed, axis 0 fastest.
template <int D, int IN, int OUT, int T, bool GRAD, int SO, int SK, typename XL0>
__device__ __forceinline__ double* contract_all(const double* x0, double* x, double* y,
                                                const double* btab, const double* gtab) {
    contract_step<D, 0, IN, OUT, T, GRAD, SO, SK, XL0>(x0, y, btab, gtab);
    if constexpr (D == 1) return y;
    contract_step<D, 1, IN, OUT, T, GRAD, SO, SK, Packed<IN * ipow(IN, D - 2) * OUT>>(
        y, x, btab, gtab);
    if constexpr (D == 2) return x;
    contract_step<D, 2, IN, OUT, T, GRAD, SO, SK, Packed<IN * OUT * OUT>>(x, y, btab, gtab);
    return y;
}

// Copies count entries of a global table into shared memory (the block's threads).
__device__ __forceinline__ void load_table(const double* __restrict__ from, double* to,
                                           int count) {
    for (int k = threadIdx.x; k < count; k += blockDim.x) to[k] = __ldg(from + k);
}

// f1[z][c * ND + i] = (F_z . 1)_{(c,i)}: h1_B1, h1_G1 (Q, P) the H1 values and derivatives at
// the 1-D points, l2_B1 (Q, E) the L2 values.
template <int D, int P, int Q, int E, int ZB, int CB>
__global__ void __launch_bounds__(FORCE_THREADS)
force_rhs(const double* __restrict__ stress, const double* __restrict__ h1_B1,
          const double* __restrict__ h1_G1, const double* __restrict__ l2_B1,
          double* __restrict__ f1, index_t Z) {
    constexpr int NQ = ipow(Q, D), ND = ipow(P, D), T = ZB * CB * D;
    constexpr int CAP = tensor_capacity(D, P, Q, E);
    __shared__ double buf0[T * CAP], buf1[T * CAP], bq[Q * P], gq[Q * P], unity[Q];
    load_table(h1_B1, bq, Q * P);
    load_table(h1_G1, gq, Q * P);
    for (int k = threadIdx.x; k < Q; k += blockDim.x) {   // sum_j of the 1-D L2 basis at point k
        double sum = 0.0;
        for (int e = 0; e < E; ++e) sum += __ldg(l2_B1 + k * E + e);
        unity[k] = sum;
    }
    __syncthreads();
    for (index_t z0 = (index_t)blockIdx.x * ZB; z0 < Z; z0 += (index_t)gridDim.x * ZB) {
        const int zones = (int)min((index_t)ZB, Z - z0);
        for (int c0 = 0; c0 < D; c0 += CB) {
            // buf0[zb][q][cc][g] = s_zq[c0 + cc][g] (sum_j phi_j(q)): with CB = D the stress as
            // it lies in memory (a coalesced read). STAGE loads a thread in flight at a time (one
            // at a time, this loop was the kernel's main stall: Nsight Compute).
            constexpr int N = ZB * NQ * CB * D;
            for (int first = threadIdx.x; first < N; first += STAGE * blockDim.x) {
                double s[STAGE];
#pragma unroll
                for (int u = 0; u < STAGE; ++u) {
                    const int item = first + u * blockDim.x, zq = item / (CB * D);
                    const int zb = zq / NQ, q = zq - zb * NQ, cg = item - zq * (CB * D);
                    s[u] = item < N && zb < zones
                        ? stress[((z0 + zb) * NQ + q) * D * D + c0 * D + cg] : 0.0;
                }
#pragma unroll
                for (int u = 0; u < STAGE; ++u) {
                    const int item = first + u * blockDim.x, q = (item / (CB * D)) % NQ;
                    if (item >= N) break;
                    for (int a = 0, qa = q; a < D; ++a, qa /= Q) s[u] *= unity[qa % Q];
                    buf0[item] = s[u];
                }
            }
            __syncthreads();
            // chain t = (zb * CB + cc) * D + g
            using Staged = Layout<CB * D, NQ * CB * D, 1, CB * D>;
            const double* sums = contract_all<D, Q, P, T, true, 1, P, Staged>(buf0, buf0, buf1,
                                                                              bq, gq);
            for (int item = threadIdx.x; item < zones * CB * ND; item += blockDim.x) {
                const int zc = item / ND, i = item - zc * ND, zb = zc / CB, cc = zc - zb * CB;
                double acc = 0.0;
                for (int g = 0; g < D; ++g) acc += sums[(zc * D + g) * ND + i];
                f1[((z0 + zb) * D + c0 + cc) * ND + i] = acc;
            }
            __syncthreads();
        }
    }
}

// e[z][j] = (F_z^T v_z)_j for the velocity v (D, n), zone z's dofs dofs[z][i] (Z, ND); tables
// as force_rhs's.
template <int D, int P, int Q, int E, int ZB, int CB>
__global__ void __launch_bounds__(FORCE_THREADS)
force_energy(const double* __restrict__ stress, const double* __restrict__ v,
             const int* __restrict__ dofs, int n, const double* __restrict__ h1_B1,
             const double* __restrict__ h1_G1, const double* __restrict__ l2_B1,
             double* __restrict__ e, index_t Z) {
    constexpr int NQ = ipow(Q, D), ND = ipow(P, D), NE = ipow(E, D), T = ZB * CB * D;
    constexpr int CAP = tensor_capacity(D, P, Q, E);
    __shared__ double buf0[T * CAP], buf1[T * CAP], work[ZB * NQ], bq[Q * P], gq[Q * P],
        bl[Q * E];
    load_table(h1_B1, bq, Q * P);
    load_table(h1_G1, gq, Q * P);
    load_table(l2_B1, bl, Q * E);
    __syncthreads();
    for (index_t z0 = (index_t)blockIdx.x * ZB; z0 < Z; z0 += (index_t)gridDim.x * ZB) {
        const int zones = (int)min((index_t)ZB, Z - z0);
        for (int k = threadIdx.x; k < ZB * NQ; k += blockDim.x) work[k] = 0.0;
        for (int c0 = 0; c0 < D; c0 += CB) {
            // buf0[zb][cc][i] = v_{c0 + cc} at zone zb's dof i, read by the D chains
            // t = (zb * CB + cc) * D + g, which end as dv_c/dxi_g at the points (STAGE loads in
            // flight, as force_rhs's staging)
            constexpr int N = ZB * CB * ND;
            for (int first = threadIdx.x; first < N; first += STAGE * blockDim.x) {
                int dof[STAGE];
#pragma unroll
                for (int u = 0; u < STAGE; ++u) {
                    const int item = first + u * blockDim.x, zc = item / ND, zb = zc / CB;
                    dof[u] = item < N && zb < zones ? dofs[(z0 + zb) * ND + item - zc * ND] : -1;
                }
#pragma unroll
                for (int u = 0; u < STAGE; ++u) {
                    const int item = first + u * blockDim.x, cc = (item / ND) % CB;
                    if (item < N)
                        buf0[item] = dof[u] >= 0 ? v[(index_t)(c0 + cc) * n + dof[u]] : 0.0;
                }
            }
            __syncthreads();
            const double* grad = contract_all<D, P, Q, T, true, P, 1, Layout<D, ND, 0, 1>>(
                buf0, buf0, buf1, bq, gq);
            for (int item = threadIdx.x; item < zones * NQ; item += blockDim.x) {
                const int zb = item / NQ, q = item - zb * NQ;
                const double* s = stress + ((z0 + zb) * NQ + q) * D * D + c0 * D;
                double acc = work[item];
                for (int cg = 0; cg < CB * D; ++cg)
                    acc += s[cg] * grad[((zb * CB) * D + cg) * NQ + q];
                work[item] = acc;
            }
            __syncthreads();
        }
        // work[zb][q] = sum_{c,g} s_zq[c][g] dv_c/dxi_g(q); now sum_q phi_j(q) work[zb][q]
        const double* out = contract_all<D, Q, E, ZB, false, 1, E, Packed<NQ>>(work, buf0, buf1,
                                                                               bl, bl);
        for (int item = threadIdx.x; item < zones * NE; item += blockDim.x)
            e[z0 * NE + item] = out[item];
        __syncthreads();
    }
}

// The kinematic mass by partial assembly, zone by zone: yz[z][i][k] = sum_q B_i(q) w_z(q)
// sum_j B_j(q) d[dofs[z][j]][k] for K vectors d (n, K) interleaved, B the H1 basis at the points
// (a tensor product of the 1-D table h1_B1 (Q, P)) and w (Z, NQ) the mass weights rho0 |J0| w_q.
// Summed into the dofs (pcg_gather_apply) that is M d, M the assembled matrix, read as 16 MB of
// weights at 3-D Q2 and 32^3 zones where the CSR matrix is 204 MB. ZB zones a block, a chain a
// (zone, vector).
template <int D, int P, int Q, int ZB, int K>
__global__ void __launch_bounds__(FORCE_THREADS)
mass_zone(const double* __restrict__ d, const int* __restrict__ dofs,
          const double* __restrict__ w, const double* __restrict__ h1_B1,
          double* __restrict__ yz, index_t Z) {
    constexpr int NQ = ipow(Q, D), ND = ipow(P, D), T = ZB * K;
    constexpr int CAP = tensor_capacity(D, P, Q, 1);
    __shared__ double buf0[T * CAP], buf1[T * CAP], bq[Q * P];
    load_table(h1_B1, bq, Q * P);
    __syncthreads();
    for (index_t z0 = (index_t)blockIdx.x * ZB; z0 < Z; z0 += (index_t)gridDim.x * ZB) {
        const int zones = (int)min((index_t)ZB, Z - z0);
        // buf0[zb][k][i] = d[dofs[z][i]][k]; items in (zb, i, k) order, so a dof's K entries are
        // read together (STAGE loads in flight, as force_rhs's staging)
        constexpr int N = ZB * ND * K;
        for (int first = threadIdx.x; first < N; first += STAGE * blockDim.x) {
            double val[STAGE];
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int item = first + u * blockDim.x, zi = item / K, zb = zi / ND;
                val[u] = item < N && zb < zones
                    ? d[(index_t)dofs[z0 * ND + zi] * K + item - zi * K] : 0.0;
            }
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int item = first + u * blockDim.x, zi = item / K, zb = zi / ND;
                if (item < N) buf0[(zb * K + item - zi * K) * ND + zi - zb * ND] = val[u];
            }
        }
        __syncthreads();
        double* at_points = contract_all<D, P, Q, T, false, P, 1, Packed<ND>>(buf0, buf0, buf1,
                                                                              bq, bq);
        // times the weights (STAGE loads in flight)
        for (int first = threadIdx.x; first < T * NQ; first += STAGE * blockDim.x) {
            double wq[STAGE];
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int item = first + u * blockDim.x, zb = item / (K * NQ), q = item % NQ;
                wq[u] = item < T * NQ && zb < zones ? w[(z0 + zb) * NQ + q] : 0.0;
            }
#pragma unroll
            for (int u = 0; u < STAGE; ++u) {
                const int item = first + u * blockDim.x;
                if (item < T * NQ) at_points[item] *= wq[u];
            }
        }
        __syncthreads();
        double* other = at_points == buf0 ? buf1 : buf0;
        const double* out = contract_all<D, Q, P, T, false, 1, P, Packed<NQ>>(at_points,
                                                                              at_points, other,
                                                                              bq, bq);
        for (int item = threadIdx.x; item < zones * ND * K; item += blockDim.x) {
            const int zi = item / K, zb = zi / ND, k = item - zi * K;
            yz[z0 * ND * K + item] = out[(zb * K + k) * ND + zi - zb * ND];
        }
        __syncthreads();
    }
}

// rhs[c][i] = -sum of F . 1's entries of dof i, component c: the corner forces assembled into
// the momentum right-hand side (D, n) without atomics. entries[offsets[i] .. offsets[i + 1])
// lists the zone-local positions z * ND + l with dof_map[z][l] = i, in increasing order (so the
// sum runs in the order of a sequential scatter-add: numpy.bincount's on the CPU).
template <int D>
__global__ void assemble_forces(const double* __restrict__ f1, const int* __restrict__ offsets,
                                const int* __restrict__ entries, double* __restrict__ rhs,
                                int n, int ND) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double sum[D];
#pragma unroll
        for (int c = 0; c < D; ++c) sum[c] = 0.0;
        for (int e = offsets[i]; e < offsets[i + 1]; ++e) {
            const int pos = entries[e], z = pos / ND, l = pos - z * ND;
#pragma unroll
            for (int c = 0; c < D; ++c) sum[c] += f1[((index_t)z * D + c) * ND + l];
        }
#pragma unroll
        for (int c = 0; c < D; ++c) rhs[(index_t)c * n + i] = -sum[c];
    }
}

// ---------------------------------------------------------------------------------------------
// PCG on the kinematic mass matrix M (applied by mass_zone, then summed into the dofs) for K
// right-hand sides at once (the velocity's components; hydro/gpu_kernels.py mass_pcg runs the
// iteration, as hydro/operators.py pcg does on any array module, and mass_pcg_ranks on MPI
// ranks, the host reducing the partial sums over the ranks between the kernels and passing the
// totals back as one block's partials). The operator is MFEM's
// constrained one, z = free * M (free * d) + (1 - free) * d, free 1 on free dofs and 0 on walls.
// The vectors are interleaved, (n, K): entry (i, c) at i * K + c, so that a dof's K values share a
// sector (mass_zone gathers them). CG keeps d = 0 where free = 0 (the right-hand side vanishes
// there, and so does every update), so the product reads d without its mask. Each kernel writes
// its block's partial dot products to partial[block * K + c]; the next kernel sums them in
// block order (deterministic). Device code only (warp shuffles, shared memory): the host build of
// tests/hydro/hydro_kernels_host.cpp stops above.
#ifdef __CUDACC__
constexpr int PCG_THREADS = 256;

// Sum of v[c] over the block (c < K), written by thread 0 to out[c] (warps by shuffles, then
// warp 0 over the warps' sums: a fixed order). Ends with a barrier, after which out, if in
// shared memory, holds the sums for every thread.
template <int K>
__device__ __forceinline__ void pcg_block_sum(double (&v)[K], double* out) {
    __shared__ double warp_sums[K][PCG_THREADS / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int c = 0; c < K; ++c) {
        double s = v[c];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) warp_sums[c][warp] = s;
    }
    __syncthreads();
    if (warp == 0) {
#pragma unroll
        for (int c = 0; c < K; ++c) {
            double s = lane < PCG_THREADS / 32 ? warp_sums[c][lane] : 0.0;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
            if (lane == 0) out[c] = s;
        }
    }
    __syncthreads();
}

// Sum of v[c] over the block, written to partial[blockIdx.x * K + c].
template <int K>
__device__ __forceinline__ void pcg_block_partials(double (&v)[K], double* partial) {
    pcg_block_sum<K>(v, partial + blockIdx.x * K);
}

// z = free * M d + (1 - free) * d (d = 0 where free = 0), and the partial sums of (d, z) per
// component c. M d is summed from mass_zone's zone results yz (Z * ND, K) over each dof's
// entries (assemble_forces's offsets and entries: no atomics, a fixed order).
template <int K>
__global__ void __launch_bounds__(PCG_THREADS)
pcg_gather_apply(const int* __restrict__ offsets, const int* __restrict__ entries,
                 const double* __restrict__ yz, const double* __restrict__ free,
                 const double* __restrict__ d, double* __restrict__ z, double* __restrict__ partial,
                 int n) {
    double dots[K];
#pragma unroll
    for (int c = 0; c < K; ++c) dots[c] = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double sum[K];
#pragma unroll
        for (int c = 0; c < K; ++c) sum[c] = 0.0;
        for (int e = offsets[i]; e < offsets[i + 1]; ++e) {
            const double* y = yz + (index_t)entries[e] * K;
#pragma unroll
            for (int c = 0; c < K; ++c) sum[c] += y[c];
        }
#pragma unroll
        for (int c = 0; c < K; ++c) {
            const index_t j = (index_t)i * K + c;
            const double f = free[j], zj = f * sum[c] + (1.0 - f) * d[j];
            z[j] = zj;
            dots[c] += d[j] * zj;
        }
    }
    pcg_block_partials<K>(dots, partial);
}

// The CG's scalars live on the device, so that an iteration's three kernels queue without the
// host reading anything between them: state (double) holds r0[K] (the stopping bound) and, by
// the parity p = it & 1 of the iteration reading them, nom[p][K]; istate (int) holds
// active[p][K], iterations[K] and, last, whether any component is still active after the latest
// pcg_direction (what the host polls). An iteration's kernels read parity p and pcg_direction's
// block 0 writes parity p ^ 1, so no block reads what another block of its kernel writes.
template <int K>
__device__ __forceinline__ int pcg_nom(int parity, int c) {     // nom's index in state
    return K + parity * K + c;
}

// total[c] (shared memory) = sum of partial[b * K + c] over b < blocks, the same order in every
// block: thread t takes blocks t, t + PCG_THREADS, ... (at most PCG_MAX_BLOCKS / PCG_THREADS =
// 4), then pcg_block_sum (the same time as warp 0 alone taking 32 blocks a lane:
// reports/gpu_20261129d call 5; one block reduction serves both). Ends with a barrier.
template <int K>
__device__ __forceinline__ void pcg_total(const double* __restrict__ partial, int blocks,
                                          double* total) {
    double s[K];
#pragma unroll
    for (int c = 0; c < K; ++c) s[c] = 0.0;
#pragma unroll 4
    for (int b = threadIdx.x; b < blocks; b += PCG_THREADS)
#pragma unroll
        for (int c = 0; c < K; ++c) s[c] += partial[b * K + c];
    pcg_block_sum<K>(s, total);
}

// alpha_c = nom_c / (d, z)_c (0 for a stopped component; (d, z) from pcg_gather_apply's
// partials), then x += alpha_c d, r -= alpha_c z, z = r / diag, and the partial sums of (r, z)
// per component c: with OWNED each dof's term weighted by owned[i] (MPI ranks: 1 where this
// rank owns the dof, else 0, so that a shared dof counts once over all ranks; owned is not read
// without OWNED). A thread walks the interleaved entries themselves: coalesced 8-byte accesses
// (1.32-1.37x a thread taking a dof's K entries: reports/gpu_20261129d call 7); the grid is a
// multiple of K blocks, so that a thread's entries share a component.
// Block 0 records iteration `it` for the active components.
template <int K, bool OWNED>
__global__ void __launch_bounds__(PCG_THREADS)
pcg_update(double* __restrict__ x, double* __restrict__ r, double* __restrict__ z,
           const double* __restrict__ d, const double* __restrict__ diag,
           const double* __restrict__ owned, const double* __restrict__ apply_partial,
           double* __restrict__ partial, const double* __restrict__ state,
           int* __restrict__ istate, int apply_blocks, int it, int n) {
    __shared__ double den[K], alpha[K];
    pcg_total<K>(apply_partial, apply_blocks, den);
    const int p = it & 1;
    if (threadIdx.x < K) {
        const int c = threadIdx.x;
        const bool active = istate[p * K + c] != 0;
        alpha[c] = active ? state[pcg_nom<K>(p, c)] / den[c] : 0.0;
        if (blockIdx.x == 0 && active) istate[2 * K + c] = it;
    }
    __syncthreads();
    // entry e = i * K + c a thread, c the same for all of its entries
    const index_t first = (index_t)blockIdx.x * PCG_THREADS + threadIdx.x;
    const int c = (int)(first % K);
    const double a = alpha[c];
    double dot = 0.0;
    for (index_t e = first; e < (index_t)n * K; e += (index_t)gridDim.x * PCG_THREADS) {
        const index_t i = e / K;
        x[e] += a * d[e];
        const double ri = r[e] - a * z[e];
        const double zi = ri / diag[i];
        r[e] = ri;
        z[e] = zi;
        dot += OWNED ? owned[i] * (ri * zi) : ri * zi;
    }
    double dots[K];
#pragma unroll
    for (int cc = 0; cc < K; ++cc) dots[cc] = cc == c ? dot : 0.0;
    pcg_block_partials<K>(dots, partial);
}

// A component stays active while (r, z) > r0; beta_c = (r, z)_c / nom_c (0 once stopped) and
// d = z + beta_c d (a thread an entry, as in pcg_update). Block 0 writes the next iteration's
// active flags and nom ((r, z) where active, nom kept where stopped) and whether any component
// is active.
template <int K>
__global__ void __launch_bounds__(PCG_THREADS)
pcg_direction(double* __restrict__ d, const double* __restrict__ z,
              const double* __restrict__ update_partial, double* __restrict__ state,
              int* __restrict__ istate, int update_blocks, int it, int n) {
    __shared__ double betanom[K], beta[K];
    __shared__ int still[K];
    pcg_total<K>(update_partial, update_blocks, betanom);
    const int p = it & 1, q = p ^ 1;
    if (threadIdx.x < K) {
        const int c = threadIdx.x;
        const double nom = state[pcg_nom<K>(p, c)];
        still[c] = istate[p * K + c] != 0 && !(betanom[c] <= state[c]);
        beta[c] = still[c] ? betanom[c] / nom : 0.0;
        if (blockIdx.x == 0) {
            istate[q * K + c] = still[c];
            state[pcg_nom<K>(q, c)] = still[c] ? betanom[c] : nom;
        }
    }
    __syncthreads();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int any = 0;
#pragma unroll
        for (int c = 0; c < K; ++c) any |= still[c];
        istate[3 * K] = any;
    }
    const index_t first = (index_t)blockIdx.x * PCG_THREADS + threadIdx.x;
    const double b = beta[first % K];
    for (index_t e = first; e < (index_t)n * K; e += (index_t)gridDim.x * PCG_THREADS)
        d[e] = z[e] + b * d[e];
}
#endif  // __CUDACC__
