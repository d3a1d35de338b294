"""Argument checks shared by every public function: dtypes, option words, shapes.

Messages name the argument, what was expected and what was given (docs/design.md, "Errors").
"""
import numbers

import numpy

__all__ = ["compute_dtype", "complex_compute_dtype", "trans_word", "side_word", "check_bool", "check_scalar",
           "check_square", "check_ndim", "SUPPORTED_DTYPES"]

SUPPORTED_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64),
                    numpy.dtype(numpy.complex64), numpy.dtype(numpy.complex128))

_TRANS = {"N": "N", "T": "T", "C": "C", 0: "N", 1: "T", 2: "C"}
_SIDE = {"LEFT": "left", "L": "left", "RIGHT": "right", "R": "right"}
_TRANS_WORDS = frozenset(("N", "T", "C"))


def compute_dtype(**arrays):
    """The dtype the operation computes and returns in, from named operand dtypes.

    float32/float64/complex64/complex128 are kept (several operands: their promotion);
    integers and bool compute in float64; anything else raises TypeError naming the argument.
    ``arrays`` maps argument names to arrays (or anything with a ``dtype``; None is ignored).
    """
    key = tuple((name, a.dtype) for name, a in arrays.items() if a is not None)
    dtype = _COMPUTE_DTYPES.get(key)
    if dtype is None:
        dtype = _COMPUTE_DTYPES[key] = _promote(key)
    return dtype


def complex_compute_dtype(**arrays):
    """compute_dtype promoted to complex: the policy when a scalar (alpha, beta) is complex."""
    dtype = compute_dtype(**arrays)
    return numpy.result_type(dtype, numpy.complex64) if dtype.kind == "f" else dtype


# (name, dtype) pairs -> compute dtype: every public call asks, with few distinct combinations,
# and the promotion costs microseconds a call.
_COMPUTE_DTYPES = {}


def _promote(named_dtypes):
    dtypes = []
    for name, dt in named_dtypes:
        dt = numpy.dtype(dt)
        if dt.kind in "biu":
            dt = numpy.dtype(numpy.float64)
        elif dt not in SUPPORTED_DTYPES:
            raise TypeError(f"{name}: unsupported dtype {dt}; expected float32, float64, "
                            "complex64 or complex128 (integers are computed in float64)")
        dtypes.append(dt)
    return numpy.result_type(*dtypes)


def trans_word(value, name="trans"):
    """Normalize a BLAS transpose option to 'N', 'T' or 'C' (accepts 0, 1, 2 as SciPy)."""
    if type(value) is str and value in _TRANS_WORDS:     # the common case, in one lookup
        return value
    key = value.upper() if isinstance(value, str) else value
    if isinstance(key, bool) or key not in _TRANS:
        raise ValueError(f"{name}: expected 'N', 'T', 'C' (or 0, 1, 2), got {value!r}")
    return _TRANS[key]


def side_word(value, name="side"):
    """Normalize a side option to 'left' or 'right'."""
    if type(value) is str and (value == "left" or value == "right"):     # without upper()
        return value
    key = value.upper() if isinstance(value, str) else None
    if key not in _SIDE:
        raise ValueError(f"{name}: expected 'left' or 'right' ('L'/'R'), got {value!r}")
    return _SIDE[key]


def check_bool(value, name):
    """Reject non-bool flags such as lower='U', which would otherwise be silently truthy."""
    if value is True or value is False:
        return value
    if not isinstance(value, (bool, numpy.bool_)):
        raise TypeError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


def check_scalar(value, name):
    """alpha/beta must be Python or NumPy numbers (not arrays)."""
    if type(value) in (float, int):     # the common case, without the abstract-class check
        return value
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, numbers.Number):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r}")
    return value


def check_ndim(a, ndim, name, what):
    """Exact ndim check; ``what`` describes the expected shape, e.g. '(batch, n, n)'."""
    if a.ndim != ndim:
        hint = "; use a[None] for a single matrix" if a.ndim == ndim - 1 else ""
        raise ValueError(f"{name}: expected a {what} array, got shape {a.shape}{hint}")


def check_square(shape, name):
    """The last two dimensions must be equal."""
    if shape[-1] != shape[-2]:
        raise ValueError(f"{name}: expected square matrices, got matrices of shape "
                         f"{tuple(int(v) for v in shape[-2:])} (array shape {tuple(int(v) for v in shape)})")


def first_bad(bad, name, describe):
    """Raise ValueError for the first batch item where the per-matrix mask ``bad`` is True.

    ``describe(k)`` returns the explanation for item k; strided batches (all items alike) get no
    item number in the message.
    """
    bad = numpy.asarray(bad)
    if numpy.count_nonzero(bad):        # (count_nonzero: a fraction of any()'s time)
        k = int(numpy.flatnonzero(bad)[0])
        where = f" (batch item {k})" if not bad.all() else ""
        raise ValueError(f"{name}: {describe(k)}{where}")


def square_shapes(shapes, name):
    """Per-matrix shapes (batch, 2) must be square."""
    s = shapes[name]
    first_bad(s[:, 0] != s[:, 1], name, lambda k: f"expected square matrices, got shape {tuple(int(v) for v in s[k])}")
