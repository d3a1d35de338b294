"""kernels/tri_warp.cu's register sweeps (tri_warp_mul, tri_warp_solve), compiled for the host
with nvcc and checked against NumPy: both triangle directions, one and two vectors a lane, and
POTRS's transposed second solve. Skips without nvcc (the device tests run them in the kernel)."""
import subprocess

import numpy
import pytest

from .helpers import build_host_program

N = 32
PROGRAM = r"""
#include <cstdio>
#include "tri_warp.cu"
int main() {
    constexpr int N = 32, LD = N + 1;
    double s[N * LD], x[2][N];
    for (int i = 0; i < N * LD; ++i) if (scanf("%lf", &s[i]) != 1) return 1;
    for (int j = 0; j < 2; ++j) for (int i = 0; i < N; ++i) if (scanf("%lf", &x[j][i]) != 1) return 1;
    double r[6][2][N];
    for (int c = 0; c < 6; ++c) for (int j = 0; j < 2; ++j) for (int i = 0; i < N; ++i) r[c][j][i] = x[j][i];
    tri_warp_mul<double, N, 2, true>(s, r[0]);
    tri_warp_mul<double, N, 2, false>(s, r[1]);
    tri_warp_solve<double, N, 2, true, true>(s, r[2]);
    tri_warp_solve<double, N, 2, false, true>(s, r[3]);
    tri_warp_solve<double, N, 2, false, false>(s, r[4]);   // reads the staged lower one transposed
    double one[1][N];
    for (int i = 0; i < N; ++i) one[0][i] = x[1][i];
    tri_warp_solve<double, N, 1, true, true>(s, one);
    for (int i = 0; i < N; ++i) r[5][0][i] = r[5][1][i] = one[0][i];
    for (int c = 0; c < 6; ++c) for (int j = 0; j < 2; ++j) for (int i = 0; i < N; ++i) printf("%.17g\n", r[c][j][i]);
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "tri_warp_host", PROGRAM)


def test_register_sweeps_match_numpy(program):
    gen = numpy.random.default_rng(7)
    s = gen.uniform(-0.5, 0.5, (N, N + 1))
    s[numpy.arange(N), numpy.arange(N)] = gen.uniform(1.0, 2.0, N)     # staged diagonal
    x = gen.uniform(-0.5, 0.5, (2, N))
    text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([s.ravel(), x.ravel()]))
    out = subprocess.run([str(program)], input=text, capture_output=True, text=True, check=True)
    r = numpy.array(out.stdout.split(), dtype=float).reshape(6, 2, N)
    m = s[:, :N]
    lower, upper = numpy.tril(m), numpy.triu(m)
    inv_diag = numpy.diag(1.0 / numpy.diag(m))           # solves store 1/m_ii on the diagonal

    def with_inverse_diagonal(t):
        return t - numpy.diag(numpy.diag(t)) + inv_diag

    expected = [
        x @ lower.T,                                                  # mul, lower
        x @ upper.T,                                                  # mul, upper
        numpy.linalg.solve(with_inverse_diagonal(lower), x.T).T,      # solve, lower
        numpy.linalg.solve(with_inverse_diagonal(upper), x.T).T,      # solve, upper
        numpy.linalg.solve(with_inverse_diagonal(lower).T, x.T).T,   # transposed (POTRS's 2nd)
        numpy.linalg.solve(with_inverse_diagonal(lower), x[1:].T).T.repeat(2, 0),   # one vector
    ]
    for case, (got, want) in enumerate(zip(r, expected)):
        assert numpy.allclose(got, want, rtol=1e-12, atol=1e-12), (case, numpy.abs(got - want).max())
