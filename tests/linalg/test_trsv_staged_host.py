"""kernels/trsv.cu's trsv_staged pieces (trsv_staged_copy, trsv_staged_step), compiled for the
host with nvcc and run for the 32 lanes of a warp one after the other (the shuffle done by
hand), with the view and reversal the kernel sets up, against NumPy: every lower/upper x N/T x
unit variant (and POTRS's second solve after the forward ones), n = 1..32, a strided A, the
other triangle (and a unit diagonal) NaN. The tile
starts as NaN, so a step that read outside the copied triangle would show. Skips without nvcc
(the device tests run the kernel itself)."""
import itertools
import subprocess

import numpy
import pytest

from .helpers import build_host_program

PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <vector>
#include "trsv.cu"
int main() {
    int n, lda, lower, trans, unit;
    if (scanf("%d %d %d %d %d", &n, &lda, &lower, &trans, &unit) != 5) return 1;
    std::vector<double> A((size_t)n * lda), b(n);
    for (double& v : A) if (scanf("%lf", &v) != 1) return 1;
    for (double& v : b) if (scanf("%lf", &v) != 1) return 1;
    // The kernel's view of op(A): lower-triangular, reversed for the backward cases.
    const bool reversed = (lower != 0) == (trans != 0);
    const index_t s = reversed ? -1 : 1, rs = trans ? s : s * lda, cs = trans ? s * lda : s;
    const double* p = reversed ? A.data() + (index_t)(n - 1) * lda + (n - 1) : A.data();
    std::vector<double> tile(TRSV_STAGED_TILE, NAN);
    for (int lane = 0; lane < 32; ++lane) trsv_staged_copy(p, rs, cs, n, trans == 0, tile.data(), lane);
    double x[32], rinv[32];
    for (int lane = 0; lane < 32; ++lane) {
        const int orig = reversed ? n - 1 - lane : lane;
        x[lane] = lane < n ? b[orig] : 0.0;
        rinv[lane] = unit || lane >= n ? 1.0 : 1.0 / tile[trsv_staged_at(lane, lane)];
    }
    for (int j = 0; j < n; ++j) {
        x[j] *= rinv[j];
        const double xj = x[j];
        for (int lane = 0; lane < 32; ++lane) x[lane] = trsv_staged_step(x[lane], tile.data(), n, lane, j, xj);
    }
    for (int i = 0; i < n; ++i) printf("%.17g\n", x[reversed ? n - 1 - i : i]);
    if (!reversed) {            // POTRS's second solve, M^T x = y, from the same tile
        for (int j = n - 1; j >= 0; --j) {
            x[j] *= rinv[j];
            const double xj = x[j];
            for (int lane = 0; lane < 32; ++lane) x[lane] = trsv_staged_back_step(x[lane], tile.data(), lane, j, xj);
        }
        for (int i = 0; i < n; ++i) printf("%.17g\n", x[i]);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "trsv_staged_host", PROGRAM)


@pytest.mark.parametrize("lower,trans,unit", list(itertools.product((True, False), (0, 1),
                                                                       (False, True))))
def test_staged_copy_and_column_solve_match_numpy(program, lower, trans, unit):
    gen = numpy.random.default_rng(7 + 4 * lower + 2 * trans + unit)
    for n in (1, 2, 5, 17, 31, 32):
        lda = n + 3                                        # a strided A: padding columns NaN
        t = gen.uniform(-0.5, 0.5, (n, n))
        t[numpy.arange(n), numpy.arange(n)] = gen.uniform(1.0, 2.0, n)
        t = numpy.tril(t) if lower else numpy.triu(t)
        a = numpy.full((n, lda), numpy.nan)
        a[:, :n] = t
        other = numpy.triu(numpy.ones((n, n), bool), 1) if lower else \
            numpy.tril(numpy.ones((n, n), bool), -1)
        a[:, :n][other] = numpy.nan
        op = numpy.array(t)
        if unit:
            a[numpy.arange(n), numpy.arange(n)] = numpy.nan
            op[numpy.arange(n), numpy.arange(n)] = 1.0
        op = op.T if trans else op
        b = gen.uniform(-1.0, 1.0, n)
        text = f"{n} {lda} {int(lower)} {trans} {int(unit)}\n" + \
            "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.ravel(), b]))
        out = subprocess.run([str(program)], input=text, capture_output=True, text=True,
                             check=True)
        values = numpy.array(out.stdout.split(), dtype=float)
        x = values[:n]
        eps = numpy.finfo(float).eps
        assert numpy.isfinite(values).all(), n
        assert numpy.abs(op @ x - b).max() <= 64 * n * eps * numpy.abs(op).sum(1).max() * \
            numpy.abs(x).max(), n
        if lower != bool(trans):      # the forward cases: POTRS with A = op op^T follows
            assert len(values) == 2 * n
            z = values[n:]
            full = op @ op.T
            assert numpy.abs(full @ z - b).max() <= 64 * n * eps * numpy.abs(full).sum(1).max() * \
                numpy.abs(z).max(), n
        else:
            assert len(values) == n
