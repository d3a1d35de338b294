"""A small deterministic stand-in for hydro.simulation.Simulation (tests of the driver and io only).

It honours the Simulation contract (step/done/energies/energy_norm/output_fields/checkpoint_state/
restore, t/cycle/dt/rejections/timers) on a 2-D box of nx*ny Q1 zones, with made-up but
deterministic dynamics, so that the driver, the files and restart can be tested without the
numerical core. ``parameters.fail_at_cycle`` makes step() raise TimeStepCollapse there.
"""
from __future__ import annotations

import sys
import types
from collections import namedtuple

import numpy as np

StepInfo = namedtuple("StepInfo", "dt rejected cg_iterations")


class TimeStepCollapse(RuntimeError):
    pass


class MeshTangled(RuntimeError):
    pass


class FakeSimulation:
    def __init__(self, config, comm=None, xp=None):
        self.cfg, self.comm = config, comm
        nx, ny = config.mesh.nx, config.mesh.ny
        (x0, x1), (y0, y1) = config.mesh.extent
        gx, gy = np.meshgrid(np.linspace(x0, x1, nx + 1), np.linspace(y0, y1, ny + 1))
        self.nx, self.ny = nx, ny
        self.x = np.stack([gx.ravel(), gy.ravel()], axis=1)
        self.v = np.zeros_like(self.x)
        self.e = np.linspace(1.0, 2.0, nx * ny)
        self.t, self.cycle, self.dt, self.rejections = 0.0, 0, 0.01, 0
        self.source_work = 0.0
        self.timers = dict.fromkeys(("corner_force", "quadrature_update", "pcg", "energy_update",
                                     "dt_reduction", "other"), 0.0)
        self.fail_at = dict(config.parameters).get("fail_at_cycle")

    def done(self):
        return self.t >= self.cfg.final_time * (1 - 1e-12)

    def step(self):
        if self.fail_at is not None and self.cycle + 1 >= self.fail_at:
            raise TimeStepCollapse(f"dt {self.dt * 1e-13:.3e} below time_step.min_dt")
        dt = self.dt
        # a nonlinear, order-sensitive update: any lost state bit shows up in the result
        self.v += dt * np.sin(3.1 * self.x + self.t)
        self.e = self.e * (1 + 0.1 * dt * np.cos(self.e * 7.3))
        self.x += 1e-3 * dt * self.v
        self.t += dt
        self.cycle += 1
        self.dt = dt * (1.0 + 0.01 * np.sin(self.e.sum()))
        for k in self.timers:
            self.timers[k] += 1e-4
        return StepInfo(dt, False, 7)

    def energies(self):
        kin = 0.5 * float(np.sum(self.v ** 2))
        internal = float(np.sum(self.e))
        return {"kinetic": kin, "internal": internal, "source_work": self.source_work,
                "total": kin + internal - self.source_work}

    def energy_norm(self):
        return float(np.sqrt(self.e @ self.e))

    def output_fields(self):
        nx, ny = self.nx, self.ny
        i, j = np.meshgrid(np.arange(nx), np.arange(ny))
        n0 = (j * (nx + 1) + i).ravel()
        cells = np.stack([n0, n0 + 1, n0 + nx + 2, n0 + nx + 1], axis=1)   # counter-clockwise
        centers = self.x[cells].mean(axis=1)
        return {"zone_center": centers, "zone_density": 1.0 + 0 * self.e, "zone_pressure": 0.4 * self.e,
                "zone_energy": self.e.copy(), "zone_global_index": np.arange(nx * ny),
                "points": self.x.copy(), "cells": cells, "point_velocity": self.v.copy(),
                "cell_density": 1.0 + 0 * self.e, "cell_pressure": 0.4 * self.e,
                "cell_energy": self.e.copy(), "x": self.x.ravel().copy(), "v": self.v.ravel().copy(),
                "e": self.e.copy()}

    def checkpoint_state(self):
        return {"x": self.x.copy(), "v": self.v.copy(), "e": self.e.copy(), "t": self.t,
                "cycle": self.cycle, "dt": self.dt, "rejections": self.rejections,
                "timers": dict(self.timers), "nested": {"source_work": self.source_work}}

    def restore(self, state):
        self.x, self.v, self.e = (np.array(state[k]) for k in ("x", "v", "e"))
        self.t, self.cycle, self.dt = state["t"], state["cycle"], state["dt"]
        self.rejections = state["rejections"]
        self.timers = dict(state["timers"])
        self.source_work = state["nested"]["source_work"]


def install(monkeypatch):
    """Make ``from hydro.simulation import ...`` (inside hydro.run) return the fake."""
    module = types.ModuleType("hydro.simulation")
    module.Simulation, module.TimeStepCollapse, module.MeshTangled = (
        FakeSimulation, TimeStepCollapse, MeshTangled)
    monkeypatch.setitem(sys.modules, "hydro.simulation", module)
    return module
