"""The one compile point for our CUDA kernels: source lookup, NVRTC compilation, caching.

Kernels are C++ templates in kernels/<family>.cu; a launcher asks for one instantiation by its
name expression, e.g. ``get_kernel("potrf", "potrf_small<double, 8>")``. The module is compiled
once per (device, family, name expression) with NVRTC through ``cupy.RawModule`` and cached here
in memory (and by CuPy on disk). ``kernel`` returns its Launcher, which starts it through
cuLaunchKernel with the parameters packed by a declared signature.
"""
import functools
import os
import struct
import threading
from importlib import resources
from pathlib import Path

import numpy

from .._dispatch import cupy_module

__all__ = ["is_real", "dtype_name", "kernel_dir", "kernel_source", "get_kernel", "kernel",
           "Launcher", "current_device", "info_array", "ctype", "COMPILE_OPTIONS"]

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


def cbool(flag):
    """C++ literal of a bool template argument ("true" / "false")."""
    return "true" if flag else "false"


_DTYPE_NAMES = {numpy.dtype(t): numpy.dtype(t).name
                for t in (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)}


def dtype_name(dtype):
    """``numpy.dtype(dtype).name`` by a dict lookup. NumPy computes that attribute in Python, ~3-5
    us a call (numpy 2.4 on the development machine), and the launchers key their rules by it on
    every call: a small call asked up to five times."""
    try:
        return _DTYPE_NAMES[dtype]
    except KeyError:                        # another dtype, or a type or string naming one
        name = _DTYPE_NAMES[dtype] = numpy.dtype(dtype).name
        return name
    except TypeError:                       # unhashable: a structured dtype's field list
        return numpy.dtype(dtype).name


def is_real(dtype):
    """float32 or float64 (a dtype object): the dtypes our kernels take. A dict lookup: backends
    ask on every call."""
    return dtype in _CTYPES


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
    cupy = cupy_module()
    opts = COMPILE_OPTIONS + (f"-I{kernel_dir()}",) + options
    return cupy.RawModule(code=kernel_source(family), options=opts, name_expressions=[name_expression])


_FUNCTIONS = {}


def get_kernel(family, name_expression, options=()):
    """The compiled kernel function for one template instantiation on the current device.

    Cached in a plain dict (module lookup and cuModuleGetFunction cost microseconds, which
    matter for small batched calls)."""
    cupy = cupy_module()
    key = (cupy.cuda.runtime.getDevice(), family, name_expression, tuple(options))
    fn = _FUNCTIONS.get(key)
    if fn is None:
        fn = _FUNCTIONS[key] = _module(*key).get_function(name_expression)
    return fn


