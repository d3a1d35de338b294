"""CPU corner forces: one GEMM with the basis table (hydro.operators.ForceOperator) against the
form before 2026-11-29 (A formed, then A B^T), whole 3-D Sedov Q2-Q1 runs in alternating turns.

    python scripts/probe_cpu_corner_force.py [--nx 16] [--turns 2]

Prints seconds a cycle and the corner-force stage's seconds a cycle for each turn.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
from bench_hydro import case  # noqa: E402

import linalg  # noqa: E402
from hydro import operators  # noqa: E402
from hydro.simulation import Simulation  # noqa: E402


def assemble_before(self, stressJinvT):
    """ForceOperator.assemble as it was: A[z, c, i, q] = sum_g s[z, q, c, g] G[g, q, i] in memory,
    then F = A B^T as one tall linalg.gemm."""
    xp = self.xp
    Z, NQ, dim, _ = stressJinvT.shape
    ND = self.G.shape[2]
    GT = xp.ascontiguousarray(self.G.transpose(0, 2, 1))
    sT = stressJinvT.transpose(0, 2, 3, 1)
    A = xp.zeros((Z, dim, ND, NQ), dtype=stressJinvT.dtype)
    for g in range(dim):
        A += sT[:, :, None, g, :] * GT[g]
    self.F = linalg.gemm(A.reshape(1, Z * dim * ND, NQ), self.Bt[None]).reshape(Z, dim * ND, -1)
    return self.F


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nx", type=int, default=16)
    ap.add_argument("--turns", type=int, default=2)
    args = ap.parse_args()
    forms = {"gemm with H": operators.ForceOperator.assemble, "A then A B^T": assemble_before}
    print("| form | s a cycle | corner force s a cycle |\n| --- | --- | --- |")
    for _ in range(args.turns):
        for name, assemble in forms.items():
            operators.ForceOperator.assemble = assemble
            sim = Simulation(case(args.nx, 8, "rk4"))
            for _ in range(2):
                sim.step()
            before, start = dict(sim.timers), time.perf_counter()
            for _ in range(3):
                sim.step()
            wall = (time.perf_counter() - start) / 3
            force = (sim.timers["corner_force"] - before["corner_force"]) / 3
            print(f"| {name} | {wall:.3f} | {force:.3f} |", flush=True)


if __name__ == "__main__":
    main()
