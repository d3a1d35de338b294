// kernels/hydro.cu compiled as plain C++ for the host, so that CI (no GPU) runs the kernels'
// arithmetic: tests/hydro/test_gpu_kernels.py builds this file with g++ and calls the entry
// points below through ctypes. The kernels built here use no warp functions (__ldg is a plain
// load, __longlong_as_double a copy of the bits), so these few definitions are all they need:
// one "thread" (block 0, thread 0, grid and block of 1) walks every item of the grid-stride
// loops and of the partial-assembly kernels' block-strided loops, so their shared arrays are
// plain locals and their barriers no-ops. The PCG's kernels (warp shuffles) sit behind
// __CUDACC__ and are left out.
#include <algorithm>
#include <cmath>
#include <cstring>
#define __device__
#define __global__
#define __forceinline__ inline
#define __restrict__
#define __shared__
#define __launch_bounds__(threads)
inline void __syncthreads() {}
struct host_dim3 { unsigned x, y, z; };
static const host_dim3 blockIdx{0, 0, 0}, threadIdx{0, 0, 0}, blockDim{1, 1, 1}, gridDim{1, 1, 1};
template <typename T> inline T __ldg(const T* p) { return *p; }
inline double __longlong_as_double(long long bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}
using std::isfinite;
using std::max;
using std::min;
#include "hydro.cu"

extern "C" {
void host_quadrature_physics(int D, const double* Jg, const double* Vg, const double* e_q,
                             const double* rho0w, const double* w, const double* gamma,
                             const double* Jac0inv, double* rho, double* p, double* stress,
                             double* dt, long long Z, int NQ, int viscosity, int vorticity,
                             double h0, double q1, double q2, double cfl, double order) {
#define QP(d) if (D == d) quadrature_physics<d>(Jg, Vg, e_q, rho0w, w, gamma, Jac0inv, rho, p, \
                                                stress, dt, Z, NQ, viscosity, vorticity, h0, q1, \
                                                q2, cfl, order);
    QP(1) QP(2) QP(3)
}

// (D, P, Q, E, ZB, CB) of force_rhs / force_energy: hydro.gpu_kernels.force_blocking's for Q1-Q4
// with the default quadrature (P = k + 1, Q = 2k, E = k) in 1-D to 3-D, and one with P, E > Q.
#define FORCE_CONFIGS(X) X(1, 2, 2, 1, 16, 1) X(1, 3, 4, 2, 16, 1) X(1, 4, 6, 3, 16, 1) \
    X(1, 5, 8, 4, 16, 1) X(2, 2, 2, 1, 16, 2) X(2, 3, 4, 2, 16, 2) X(2, 4, 6, 3, 16, 2) \
    X(2, 5, 8, 4, 9, 2) X(3, 2, 2, 1, 16, 3) X(3, 3, 4, 2, 4, 3) X(3, 4, 6, 3, 1, 3) \
    X(3, 5, 8, 4, 1, 1) X(2, 3, 2, 3, 16, 2)

int host_force_rhs(int D, int P, int Q, int E, int ZB, int CB, const double* stress,
                   const double* h1_B1, const double* h1_G1, const double* l2_B1, double* f1,
                   long long Z) {
#define FR(d, p, q, e, zb, cb)                                                                  \
    if (D == d && P == p && Q == q && E == e && ZB == zb && CB == cb) {                         \
        force_rhs<d, p, q, e, zb, cb>(stress, h1_B1, h1_G1, l2_B1, f1, Z);                      \
        return 0;                                                                               \
    }
    FORCE_CONFIGS(FR)
    return 1;
}

int host_force_energy(int D, int P, int Q, int E, int ZB, int CB, const double* stress,
                      const double* v, const int* dofs, int n, const double* h1_B1,
                      const double* h1_G1, const double* l2_B1, double* e, long long Z) {
#define FE(d, p, q, e_, zb, cb)                                                                 \
    if (D == d && P == p && Q == q && E == e_ && ZB == zb && CB == cb) {                        \
        force_energy<d, p, q, e_, zb, cb>(stress, v, dofs, n, h1_B1, h1_G1, l2_B1, e, Z);       \
        return 0;                                                                               \
    }
    FORCE_CONFIGS(FE)
    return 1;
}

// (D, P, Q, ZB, K) of mass_zone: PartialAssemblyMass.zones_per_block's ZB for the velocity's K = D
// components, Q1-Q4 with the default quadrature, 1-D to 3-D.
#define MASS_CONFIGS(X) X(1, 2, 2, 16, 1) X(1, 3, 4, 16, 1) X(1, 4, 6, 16, 1) X(1, 5, 8, 16, 1) \
    X(2, 2, 2, 16, 2) X(2, 3, 4, 16, 2) X(2, 4, 6, 16, 2) X(2, 5, 8, 12, 2) X(3, 2, 2, 16, 3) \
    X(3, 3, 4, 8, 3) X(3, 4, 6, 2, 3) X(3, 5, 8, 1, 3)

int host_mass_zone(int D, int P, int Q, int ZB, int K, const double* d, const int* dofs,
                   const double* w, const double* h1_B1, double* yz, long long Z) {
#define MZ(d_, p, q, zb, k)                                                                     \
    if (D == d_ && P == p && Q == q && ZB == zb && K == k) {                                    \
        mass_zone<d_, p, q, zb, k>(d, dofs, w, h1_B1, yz, Z);                                   \
        return 0;                                                                               \
    }
    MASS_CONFIGS(MZ)
    return 1;
}

void host_assemble_forces(int D, const double* f1, const int* offsets, const int* entries,
                          double* rhs, int n, int ND) {
    if (D == 1) assemble_forces<1>(f1, offsets, entries, rhs, n, ND);
    if (D == 2) assemble_forces<2>(f1, offsets, entries, rhs, n, ND);
    if (D == 3) assemble_forces<3>(f1, offsets, entries, rhs, n, ND);
}
}
