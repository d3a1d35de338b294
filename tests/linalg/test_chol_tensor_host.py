"""kernels/potrf.cu chol_tensor's, chol_tensor_solve's, chol_tensor_inverse's, chol_global's and
chol_left's shared-memory sizes, compiled for the host with nvcc, against the launchers'
(linalg/_cuda/cholesky.py tensor_smem_bytes, tensor_solve_smem_bytes, tensor_inverse_smem_bytes,
global_smem_bytes, left_smem_bytes), and the launchers' rules. Skips the nvcc part without
nvcc."""
import subprocess

import numpy
import pytest

from linalg._cuda import cholesky

from .helpers import build_host_program

PROGRAM = r"""
#include <cstdio>
#include "potrf.cu"
int main() {
    printf("%d %d %d\n", chol_tensor_smem<2>(), chol_tensor_smem<3>(), chol_tensor_smem<4>());
    for (int n : {33, 129, 256, 300, 512}) printf("%d ", chol_global_smem(n));
    printf("\n%d %d %d\n", CG_THREADS, CG_LD, 32 * CG_BLOCKS_MAX);
    printf("%d %d %d\n", chol_tensor_inverse_smem<2>(), chol_tensor_inverse_smem<3>(),
           chol_tensor_inverse_smem<4>());
    printf("%d %d %d %d\n", chol_tensor_solve_smem<2, 1>(), chol_tensor_solve_smem<2, 2>(),
           chol_tensor_solve_smem<3, 1>(), chol_tensor_solve_smem<4, 2>());
    for (int n : {33, 129, 256, 300, 512}) printf("%d ", chol_left_smem(n));
    printf("\n%d\n", CL_STRIPS);
    int walked = 0, wrong = 0;                    // CgWalk against the divisions it replaces
    for (int width : {1, 7, 31, 32, 33, 100, 480})
        for (int step : {1, 32, 224, 256, 480, 512, 1000})
            for (int t = 0; t < step && t < 40; ++t) {
                CgWalk w(t, step, width);
                for (int e = t; e < 32 * width; e += step, w.next(), ++walked)
                    wrong += w.q != e / width || w.m != e % width;
            }
    printf("%d %d\n", walked, wrong);
    return 0;
}
"""


def test_launcher_reserves_the_kernels_shared_memory(tmp_path_factory):
    exe = build_host_program(tmp_path_factory, "chol_tensor_host", PROGRAM)
    done = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
    tensor, glob, constants, inverse, solve, left, strips, walk = [
        [int(v) for v in line.split()] for line in done.stdout.splitlines()]
    assert tensor == [cholesky.tensor_smem_bytes(n) for n in (64, 96, 128)]
    assert inverse == [cholesky.tensor_inverse_smem_bytes(nt) for nt in (2, 3, 4)]
    assert solve == [cholesky.tensor_solve_smem_bytes(nt, chunks)
                     for nt, chunks in ((2, 1), (2, 2), (3, 1), (4, 2))]
    assert glob == [cholesky.global_smem_bytes(n) for n in (33, 129, 256, 300, 512)]
    assert constants == [cholesky.GLOBAL_THREADS, cholesky.GLOBAL_LD, cholesky.GLOBAL_MAX]
    assert left == [cholesky.left_smem_bytes(n) for n in (33, 129, 256, 300, 512)]
    # chol_left's launcher gives a warp a 32-row block of the panel: two strips of 16 rows
    assert strips == [2]
    # cg_store_column's walk over (e / width, e % width) without a division a step
    assert walk[0] > 10000 and walk[1] == 0, walk


def test_global_threads_cover_the_rows_a_step_solves():
    """chol_global solves a row a thread below the diagonal block: up to GLOBAL_MAX - 32 rows;
    its block column and the next diagonal block fit one SM's shared memory at GLOBAL_MAX."""
    assert cholesky.GLOBAL_MAX - 32 <= cholesky.GLOBAL_THREADS
    assert cholesky.global_smem_bytes(cholesky.GLOBAL_MAX) + 1024 <= 228 * 1024


