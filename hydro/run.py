"""Run a case: ``python -m hydro.run CASE.yaml [--output DIR] [--set key.sub=value ...] [--restart CKPT]``.

config -> comm -> Simulation -> loop (progress, outputs, checkpoints) -> summary. Exit status:
0 completed, 2 bad case file or arguments, 3 stopped (dt collapse / tangled mesh; the last good
state is written as a fields file and a checkpoint). ``mpiexec -n P python -m hydro.run ...``
decomposes the zones over P ranks (one GPU per rank when GPUs are present).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time

from . import io as hio
from .config import BACKENDS, CaseFileError, load_case
from .progress import Progress

ENERGY_EVERY = 10        # cycles between global energy reductions for the progress line


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="python -m hydro.run", description=__doc__.split("\n\n")[0],
                                epilog="Case-file keys: docs/case-file.md. Outputs: docs/hydro.md.")
    p.add_argument("case", help="case file (YAML), e.g. cases/sedov2d.yaml")
    p.add_argument("--output", metavar="DIR", help="output directory (default: output.dir)")
    p.add_argument("--set", metavar="KEY=VALUE", action="append", default=[],
                   help="override a case key, e.g. --set mesh.nx=32 --set solver.cg_tol=1e-12")
    p.add_argument("--restart", metavar="CHECKPOINT",
                   help="checkpoint directory, or an output directory (its newest checkpoint)")
    p.add_argument("--backend", choices=BACKENDS, help="overrides the case's backend")
    return p.parse_args(argv)


def local_rank(comm):
    """Rank within the node (launcher environment), used to pick this rank's GPU."""
    for var in ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK", "SLURM_LOCALID"):
        if var in os.environ:
            return int(os.environ[var])
    return comm.rank


def share_cores(comm):
    """Under MPI, one linalg CPU thread a rank unless $LINALG_CPU_THREADS says otherwise: the
    ranks are the parallelism, and each rank threading its big batches over every core of the
    node would oversubscribe them."""
    from linalg._cpu.blas import THREADS_ENV
    if comm.size > 1:
        os.environ.setdefault(THREADS_ENV, "1")


def select_backend(name, comm):
    """(array module, 'cpu' | 'gpu'); auto = the GPU when CuPy sees one, device = local rank % ngpus."""
    import numpy
    if name == "cpu":
        return numpy, "cpu"
    try:
        import cupy
        ngpus = cupy.cuda.runtime.getDeviceCount()
    except (ImportError, RuntimeError):      # no CuPy, or no driver/device (CUDARuntimeError)
        ngpus = 0
    if ngpus == 0:
        if name == "gpu":
            raise SystemExit("error: backend 'gpu' requested but CuPy sees no GPU (use backend: auto or cpu)")
        return numpy, "cpu"
    cupy.cuda.Device(local_rank(comm) % ngpus).use()
    return cupy, "gpu"


