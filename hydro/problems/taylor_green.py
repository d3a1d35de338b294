"""Taylor-Green vortex (Laghos -p 0): smooth, no viscosity; 2-D adds the manufactured energy source."""
import numpy as np

from hydro.problems import Problem


class TaylorGreen(Problem):
    name = "taylor_green"
    gamma_value = 5.0 / 3.0
    viscosity = False
    final_time = 0.75

    def v0(self, x):
        v = np.zeros_like(x)
        v[:, 0] = np.sin(np.pi * x[:, 0]) * np.cos(np.pi * x[:, 1])
        v[:, 1] = -np.cos(np.pi * x[:, 0]) * np.sin(np.pi * x[:, 1])
        if x.shape[1] == 3:
            v[:, :2] *= np.cos(np.pi * x[:, 2])[:, None]
        return v

    def e0(self, x, gamma):
        c = np.cos(2 * np.pi * x)
        if x.shape[1] == 2:
            val = 1.0 + (c[:, 0] + c[:, 1]) / 4.0
        else:
            val = 100.0 + ((c[:, 2] + 2) * (c[:, 0] + c[:, 1]) - 2) / 16.0
        return val / (2.0 / 3.0)  # (gamma - 1) * rho with gamma 5/3, rho 1

    def energy_source(self, dim):
        if dim != 2:
            return None  # Laghos adds the manufactured source in 2-D only

        def source(xp, x):
            return 3.0 / 8.0 * np.pi * (xp.cos(3 * np.pi * x[:, 0]) * xp.cos(np.pi * x[:, 1])
                                        - xp.cos(np.pi * x[:, 0]) * xp.cos(3 * np.pi * x[:, 1]))
        return source


PROBLEM = TaylorGreen()
