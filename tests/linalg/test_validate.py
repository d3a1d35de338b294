"""linalg._validate: dtype policy and option words."""
import numpy
import pytest

from linalg import _validate


@pytest.mark.parametrize("dtype, expected", [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64),
    (numpy.complex64, numpy.complex64), (numpy.complex128, numpy.complex128),
    (numpy.int32, numpy.float64), (numpy.bool_, numpy.float64)])
def test_compute_dtype_single(dtype, expected):
    assert _validate.compute_dtype(a=numpy.zeros(1, dtype)) == expected


def test_compute_dtype_promotes_mixed_operands():
    assert _validate.compute_dtype(a=numpy.zeros(1, numpy.float32), b=numpy.zeros(1, numpy.complex64)) == numpy.complex64
    assert _validate.compute_dtype(a=numpy.zeros(1, numpy.float32), b=numpy.zeros(1, numpy.float64)) == numpy.float64


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.longdouble, object, "U3"])
def test_compute_dtype_rejects_unsupported_and_names_argument(dtype):
    with pytest.raises(TypeError, match="^b: unsupported dtype"):
        _validate.compute_dtype(b=numpy.zeros(1, dtype))


@pytest.mark.parametrize("word, expected", [("n", "N"), ("T", "T"), ("c", "C"), (0, "N"), (1, "T"), (2, "C")])
def test_trans_word(word, expected):
    assert _validate.trans_word(word) == expected


@pytest.mark.parametrize("word", ["X", 3, True, None, "NN"])
def test_trans_word_rejects(word):
    with pytest.raises(ValueError, match="transa: expected 'N', 'T', 'C'"):
        _validate.trans_word(word, "transa")


@pytest.mark.parametrize("word, expected", [("left", "left"), ("L", "left"), ("Right", "right"), ("r", "right")])
def test_side_word(word, expected):
    assert _validate.side_word(word) == expected


@pytest.mark.parametrize("word", ["up", numpy.array(["left", "right"]), None])
def test_side_word_rejects(word):
    with pytest.raises(ValueError, match="side: expected 'left' or 'right'"):
        _validate.side_word(word)


@pytest.mark.parametrize("flag, expected", [(True, True), (False, False), (numpy.bool_(True), True)])
def test_check_bool_accepts_bools(flag, expected):
    assert _validate.check_bool(flag, "lower") is expected


def test_check_bool_rejects_strings():
    with pytest.raises(TypeError, match="lower: expected True or False"):
        _validate.check_bool("U", "lower")
