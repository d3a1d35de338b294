"""The one compile point for our CUDA kernels: source lookup, NVRTC compilation, caching.

Kernels are C++ templates in kernels/<family>.cu; a launcher asks for one instantiation by its
name expression, e.g. ``get_kernel("potrf", "potrf_small<double, 8>")``. The module is compiled
once per (device, family, name expression) with NVRTC through ``cupy.RawModule`` and cached here
in memory (and by CuPy on disk).
"""
import functools
import os
from importlib import resources
from pathlib import Path

import numpy

__all__ = ["kernel_dir", "kernel_source", "get_kernel", "ctype", "COMPILE_OPTIONS"]

# Environment override for development: point at a kernels/ checkout.
KERNEL_DIR_ENV = "LINALG_KERNEL_DIR"
COMPILE_OPTIONS = ("--std=c++17",)

_CTYPES = {numpy.dtype(numpy.float32): "float", numpy.dtype(numpy.float64): "double"}


def ctype(dtype):
    """C++ type name of a real dtype (the kernels' template argument); TypeError otherwise."""
    try:
        return _CTYPES[numpy.dtype(dtype)]
    except KeyError:
        raise TypeError(f"no CUDA kernel for dtype {numpy.dtype(dtype)}") from None


def kernel_dir():
    """Folder holding the .cu/.cuh sources: $LINALG_KERNEL_DIR, the installed package data, or the
    repository's kernels/ folder (editable install or running from a checkout)."""
    override = os.environ.get(KERNEL_DIR_ENV)
    if override:
        return Path(override)
    try:
        installed = Path(str(resources.files("linalg._kernels")))
        if installed.is_dir() and any(installed.glob("*.cu")):
            return installed
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[2] / "kernels"


@functools.lru_cache(maxsize=None)
def kernel_source(family):
    """Text of kernels/<family>.cu."""
    path = kernel_dir() / f"{family}.cu"
    if not path.is_file():
        raise FileNotFoundError(f"CUDA source for kernel family '{family}' not found at {path}")
    return path.read_text()


@functools.lru_cache(maxsize=None)
def _module(device_id, family, name_expression, options):
    import cupy
    opts = COMPILE_OPTIONS + (f"-I{kernel_dir()}",) + options
    return cupy.RawModule(code=kernel_source(family), options=opts, name_expressions=[name_expression])


_FUNCTIONS = {}


def get_kernel(family, name_expression, options=()):
    """The compiled kernel function for one template instantiation on the current device.

    Cached in a plain dict (module lookup and cuModuleGetFunction cost microseconds, which
    matter for small batched calls)."""
    import cupy
    key = (cupy.cuda.runtime.getDevice(), family, name_expression, tuple(options))
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = _module(*key).get_function(name_expression)
    return fn


def grid_1d(batch, per_block):
    """Grid size for one block per ``per_block`` matrices, capped at CUDA's x-dimension limit
    (kernels loop over the batch with a grid stride, so any batch count works)."""
    return max(1, min(-(-batch // per_block), 2**31 - 1))
