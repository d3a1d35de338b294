"""kernels/tri_pair.cu's column sweeps (tp_pivot, tp_apply on the packed tile of tp_slot), compiled
for the host with nvcc and run for the two lanes of a pair in lockstep (the shuffle done by hand),
checked against NumPy: the multiply, the solve, and POTRS's second solve in reversed order.
Skips without nvcc (the device tests run them in the kernel)."""
import subprocess

import numpy
import pytest

from linalg._cuda.triangular import pair_half_tile, pair_potrs_smem_elems

from .helpers import build_host_program

PROGRAM = r"""
#include <cstdio>
#include "tri_pair.cu"
template <typename T, int MODE, bool REV>
void sweep(const T* tile, T (&x)[2][TP_ROWS]) {        // x[lane][p]: sweep position 2p + lane
    for (int step = 0; step < 64; ++step) {
        const int u = MODE == TRI_WARP_MUL ? 63 - step : step;
        T m[2][TP_ROWS], send[2];
        for (int a = 0; a < 2; ++a) {
            tp_load_column<T>(tile + (a ^ REV) * tp_half<T>(), u, m[a]);
            send[a] = tp_pivot<T, MODE, REV>(x[a], m[a], u);
        }
        const T xu = send[(u & 1) ^ REV];
        for (int a = 0; a < 2; ++a) tp_apply<T, MODE, REV>(x[a], m[a], u, a ^ REV, xu);
    }
}
template <typename T>
int run() {
    static T M[64][64], b[64];
    for (int i = 0; i < 64; ++i) for (int j = 0; j < 64; ++j) { double v; if (scanf("%lf", &v) != 1) return 1; M[i][j] = v; }
    for (int i = 0; i < 64; ++i) { double v; if (scanf("%lf", &v) != 1) return 1; b[i] = v; }
    alignas(16) static T mul[2 * tp_half<T>()] = {}, solve[4 * tp_half<T>()] = {};
    T* second = solve + 2 * tp_half<T>();
    for (int t = 0; t < 64; ++t) for (int u = 0; u <= t; ++u) {
        mul[tp_slot<T>(t, u)] = M[t][u];
        solve[tp_slot<T>(t, u)] = t == u ? T(1) / M[t][u] : M[t][u];
        // M^T renumbered t -> 63 - t (lower again): entry (t, u) is M(63 - u, 63 - t)
        second[tp_slot<T>(t, u)] = t == u ? T(1) / M[63 - t][63 - t] : M[63 - u][63 - t];
    }
    T x[2][TP_ROWS], y[2][TP_ROWS];
    for (int a = 0; a < 2; ++a) for (int p = 0; p < TP_ROWS; ++p) x[a][p] = y[a][p] = b[2 * p + a];
    sweep<T, TRI_WARP_MUL, false>(mul, x);
    for (int i = 0; i < 64; ++i) printf("%.17g\n", (double)x[i & 1][i >> 1]);
    sweep<T, TRI_WARP_SOLVE, false>(solve, y);
    for (int i = 0; i < 64; ++i) printf("%.17g\n", (double)y[i & 1][i >> 1]);
    sweep<T, TRI_WARP_SOLVE, true>(second, y);
    for (int i = 0; i < 64; ++i) printf("%.17g\n", (double)y[i & 1][i >> 1]);
    printf("%d\n%d\n%d\n", tp_half<T>(), tri_pair_potrs_smem_elems<T, 3>(),
           tri_pair_potrs_smem_elems<T, 4>());
    return 0;
}
int main(int argc, char**) { return argc > 1 ? run<float>() : run<double>(); }
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "tri_pair_host", PROGRAM)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_column_sweeps_match_numpy(program, dtype):
    gen = numpy.random.default_rng(11)
    m = numpy.tril(gen.uniform(-0.5, 0.5, (64, 64)))
    m[numpy.arange(64), numpy.arange(64)] = gen.uniform(1.0, 2.0, 64)
    m = m.astype(dtype).astype(numpy.float64)
    b = gen.uniform(-1.0, 1.0, 64).astype(dtype).astype(numpy.float64)
    text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([m.ravel(), b]))
    args = [str(program)] + (["float"] if dtype == numpy.float32 else [])
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
    values = numpy.array(out.stdout.split(), dtype=float)
    r, (half, potrs3, potrs4) = values[:-3].reshape(3, 64), values[-3:].astype(int)
    assert half == pair_half_tile(numpy.dtype(dtype).itemsize)     # the launchers' shared bytes
    assert (potrs3, potrs4) == (pair_potrs_smem_elems(3), pair_potrs_smem_elems(4))
    eps = numpy.finfo(dtype).eps
    x = numpy.linalg.solve(m, b)
    assert numpy.abs(r[0] - m @ b).max() <= 64 * eps * numpy.abs(m).sum(1).max()
    assert numpy.abs(m @ r[1] - b).max() <= 64 * eps * numpy.abs(m).sum() / 64 * numpy.abs(x).max()
    y = numpy.linalg.solve(m @ m.T, b)
    assert numpy.linalg.norm(r[2] - y) <= 1e3 * eps * numpy.linalg.cond(m @ m.T) * numpy.linalg.norm(y)
