"""Collection rules of the linalg tests."""


def pytest_collection_modifyitems(config, items):
    """Deselect the "one_launch", "cols", "tensor", "global", "cluster", "tensor_trsm" and
    "tensor_tri" parametrizations of sizes those paths do not serve (they would run the same
    kernels as the other path parameters): the sizes are a product of two parametrizations, and
    a deselected case is not a skipped one."""
    from .helpers import (above_leaf, cols_serves, global_serves, one_launch_serves,
                          tensor_serves)
    serves = {"one_launch": one_launch_serves, "cols": cols_serves, "tensor": tensor_serves,
              "global": global_serves, "cluster": global_serves, "tensor_trsm": above_leaf,
              "tensor_tri": above_leaf}
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        n = params.get("n")
        path = next((v for v in params.values() if isinstance(v, str) and v in serves), None)
        (drop if path and n is not None and not serves[path](n) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
