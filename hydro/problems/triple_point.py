"""Triple point (Laghos -p 3): three materials, piecewise gamma."""
import numpy as np

from hydro.problems import Problem


class TriplePoint(Problem):
    name = "triple_point"
    gamma_value = 1.5
    viscosity = True
    final_time = 3.0

    def domain(self, dim):
        return [(0.0, 7.0), (0.0, 3.0), (0.0, 3.0)][:dim]

    def rho0(self, x):
        if x.shape[1] == 1:
            return np.where(x[:, 0] > 0.5, 0.125, 1.0)
        right = x[:, 0] > 1.0
        if x.shape[1] == 2:
            return np.where(right & (x[:, 1] > 1.5), 0.125, 1.0)
        same = ((x[:, 1] < 1.5) & (x[:, 2] < 1.5)) | ((x[:, 1] > 1.5) & (x[:, 2] > 1.5))
        return np.where(right & same, 0.125, 1.0)

    def gamma(self, x, gamma_override=None):
        if x.shape[1] == 1:
            return np.where(x[:, 0] > 0.5, 1.4, 1.5)
        return np.where((x[:, 0] > 1.0) & (x[:, 1] <= 1.5), 1.4, 1.5)

    def e0(self, x, gamma):
        p = np.where(x[:, 0] > 1.0, 0.1, 1.0)
        return p / self.rho0(x) / (gamma - 1.0)


PROBLEM = TriplePoint()
