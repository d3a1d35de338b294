"""The one place that chooses between the CPU (NumPy) and GPU (CuPy) backends."""
import importlib
import sys

import numpy

__all__ = ["array_module", "is_cupy_array", "cupy_module", "backend"]


def is_cupy_array(x):
    """True if ``x`` is a CuPy array; never imports CuPy itself."""
    cupy = sys.modules.get("cupy")
    return cupy is not None and isinstance(x, cupy.ndarray)


def cupy_module():
    """The cupy module, imported on first use. A function-level ``import cupy`` costs ~0.45 us
    each time it runs (the import machinery, not a lookup), and one small GPU call ran several;
    the GPU backends and the tuning tables take CuPy from here."""
    module = sys.modules.get("cupy")
    if module is None:
        import cupy as module
    return module


def array_module(x):
    """``cupy`` for CuPy arrays, else ``numpy``."""
    return sys.modules["cupy"] if is_cupy_array(x) else numpy


_BACKENDS = {}   # (CPU?, family) -> module: import_module costs microseconds on every call


def backend(xp, family):
    """The backend module implementing ``family`` (e.g. "cholesky") for array module ``xp``.

    CPU: ``linalg._cpu.<family>``; GPU: ``linalg._cuda.<family>`` (imported lazily so that
    ``import linalg`` works without CuPy or a GPU).
    """
    key = (xp is numpy, family)
    module = _BACKENDS.get(key)
    if module is None:
        package = "linalg._cpu" if xp is numpy else "linalg._cuda"
        module = _BACKENDS[key] = importlib.import_module(f"{package}.{family}")
    return module
