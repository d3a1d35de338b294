"""Exact and reference solutions for validation (NumPy, vectorized over sample points).

* :func:`sod` — the Riemann problem of the shock tube (ideal gas), exact solution at (x, t);
* :class:`Sedov` — the Sedov–Taylor point blast in planar (nu=1), cylindrical (2) or spherical (3)
  geometry: shock radius R(t) = xi0 (E t^2 / rho0)^(1/(nu+2)) and the self-similar profiles, with
  xi0 computed from the energy integral of the similarity ODEs (not a table);
* :func:`noh` — the Noh implosion (uniform inflow of speed 1 toward the origin/axis/plane);
* :func:`taylor_green_velocity` / :func:`taylor_green_state` — the 2-D Taylor-Green vortex that the
  Laghos source term keeps steady.

These are *reference* values computed independently of the solver; nothing here imports the
numerical core.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["RiemannState", "SOD_LEFT", "SOD_RIGHT", "SOD_LAGHOS_RIGHT", "sod", "sod_star_state", "Sedov", "noh", "taylor_green_velocity",
           "taylor_green_state"]


# =============================================================================================
# Exact Riemann solver (ideal gas): pressure function and Newton iteration for p*, then sampling.
# Method: Toro, "Riemann Solvers and Numerical Methods for Fluid Dynamics", ch. 4 (own code).
# =============================================================================================

@dataclass(frozen=True)
class RiemannState:
    """A primitive state (density, velocity, pressure)."""
    rho: float
    u: float
    p: float


def _wave_function(p, s: RiemannState, gamma):
    """f_K(p) and its derivative: velocity change across a left/right shock (p > p_K) or rarefaction."""
    c = math.sqrt(gamma * s.p / s.rho)
    if p > s.p:                       # shock: Rankine-Hugoniot
        a = 2.0 / ((gamma + 1.0) * s.rho)
        b = (gamma - 1.0) / (gamma + 1.0) * s.p
        q = math.sqrt(a / (p + b))
        return (p - s.p) * q, q * (1.0 - 0.5 * (p - s.p) / (p + b))
    ratio = p / s.p                   # rarefaction: isentropic
    f = 2.0 * c / (gamma - 1.0) * (ratio ** ((gamma - 1.0) / (2.0 * gamma)) - 1.0)
    df = ratio ** (-(gamma + 1.0) / (2.0 * gamma)) / (s.rho * c)
    return f, df


def sod_star_state(left: RiemannState, right: RiemannState, gamma: float, tol=1e-14):
    """Pressure and velocity (p*, u*) between the two nonlinear waves (Newton on f_L + f_R + du)."""
    du = right.u - left.u
    cl = math.sqrt(gamma * left.p / left.rho)
    cr = math.sqrt(gamma * right.p / right.rho)
    if 2.0 * (cl + cr) / (gamma - 1.0) <= du:
        raise ValueError("the initial data generate vacuum; no star state")
    p = max(tol, 0.5 * (left.p + right.p))           # arithmetic-mean start (robust for Sod)
    for _ in range(100):
        fl, dfl = _wave_function(p, left, gamma)
        fr, dfr = _wave_function(p, right, gamma)
        p_new = max(tol, p - (fl + fr + du) / (dfl + dfr))
        if abs(p_new - p) <= tol * 0.5 * (p_new + p):
            p = p_new
            break
        p = p_new
    fl, _ = _wave_function(p, left, gamma)
    fr, _ = _wave_function(p, right, gamma)
    return p, 0.5 * (left.u + right.u) + 0.5 * (fr - fl)


def _sample_left(xi, s: RiemannState, p_star, u_star, gamma):
    """Density, velocity, pressure at xi = (x - x0)/t left of the contact (left-facing wave)."""
    g = gamma
    c = math.sqrt(g * s.p / s.rho)
    rho, u, p = (np.full_like(xi, v) for v in (s.rho, s.u, s.p))
    if p_star > s.p:                                  # shock
        ratio = p_star / s.p
        rho_star = s.rho * (ratio + (g - 1) / (g + 1)) / ((g - 1) / (g + 1) * ratio + 1)
        speed = s.u - c * math.sqrt((g + 1) / (2 * g) * ratio + (g - 1) / (2 * g))
        star = xi >= speed
    else:                                             # rarefaction fan between head and tail
        rho_star = s.rho * (p_star / s.p) ** (1.0 / g)
        head, tail = s.u - c, u_star - c * (p_star / s.p) ** ((g - 1) / (2 * g))
        star = xi >= tail
        fan = (xi > head) & ~star
        w = 2.0 / (g + 1) + (g - 1) / ((g + 1) * c) * (s.u - xi[fan])
        rho[fan] = s.rho * w ** (2.0 / (g - 1))
        u[fan] = 2.0 / (g + 1) * (c + 0.5 * (g - 1) * s.u + xi[fan])
        p[fan] = s.p * w ** (2.0 * g / (g - 1))
    rho[star], u[star], p[star] = rho_star, u_star, p_star
    return rho, u, p


SOD_LEFT = RiemannState(1.0, 0.0, 1.0)
SOD_RIGHT = RiemannState(0.125, 0.0, 0.1)          # Sod (1978), the textbook tube
SOD_LAGHOS_RIGHT = RiemannState(0.1, 0.0, 0.1)     # Laghos problem 2 (and hydro/problems/sod.py)


def sod(x, t, gamma=1.4, left=SOD_LEFT, right=SOD_RIGHT, x0=0.5):
    """Exact solution of a Riemann problem at points ``x`` and time ``t``: ``(rho, u, p)`` arrays.

    The default right state is the textbook Sod tube (rho_R = 0.125); our ``sod`` case follows
    Laghos (rho_R = 0.1): pass ``right=SOD_LAGHOS_RIGHT`` to compare with it.
    """
    x = np.asarray(x, dtype=float)
    if t <= 0:
        side = x < x0
        pick = lambda a, b: np.where(side, a, b)
        return pick(left.rho, right.rho), pick(left.u, right.u), pick(left.p, right.p)
    p_star, u_star = sod_star_state(left, right, gamma)
    xi = (x - x0) / t
    rl, ul, pl = _sample_left(xi, left, p_star, u_star, gamma)
    # the right side is the left side of the mirrored problem (x -> -x, u -> -u)
    rr, ur, pr = _sample_left(-xi, RiemannState(right.rho, -right.u, right.p), p_star, -u_star, gamma)
    ur = -ur
    left_of_contact = xi < u_star
    return (np.where(left_of_contact, rl, rr), np.where(left_of_contact, ul, ur),
            np.where(left_of_contact, pl, pr))


# =============================================================================================
# Sedov–Taylor point blast.
#
# Similarity ansatz (own derivation): xi = r / R(t), R = xi0 (E t^2/rho0)^(1/(nu+2)) ~ t^delta,
# delta = 2/(nu+2) and Rdot = delta R / t;  rho = rho0 g(xi), u = Rdot f(xi), p = rho0 Rdot^2 h(xi).
# Mass, momentum and entropy conservation give, with a = f - xi and c2 = gamma h / g,
#   f' = [ -((delta-1)/delta) f a + c2 ((nu-1) f/xi + 2 (delta-1)/(gamma delta)) ] / (a^2 - c2)
#   (ln g)' = -(f' + (nu-1) f/xi) / a
#   (ln h)' = gamma (ln g)' - 2 (delta-1) / (delta a)
# from the strong-shock Rankine-Hugoniot values at xi = 1: g = (gamma+1)/(gamma-1),
# f = h = 2/(gamma+1). The blast energy is E = sigma_nu rho0 Rdot^2 R^nu I with
# I = int_0^1 (g f^2 / 2 + h/(gamma-1)) xi^(nu-1) dxi and sigma_nu = 2, 2 pi, 4 pi (the planar blast
# counts both sides of the plane), hence xi0 = (sigma_nu delta^2 I)^(-1/(nu+2)).
# Kamm & Timmes (2007, LA-UR-07-2849) tabulate alpha = sigma delta^2 I for gamma = 1.4:
# planar 0.5385, cylindrical 0.9840, spherical 0.8511 (xi0 = 1.2295, 1.0040, 1.0328; the spherical
# value is G.I. Taylor's S(1.4) ~ 1.03); the test suite checks these.
# =============================================================================================

class Sedov:
    """Self-similar Sedov blast for ``gamma`` and geometry ``nu`` (1 planar, 2 cylindrical, 3 spherical).

    ``energy`` is the total blast energy of the full (symmetric) blast: Laghos puts energy/2^dim
    into the quadrant/octant it simulates, which is this convention.
    """

    def __init__(self, gamma=1.4, nu=3, energy=1.0, rho0=1.0, xi_min=1e-9, steps_per_unit=400):
        if nu not in (1, 2, 3):
            raise ValueError(f"nu must be 1, 2 or 3, got {nu!r}")
        if not gamma > 1:
            raise ValueError(f"gamma must be > 1, got {gamma!r}")
        self.gamma, self.nu, self.energy, self.rho0 = float(gamma), int(nu), float(energy), float(rho0)
        self.delta = 2.0 / (nu + 2.0)
        self._xi, self._f, self._g, self._h, integral = self._integrate(xi_min, steps_per_unit)
        sigma = {1: 2.0, 2: 2.0 * math.pi, 3: 4.0 * math.pi}[nu]
        self.alpha = sigma * self.delta ** 2 * integral
        self.xi0 = self.alpha ** (-1.0 / (nu + 2.0))

    # -- similarity ODEs ---------------------------------------------------------------------
    def _rhs(self, s, y):
        """d/ds of (f, ln g, ln h, -I) with s = ln xi (integrated from s = 0 downward)."""
        f, lng, lnh, _ = y
        xi = math.exp(s)
        gam, nu, d = self.gamma, self.nu, self.delta
        g, h = math.exp(lng), math.exp(lnh)
        a = f - xi
        c2 = gam * h / g
        fp = (-((d - 1) / d) * f * a + c2 * ((nu - 1) * f / xi + 2 * (d - 1) / (gam * d))) / (a * a - c2)
        lngp = -(fp + (nu - 1) * f / xi) / a
        lnhp = gam * lngp - 2 * (d - 1) / (d * a)
        dI = (0.5 * g * f * f + h / (gam - 1)) * xi ** (nu - 1)
        return np.array([fp, lngp, lnhp, dI]) * xi      # chain rule: d/ds = xi d/dxi

    def _integrate(self, xi_min, steps_per_unit):
        """Classical RK4 in s = ln xi from the shock (s=0) to ln xi_min; returns profiles and I."""
        gam = self.gamma
        y = np.array([2 / (gam + 1), math.log((gam + 1) / (gam - 1)), math.log(2 / (gam + 1)), 0.0])
        s_end = math.log(xi_min)
        n = int(math.ceil(-s_end * steps_per_unit))
        hstep = s_end / n                                   # negative: toward the centre
        out = np.empty((n + 1, 4))
        out[0] = y
        s = 0.0
        for i in range(n):
            k1 = self._rhs(s, y)
            k2 = self._rhs(s + hstep / 2, y + hstep / 2 * k1)
            k3 = self._rhs(s + hstep / 2, y + hstep / 2 * k2)
            k4 = self._rhs(s + hstep, y + hstep * k3)
            y = y + hstep / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            s += hstep
            out[i + 1] = y
        xi = np.exp(np.linspace(0.0, s_end, n + 1))
        # integrating downward accumulates -I; the tail below xi_min is O(h(0) xi_min^nu)
        return xi[::-1], out[::-1, 0], np.exp(out[::-1, 1]), np.exp(out[::-1, 2]), -y[3]

    # -- public ------------------------------------------------------------------------------
    def shock_radius(self, t):
        """R(t) = xi0 (E t^2 / rho0)^(1/(nu+2))."""
        return self.xi0 * (self.energy * np.asarray(t, float) ** 2 / self.rho0) ** (1.0 / (self.nu + 2))

    def shock_speed(self, t):
        return self.delta * self.shock_radius(t) / t

    def __call__(self, r, t, p_ambient=0.0):
        """Density, radial velocity and pressure at radius ``r`` (array) and time ``t`` > 0."""
        r = np.asarray(r, dtype=float)
        R, Rdot = self.shock_radius(t), self.shock_speed(t)
        lam = r / R
        inside = lam < 1.0
        lam_c = np.clip(lam, self._xi[0], 1.0)
        rho = np.where(inside, self.rho0 * np.interp(lam_c, self._xi, self._g), self.rho0)
        u = np.where(inside, Rdot * np.interp(lam_c, self._xi, self._f), 0.0)
        p = np.where(inside, self.rho0 * Rdot ** 2 * np.interp(lam_c, self._xi, self._h), p_ambient)
        return rho, u, p

    def energy_check(self):
        """Relative error of the tabulated profile's energy (trapezoid) against ``energy``: a self test."""
        xi, f, g, h = self._xi, self._f, self._g, self._h
        integrand = (0.5 * g * f * f + h / (self.gamma - 1)) * xi ** (self.nu - 1)
        integral = np.sum(0.5 * (integrand[1:] + integrand[:-1]) * np.diff(xi))
        sigma = {1: 2.0, 2: 2.0 * math.pi, 3: 4.0 * math.pi}[self.nu]
        return abs(sigma * self.delta ** 2 * integral / self.alpha - 1.0)


