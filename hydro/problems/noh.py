"""Noh implosion: cold gas moving radially inward at unit speed; post-shock density 16 (gamma 5/3)."""
import numpy as np

from hydro.problems import Problem


class Noh(Problem):
    name = "noh"
    gamma_value = 5.0 / 3.0
    viscosity = True
    final_time = 0.6

    def v0(self, x):
        r = np.linalg.norm(x, axis=1)
        return -x / np.where(r > 0, r, 1.0)[:, None]

    def e0(self, x, gamma):
        return np.zeros(len(x))


PROBLEM = Noh()
