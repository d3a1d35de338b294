"""LinAlgError and the single formatter of per-matrix LAPACK ``info`` codes."""
import numpy

__all__ = ["LinAlgError", "raise_for_info", "INFO_MEANING"]

# What info[k] = j > 0 means, per routine (docs/design.md, "info").
INFO_MEANING = {
    "potrf": "leading minor not positive definite",
    "posv": "leading minor not positive definite",
    "poti": "leading minor not positive definite",
    "potrs": "zero or non-finite diagonal element in the Cholesky factor",
    "potri": "zero or non-finite diagonal element in the Cholesky factor",
    "trtri": "zero or non-finite diagonal element (singular triangular matrix)",
    "trsv": "zero or non-finite diagonal element (singular triangular matrix)",
    "trsm": "zero or non-finite diagonal element (singular triangular matrix)",
}

_MAX_LISTED = 10


class LinAlgError(numpy.linalg.LinAlgError):
    """A matrix of a batch failed numerically.

    Attributes:
        routine: the routine name, e.g. ``"potrf"``.
        info: per-matrix int32 LAPACK codes, shape (batch,), same array module as the input.
        result: what was computed (the failing matrices hold unusable values; the others are right).
        indices: the failing batch indices (NumPy int array).
    """

    def __init__(self, message, routine=None, info=None, result=None, indices=None):
        super().__init__(message)
        self.routine = routine
        self.info = info
        self.result = result
        self.indices = indices


def _to_numpy(info):
    get = getattr(info, "get", None)  # CuPy arrays: explicit device -> host copy
    return numpy.asarray(get() if callable(get) else info)


def raise_for_info(routine, info, result):
    """Raise LinAlgError if any ``info`` entry is nonzero; reading it synchronizes the device."""
    host = _to_numpy(info)
    if not numpy.count_nonzero(host):
        return
    bad = numpy.flatnonzero(host)
    shown = bad[:_MAX_LISTED]
    more = f" and {bad.size - shown.size} more" if bad.size > shown.size else ""
    meaning = INFO_MEANING.get(routine, "numerical failure")
    message = (f"{routine}: {meaning} for batch items {shown.tolist()}{more} "
               f"(info={host[shown].tolist()}{'...' if more else ''}); "
               "the other matrices were computed; pass return_info=True to get the info array instead")
    raise LinAlgError(message, routine=routine, info=info, result=result, indices=bad)
