"""kernels/trmm.cu tri_tile_split's runs of k tiles (tt_take_run) and shared-memory size, compiled
for the host with nvcc, against the launcher (linalg/_cuda/triangular.py tile_smem,
TILE_PART_BYTES); the launcher's rule for blocks an item (tile_split). Skips the nvcc part
without nvcc (the device tests run the kernels)."""
import subprocess

import pytest

from linalg._cuda import blas, triangular as tri_mod

from .helpers import build_host_program

PROGRAM = r"""
#include <cstdio>
#include "trmm.cu"
int main() {
    printf("%d %d %d %d\n", tt_smem_bytes<double>(), tt_smem_bytes<float>(), TT_PART_BYTES,
           TT_BK);
    // items of two matrices of n x 37 outputs (sym: of n x n, on and below the diagonal) as
    // tt_item_of walks them: a matrix's count when every item is a distinct valid tile, else -1
    for (int sym = 0; sym < 2; ++sym)
        for (int n : {65, 128, 200, 512}) {
            const int rb = (n + TT_B - 1) / TT_B, cb = sym ? rb : (37 + TT_B - 1) / TT_B;
            const int per = sym ? rb * (rb + 1) / 2 : rb * cb;
            static bool seen[2][8][8];
            for (auto& m : seen) for (auto& r : m) for (bool& v : r) v = false;
            int ok = per;
            for (int t = 0; t < 2 * per; ++t) {
                const tt_item it = tt_item_of(t, rb, cb, sym, false);
                const bool valid = it.matrix < 2 && it.bi < rb && it.bj < cb && (!sym || it.bj <= it.bi);
                if (!valid || seen[it.matrix][it.bi][it.bj]) ok = -1;
                else seen[it.matrix][it.bi][it.bj] = true;
            }
            printf("%d ", ok);
        }
    printf("\n");
    // item k0 = 96, 1..20 tiles, 2 / 4 / 8 blocks: each rank's (first k, tiles, empty)
    for (int split : {2, 4, 8})
        for (int tiles = 1; tiles <= 20; ++tiles)
            for (int rank = 0; rank < split; ++rank) {
                tt_work<double> w{};
                w.k0 = 96, w.tiles = tiles, w.empty = false;
                tt_take_run(w, rank, split);
                printf("%d %d %d %d %d %d\n", split, tiles, rank, w.k0, w.tiles, (int)w.empty);
            }
    return 0;
}
"""


@pytest.fixture(scope="module")
def host_output(tmp_path_factory):
    exe = build_host_program(tmp_path_factory, "tri_tile_host", PROGRAM)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_launcher_reserves_the_kernels_shared_memory(host_output):
    smem64, smem32, part, bk = [int(v) for v in host_output.splitlines()[0].split()]
    assert (smem64, smem32) == (tri_mod.tile_smem("float64"), tri_mod.tile_smem("float32"))
    assert part == tri_mod.TILE_PART_BYTES
    assert bk == tri_mod.TILE_SHAPE["float64"][0] == tri_mod.TILE_SHAPE["float32"][0]


def test_launcher_counts_the_kernels_items(host_output):
    """tile_items: a matrix's 64 x 64 output tiles (n x 37 outputs; with sym the n x n
    triangle's), each a distinct item of the kernel's walk (tt_item_of), times the batch."""
    seen = [int(v) for v in host_output.splitlines()[1].split()]
    sizes = (65, 128, 200, 512)
    assert seen == [tri_mod.tile_items(n, 37, 1, False) for n in sizes] + \
        [tri_mod.tile_items(n, n, 1, True) for n in sizes]
    assert tri_mod.tile_items(512, 512, 3, True) == 3 * 36
    assert tri_mod.tile_items(512, 512, 3, False) == 3 * 64


def test_runs_of_k_tiles_cover_each_item_once(host_output):
    """The ranks' runs are disjoint, in rank order, and together the item's k tiles; a rank left
    without a tile (fewer tiles than blocks) stages one of the item's tiles and computes none."""
    rows = [tuple(int(v) for v in line.split()) for line in host_output.splitlines()[2:]]
    runs = {}
    for split, tiles, rank, k0, count, empty in rows:
        runs.setdefault((split, tiles), []).append((rank, k0, count, empty))
    assert len(runs) == 3 * 20
    for (split, tiles), ranks in runs.items():
        assert [r[0] for r in ranks] == list(range(split))
        covered = []
        for rank, k0, count, empty in ranks:
            assert (k0 - 96) % 32 == 0 and count >= 1
            first = (k0 - 96) // 32
            assert 0 <= first and first + count <= tiles      # inside the item
            if not empty:
                covered += range(first, first + count)
            else:
                assert count == 1
        assert covered == list(range(tiles)), (split, tiles)
        assert sum(1 for r in ranks if r[3]) == max(0, split - tiles)


