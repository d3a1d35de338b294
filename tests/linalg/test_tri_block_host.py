"""kernels/tri_block.cu's staging moves, tile map, k ranges, register tiles and stores
(tb_for_places, tb_triangle_move, tb_vector_move, tb_tile_of, tb_k_range, tb_accumulate,
tb_store_tile, tb_put_tile, tb_store_transposed; 16-byte and single stores by the alignment of n;
the places left unstaged hold NaN),
compiled for the host with nvcc and run for the 256 threads of a block one after another in the
kernels' order, checked against NumPy: TRMM for every side, triangle, trans and unit diagonal,
LAUUM lower and upper, n = 33, 47 and 64. Skips without nvcc (the device tests run them in the
kernels)."""
import itertools
import subprocess

import numpy
import pytest

from .helpers import build_host_program, random_triangular, rng

PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "tri_block.cu"
// The 256 tiles of C = P^T Q into acc (all reads before any write, as the kernels' barrier or
// registers give), each tile exactly once.
template <typename T>
void product(const T* p, const T* q, int n, bool upper_m, T (*acc)[4][4]) {
    bool seen[16][16] = {};
    for (int t = 0; t < TB_THREADS; ++t) {
        int gi, gj, k0, k1;
        tb_tile_of(t, n, upper_m, gi, gj);
        if (seen[gi][gj]) { printf("tile (%d, %d) twice\n", gi, gj); exit(1); }
        seen[gi][gj] = true;
        for (int r = 0; r < 4; ++r) for (int c = 0; c < 4; ++c) acc[t][r][c] = T(0);
        tb_k_range(gi & ~1, n, upper_m, k0, k1);
        tb_accumulate<T>(p, q, gi, gj, k0, k1, acc[t]);
    }
}
// Every thread's tile straight to b (LAUUM, left TRMM), as the kernels store; rows = n, which
// also fixes the tile map (tb_tile_of).
template <typename T>
void store_tiles(T (*acc)[4][4], T* b, int ld, int rows, int cols, bool upper_m, T alpha) {
    for (int t = 0; t < TB_THREADS; ++t) {
        int gi, gj;
        tb_tile_of(t, rows, upper_m, gi, gj);
        tb_store_tile<T>(b, ld, rows, cols, gi, gj, acc[t], alpha, tb_vec_ok<T>(b, ld));
    }
}
template <typename T>
int run(int n, int nvec, int flags, int op) {          // op 0: TRMM, 1: LAUUM (flags & TRI_LOWER)
    alignas(16) static T a[64 * 64], b[64 * 64];
    for (int e = 0; e < n * n; ++e) { double d; if (scanf("%lf", &d) != 1) return 1; a[e] = d; }
    const int nb = n * nvec;
    for (int e = 0; e < nb; ++e) { double d; if (scanf("%lf", &d) != 1) return 1; b[e] = d; }
    alignas(16) static T s[2 * TB_N * tb_ld<T>()];
    for (T& v : s) v = T(NAN);               // places the kernels leave unstaged hold anything
    static T acc[TB_THREADS][4][4];
    T *p = s, *q = s + TB_N * tb_ld<T>();
    const bool right = flags & TRI_RIGHT, lower = flags & TRI_LOWER, unit = flags & TRI_UNIT;
    if (op == 1) {
        for (int t = 0; t < TB_THREADS; ++t)
            tb_for_places(n, n, t, [&](int e) {
                tb_apply<T>(a, p, tb_triangle_move<T>(n, n, lower, false, !lower, e));
            });
        product<T>(p, p, n, true, acc);
        store_tiles<T>(acc, a, n, n, n, true, T(1));
        for (int e = 0; e < n * n; ++e) printf("%.17g\n", (double)a[e]);
        return 0;
    }
    const bool transpose = ((flags & TRI_TRANS) != 0) != right;
    for (int t = 0; t < TB_THREADS; ++t)
        tb_for_places(n, n, t, [&](int e) {
            tb_apply<T>(a, p, tb_triangle_move<T>(n, n, lower, unit, !transpose, e));
        });
    const int ldb = right ? n : nvec;
    for (int t = 0; t < TB_THREADS; ++t)
        tb_for_places(right ? nvec : n, right ? n : nvec, t, [&](int e) {
            tb_apply<T>(b, q, tb_vector_move<T>(ldb, n, nvec, right, e));
        });
    product<T>(p, q, n, lower == transpose, acc);
    if (!right) {
        store_tiles<T>(acc, b, ldb, n, nvec, lower == transpose, T(1.5));
    } else {                                             // through the staging in q
        for (int t = 0; t < TB_THREADS; ++t) {
            int gi, gj;
            tb_tile_of(t, n, lower == transpose, gi, gj);
            tb_put_tile<T>(q, gi, gj, acc[t], T(1.5));
        }
        for (int t = 0; t < TB_THREADS; ++t) tb_store_transposed<T>(q, b, ldb, n, nvec, t);
    }
    for (int e = 0; e < nb; ++e) printf("%.17g\n", (double)b[e]);
    return 0;
}
// The k steps of each scheduler (warps w and w + 4) over the tiles' k ranges, 4 numbers.
void scheduler_steps(int n, bool upper_m) {
    int steps[4] = {};
    for (int w = 0; w < 8; ++w) {
        int gi, gj, k0, k1;
        tb_tile_of(32 * w, n, upper_m, gi, gj);
        tb_k_range(gi & ~1, n, upper_m, k0, k1);
        steps[w & 3] += k1 - k0;
    }
    printf("%d %d %d %d\n", steps[0], steps[1], steps[2], steps[3]);
}
int main(int argc, char** argv) {
    const int n = atoi(argv[1]), nvec = atoi(argv[2]), flags = atoi(argv[3]), op = atoi(argv[4]);
    if (op == 2) return scheduler_steps(n, flags & TRI_LOWER ? false : true), 0;
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
@pytest.mark.parametrize("n", [33, 47, 64])
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


def test_schedulers_share_the_k_steps(program):
    """The bands of rows go to warps such that no scheduler (warps w and w + 4) holds more k
    steps than the heaviest band rounded up to 8 (n: a lower M's last band, an upper M's first)
    or, at n > 56, than at n = 64 (bands of 8, 16, .., 64 steps, paired to 72 a scheduler): at
    n = 40 a lower M's heaviest scheduler holds 40, not 72 as with the upper M's pairing."""
    for n in range(33, 65):
        for lower in (True, False):
            out = subprocess.run([str(program), str(n), "0", str(LOWER * lower), "2"],
                                 capture_output=True, text=True, check=True).stdout
            steps = [int(v) for v in out.split()]
            bands = [(min(n, 8 * b + 8) if lower else n - 8 * b) for b in range(-(-n // 8))]
            assert sum(steps) == sum(bands), (n, lower, steps)
            assert max(steps) <= (72 if n > 56 else 8 * -(-n // 8)), (n, lower, steps)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", [33, 47, 64])
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


# kernels/trmm.cu (tri_tile, n > 64): its work items, k ranges, staging places and masks run on
# the host -- every item's k tiles staged place by place into the shared layout s[k][f], the
# product of the staged tiles by plain loops, the SYM store rule -- checked against NumPy for TRMM
# (M lower / upper, unit diagonal) and LAUUM, n = 65, 100, 130.
TILE_PROGRAM = r"""
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "trmm.cu"
template <typename T>
int run(int n, int nvec, int kdim, int flags, int sym) {
    std::vector<T> a(n * kdim), x(kdim * nvec), out(n * nvec, T(-7));
    for (auto& v : a) { double d; if (scanf("%lf", &d) != 1) return 1; v = d; }
    for (auto& v : x) { double d; if (scanf("%lf", &d) != 1) return 1; v = d; }
    const int rb = (n + TT_B - 1) / TT_B, cb = (nvec + TT_B - 1) / TT_B;
    const int per = sym ? rb * (rb + 1) / 2 : rb * cb;
    std::vector<int> seen(rb * cb, 0);
    std::vector<T> sa(TT_BK * tt_ld<T>()), sx(TT_BK * tt_ld<T>());
    for (int t = 0; t < 2 * per; ++t) {               // two matrices: the second one's items
        const tt_item it = tt_item_of(t, rb, cb, sym, flags & TT_M_UPPER);
        if (it.matrix != t / per) { printf("matrix of item %d\n", t); return 1; }
        if (it.matrix == 1) continue;
        seen[it.bi * cb + it.bj] += 1;
        const int i0 = TT_B * it.bi, j0 = TT_B * it.bj;
        int k0, k1;
        tt_k_range(i0, TT_B, j0, kdim, flags, k0, k1);
        k0 &= ~(TT_BK - 1);
        T acc[TT_B][TT_B] = {};
        for (int kb = k0; kb < k1; kb += TT_BK) {
            std::vector<int> placed(2 * TT_BK * TT_B, 0);
            for (int op = 0; op < 2; ++op)
                for (int kc = 0; kc < 2; ++kc)
                    for (int th = 0; th < TT_THREADS; ++th)
                        for (int r = 0; r < TT_PLACES; ++r) {
                            int f, k;
                            tt_place<T>(th, r, kc, f, k);
                            if (kc == 0) { placed[op * TT_BK * TT_B + k * TT_B + f] += 1; continue; }
                            // kc = 1 must hit the same set of places (checked below); stage it.
                            const int w = op == 0 ? tt_what_m(i0 + f, kb + k, n, kdim, flags)
                                                  : tt_what_x(kb + k, j0 + f, kdim, nvec, flags);
                            const T src = op == 0 ? (w == TT_COPY ? a[(i0 + f) * kdim + kb + k]
                                                                  : T(w))
                                                  : (w == TT_COPY ? x[(kb + k) * nvec + j0 + f] : T(w));
                            (op == 0 ? sa : sx)[k * tt_ld<T>() + f] = src;
                            placed[op * TT_BK * TT_B + k * TT_B + f] += 2;
                        }
            for (int e = 0; e < 2 * TT_BK * TT_B; ++e)
                if (placed[e] != 3) { printf("place %d staged %d\n", e, placed[e]); return 1; }
            for (int i = 0; i < TT_B; ++i)
                for (int j = 0; j < TT_B; ++j)
                    for (int k = 0; k < TT_BK; ++k)
                        acc[i][j] += sa[k * tt_ld<T>() + i] * sx[k * tt_ld<T>() + j];
        }
        for (int i = 0; i < TT_B; ++i)
            for (int j = 0; j < TT_B; ++j) {
                const int gi = i0 + i, gj = j0 + j;
                if (gi >= n || gj >= nvec || (sym && i0 == j0 && gi < gj)) continue;
                out[gi * nvec + gj] = acc[i][j];
                if (sym) out[gj * nvec + gi] = acc[i][j];
            }
    }
    for (int bi = 0; bi < rb; ++bi)
        for (int bj = 0; bj < cb; ++bj)
            if (seen[bi * cb + bj] != (sym ? bj <= bi : 1)) { printf("tile %d %d\n", bi, bj); return 1; }
    for (auto v : out) printf("%.17g\n", (double)v);
    return 0;
}
int main(int argc, char** argv) {
    // n nvec flags sym [kdim (default n) [float]]
    const int n = atoi(argv[1]), nvec = atoi(argv[2]), flags = atoi(argv[3]), sym = atoi(argv[4]);
    const int kdim = argc > 5 ? atoi(argv[5]) : n;
    return argc > 6 ? run<float>(n, nvec, kdim, flags, sym) : run<double>(n, nvec, kdim, flags, sym);
}
"""


@pytest.fixture(scope="module")
def tile_program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "tri_tile_host", TILE_PROGRAM)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
@pytest.mark.parametrize("n", [65, 100, 130])
def test_tri_tile_items_places_masks(tile_program, n, dtype):
    gen = rng(n + 2)
    tol = 64 * numpy.finfo(dtype).eps
    m_upper, unit, x_lower, full = 1, 2, 4, 64        # kernels/trmm.cu TT_* flags
    cases = [(False, False, 37), (True, False, 70), (False, True, 37), (True, True, 128)]
    for upper, is_unit, nvec in cases:
        t = random_triangular(gen, 1, n, dtype, lower=not upper, unit_diagonal=is_unit)[0]
        a = t.astype(float).copy()
        a[numpy.tril_indices(n, -1) if upper else numpy.triu_indices(n, 1)] = numpy.nan
        if is_unit:
            a[numpy.arange(n), numpy.arange(n)] = numpy.nan
        x = gen.standard_normal((n, nvec)).astype(dtype).astype(float)
        flags = m_upper * upper | unit * is_unit
        text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.ravel(), x.ravel()]))
        args = [str(tile_program), str(n), str(nvec), str(flags), "0", str(n)]
        args += ["float"] if dtype == numpy.float32 else []
        out = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
        got = numpy.array(out.stdout.split(), dtype=float).reshape(n, nvec)
        ref = t.astype(float) @ x
        err = numpy.abs(got - ref).max() / (numpy.abs(t).sum() * numpy.abs(x).max())
        assert err < tol, (upper, is_unit, err)
    # LAUUM lower: M = L^T (upper), X = L (lower triangle only), symmetric output.
    t = random_triangular(gen, 1, n, dtype, lower=True)[0].astype(float)
    a = t.copy()
    a[numpy.triu_indices(n, 1)] = numpy.nan
    text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.T.ravel(), a.ravel()]))
    args = [str(tile_program), str(n), str(n), str(m_upper | x_lower), "1", str(n)]
    args += ["float"] if dtype == numpy.float32 else []
    out = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
    got = numpy.array(out.stdout.split(), dtype=float).reshape(n, n)
    assert numpy.array_equal(got, got.T)
    err = numpy.abs(got - t.T @ t).max() / (numpy.abs(t).sum() * numpy.abs(t).max())
    assert err < tol, err
    # SYRK (TT_FULL): M = A (n x k) and X = A^T dense, an inner dimension of its own.
    for k in (n // 3, 2 * n + 5):
        a = gen.standard_normal((n, k)).astype(dtype).astype(float)
        text = "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.ravel(), a.T.ravel()]))
        args = [str(tile_program), str(n), str(n), str(full), "1", str(k)]
        args += ["float"] if dtype == numpy.float32 else []
        out = subprocess.run(args, input=text, capture_output=True, text=True, check=True)
        got = numpy.array(out.stdout.split(), dtype=float).reshape(n, n)
        assert numpy.array_equal(got, got.T)
        err = numpy.abs(got - a @ a.T).max() / (numpy.abs(a).sum(axis=1).max() * numpy.abs(a).max())
        assert err < tol, (k, err)
