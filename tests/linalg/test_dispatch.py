"""linalg works without CuPy or a GPU, and picks the backend from the array module."""
import subprocess
import sys

import numpy

from linalg import _dispatch


def test_import_without_cupy():
    code = ("import sys; sys.modules['cupy'] = None\n"   # any 'import cupy' now fails
            "import linalg, numpy\n"
            "a = numpy.eye(3)[None] * 4\n"
            "print(float(linalg.potrf(a)[0, 0, 0]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2.0"


def test_numpy_arrays_use_cpu_backend():
    assert _dispatch.array_module(numpy.zeros(1)) is numpy
    assert _dispatch.backend(numpy, "cholesky").__name__ == "linalg._cpu.cholesky"