def test_split_rule_fills_the_sms(monkeypatch):
    """tile_split: the largest of TILE_SPLITS with items x s <= TILE_SPLIT_SMS[s] x SMs and runs
    of at least TILE_SPLIT_RUN tiles on the longest item; 1 without clusters; TILE_SPLIT forces
    (1 or one of TILE_SPLITS; more than one block only with clusters).
    The measured choices (probe_trmm_tile.py split, H200): TRMM n = 512 batch 1 (64 tiles) 4
    blocks a tile, batch 2 two, batch 8 one; LAUUM n = 512 batch 2 (72 tiles) 4; LAUUM n = 256
    batch 1 (10 tiles) 8; n = 128 at most 4 (4 k tiles)."""
    monkeypatch.setattr(tri_mod, "clusters", lambda device_id: True)
    monkeypatch.setattr(blas, "device_attribute", lambda device_id, name: 132)

    def fits(items, kdim, c):
        return (items * c <= tri_mod.TILE_SPLIT_SMS[c] * 132
                and kdim >= 32 * tri_mod.TILE_SPLIT_RUN * c)
    for kdim in (65, 128, 256, 512):
        for items in (1, 4, 16, 36, 64, 128, 300, 10240):
            s = tri_mod.tile_split(items, kdim, 0)
            assert s == 1 or (s in tri_mod.TILE_SPLITS and fits(items, kdim, s))
            assert not any(fits(items, kdim, c) for c in tri_mod.TILE_SPLITS if c > s)
    assert [tri_mod.tile_split(64 * b, 512, 0) for b in (1, 2, 8)] == [4, 2, 1]
    assert tri_mod.tile_split(72, 512, 0) == 4            # LAUUM n = 512, batch 2
    assert tri_mod.tile_split(10, 256, 0) == 8
    assert tri_mod.tile_split(4, 128, 0) == 4
    assert tri_mod.tile_split(10240, 512, 0) == 1
    monkeypatch.setattr(tri_mod, "clusters", lambda device_id: False)
    assert tri_mod.tile_split(1, 512, 0) == 1
    monkeypatch.setattr(tri_mod, "TILE_SPLIT", 1)
    assert tri_mod.tile_split(1, 512, 0) == 1
    monkeypatch.setattr(tri_mod, "TILE_SPLIT", 4)
    with pytest.raises(RuntimeError, match="clusters"):
        tri_mod.tile_split(1, 512, 0)
    monkeypatch.setattr(tri_mod, "clusters", lambda device_id: True)
    assert tri_mod.tile_split(10240, 65, 0) == 4
    monkeypatch.setattr(tri_mod, "TILE_SPLIT", 3)
    with pytest.raises(ValueError, match="LINALG_CUDA_TILE_SPLIT"):
        tri_mod.tile_split(1, 512, 0)


def test_launcher_compiles_the_masked_runs_and_the_chunked_grid(monkeypatch):
    """_tri_tile_config compiles ``runs`` as TT_RUNS_OPT 1 / 0 (kernels/trmm.cu: 16-byte runs in
    the tiles an edge crosses) and ``chunked`` as TT_CHUNKED_OPT beside TILE_SHAPE's options,
    each setting its own launcher (the cache keys it); _tri_tile passes ``runs`` for the dtypes
    of TILE_MASKED_RUNS: both."""
    import numpy
    seen = []

    def kernel(family, name, signature, dtype, options=()):
        seen.append((family, name, tuple(options)))
        return ("launcher", len(seen))
    monkeypatch.setattr(tri_mod, "kernel", kernel)
    tri_mod._tri_tile_config.cache_clear()
    try:
        for runs, chunked in ((True, False), (False, False), (True, True)):
            tri_mod._tri_tile_config(0, numpy.dtype("float64"), False, 0, (32, 2, 3), 1, False,
                                     1, runs, chunked)
    finally:
        tri_mod._tri_tile_config.cache_clear()
    assert [s[2] for s in seen] == [
        ("-DTT_BK_OPT=32", "-DTT_STAGES_OPT=2", "-DTT_BLOCKS_OPT=3", f"-DTT_RUNS_OPT={r}",
         f"-DTT_CHUNKED_OPT={c}") for r, c in ((1, 0), (0, 0), (1, 1))]
    assert all(s[0] == "trmm" and s[1] == "tri_tile<double, false, 1, false>" for s in seen)
    assert tri_mod.TILE_MASKED_RUNS == {"float64", "float32"}
