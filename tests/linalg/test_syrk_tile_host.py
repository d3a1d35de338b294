"""kernels/syrk.cu's syrk_tile pieces (syrk_block_of, syrk_tile_stage, syrk_tile_update,
syrk_tile_store), compiled for the host with nvcc and run as the kernel runs them -- every
thread's staging, then every thread's update, chunk after chunk, then the stores -- against NumPy:
both transposes, beta on either triangle (the other one NaN), orders that are not multiples of
4, k over several 32-column chunks, a partial last group of matrices. Shared memory starts as
NaN, so a block that read outside the staged rows would show. Skips without nvcc (the device
tests run the kernel itself)."""
import subprocess

import numpy
import pytest

from linalg._cuda.syrk import tile_blocks, tile_launch

from .helpers import build_host_program

PROGRAM = r"""
#include <cmath>
#include <cstdio>
#include <vector>
#include "syrk.cu"
int main() {
    int n, kd, trans, lower, use_c, batch, per_block, nthreads;
    double alpha, beta;
    if (scanf("%d %d %d %d %d %d %d %d %lf %lf", &n, &kd, &trans, &lower, &use_c, &batch,
              &per_block, &nthreads, &alpha, &beta) != 10) return 1;
    const int rows = trans ? kd : n, cols = trans ? n : kd;
    std::vector<double> A((size_t)batch * rows * cols), C((size_t)batch * n * n);
    for (double& v : A) if (scanf("%lf", &v) != 1) return 1;
    for (double& v : C) if (scanf("%lf", &v) != 1) return 1;
    const int lds = ((n + SYRK_TB - 1) / SYRK_TB) * SYRK_TB + 1, tile = SYRK_KC * lds;
    const int blocks = syrk_blocks(n);
    std::vector<double> s((size_t)per_block * tile);
    std::vector<double> acc((size_t)nthreads * SYRK_TB * SYRK_TB);
    auto acc_of = [&](int tid) -> double (&)[SYRK_TB][SYRK_TB] {
        return *reinterpret_cast<double (*)[SYRK_TB][SYRK_TB]>(&acc[(size_t)tid * 16]);
    };
    int count = 0;
    auto thread_block = [&](int tid, int& m, int& bi, int& bj) {    // as the kernel maps threads
        m = tid / blocks;
        syrk_block_of(tid - m * blocks, bi, bj);
        return m < count;
    };
    for (int base = 0; base < batch; base += per_block) {
        count = per_block < batch - base ? per_block : batch - base;
        for (double& v : s) v = NAN;
        for (double& v : acc) v = 0;
        for (int p0 = 0; p0 < kd; p0 += SYRK_KC) {
            const int kc = SYRK_KC < kd - p0 ? SYRK_KC : kd - p0;
            for (int tid = 0; tid < nthreads; ++tid)
                syrk_tile_stage(A.data() + (size_t)base * rows * cols, (index_t)cols,
                                (index_t)rows * cols, s.data(), tile, lds, n, p0, kc, count, trans,
                                tid, nthreads);
            for (int tid = 0; tid < nthreads; ++tid) {
                int m, bi, bj;
                if (!thread_block(tid, m, bi, bj)) continue;
                syrk_tile_update(s.data() + (size_t)m * tile, lds, kc, bi, bj, acc_of(tid));
            }
        }
        for (int tid = 0; tid < nthreads; ++tid) {
            int m, bi, bj;
            if (!thread_block(tid, m, bi, bj)) continue;
            syrk_tile_store(C.data() + (size_t)(base + m) * n * n, (index_t)n, n, bi, bj,
                            acc_of(tid), lower, use_c, alpha, beta);
        }
    }
    for (double v : C) printf("%.17g\n", v);
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build_host_program(tmp_path_factory, "syrk_tile_host", PROGRAM)


def run_tile(program, a, c, trans, lower, use_c, alpha, beta):
    batch, n = c.shape[0], c.shape[1]
    kd = a.shape[1] if trans else a.shape[2]
    per_block, threads, _ = tile_launch(n, 8)
    head = f"{n} {kd} {int(trans)} {int(lower)} {int(use_c)} {batch} {per_block} {threads} " \
           f"{alpha!r} {beta!r}"
    text = head + "\n" + "\n".join(f"{v:.17g}" for v in numpy.concatenate([a.ravel(), c.ravel()]))
    out = subprocess.run([str(program)], input=text, capture_output=True, text=True, check=True)
    return numpy.array(out.stdout.split(), dtype=float).reshape(c.shape)


def test_launch_shape_fits_whole_warps_and_the_shared_budget():
    from linalg._cuda.triangular import SMEM_BUDGET
    for n in range(1, 65):
        assert tile_blocks(n) == len([(i, j) for i in range(-(-n // 4)) for j in range(i + 1)])
        for itemsize in (4, 8):
            per_block, threads, smem = tile_launch(n, itemsize)
            assert threads % 32 == 0 and per_block * tile_blocks(n) <= threads <= 256
            assert smem <= SMEM_BUDGET, (n, itemsize)


@pytest.mark.parametrize("n,kd,batch", [(25, 25, 11), (32, 32, 9), (33, 70, 5), (48, 7, 4),
                                        (64, 64, 3), (30, 1, 10)])
@pytest.mark.parametrize("trans", [False, True])
def test_tile_pieces_match_numpy(program, n, kd, batch, trans):
    gen = numpy.random.default_rng(n * 100 + kd)
    a = gen.standard_normal((batch, kd, n) if trans else (batch, n, kd))
    m = numpy.swapaxes(a, 1, 2) if trans else a
    c0 = gen.standard_normal((batch, n, n))
    c0 = c0 + numpy.swapaxes(c0, 1, 2)
    for lower, use_c in ((True, False), (True, True), (False, True)):
        alpha, beta = -0.75, (0.5 if use_c else 0.0)
        c = c0.copy()
        if use_c:       # the triangle not referenced is NaN: reading it would show
            nan = numpy.triu(numpy.ones((n, n), bool), 1) if lower else \
                numpy.tril(numpy.ones((n, n), bool), -1)
            c[:, nan] = numpy.nan
        else:
            c[:] = numpy.nan                                   # beta = 0: C is not read
        out = run_tile(program, a, c, trans, lower, use_c, alpha, beta)
        ref = alpha * m @ numpy.swapaxes(m, 1, 2) + beta * c0
        assert numpy.array_equal(out, numpy.swapaxes(out, 1, 2)), (lower, use_c)
        scale = numpy.abs(m).max() ** 2 * kd + abs(beta) * numpy.abs(c0).max()
        assert numpy.abs(out - ref).max() <= 8 * kd * numpy.finfo(float).eps * scale, (lower, use_c)
