"""kernels/labrd.cu labrd_panel's shared-memory size (labrd_smem_elems), compiled for the host
with nvcc, against the launcher's (linalg/_cuda/bidiag.py labrd_smem), which reserves it (skips
without nvcc; the device tests run the kernel); and where the launcher's panels stop
(bidiag._panels_end, with a stand-in for the default plan)."""
import subprocess

import pytest

from linalg._cuda import bidiag

from .helpers import build_host_program

SHAPES = ((33, 33), (70, 45), (256, 256), (300, 200), (513, 512), (1100, 45), (4000, 1000))
THREADS = (256, 512, 1024)

PROGRAM = r"""
#include <cstdio>
#include "labrd.cu"
int main() {
    const int shapes[][2] = {%s};
    for (const auto& s : shapes)
        for (int threads : {256, 512, 1024})
            printf("%%lld\n", (long long)labrd_smem_elems(s[0], s[1], threads));
    return 0;
}
""" % ", ".join(f"{{{m}, {n}}}" for m, n in SHAPES)


@pytest.fixture(scope="module")
def kernel_elems(tmp_path_factory):
    exe = build_host_program(tmp_path_factory, "labrd_host", PROGRAM)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return [int(v) for v in out.split()]


def test_launcher_reserves_the_kernels_shared_memory(kernel_elems):
    """Every (rows, columns, block size) the launcher may ask for, in elements of either dtype."""
    expected = [bidiag.labrd_smem(m, n, 1, t) for m, n in SHAPES for t in THREADS]
    assert kernel_elems == expected
    for item in (4, 8):
        assert [bidiag.labrd_smem(m, n, item, t) for m, n in SHAPES for t in THREADS] == \
            [item * e for e in expected]


def test_panels_stop_where_the_rest_fits_one_launch(monkeypatch):
    """Panels of nb columns until the rest (rows - p) x (cols - p) fits one launch of its default
    plan (here: at most 167 columns), or at most ``tail`` (the tests' handle) or nb columns are
    left; wide shapes count as their transpose."""
    def plan(device, m, n, dtype, gpu):
        assert m >= n                    # the tall orientation
        return {"kernel": "blocked" if n > 167 else "cols"}
    monkeypatch.setattr(bidiag, "_default_plan", plan)

    def end(m, n, nb, tail=None):
        return bidiag._panels_end(m, n, "float64", nb, tail, 0, "gpu")
    assert end(256, 256, 16) == 96           # 256 - 96 = 160 columns fit
    assert end(256, 256, 24) == 96           # 160 again: 4 panels of 24
    assert end(200, 300, 32) == 64           # as 300 x 200: 136 columns left
    assert end(160, 160, 16) == 0            # fits from the start
    assert end(256, 256, 16, tail=0) == 240  # panels until at most nb columns are left
    assert end(256, 256, 32, tail=100) == 160
    assert end(40, 40, 32, tail=0) == 32

