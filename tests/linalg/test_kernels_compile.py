"""Every kernel instantiation a launcher may ask for compiles for sm_90 (runs in CI, no GPU needed).

Each module of linalg/_cuda that defines ``COMPILE_CHECK = {"family.cu": [name expressions]}``
declares the template instantiations it launches. For each .cu file this test writes a translation
unit that includes it and takes the address of every instantiation, and compiles it with
``nvcc -arch=sm_90 -std=c++17 -c -I kernels``. Without nvcc it compiles the same name expressions
with NVRTC through CuPy, and without either it skips, saying why.
"""
import importlib
import pkgutil
import shutil
import subprocess
from pathlib import Path

import pytest

import linalg._cuda

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def compile_checks():
    """{file name: sorted name expressions} merged over every linalg/_cuda module."""
    merged = {}
    for info in pkgutil.iter_modules(linalg._cuda.__path__):
        module = importlib.import_module(f"linalg._cuda.{info.name}")
        for family, names in getattr(module, "COMPILE_CHECK", {}).items():
            merged.setdefault(family, set()).update(names)
    return {family: sorted(names) for family, names in sorted(merged.items())}


CHECKS = compile_checks()


def _nvcc():
    return shutil.which("nvcc") or (shutil.which("/usr/local/bin/nvcc"))


def _translation_unit(family, names):
    refs = ",\n    ".join(f"(void*)&{name}" for name in names)
    return f'#include "{family}"\n\nvoid* compile_check_refs[] = {{\n    {refs}\n}};\n'


def test_compile_checks_declared():
    assert CHECKS, "no linalg/_cuda module declares COMPILE_CHECK"
    for family in CHECKS:
        assert (KERNELS / family).is_file(), f"COMPILE_CHECK names {family}, not in kernels/"


@pytest.mark.parametrize("family", sorted(CHECKS))
def test_kernels_compile(family, tmp_path):
    names = CHECKS[family]
    nvcc = _nvcc()
    if nvcc:
        source = tmp_path / f"check_{Path(family).stem}.cu"
        source.write_text(_translation_unit(family, names))
        cmd = [nvcc, "-arch=sm_90", "-std=c++17", "-c", "-I", str(KERNELS), str(source),
               "-o", str(tmp_path / "check.o")]
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, f"nvcc failed for {family}:\n{done.stderr[-4000:]}"
        return
    cupy = pytest.importorskip("cupy", reason="neither nvcc nor CuPy (NVRTC) is available")
    code = (KERNELS / family).read_text()
    try:
        module = cupy.RawModule(code=code, options=("--std=c++17", f"-I{KERNELS}"),
                                name_expressions=names)
        for name in names:
            module.get_function(name)
    except cupy.cuda.driver.CUDADriverError as exc:  # NVRTC compiled, but no device to load on
        pytest.skip(f"NVRTC compiled {family} but no CUDA device to load it: {exc}")
