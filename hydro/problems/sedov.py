"""Sedov blast (Laghos -p 1): point energy at the origin of a quadrant/octant with symmetry walls."""
from hydro.problems import Problem


class Sedov(Problem):
    name = "sedov"
    gamma_value = 1.4
    viscosity = True
    final_time = 0.8
    delta_energy = True  # blast_energy / 2**dim deposited in the zone(s) touching the origin


PROBLEM = Sedov()