def test_global_rule_takes_the_first_row_matching_n_and_batch(monkeypatch):
    monkeypatch.setattr(cholesky, "GLOBAL_FROM", 129)
    monkeypatch.setattr(cholesky, "GLOBAL_BATCHES",
                        {"float64": ((512, 1, 3, 8), (192, 1, 400, 1), (512, 2, 300, 1))})
    monkeypatch.setattr(cholesky, "clusters", lambda device_id: True)
    monkeypatch.setattr(cholesky, "current_device", lambda: 0)
    f64 = numpy.float64

    def blocks(n, batch, dtype=f64):
        return cholesky.global_blocks(FakeBatch(n, dtype, batch))
    assert [n for n in range(1, 700) if blocks(n, 1)] == list(range(129, 513))
    assert {blocks(n, 2) for n in range(129, 513)} == {8}
    assert [(n, blocks(n, 3)) for n in (128, 129, 192, 193, 512, 513)] \
        == [(128, 0), (129, 1), (192, 1), (193, 1), (512, 1), (513, 0)]
    assert [(b, blocks(150, b)) for b in (1, 3, 299, 399, 400)] \
        == [(1, 8), (3, 1), (299, 1), (399, 1), (400, 0)]
    assert [(b, blocks(500, b)) for b in (1, 2, 3, 299, 300)] \
        == [(1, 8), (2, 8), (3, 1), (299, 1), (300, 0)]
    assert blocks(256, 8, numpy.float32) == 0
    # without clusters (compute capability below 9.0) the rows of clusters do not match
    monkeypatch.setattr(cholesky, "clusters", lambda device_id: False)
    assert [(b, blocks(150, b)) for b in (1, 2, 3)] == [(1, 1), (2, 1), (3, 1)]
    assert [(b, blocks(500, b)) for b in (1, 2, 3)] == [(1, 0), (2, 1), (3, 1)]


def test_global_rule_rows_name_the_kernels_sizes():
    for rows in cholesky.GLOBAL_BATCHES.values():
        assert max(last for last, _, _, _ in rows) == cholesky.GLOBAL_MAX
        assert all(cholesky.GLOBAL_FROM <= last <= cholesky.GLOBAL_MAX for last, _, _, _ in rows)
        assert all(1 <= first < below for _, first, below, _ in rows)
        assert all(blocks == 1 or blocks in cholesky.CLUSTER_SIZES for *_, blocks in rows)


def test_cluster_rows_keep_every_cluster_of_a_launch_resident():
    """A launch's clusters all fit at once on an H100 / H200 only up to about 96-128 blocks (8
    blocks at batch 16 and 4 at 32 took twice as long as at 12 and 24: reports/gpu_20261127c
    call 2); the rules stay within 128 blocks."""
    for rows in cholesky.GLOBAL_BATCHES.values():
        for _, _, below, blocks in rows:
            assert blocks == 1 or blocks * (below - 1) <= 128


def test_global_launcher_refuses_other_cluster_sizes():
    with pytest.raises(ValueError, match="blocks must be 1 or one of"):
        cholesky.potrf_global(None, True, blocks=3)