# =============================================================================================
# Noh implosion: uniform gas (rho0, e = 0) moving toward the origin with speed u0.
# The stagnated gas behind the outgoing shock (speed D = (gamma-1) u0 / 2) has u = 0,
# e = u0^2/2 and density rho0 ((gamma+1)/(gamma-1))^nu; ahead of it the converging flow compresses
# geometrically, rho = rho0 (1 + u0 t / r)^(nu-1). For gamma = 5/3, nu = 2: rho = 16, D = 1/3
# (Noh, J. Comput. Phys. 72, 1987).
# =============================================================================================

def noh(r, t, gamma=5.0 / 3.0, nu=2, rho0=1.0, u0=1.0):
    """Density, radial velocity and pressure of the Noh problem at radius ``r`` and time ``t``."""
    r = np.asarray(r, dtype=float)
    shock = 0.5 * (gamma - 1.0) * u0 * t
    inside = r < shock
    rho_in = rho0 * ((gamma + 1.0) / (gamma - 1.0)) ** nu
    with np.errstate(divide="ignore"):
        rho_out = rho0 * (1.0 + u0 * t / np.where(r > 0, r, np.inf)) ** (nu - 1)
    rho = np.where(inside, rho_in, rho_out)
    u = np.where(inside, 0.0, -u0)
    p = np.where(inside, (gamma - 1.0) * rho_in * 0.5 * u0 ** 2, 0.0)
    return rho, u, p


