"""QuadratureData: everything the method keeps at the quadrature points of all local zones.

Shapes: Z local zones, NQ quadrature points per zone, dim space dimension. Arrays live in the
simulation's array module (NumPy or CuPy).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class QuadratureData:
    # rho0 * det(J0) * w_q (Z, NQ): initial mass at each point. Computed once at setup; constant
    # because of Lagrangian (pointwise) mass conservation: rho |J| = rho0 |J0|.
    rho0DetJ0w: Any
    # Inverse of the initial Jacobian J0^{-1} (Z, NQ, dim, dim). Computed once at setup; used for
    # the directional viscosity length scale h = h0 |J J0^{-1} s| / |s|.
    Jac0inv: Any
    # Initial mesh size (Volume / zones)^(1/dim) / order, a global scalar. Computed once at setup.
    h0: float
    # Ratio of specific heats per zone (Z,), piecewise constant and moving with the mesh. Setup.
    gamma: Any
    # sigma J^{-T} w_q det(J) (Z, NQ, dim, dim): stress pulled back to the reference element,
    # the only input of the force operator. Recomputed at every stage (every new state).
    stressJinvT: Any = None
    # Local minimum CFL time-step estimate at the last computed state (0.0 if a Jacobian is
    # negative). Recomputed with stressJinvT; reduced globally by the caller.
    dt_est: float = float("inf")
    # Density, pressure, specific internal energy and sound speed (Z, NQ) at the last computed
    # state: kept for output only; recomputed with stressJinvT.
    rho: Any = None
    p: Any = None
    e: Any = None
