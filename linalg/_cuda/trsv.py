"""GPU batched TRSV (one right-hand side): launcher of kernels/trsv.cu.

``trsv(a, x, lower, trans, unit_diagonal)`` solves op(a_k) x_k = b_k for a (batch, n, n) and
x (batch, n) (overwritten) and returns ``(x, info)``; info[k] is the first zero or non-finite
diagonal element (1-based), computed on the device, never synchronized (docs/design.md).
Complex dtypes and n above the shared-memory limit go to cupyx.scipy.linalg.solve_triangular
with info computed by CuPy array operations (also without a sync).
"""
import functools

import numpy

from . import _compile
from .blas import is_real, trans_flag, name_expr, launch, grid_for, params

__all__ = ["trsv", "COMPILE_CHECK"]

_MAX_N_KERNEL = 8192       # x lives in shared memory: 64 KiB in float64


def _info_from_diagonal(a, unit_diagonal):
    import cupy
    batch, n, _ = a.shape
    if unit_diagonal:
        return cupy.zeros(batch, dtype=numpy.int32)
    d = cupy.diagonal(a, axis1=1, axis2=2)
    bad = (d == 0) | ~cupy.isfinite(d)
    first = cupy.argmax(bad, axis=1).astype(numpy.int32) + 1
    return cupy.where(bad.any(axis=1), first, 0).astype(numpy.int32)


def _vendor_trsv(a, x, lower, trans, unit_diagonal):
    from cupyx.scipy.linalg import solve_triangular
    w = {"N": 0, "T": 1, "C": 2}[str(trans).upper()]
    sol = solve_triangular(a, x[:, :, None], trans=w, lower=lower, unit_diagonal=unit_diagonal)
    return sol[:, :, 0], _info_from_diagonal(a, unit_diagonal)


def default_team(n):
    """Untuned team size: one warp for n <= 32, then up to 256 threads."""
    if n <= 32:
        return 32
    if n <= 64:
        return 64
    return 128 if n <= 256 else 256


def trsv(a, x, lower=True, trans="N", unit_diagonal=False, _params=None):
    """Solve op(a) x = b (b given in x) for each matrix; returns (x, info)."""
    import cupy
    batch, n, _ = a.shape
    if not is_real(a.dtype) or n > _MAX_N_KERNEL:
        return _vendor_trsv(a, x, lower, trans, unit_diagonal)
    t = trans_flag(trans, a.dtype)
    key = (a.dtype.name, batch, n)
    plan = _plan(*key) if _params is None else _plan.__wrapped__(*key, _params)
    expr, grid, block, smem, team = plan
    info = cupy.empty(batch, dtype=numpy.int32)
    args = (numpy.int64(batch), numpy.int32(n), a, x, info, numpy.int32(bool(lower)),
            numpy.int32(t), numpy.int32(bool(unit_diagonal)), numpy.int32(team))
    launch("trsv", expr, grid, block, args, smem)
    return x, info


@functools.lru_cache(maxsize=1024)
def _plan(dtype, batch, n, override=None):
    """(name expression, grid, block, shared bytes, team size) of one TRSV launch."""
    p = params("trsv", dtype, n, override=override)
    nb, unroll = int(p["nb"]), int(p["unroll"])
    team = max(32, int(p.get("team") or 0) or default_team(n))    # the diagonal needs a warp
    per_block = int(p.get("teams_per_block") or 0) or max(1, 128 // team)
    per_block = min(per_block, 15 if team > 32 else 32)
    per_team = ((n + 1) // 2 * 2 + nb * (nb + 1) + team + 2) * numpy.dtype(dtype).itemsize
    while per_block > 1 and per_team * per_block > 96 * 1024:
        per_block //= 2
    expr = name_expr("trsv_blocked", _compile.ctype(dtype), nb, unroll)
    return expr, grid_for(batch, per_block), team * per_block, per_team * per_block, team


COMPILE_CHECK = {"trsv.cu": [name_expr("trsv_blocked", T, nb, u)
                             for T in ("float", "double") for nb in (16, 32) for u in (2, 4)]}