# =============================================================================================
# Taylor-Green vortex (Laghos problem 0, 2-D): the source term in the energy equation makes the
# initial state a steady solution, so the exact velocity is the initial one at every time.
# =============================================================================================

def taylor_green_velocity(points, t=0.0):
    """Exact 2-D velocity (sin pi x cos pi y, -cos pi x sin pi y) at ``points`` (..., 2); steady."""
    pts = np.asarray(points, dtype=float)
    if pts.shape[-1] != 2:
        raise ValueError("the exact Taylor-Green solution is 2-D (the 3-D vortex is not steady); "
                         f"got points with last dimension {pts.shape[-1]}")
    x, y = pts[..., 0], pts[..., 1]
    return np.stack([np.sin(np.pi * x) * np.cos(np.pi * y),
                     -np.cos(np.pi * x) * np.sin(np.pi * y)], axis=-1)


def taylor_green_state(points, t=0.0, gamma=5.0 / 3.0):
    """Exact 2-D (rho, velocity, pressure, specific internal energy): rho = 1,
    p = 1 + (cos 2 pi x + cos 2 pi y)/4, e = p / ((gamma - 1) rho)."""
    pts = np.asarray(points, dtype=float)
    v = taylor_green_velocity(pts, t)
    x, y = pts[..., 0], pts[..., 1]
    p = 1.0 + 0.25 * (np.cos(2 * np.pi * x) + np.cos(2 * np.pi * y))
    rho = np.ones_like(p)
    return rho, v, p, p / ((gamma - 1.0) * rho)
