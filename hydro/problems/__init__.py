"""Problem registry: initial conditions, materials and defaults of each test problem.

Each problem module defines one :class:`Problem` subclass instance named ``PROBLEM``. Functions
take points ``x`` of shape (m, dim) (NumPy, setup only) and return (m,) or (m, dim) arrays.
"""
from __future__ import annotations

import importlib

import numpy as np

NAMES = ("sedov", "taylor_green", "sod", "noh", "triple_point", "gresho", "rayleigh_taylor")


class Problem:
    """Base class; subclasses override what differs. ``defaults`` resolves ``None`` config keys."""

    name = "base"
    gamma_value = 1.4
    viscosity = True
    vorticity = False
    final_time = 0.6

    def domain(self, dim: int) -> list[tuple[float, float]]:
        """Default per-axis extent of the generated box."""
        return [(0.0, 1.0)] * dim

    def defaults(self, dim: int) -> dict:
        """Problem defaults for config keys left as None."""
        return {"extent": self.domain(dim), "gamma": self.gamma_value,
                "viscosity": self.viscosity, "vorticity": self.vorticity,
                "final_time": self.final_time}

    def rho0(self, x: np.ndarray) -> np.ndarray:
        return np.ones(len(x))

    def gamma(self, x: np.ndarray, gamma_override=None) -> np.ndarray:
        return np.full(len(x), self.gamma_value if gamma_override is None else gamma_override)

    def v0(self, x: np.ndarray) -> np.ndarray:
        return np.zeros_like(x)

    def e0(self, x: np.ndarray, gamma: np.ndarray) -> np.ndarray:
        return np.zeros(len(x))

    # Optional extras (None = absent)
    def energy_source(self, dim: int):
        """Callable Q(xp, x (m, dim)) -> (m,): power density added to the energy equation, or None."""
        return None

    def acceleration(self, dim: int, params: dict):
        """Constant body acceleration (dim,) (gravity), or None."""
        return None

    delta_energy = False  # True: e0 is a delta at the origin (Sedov), see hydro.simulation


def get(name: str) -> Problem:
    """The problem called ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise ValueError(f"unknown problem {name!r}; expected one of {', '.join(NAMES)}")
    return importlib.import_module(f"hydro.problems.{name}").PROBLEM
