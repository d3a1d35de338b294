"""Time integrators on the flat state: energy-conserving RK2-average and classical RK4.

Each ``step(op, S, dt)`` returns (S_new, source_work): the state after one step of size dt and
the energy added by source terms (energy source, gravity) during the step. Quadrature data at the
entry state is reused when current (as Laghos), and invalidated after every stage.
"""
from __future__ import annotations


def rk2avg_step(op, S, dt):
    """RK2-average: v_half-step predictor, then x, e advanced with the average velocity.

    With V = (v0 + v1)/2 used in both dx/dt and the work term F^T V, the discrete total energy
    (kinetic + internal) is conserved exactly up to the solver tolerance.
    """
    L, xp = op.L, op.xp
    S0 = S
    v0 = L.v(S0)
    # stage 1 at S0
    dv = op.solve_velocity(S0)
    V = v0 + (0.5 * dt) * dv
    de, _ = op.solve_energy(S0, V)
    Sh = S0 + (0.5 * dt) * xp.concatenate([V.ravel(), dv.ravel(), de.ravel()])
    op.invalidate()
    # stage 2 at the half state
    dv = op.solve_velocity(Sh)
    V = v0 + (0.5 * dt) * dv
    de, power = op.solve_energy(Sh, V)
    power += op.gravity_power(V)
    S1 = S0 + dt * xp.concatenate([V.ravel(), dv.ravel(), de.ravel()])
    op.invalidate()
    return S1, dt * power


def rk4_step(op, S, dt):
    """Classical RK4 (same operation order as MFEM's RK4Solver)."""
    k, p1 = op.rhs(S)
    y = S + (dt / 2) * k
    z = S + (dt / 6) * k
    k, p2 = op.rhs(y)
    y = S + (dt / 2) * k
    z = z + (dt / 3) * k
    k, p3 = op.rhs(y)
    y = S + dt * k
    z = z + (dt / 3) * k
    k, p4 = op.rhs(y)
    S1 = z + (dt / 6) * k
    return S1, dt * (p1 / 6 + p2 / 3 + p3 / 3 + p4 / 6)


INTEGRATORS = {"rk2avg": rk2avg_step, "rk4": rk4_step}


def get(name: str):
    """The step function called ``name`` ('rk2avg' or 'rk4')."""
    try:
        return INTEGRATORS[name]
    except KeyError:
        raise ValueError(f"unknown integrator {name!r}; expected one of {sorted(INTEGRATORS)}")
