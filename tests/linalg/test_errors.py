"""linalg._errors: the info formatter and the exception's attached data."""
import numpy
import pytest

import linalg
from linalg._errors import raise_for_info


def test_linalg_error_is_numpy_linalg_error():
    assert issubclass(linalg.LinAlgError, numpy.linalg.LinAlgError)


def test_raise_for_info_names_indices_and_codes_and_attaches_data():
    info = numpy.array([0, 3, 0, 1], dtype=numpy.int32)
    result = numpy.zeros((4, 2, 2))
    with pytest.raises(linalg.LinAlgError, match=r"potrf: leading minor not positive definite "
                                                 r"for batch items \[1, 3\] \(info=\[3, 1\]\)") as err:
        raise_for_info("potrf", info, result)
    assert err.value.info is info and err.value.result is result
    assert err.value.indices.tolist() == [1, 3]


def test_raise_for_info_silent_when_all_zero():
    raise_for_info("trtri", numpy.zeros(5, dtype=numpy.int32), None)


def test_long_failure_lists_are_truncated():
    info = numpy.ones(50, dtype=numpy.int32)
    with pytest.raises(linalg.LinAlgError, match="and 40 more"):
        raise_for_info("trsv", info, None)
