"""Small helpers shared by the public modules: finishing a call with or without info."""
from ._errors import raise_for_info

__all__ = ["finish"]


def finish(routine, result, info, return_info):
    """Return ``(result, info)`` if asked, else raise LinAlgError for failed matrices (device sync)."""
    if return_info:
        return result, info
    if info is not None and len(info):
        raise_for_info(routine, info, result)
    return result
