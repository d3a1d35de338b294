"""Placeholder: being written (see docs/design.md)."""
__all__ = ["gebrd", "gebrd_unpack", "GebrdResult", ]


def gebrd(*args, **kwargs):
    raise NotImplementedError("gebrd is being implemented")


def gebrd_unpack(*args, **kwargs):
    raise NotImplementedError("gebrd_unpack is being implemented")


def GebrdResult(*args, **kwargs):
    raise NotImplementedError("GebrdResult is being implemented")
