"""Rayleigh-Taylor instability (Laghos -p 7): heavy over light fluid under gravity (0, -1)."""
import numpy as np

from hydro.problems import Problem


class RayleighTaylor(Problem):
    name = "rayleigh_taylor"
    gamma_value = 5.0 / 3.0
    viscosity = True
    vorticity = True
    final_time = 4.0

    def domain(self, dim):
        return [(0.0, 0.5), (-1.0, 1.0)]

    def rho0(self, x):
        return np.where(x[:, 1] >= 0.0, 2.0, 1.0)

    def v0(self, x):
        v = np.zeros_like(x)
        v[:, 1] = 0.02 * np.exp(-2 * np.pi * x[:, 1] ** 2) * np.cos(2 * np.pi * x[:, 0])
        return v

    def e0(self, x, gamma):
        rho = self.rho0(x)
        return (6.0 - rho * x[:, 1]) / (gamma - 1.0) / rho

    def acceleration(self, dim, params):
        return np.asarray(params.get("gravity", [0.0, -1.0]), float)


PROBLEM = RayleighTaylor()
