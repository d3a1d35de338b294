// kernels/hydro.cu compiled as plain C++ for the host, so that CI (no GPU) runs the kernels'
// arithmetic: tests/hydro/test_gpu_kernels.py builds this file with g++ and calls the entry
// points below through ctypes. The pointwise kernels use scalar device code only (no shared
// memory, no warp functions; __ldg is a plain load, __longlong_as_double a copy of the bits),
// so these few definitions are all they need; one "thread" (block 0, thread 0, grid and block
// of 1) walks every item of the grid-stride loops. The PCG's kernels (warp shuffles, shared
// memory) sit behind __CUDACC__ and are left out.
#include <algorithm>
#include <cmath>
#include <cstring>
#define __device__
#define __global__
#define __forceinline__ inline
#define __restrict__
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

// NJ: hydro.gpu_kernels.columns_per_thread(NE) for NE of Q1..Q4 (1-D: 1-4; 2-D: 1, 4, 9, 16;
// 3-D: 1, 8, 27, 64 -> 16).
int host_corner_forces(int D, int NJ, const double* stress, const double* G, const double* Bt,
                       double* F, double* F1, long long Z, int NQ, int ND, int NE) {
#define CF(d, nj) if (D == d && NJ == nj) { corner_forces<d, nj>(stress, G, Bt, F, F1, Z, NQ, \
                                                                 ND, NE); return 0; }
    CF(1, 1) CF(1, 2) CF(1, 3) CF(1, 4) CF(2, 1) CF(2, 4) CF(2, 9) CF(2, 16) CF(3, 1) CF(3, 8)
    CF(3, 16)
    return 1;
}

void host_assemble_forces(int D, const double* f1, const int* offsets, const int* entries,
                          double* rhs, int n, int ND) {
    if (D == 1) assemble_forces<1>(f1, offsets, entries, rhs, n, ND);
    if (D == 2) assemble_forces<2>(f1, offsets, entries, rhs, n, ND);
    if (D == 3) assemble_forces<3>(f1, offsets, entries, rhs, n, ND);
}
}