@pytest.mark.parametrize("n", [33, 40, 63, 64, 65, 96, 97, 127, 128])
def test_blocks_a_side_cover_the_order(n):
    """ceil(n / 32) blocks a side; two blocks of one H100 SM's 228 KB fit at n = 128."""
    nt = -(-n // 32)
    assert cholesky.tensor_blocks_a_side(n) == nt
    assert cholesky.tensor_smem_bytes(n) == (nt * (nt + 1) // 2 * 32 * 36 + 32) * 8
    assert 2 * (cholesky.tensor_smem_bytes(n) + 1024) <= 228 * 1024


class FakeBatch:
    def __init__(self, n, dtype, batch=10):
        self.shape = (batch, n, n)
        self.dtype = numpy.dtype(dtype)


def launch_bound_threads(nt):
    """kernels/potrf.cu ct_bound_threads: the triangle kernels' launch bound."""
    return 256 if nt <= 4 else 384


def test_threads_cover_the_rows_a_step_solves():
    """ct_solve_rows takes a thread a row below the diagonal block (32 (NT - 1) at the first
    step); the kernel's launch bound is 256 threads up to NT = 4, 384 at NT = 5-6."""
    assert sorted(cholesky.TENSOR_THREADS) == [2, 3, 4, 5, 6]
    for nt, threads in cholesky.TENSOR_THREADS.items():
        assert 32 * (nt - 1) <= threads <= launch_bound_threads(nt) and threads % 32 == 0


@pytest.mark.parametrize("n", [129, 160, 161, 192])
def test_triangle_kernels_fit_one_block_an_sm_past_128(n):
    """NT = 5-6: the lower form (15 / 21 blocks of 32 x 36 doubles) and the reciprocals fit an
    H100 SM's 227 KiB of a block's shared memory (one block an SM), the settings within the
    launch bound, for chol_tensor, chol_tensor_inverse and chol_tensor_trtri alike."""
    nt = cholesky.tensor_blocks_a_side(n)
    assert nt == (5 if n <= 160 else 6) and n <= cholesky.TRIANGLE_MAX
    assert cholesky.tensor_inverse_smem_bytes(nt) <= 227 * 1024
    assert cholesky.tensor_smem_bytes(n) <= cholesky.tensor_inverse_smem_bytes(nt)
    for table in (cholesky.TENSOR_THREADS, cholesky.TENSOR_INVERSE_THREADS,
                  cholesky.TENSOR_TRTRI_THREADS):
        assert table[nt] <= launch_bound_threads(nt)
    assert cholesky.tensor_inverse_smem_bytes(7) > 227 * 1024       # why NT stops at 6


def test_rule_serves_its_range_only(monkeypatch):
    monkeypatch.setattr(cholesky, "TENSOR_RANGE", {"float64": (40, 128)})
    monkeypatch.setattr(cholesky, "TENSOR_IN_PLACE_BELOW", 2048)
    for kept in (True, False):
        assert [n for n in range(1, 300)
                if cholesky.use_tensor(FakeBatch(n, numpy.float64), kept)] == list(range(40, 129))
        assert not any(cholesky.use_tensor(FakeBatch(n, numpy.float32), kept)
                       for n in range(1, 300))


def test_in_place_calls_take_it_below_the_batch_bound(monkeypatch):
    monkeypatch.setattr(cholesky, "TENSOR_RANGE", {"float64": (48, 128)})
    monkeypatch.setattr(cholesky, "TENSOR_IN_PLACE_FROM", 49)
    monkeypatch.setattr(cholesky, "TENSOR_IN_PLACE_BELOW", 2048)
    for batch, in_place in ((1, True), (2047, True), (2048, False), (10240, False)):
        a = FakeBatch(48, numpy.float64, batch)
        assert cholesky.use_tensor(a, kept=False) == in_place
        assert cholesky.use_tensor(a, kept=True)


def test_in_place_calls_take_it_at_every_batch_from_the_order_bound(monkeypatch):
    monkeypatch.setattr(cholesky, "TENSOR_RANGE", {"float64": (48, 128)})
    monkeypatch.setattr(cholesky, "TENSOR_IN_PLACE_FROM", 49)
    monkeypatch.setattr(cholesky, "TENSOR_IN_PLACE_BELOW", 2048)
    for n in (49, 64, 100, 128):
        for batch in (1, 2048, 10240, 100000):
            assert cholesky.use_tensor(FakeBatch(n, numpy.float64, batch), kept=False)
    assert not cholesky.use_tensor(FakeBatch(129, numpy.float64, 1), kept=False)


def test_rule_stays_inside_the_kernels_sizes():
    for first, last in cholesky.TENSOR_RANGE.values():
        assert cholesky.tri.LEAF < first <= last <= cholesky.TENSOR_MAX


def test_left_threads_cover_the_panel_and_fit_the_launch_bound():
    """chol_left: a warp a 32-row block of the panel (CL_STRIPS = 2 strips of 16 rows), a thread
    a row solved below the diagonal block, at most the kernel's launch bound (CG_THREADS); two
    blocks an SM at n = 256, its shared memory within an SM's at GLOBAL_MAX."""
    for n in (33, 100, 129, 200, 256, 300, 511, 512):
        threads = cholesky.left_threads(n)
        assert 32 * (cholesky.tensor_blocks_a_side(n) - 1) <= threads <= cholesky.GLOBAL_THREADS
    assert 2 * (cholesky.left_smem_bytes(256) + 1024) <= 228 * 1024
    assert cholesky.left_smem_bytes(cholesky.GLOBAL_MAX) + 1024 <= 228 * 1024


def test_left_rule_serves_its_rows_only(monkeypatch):
    monkeypatch.setattr(cholesky, "LEFT_RULES", {"float64": ((97, 128, 1000), (129, 256, 1))})
    for batch in (1, 999):
        assert [n for n in range(1, 600)
                if cholesky.use_left(FakeBatch(n, numpy.float64, batch))] == list(range(129, 257))
    for batch in (1000, 10240, 100000):
        assert [n for n in range(1, 600)
                if cholesky.use_left(FakeBatch(n, numpy.float64, batch))] == list(range(97, 257))
    assert not any(cholesky.use_left(FakeBatch(n, numpy.float32, 10240)) for n in range(1, 600))


def test_one_launch_potrf_takes_global_then_left_then_tensor(monkeypatch):
    monkeypatch.setattr(cholesky, "LEFT_RULES", {"float64": ((97, 128, 1000), (129, 256, 1))})
    monkeypatch.setattr(cholesky, "TENSOR_RANGE", {"float64": (33, 128)})
    monkeypatch.setattr(cholesky, "GLOBAL_BATCHES", {"float64": ((512, 1, 400, 1),)})
    for n, batch, kernel in ((112, 10240, cholesky.potrf_left), (112, 999, cholesky.potrf_tensor),
                             (96, 10240, cholesky.potrf_tensor), (192, 399, cholesky.potrf_global),
                             (192, 400, cholesky.potrf_left), (300, 400, None)):
        for kept in (True, False):
            assert cholesky._one_block_factor(FakeBatch(n, numpy.float64, batch), kept) is kernel


def test_left_rule_stays_inside_the_kernels_sizes():
    for rows in cholesky.LEFT_RULES.values():
        for first, last, from_batch in rows:
            assert cholesky.tri.LEAF < first <= last <= cholesky.GLOBAL_MAX and from_batch >= 1


def test_triangle_rules_stay_inside_the_kernels_sizes():
    """TRTRI's and POTRI / POTI's ranges end at TRIANGLE_MAX (NT = 6) and every NT they reach
    has its threads; chol_tensor's POTRF range stays at TENSOR_MAX (NT = 5-6 measured slower
    than chol_left)."""
    ranges = [(cholesky.TENSOR_TRTRI_RANGE.values(), cholesky.TENSOR_TRTRI_THREADS),
              (cholesky.TENSOR_INVERSE_RANGE.values(), cholesky.TENSOR_INVERSE_THREADS)]
    for bounds, threads in ranges:
        for first, last in bounds:
            assert cholesky.tri.LEAF < first <= last <= cholesky.TRIANGLE_MAX
            for n in range(first, last + 1):
                assert cholesky.tensor_blocks_a_side(n) in threads


def test_solve_kernels_fit_one_block_an_sm_up_to_nt_5():
    """chol_tensor_solve / chol_tensor_trsm: the factor's blocks, their reciprocals and a pass's
    vector blocks fit a block's 227 KiB up to NT = 5 (SOLVE_MAX), one block an SM with the
    launch bound's 512 threads from NT = 4; NT = 6 does not fit."""
    for nt, chunks in cholesky.TENSOR_SOLVE_CHUNKS.items():
        assert cholesky.tensor_solve_smem_bytes(nt, chunks) <= 227 * 1024
        assert cholesky.TENSOR_SOLVE_THREADS[nt] <= (512 if nt >= 4 else 256)
    assert cholesky.tensor_blocks_a_side(cholesky.SOLVE_MAX) == max(cholesky.TENSOR_SOLVE_CHUNKS)
    assert cholesky.tensor_solve_smem_bytes(6, 1) > 227 * 1024
    for first, last in cholesky.TENSOR_SOLVE_RANGE.values():
        assert cholesky.tri.LEAF < first <= last <= cholesky.SOLVE_MAX
    for rows in cholesky.TENSOR_TRSM_RULES.values():
        for first, last, first_batch, *last_batch in rows:
            assert cholesky.tri.LEAF < first <= last <= cholesky.SOLVE_MAX
            assert 1 <= first_batch <= min(last_batch, default=first_batch)


def test_trmm_shapes_fit_a_block():
    """chol_tensor_trmm: every NT up to SOLVE_MAX has a shape whose triangle and pass buffers fit
    a block's 227 KiB, in whole pairs of warps (a round stores a block row's two strips
    together) within the launch bound; its rules stay inside LEAF < n <= SOLVE_MAX."""
    last_nt = cholesky.tensor_blocks_a_side(cholesky.SOLVE_MAX)
    assert set(cholesky.TENSOR_TRMM_SHAPES) == set(range(2, last_nt + 1))
    for nt, (chunks, buffers, threads) in cholesky.TENSOR_TRMM_SHAPES.items():
        assert buffers in (1, 2) and chunks >= 1
        assert cholesky.tensor_trmm_smem_bytes(nt, chunks, buffers) <= 227 * 1024
        assert threads % 64 == 0 and threads <= (512 if nt >= 4 else 256)
    for rows in cholesky.TENSOR_TRMM_RULES.values():
        for first, last, first_batch, *last_batch in rows:
            assert cholesky.tri.LEAF < first <= last <= cholesky.SOLVE_MAX
            assert 1 <= first_batch <= min(last_batch, default=first_batch)


def _trmm_rounds(nt, rc, warps, backward):
    """kernels/potrf.cu ctm_product's schedule: rounds of (block row I, column block rho, half h)
    strips, warp w of round r taking strip u = r * warps + w (u -> I, rho, h as the kernel maps
    it)."""
    strips = nt * rc * 2
    rounds = []
    for first in range(0, strips, warps):
        here = []
        for u in range(first, min(first + warps, strips)):
            row = u // (2 * rc)
            here.append((row if backward else nt - 1 - row, (u >> 1) % rc, u & 1))
        rounds.append(here)
    return rounds


def _trmm_schedule_safe(nt, rc, warps, backward):
    """True where no strip reads a block of B that an earlier round overwrote: strip (I, rho, h)
    reads B_K,rho for K <= I (backward: K >= I), whole blocks, and a round stores its strips only
    after all of its own reads."""
    written = set()
    for strips in _trmm_rounds(nt, rc, warps, backward):
        for i, rho, _ in strips:
            reads = range(i, nt) if backward else range(0, i + 1)
            if any((k, rho) in written for k in reads):
                return False
        written.update((i, rho) for i, rho, _ in strips)
    return True


def test_trmm_product_rounds_never_read_a_block_an_earlier_round_wrote():
    """chol_tensor_trmm multiplies a pass in place: every strip of every shape's schedule (and of
    any even warp count) reads only blocks of B no earlier round has overwritten; an odd warp
    count splits a block row's two strips over two rounds, and the second would read the half
    the first overwrote (why the shapes run whole pairs of warps)."""
    for nt, (rc, _, threads) in cholesky.TENSOR_TRMM_SHAPES.items():
        for backward in (False, True):
            assert _trmm_schedule_safe(nt, rc, threads // 32, backward)
    for nt in range(2, 7):
        for rc in (1, 2):
            for warps in (2, 4, 6, 8, 16):
                for backward in (False, True):
                    assert _trmm_schedule_safe(nt, rc, warps, backward), (nt, rc, warps)
    assert not _trmm_schedule_safe(3, 1, 3, False)
    assert not _trmm_schedule_safe(3, 1, 3, True)


def test_lauum_rule_stays_inside_the_kernels_sizes():
    """chol_tensor_lauum's rows: above the leaf, up to TRIANGLE_MAX, every NT with threads, a
    first batch of at least 1, the rows of a dtype in increasing n without overlap."""
    for rows in cholesky.TENSOR_LAUUM_RULES.values():
        for (_, last, _), (first, _, _) in zip(rows, rows[1:]):
            assert last < first
        for first, last, from_batch in rows:
            assert cholesky.tri.LEAF < first <= last <= cholesky.TRIANGLE_MAX and from_batch >= 1
            for n in range(first, last + 1):
                assert cholesky.tensor_blocks_a_side(n) in cholesky.TENSOR_INVERSE_THREADS


def test_lauum_settings_are_checked_as_the_inverses(monkeypatch):
    """chol_tensor_lauum runs cti_lauum, whose last block row takes 2 NT warps: a thread setting
    short of 64 NT is refused with the reason before anything compiles."""
    monkeypatch.setattr(cholesky, "TENSOR_INVERSE_THREADS", {2: 128, 3: 256, 4: 192})
    cholesky._tensor_lauum_config.cache_clear()
    try:
        with pytest.raises(ValueError, match="chol_tensor_lauum at NT = 4 needs .* at least 256"):
            cholesky._tensor_lauum_config(0, numpy.dtype(numpy.float64), 128, False)
    finally:
        cholesky._tensor_lauum_config.cache_clear()
