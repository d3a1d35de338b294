"""scripts/probe_chain_latency.py: its error measure, and its kernels compile for sm_90 (CPU)."""
import shutil
import subprocess

import numpy
import pytest

from . import load_script


def test_ulp_error_counts_units_of_the_last_place():
    probe = load_script("probe_chain_latency")
    want = numpy.array([1.0, 0.5, 3.0])
    assert probe.ulp_error(want, want) == 0.0
    got = want.copy()
    got[2] = numpy.nextafter(numpy.nextafter(3.0, 4.0), 4.0)       # two places above
    assert probe.ulp_error(got, want) == 2.0


def test_every_link_has_a_name_and_the_rsqrt_variants_are_links():
    probe = load_script("probe_chain_latency")
    assert set(probe.RSQRT_VARIANTS) <= set(probe.NAMES)
    assert len(set(probe.NAMES.values())) == len(probe.NAMES)


def test_kernels_compile_for_sm90(tmp_path):
    nvcc = shutil.which("nvcc")
    if not nvcc:
        pytest.skip("nvcc is not installed")
    probe = load_script("probe_chain_latency")
    refs = ", ".join([f"(void*)&chain<{v}>" for v in probe.NAMES]
                     + [f"(void*)&apply<{v}>" for v in probe.RSQRT_VARIANTS])
    source = tmp_path / "chain.cu"
    source.write_text(probe.SOURCE + f"\nvoid* refs[] = {{{refs}}};\n")
    done = subprocess.run([nvcc, "-arch=sm_90", "-std=c++17", "-c", str(source), "-o",
                           str(tmp_path / "chain.o")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