def main(argv=None):
    args = parse_args(argv)
    from .parallel import Comm
    comm = Comm.world()
    try:
        cfg = load_case(args.case, args.set)
    except CaseFileError as exc:
        if comm.rank == 0:
            print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.output:
        cfg = dataclasses.replace(cfg, output=dataclasses.replace(cfg.output, dir=args.output))
    if args.backend:
        cfg = dataclasses.replace(cfg, backend=args.backend)
    xp, backend = select_backend(cfg.backend, comm)
    share_cores(comm)
    if comm.rank == 0:
        print(f"# {args.case}: resolved case ({comm.size} rank(s), backend {backend})\n{cfg.to_yaml()}")
    from .simulation import MeshTangled, Simulation, TimeStepCollapse
    sim = Simulation(cfg, comm=comm, xp=xp)
    st = {"energy0": sim.energies(), "dt_min": float("inf"), "dt_max": 0.0, "dt_last": 0.0,
          "cg_iterations": 0, "next_output": 0.0, "last_output_cycle": -1}     # driver state
    if args.restart:
        try:
            sim_state, st, _ = hio.read_checkpoint(args.restart, comm)
        except (OSError, ValueError) as exc:       # missing files, rank-count mismatch
            print(f"error: cannot restart (rank {comm.rank}): {exc}", file=sys.stderr)
            return 2
        sim.restore(sim_state)
    case_name = os.path.splitext(os.path.basename(args.case))[0]
    writer = hio.FieldWriter(cfg.output.dir, case_name, cfg, comm, start_cycle=sim.cycle)
    progress = Progress(enabled=comm.rank == 0 and cfg.verbose)
    zones = comm.allreduce(len(sim.output_fields()["zone_global_index"]), "sum")
    code, status = 0, "completed"
    t_start, cycle_start = time.perf_counter(), sim.cycle
    try:
        _output(sim, st, cfg, writer, force=not args.restart)
        while not sim.done() and not (cfg.time_step.max_steps and sim.cycle >= cfg.time_step.max_steps):
            before = sim.cycle
            info = sim.step()
            if sim.cycle == before:          # rejected and not (yet) retried: nothing taken
                continue
            st["dt_min"], st["dt_max"] = min(st["dt_min"], info.dt), max(st["dt_max"], info.dt)
            st["dt_last"] = info.dt
            st["cg_iterations"] += int(info.cg_iterations)
            if sim.cycle % ENERGY_EVERY == 0:
                _report(progress, sim, st, zones, t_start, cycle_start)
            _output(sim, st, cfg, writer)
            if cfg.checkpoint.every_cycles and sim.cycle % cfg.checkpoint.every_cycles == 0:
                hio.write_checkpoint(cfg.output.dir, comm, sim.cycle, sim.checkpoint_state(), st, cfg)
    except (TimeStepCollapse, MeshTangled) as exc:     # the Simulation kept its last good state
        code, status = 3, f"stopped: {type(exc).__name__}: {exc}"
    wall = time.perf_counter() - t_start
    _report(progress, sim, st, zones, t_start, cycle_start, force=True)
    progress.close()
    _output(sim, st, cfg, writer, force=True)
    if cfg.checkpoint.every_cycles or code:
        hio.write_checkpoint(cfg.output.dir, comm, sim.cycle, sim.checkpoint_state(), st, cfg)
    summary = hio.build_summary(sim, st, comm, backend, zones, wall, sim.cycle - cycle_start, status)
    if comm.rank == 0:
        hio.write_summary(os.path.join(cfg.output.dir, "summary.json"), summary)
        print(hio.format_summary(summary, cfg.output.dir, writer.xdmf_path))
        if code:
            print(f"error: {status}\n  last good state (t = {sim.t:.6e}, cycle {sim.cycle}) written "
                  f"to {cfg.output.dir}; restart with --restart {cfg.output.dir}", file=sys.stderr)
    return code


def _report(progress, sim, st, zones, t_start, cycle_start, force=False):
    """Progress line with the relative change of kinetic + internal - source work since t = 0.
    Collective (the energies are global): every rank calls it at the same cycles."""
    e0 = st["energy0"]["total"]
    change = (sim.energies()["total"] - e0) / abs(e0) if e0 else 0.0
    rate = zones * (sim.cycle - cycle_start) / max(time.perf_counter() - t_start, 1e-12)
    progress.update(sim.cycle, sim.t, st["dt_last"], change, rate, force=force)


def _output(sim, st, cfg, writer, force=False):
    """Write a fields file when due (output.every / every_cycles) or forced, once per cycle."""
    every, every_cycles = cfg.output.every, cfg.output.every_cycles
    due = ((every is not None and sim.t >= st["next_output"] * (1 - 1e-12))
           or (every_cycles is not None and sim.cycle % every_cycles == 0))
    if (force or due) and st["last_output_cycle"] != sim.cycle:
        writer.write(sim)
        st["last_output_cycle"] = sim.cycle
        while every is not None and st["next_output"] <= sim.t * (1 + 1e-12):
            st["next_output"] += every


if __name__ == "__main__":
    sys.exit(main())