def grid_1d(batch, per_block):
    """Grid size for one block per ``per_block`` matrices, capped at CUDA's x-dimension limit
    (kernels loop over the batch with a grid stride, so any batch count works)."""
    return max(1, min(-(-batch // per_block), 2**31 - 1))


# Dynamic shared memory a kernel may take without opting in (CUDA's default limit).
DEFAULT_SMEM = 48 * 1024

# Parameter slot of each signature code: every parameter gets its own 8-byte slot (a 4-byte value
# is followed by 4 pad bytes), read by the driver through one pointer per slot.
_SLOT_FORMATS = {"p": "Q", "i": "i4x", "q": "q", "f": "f4x", "d": "d"}


class Launcher:
    """One compiled kernel instantiation, launched through cuLaunchKernel with its parameters
    packed into a buffer made once (CuPy's generic launch path converts every argument on every
    call; small batched calls are host bound, docs/design.md "Launch overhead").

    ``launcher(grid, block, args, shared_mem=0)``: grid/block an int or an (x, y, z) tuple; args in
    the kernel's parameter order, matching the signature: "p" a CuPy array (its device pointer),
    "i" int32, "q" int64, "f" float, "d" double (Python or NumPy numbers). Packing runs under a
    lock: the driver has copied the parameters when cuLaunchKernel returns."""

    def __init__(self, function, signature, array_type, launch_kernel, current_stream):
        if not signature or any(c not in _SLOT_FORMATS for c in signature):
            raise ValueError(f"kernel signature {signature!r}: expected codes from 'piqfd'")
        self.function = function        # CuPy RawKernel: attributes are set on it
        self.function_ptr = getattr(function, "kernel", function).ptr     # the CUfunction
        self.signature = signature
        self.nargs = len(signature)
        self.array_type = array_type
        self.values = _slot_values(signature)
        self.pack = struct.Struct("<" + "".join(_SLOT_FORMATS[c] for c in signature)).pack_into
        self.slots = numpy.zeros(self.nargs, dtype=numpy.uint64)
        base = self.slots.ctypes.data
        self.pointers = numpy.arange(base, base + 8 * self.nargs, 8, dtype=numpy.uint64)
        self.address = self.pointers.ctypes.data
        self.lock = threading.Lock()
        self.launch_kernel = launch_kernel        # cupy_backends' cuLaunchKernel wrapper
        self.current_stream = current_stream
        self.smem_limit = DEFAULT_SMEM

    def __call__(self, grid, block, args, shared_mem=0):
        if shared_mem > self.smem_limit:
            if self.function.max_dynamic_shared_size_bytes < shared_mem:
                self.function.max_dynamic_shared_size_bytes = shared_mem
            self.smem_limit = shared_mem
        try:
            values = self.values(args)
        except (ValueError, AttributeError):
            self._raise_for(args)
            raise
        gx, gy, gz = (grid, 1, 1) if type(grid) is int else _dims(grid)
        bx, by, bz = (block, 1, 1) if type(block) is int else _dims(block)
        stream = self.current_stream().ptr
        with self.lock:
            self.pack(self.slots, 0, *values)
            self.launch_kernel(self.function_ptr, max(1, gx), gy, gz, bx, by, bz, shared_mem,
                               stream, self.address, 0)

    def _raise_for(self, args):
        """The TypeError of arguments that do not fit the signature (count, or a pointer slot
        without a device array)."""
        if len(args) != self.nargs:
            raise TypeError(f"kernel takes {self.nargs} arguments, got {len(args)}")
        for i, c in enumerate(self.signature):
            if c == "p" and not isinstance(args[i], self.array_type):
                raise TypeError(f"kernel argument {i}: expected a device array, got "
                                f"{type(args[i]).__name__}")


@functools.lru_cache(maxsize=None)
def _slot_values(signature):
    """``values(args)``: the tuple of slot values of one launch, a device array's pointer
    (``.data.ptr``) in each "p" slot; ValueError for a wrong count, AttributeError for a "p"
    argument that is no device array. Written out per signature (as namedtuple writes its
    class): the generic loop over the arguments cost ~0.5 us more a launch (a launch's Python
    1.9 -> 1.35 us on the development machine)."""
    names = [f"a{i}" for i in range(len(signature))]
    slots = [f"{v}.data.ptr" if c == "p" else v for v, c in zip(names, signature)]
    source = (f"def values(args):\n    ({', '.join(names)},) = args\n"
              f"    return ({', '.join(slots)},)\n")
    scope = {}
    exec(source, scope)
    return scope["values"]


def _dims(d):
    """(x, y, z) of an int or a 1-3 tuple of ints, each >= 1."""
    if not isinstance(d, tuple):
        return (max(1, int(d)), 1, 1)
    return (tuple(max(1, int(v)) for v in d) + (1, 1))[:3]


_LAUNCHERS = {}


def info_array(batch):
    """A new int32 (batch,) device array, not initialized: the info a kernel writes (the
    ndarray constructor: ~0.5 us less host time than cupy.empty's wrapper)."""
    return cupy_module().ndarray((batch,), numpy.int32)


def current_device():
    """Id of the current CUDA device (part of every launch-configuration cache key)."""
    cupy = cupy_module()
    return cupy.cuda.runtime.getDevice()


@functools.lru_cache(maxsize=64)
def clusters(device_id):
    """Whether the device runs thread-block clusters (compute capability 9.0 on)."""
    return int(cupy_module().cuda.Device(device_id).compute_capability) >= 90


def register_cap(maxreg):
    """NVRTC options capping a kernel's registers per thread (a tuning parameter, "maxreg" in
    the tables: NVRTC's own choice is not the fastest for every kernel and shape -- it trades
    occupancy against loads in flight -- so it is measured per class); () for no cap."""
    return (f"--maxrregcount={int(maxreg)}",) if maxreg else ()


def kernel(family, name_expression, signature, dtype=None, options=()):
    """The Launcher of one kernel instantiation on the current device (compiled on first use,
    cached). A "T" in the signature stands for the real dtype ``dtype`` ("f" or "d")."""
    cupy = cupy_module()
    key = (cupy.cuda.runtime.getDevice(), family, name_expression, signature, dtype, options)
    launcher = _LAUNCHERS.get(key)
    if launcher is None:
        from cupy_backends.cuda.api import driver
        codes = signature
        if "T" in signature:
            codes = signature.replace("T", "d" if numpy.dtype(dtype).itemsize == 8 else "f")
        launcher = _LAUNCHERS[key] = Launcher(get_kernel(family, name_expression, options), codes,
                                              cupy.ndarray, driver.launchKernel,
                                              cupy.cuda.get_current_stream)
    return launcher
