"""Gresho vortex (Laghos -p 4): a steady smooth vortex in [-0.5, 0.5]^2, no viscosity."""
import numpy as np

from hydro.problems import Problem


class Gresho(Problem):
    name = "gresho"
    gamma_value = 5.0 / 3.0
    viscosity = False
    final_time = 0.62831853

    def domain(self, dim):
        return [(-0.5, 0.5)] * dim

    def v0(self, x):
        r = np.hypot(x[:, 0], x[:, 1])
        v = np.zeros_like(x)
        inner, mid = r < 0.2, (r >= 0.2) & (r < 0.4)
        rs = np.where(r > 0, r, 1.0)
        v[:, 0] = np.where(inner, 5 * x[:, 1], np.where(mid, 2 * x[:, 1] / rs - 5 * x[:, 1], 0.0))
        v[:, 1] = np.where(inner, -5 * x[:, 0], np.where(mid, -2 * x[:, 0] / rs + 5 * x[:, 0], 0.0))
        return v

    def e0(self, x, gamma):
        g = 5.0 / 3.0
        r = np.hypot(x[:, 0], x[:, 1])
        rsq = r * r
        rl = np.log(np.where(r > 0, r, 1.0))
        inner = (5.0 + 12.5 * rsq) / (g - 1)
        mid = ((9.0 - 4.0 * np.log(0.2) + 12.5 * rsq) - (20.0 * r - 4.0 * rl)) / (g - 1)
        outer = (3.0 + 4.0 * np.log(2.0)) / (g - 1)
        return np.where(r < 0.2, inner, np.where(r < 0.4, mid, outer))


PROBLEM = Gresho()
