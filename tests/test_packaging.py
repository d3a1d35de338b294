"""The wheel ships the CUDA sources as package data of linalg, not as a top-level package."""
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_contains_kernels_as_linalg_package_data(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(ROOT)], check=True)
    wheel = next(tmp_path.glob("batchfem-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    sources = {p.name for p in (ROOT / "kernels").glob("*.cu*")}
    shipped = {Path(n).name for n in names if n.startswith("linalg/_kernels/")}
    assert sources and sources <= shipped
    assert not any(n.startswith("kernels/") for n in names), "kernels must not be a top-level package"
    assert any(n.startswith("hydro/") for n in names)
