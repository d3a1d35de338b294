"""Sod shock tube (Laghos -p 2) along x: (rho, p) = (1, 1) left of 0.5, (0.1, 0.1) right."""
import numpy as np

from hydro.problems import Problem


class Sod(Problem):
    name = "sod"
    gamma_value = 1.4
    viscosity = True
    final_time = 0.2

    def rho0(self, x):
        return np.where(x[:, 0] < 0.5, 1.0, 0.1)

    def e0(self, x, gamma):
        p = np.where(x[:, 0] < 0.5, 1.0, 0.1)
        return p / self.rho0(x) / (gamma - 1.0)


PROBLEM = Sod()
