"""Placeholder: being written (see docs/design.md)."""
__all__ = ["trsm", "trmm", "trtri", "lauum", "trsv", "solve_triangular", ]


def trsm(*args, **kwargs):
    raise NotImplementedError("trsm is being implemented")


def trmm(*args, **kwargs):
    raise NotImplementedError("trmm is being implemented")


def trtri(*args, **kwargs):
    raise NotImplementedError("trtri is being implemented")


def lauum(*args, **kwargs):
    raise NotImplementedError("lauum is being implemented")


def trsv(*args, **kwargs):
    raise NotImplementedError("trsv is being implemented")


def solve_triangular(*args, **kwargs):
    raise NotImplementedError("solve_triangular is being implemented")
