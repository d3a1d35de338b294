"""GPU batched GEBRD (reduction to bidiagonal form): launcher of kernels/gebrd.cu.

``gebrd(a)`` takes a (batch, m, n), overwrites it with LAPACK's GEBRD output (B on the diagonal
and first super- (m >= n) or sub-diagonal (m < n), the Householder vectors of Q and P in the rest)
and returns the tuple ``(a, d, e, tauq, taup)`` with d, tauq, taup of shape (batch, min(m, n)) and
e of shape (batch, min(m, n) - 1), LAPACK conventions (dgebd2's reflectors, so results agree with
LAPACK to rounding). No failure mode, no info.

One team per matrix; the matrix sits in shared memory when it fits (the big-tile setting of seed
003), otherwise the same kernel works on it in global memory. Complex dtypes have no kernel yet
and no vendor routine: they are computed by the CPU backend on a host copy (correct, slow).
"""
from . import _compile
from ._compile import kernel
from .blas import is_real, name_expr, grid_for, params

__all__ = ["gebrd", "COMPILE_CHECK"]

_SMEM_LIMIT = 200 * 1024


def default_team(m, n):
    """Untuned team size: one warp up to 32 x 32, then more threads with the matrix size (above
    64 a matrix fills most of an SM's shared memory, so the team is the occupancy: 256 threads
    measured 1.3-1.5x faster than 128 at n = 128 on the H100)."""
    size = max(m, n)
    if size <= 32:
        return 32
    return 64 if size <= 64 else 256


def _cpu_gebrd(a):
    import cupy
    from .._cpu import bidiag as cpu_bidiag
    res = cpu_bidiag.gebrd(cupy.asnumpy(a))
    return tuple(cupy.asarray(r) for r in res)


def _smem_per_team(m, n, team, in_smem, item):
    return ((m * (n + 1) if in_smem else 0) + 2 * max(m, n) + team + 40) * item


def gebrd(a, _params=None):
    """Bidiagonalize each matrix in place; returns (a, d, e, tauq, taup)."""
    import cupy
    batch, m, n = a.shape
    mn = min(m, n)
    if a.size == 0:         # empty never reaches a kernel
        vec = cupy.zeros((batch, mn), dtype=a.dtype)
        return a, vec, vec[:, :max(mn - 1, 0)].copy(), vec.copy(), vec.copy()
    if not is_real(a.dtype):
        return _cpu_gebrd(a)
    p = params("gebrd", a.dtype, m, n, override=_params)
    team = int(p.get("team") or 0) or default_team(m, n)
    item = a.dtype.itemsize
    in_smem = _smem_per_team(m, n, team, True, item) <= _SMEM_LIMIT
    per_team = _smem_per_team(m, n, team, in_smem, item)
    per_block = int(p.get("teams_per_block") or 0) or max(1, 128 // team)
    per_block = min(per_block, 15 if team > 32 else 32)
    while per_block > 1 and per_team * per_block > _SMEM_LIMIT:
        per_block //= 2
    d = cupy.empty((batch, mn), dtype=a.dtype)
    e = cupy.zeros((batch, mn), dtype=a.dtype)
    tauq = cupy.empty((batch, mn), dtype=a.dtype)
    taup = cupy.empty((batch, mn), dtype=a.dtype)
    expr = name_expr("gebrd_team", _compile.ctype(a.dtype), int(p["unroll"]),
                     "true" if in_smem else "false")
    launcher = kernel("gebrd", expr, "qiipppppi")
    launcher(grid_for(batch, per_block), team * per_block, (batch, m, n, a, d, e, tauq, taup, team),
             per_team * per_block)
    return a, d, cupy.ascontiguousarray(e[:, :max(mn - 1, 0)]), tauq, taup


COMPILE_CHECK = {"gebrd.cu": [name_expr("gebrd_team", T, u, s) for T in ("float", "double")
                              for u in (1, 2, 4) for s in ("true", "false")]}
