"""Placeholder: being written (see docs/design.md)."""
__all__ = ["gemm", "gemv", "syrk", ]


def gemm(*args, **kwargs):
    raise NotImplementedError("gemm is being implemented")


def gemv(*args, **kwargs):
    raise NotImplementedError("gemv is being implemented")


def syrk(*args, **kwargs):
    raise NotImplementedError("syrk is being implemented")
