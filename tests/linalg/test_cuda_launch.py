"""The kernel Launcher of linalg/_cuda/_compile.py (CPU: a recording stand-in for cuLaunchKernel
reads each parameter back through the pointer table exactly as the driver would)."""
import ctypes

import numpy
import pytest

from linalg._cuda._compile import Launcher


class FakeArray:
    """Stands in for cupy.ndarray: only ``.data.ptr`` is read."""
    def __init__(self, ptr):
        self.data = type("Pointer", (), {"ptr": ptr})()


class FakeFunction:
    ptr = 0xF00D
    max_dynamic_shared_size_bytes = 48 * 1024


class FakeStream:
    ptr = 77


_CTYPES = {"p": ctypes.c_uint64, "i": ctypes.c_int32, "q": ctypes.c_int64,
           "f": ctypes.c_float, "d": ctypes.c_double}


class Recorder:
    """cuLaunchKernel stand-in: reads each parameter as the C type of its signature code."""
    def __init__(self, signature):
        self.types = [_CTYPES[c] for c in signature]
        self.calls = []

    def __call__(self, f, gx, gy, gz, bx, by, bz, smem, stream, params, extra):
        table = (ctypes.c_void_p * len(self.types)).from_address(params)
        values = [t.from_address(table[i]).value for i, t in enumerate(self.types)]
        self.calls.append(((f, gx, gy, gz, bx, by, bz, smem, stream, extra), values))


def make(signature, function=None):
    rec = Recorder(signature)
    return Launcher(function or FakeFunction(), signature, FakeArray, rec, FakeStream), rec


def test_each_parameter_reads_back_as_its_c_type():
    launcher, rec = make("qipfdiqd")
    launcher(10, 128, (-5, numpy.int32(-7), FakeArray(0x7000_0000_1234), 1.5, numpy.float64(-2.25),
                       True, 2**40, 0.1))
    (meta, values), = rec.calls
    assert meta == (0xF00D, 10, 1, 1, 128, 1, 1, 0, 77, 0)
    assert values == [-5, -7, 0x7000_0000_1234, 1.5, -2.25, 1, 2**40, 0.1]


def test_float_slot_rounds_to_single_precision():
    launcher, rec = make("f")
    launcher(1, 32, (0.1,))
    assert rec.calls[0][1] == [float(numpy.float32(0.1))]


def test_later_calls_repack_new_values():
    launcher, rec = make("pi")
    for ptr, n in ((32, 2), (48, 9)):
        launcher((1, 1, 1), (32, 1, 1), (FakeArray(ptr), n))
    assert [v for _, v in rec.calls] == [[32, 2], [48, 9]]


def test_grid_and_block_tuples_padded_to_three():
    launcher, rec = make("i")
    launcher((3, 2), (32, 8), (1,))
    assert rec.calls[0][0][1:7] == (3, 2, 1, 32, 8, 1)


def test_shared_memory_above_default_is_opted_in():
    function = FakeFunction()
    launcher, rec = make("i", function)
    launcher(1, 32, (1,), 80 * 1024)
    assert function.max_dynamic_shared_size_bytes == 80 * 1024
    assert rec.calls[0][0][7] == 80 * 1024


def test_wrong_argument_count_is_reported():
    launcher, _ = make("pi")
    with pytest.raises(TypeError, match="takes 2 arguments, got 1"):
        launcher(1, 32, (FakeArray(0),))


def test_non_array_in_pointer_slot_is_named():
    launcher, _ = make("ip")
    with pytest.raises(TypeError, match="argument 1: expected a device array"):
        launcher(1, 32, (1, 5))


def test_value_out_of_range_of_its_slot_raises():
    launcher, _ = make("i")
    with pytest.raises(Exception):
        launcher(1, 32, (2**40,))


def test_unknown_signature_code_is_rejected():
    with pytest.raises(ValueError, match="signature"):
        Launcher(FakeFunction(), "pz", FakeArray, Recorder(""), FakeStream)
