"""Test-suite wide setup: the `gpu` marker skips where no CUDA device (and CuPy) is present."""
import pytest


def _gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no CuPy, no driver, or no device
        return False


GPU_AVAILABLE = _gpu_available()


def pytest_collection_modifyitems(config, items):
    if GPU_AVAILABLE:
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU and CuPy (run scripts/gpu_check.sh on a GPU machine)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
