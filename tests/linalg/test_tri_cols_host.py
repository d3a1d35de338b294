"""kernels/tri_cols.cu's shared-memory size, compiled for the host with nvcc, against the
launcher's (linalg/_cuda/triangular.py cols_smem_elems). Skips without nvcc."""
import subprocess

from linalg._cuda.triangular import COLS_MAX, COLS_WIDTHS, cols_smem_elems

from .helpers import build_host_program

PROGRAM = r"""
#include <cstdio>
#include "tri_cols.cu"
int main() {
    int n, c;
    while (scanf("%d %d", &n, &c) == 2) printf("%d\n", tri_cols_smem_elems(n, c));
    return 0;
}
"""


def test_launcher_reserves_the_kernels_shared_memory(tmp_path_factory):
    exe = build_host_program(tmp_path_factory, "tri_cols_host", PROGRAM)
    cases = [(n, c) for n in (33, 47, 64, 100, 257, COLS_MAX) for c in COLS_WIDTHS]
    done = subprocess.run([str(exe)], input="".join(f"{n} {c}\n" for n, c in cases),
                          capture_output=True, text=True, check=True)
    assert [int(v) for v in done.stdout.split()] == [cols_smem_elems(n, c) for n, c in cases]
