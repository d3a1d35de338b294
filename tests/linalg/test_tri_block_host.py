"""kernels/tri_block.cu's staging, k ranges and register tiles (tb_stage_triangle,
tb_stage_vectors, tb_k_range, tb_accumulate, tb_put_tile), compiled for the host with nvcc and run
for the 256 threads of a block one after another in the kernels' order, checked against NumPy:
TRMM for every side, triangle, trans and unit diagonal, LAUUM lower and upper, n = 33 and 64.
Skips without nvcc (the device tests run them in the kernels)."""
import itertools
import subprocess

import numpy
import pytest

from .helpers import build_host_program, random_triangular, rng

PROGRAM = r"""
#include <cstdio>
#include <vector>
#include "tri_block.cu"
// C = P^T Q by the 256 tiles (all reads before the writes into o, as the kernels' barrier does).
template <typename T>
void product(const T* p, const T* q, T* o, int n, bool upper_m, T alpha, bool symmetric) {
    static T acc[TB_THREADS][4][4];
    for (int t = 0; t < TB_THREADS; ++t) {
        int k0, k1;
        for (int r = 0; r < 4; ++r) for (int c = 0; c < 4; ++c) acc[t][r][c] = T(0);
        tb_k_range((t >> 4) & ~1, n, upper_m, k0, k1);
        tb_accumulate<T>(p, q, t >> 4, t & 15, k0, k1, acc[t]);
    }
    for (int t = 0; t < TB_THREADS; ++t) tb_put_tile<T>(o, t >> 4, t & 15, acc[t], alpha, symmetric);
}
template <typename T>
int run(int n, int nvec, int flags, int op) {          // op 0: TRMM, 1: LAUUM (flags & TRI_LOWER)
    std::vector<T> a(n * n), b(64 * 64);
    for (auto& v : a) { double d; if (scanf("%lf", &d) != 1) return 1; v = d; }
    const int nb = n * nvec;
    for (int e = 0; e < nb; ++e) { double d; if (scanf("%lf", &d) != 1) return 1; b[e] = d; }
    alignas(16) static T s[2 * TB_N * tb_ld<T>()];
    T *p = s, *q = s + TB_N * tb_ld<T>();
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    if (op == 1) {
        for (int e = 0; e < TB_N * TB_N; ++e) tb_stage_triangle<T>(a.data(), n, p, n, lower, false, !lower, e);
        product<T>(p, p, p, n, true, T(1), true);
        for (int e = 0; e < n * n; ++e) printf("%.17g\n", (double)p[(e / n) * TB_OUT_LD + e % n]);
        return 0;
    }
    const bool transpose = ((flags & TRI_TRANS) != 0) != right;
    for (int e = 0; e < TB_N * TB_N; ++e) tb_stage_triangle<T>(a.data(), n, p, n, lower, unit, !transpose, e);
    const int ldb = right ? n : nvec;
    for (int e = 0; e < TB_N * TB_N; ++e) tb_stage_vectors<T>(b.data(), ldb, q, n, nvec, right, e);
    product<T>(p, q, q, n, lower == transpose, T(1.5), false);
    for (int e = 0; e < n * nvec; ++e) {
        const int i = right ? e % n : e / nvec, j = right ? e / n : e % nvec;
        b[right ? j * ldb + i : i * ldb + j] = q[i * TB_OUT_LD + j];
    }
    for (int e = 0; e < nb; ++e) printf("%.17g\n", (double)b[e]);
    return 0;
}
int main(int argc, char** argv) {
    const int n = atoi(argv[1]), nvec = atoi(argv[2]), flags = atoi(argv[3]), op = atoi(argv[4]);
    return argc > 5 ? run<float>(n, nvec, flags, op) : run<double>(n, nvec, flags, op);
}
"""

RIGHT, LOWER, TRANS, UNIT = 1, 2, 4, 8


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "tri_block_host", PROGRAM)


def _run(program, dtype, a, b, n, nvec, flags, op):
    text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.ravel(), b.ravel()]))
    args = [str(program), str(n), str(nvec), str(flags), str(op)]
    args += ["float"] if dtype == numpy.float32 else []
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
    return numpy.array(out.stdout.split(), dtype=float)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", [33, 64])
def test_trmm_every_variant(program, n, dtype):
    gen = rng(n)
    nvec = 37
    tol = 64 * numpy.finfo(dtype).eps
    for right, lower, trans, unit in itertools.product((False, True), repeat=4):
        t = random_triangular(gen, 1, n, dtype, lower=lower, unit_diagonal=unit)[0].astype(float)
        a = t.copy()
        a[numpy.triu_indices(n, 1) if lower else numpy.tril_indices(n, -1)] = numpy.nan
        if unit:
            a[numpy.arange(n), numpy.arange(n)] = numpy.nan
        b = gen.standard_normal((nvec, n) if right else (n, nvec)).astype(dtype).astype(float)
        flags = RIGHT * right | LOWER * lower | TRANS * trans | UNIT * unit
        got = _run(program, dtype, a, b, n, nvec, flags, 0).reshape(b.shape)
        opm = t.T if trans else t
        ref = 1.5 * (b @ opm if right else opm @ b)
        err = numpy.abs(got - ref).max() / (numpy.abs(opm).sum() * numpy.abs(b).max())
        assert err < tol, (right, lower, trans, unit, err)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", [33, 64])
def test_lauum_both_triangles(program, n, dtype):
    gen = rng(n + 1)
    for lower in (True, False):
        t = random_triangular(gen, 1, n, dtype, lower=lower)[0].astype(float)
        a = t.copy()
        a[numpy.triu_indices(n, 1) if lower else numpy.tril_indices(n, -1)] = numpy.nan
        got = _run(program, dtype, a, numpy.zeros(0), n, 0, LOWER * lower, 1).reshape(n, n)
        ref = t.T @ t if lower else t @ t.T
        assert numpy.array_equal(got, got.T)
        err = numpy.abs(got - ref).max() / (numpy.abs(t).sum() * numpy.abs(t).max())
        assert err < 64 * numpy.finfo(dtype).eps, (lower, err)
