"""Collection rules of the linalg tests."""


def pytest_collection_modifyitems(config, items):
    """Deselect the "one_launch" parametrizations of sizes the one-launch paths do not serve
    (they would run the same kernels as the other path parameters): the sizes are a product of
    two parametrizations, and a deselected case is not a skipped one."""
    from .helpers import one_launch_serves
    keep, drop = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        n = params.get("n")
        one_launch = any(isinstance(v, str) and v == "one_launch" for v in params.values())
        (drop if one_launch and n is not None and not one_launch_serves(n) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
