"""Equation of state: ideal gas (as Laghos's ComputeMaterialProperties)."""
from __future__ import annotations


def ideal_gas(xp, gamma, rho, e):
    """Pressure and sound speed of an ideal gas, elementwise on arrays of equal (broadcast) shape.

    p = (gamma - 1) rho e, c_s = sqrt(gamma (gamma - 1) e). ``e`` must already be >= 0.
    """
    p = (gamma - 1.0) * rho * e
    cs = xp.sqrt(gamma * (gamma - 1.0) * e)
    return p, cs
