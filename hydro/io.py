"""Output: HDF5 fields + XDMF time-series index, summary.json, and checkpoint/restart files.

Layout of an output directory (``output.dir``)::

    fields_00000.h5 ...     one file per output time (all ranks' data, written by rank 0)
    <case>.xdmf             the time series index (ParaView: File > Open, "Xdmf3 Reader")
    summary.json            run summary (see :func:`write_summary`)
    checkpoint_<cycle>/     rank_00000.h5 ... one restart file per rank

**MPI file choice.** A fields file is written by rank 0 after gathering every rank's arrays
(``Comm.gather``). One file per output time keeps the files self-contained, independent of the
number of ranks that wrote them, and needs no parallel HDF5 build; zone averages are stored in
*global zone order* (sorted by ``zone_global_index``), so a P-rank file and a 1-rank file compare
directly. The gather costs memory on rank 0 (all zone/sub-cell data of the mesh), which is fine for
the mesh sizes this driver targets; the raw high-order dof vectors are per rank (shared H1 dofs
are duplicated between ranks), so they are stored per rank under ``/high_order/rank_XXXXX``.
Checkpoints are the opposite choice: one file per rank, no gathering, restart needs the same rank
count (checked) and reproduces the uninterrupted run bit for bit.

Fields file contents (``fields_NNNNN.h5``):

==========================  ==============  ====================================================
dataset / attribute         shape           meaning
==========================  ==============  ====================================================
attrs ``time``, ``cycle``   scalar          simulation time and cycle of this output
attrs ``dim``, ``ranks``    scalar          dimension, number of ranks that wrote it
attrs ``config_yaml``       str             the resolved case (``CaseConfig.to_yaml``)
group ``/config`` attrs     one per key     the resolved case, flattened (``mesh.nx`` ...)
``zone_center``             (Z, dim)        zone centroid, global zone order
``zone_density``            (Z,)            zone-average density (likewise pressure, energy)
``zone_global_index``       (Z,)            0..Z-1 (the order above)
``points``                  (P, 3)          vertices of the linear sub-cells, padded to 3 coords
``cells``                   (C, 2**dim)     sub-cell connectivity into ``points`` (XDMF order)
``cell_density``            (C,)            sub-cell density (likewise pressure, energy)
``cell_rank``               (C,)            rank that owns the sub-cell (domain decomposition)
``point_velocity``          (P, 3)          velocity at ``points``, padded to 3 components
``high_order/rank_R/x|v|e`` per rank        raw dof vectors of rank R (positions, velocity, e)
==========================  ==============  ====================================================
"""

from __future__ import annotations

import glob
import json
import math
import os
import xml.etree.ElementTree as ET

import h5py
import numpy as np

__all__ = ["FieldWriter", "write_summary", "build_summary", "format_summary", "write_checkpoint", "read_checkpoint",
           "find_checkpoint", "read_fields"]

ZONE_FIELDS = ("zone_center", "zone_density", "zone_pressure", "zone_energy")
CELL_FIELDS = ("cell_density", "cell_pressure", "cell_energy")
TOPOLOGY = {1: "Polyline", 2: "Quadrilateral", 3: "Hexahedron"}


# =============================================================================================
# Fields + XDMF
# =============================================================================================

class FieldWriter:
    """Writes ``fields_NNNNN.h5`` files (rank 0 after a gather) and keeps the XDMF index current.

    The index is rewritten after every output so an interrupted run still opens in ParaView.
    On restart (``start_cycle`` > 0) outputs already on disk up to that cycle are kept in the
    index and numbering continues after them; later ones (from the interrupted run) are ignored.
    """

    def __init__(self, directory, case_name, config, comm, start_cycle=0):
        self.directory, self.comm, self.config = directory, comm, config
        self.xdmf_path = os.path.join(directory, f"{case_name}.xdmf")
        self.entries = []                    # (time, file name, dim, n_points, n_cells, n_zones)
        if comm.rank == 0:
            os.makedirs(directory, exist_ok=True)
            if start_cycle > 0:
                self.entries = _existing_outputs(directory, start_cycle)

    def write(self, sim):
        """Gather this step's output fields to rank 0 and write one file (collective)."""
        local = sim.output_fields()
        local = {k: _to_numpy(v) for k, v in local.items()}
        parts = self.comm.gather(local)
        if self.comm.rank != 0:
            return None
        name = f"fields_{len(self.entries):05d}.h5"
        path = os.path.join(self.directory, name)
        merged = _merge_ranks(parts)
        with h5py.File(path, "w") as h5:
            h5.attrs["time"] = float(sim.t)
            h5.attrs["cycle"] = int(sim.cycle)
            h5.attrs["dim"] = self.config.dim
            h5.attrs["ranks"] = len(parts)
            write_config_attrs(h5, self.config)
            for key, value in merged.items():
                h5.create_dataset(key, data=value)
            for r, part in enumerate(parts):
                grp = h5.create_group(f"high_order/rank_{r:05d}")
                for key in ("x", "v", "e"):
                    if key in part:
                        grp.create_dataset(key, data=part[key])
        self.entries.append((float(sim.t), name, self.config.dim, len(merged["points"]),
                             len(merged["cells"]), len(merged["zone_density"])))
        write_xdmf(self.xdmf_path, self.entries)
        return path


def _merge_ranks(parts):
    """Concatenate per-rank arrays: zones sorted into global order, sub-cells renumbered."""
    order = np.argsort(np.concatenate([p["zone_global_index"] for p in parts]), kind="stable")
    out = {k: np.concatenate([p[k] for p in parts])[order] for k in ZONE_FIELDS}
    out["zone_global_index"] = np.concatenate([p["zone_global_index"] for p in parts])[order]
    offsets = np.cumsum([0] + [len(p["points"]) for p in parts])
    out["cells"] = np.concatenate([p["cells"] + off for p, off in zip(parts, offsets)]).astype(np.int64)
    out["points"] = _pad3(np.concatenate([p["points"] for p in parts]))
    out["point_velocity"] = _pad3(np.concatenate([p["point_velocity"] for p in parts]))
    for k in CELL_FIELDS:
        out[k] = np.concatenate([p[k] for p in parts])
    out["cell_rank"] = np.concatenate([np.full(len(p["cells"]), r, np.int32) for r, p in enumerate(parts)])
    return out


def _pad3(a):
    """(N, d) -> (N, 3) with zeros, so XDMF Geometry XYZ and Vector attributes work in any dim."""
    a = np.asarray(a, dtype=float).reshape(len(a), -1)
    return np.hstack([a, np.zeros((len(a), 3 - a.shape[1]))]) if a.shape[1] < 3 else a


def _existing_outputs(directory, max_cycle):
    """Index entries for fields files already in ``directory`` with cycle <= max_cycle."""
    entries = []
    for path in sorted(glob.glob(os.path.join(directory, "fields_*.h5"))):
        with h5py.File(path, "r") as h5:
            if int(h5.attrs["cycle"]) > max_cycle:
                break
            entries.append((float(h5.attrs["time"]), os.path.basename(path), int(h5.attrs["dim"]),
                            h5["points"].shape[0], h5["cells"].shape[0], h5["zone_density"].shape[0]))
    return entries


def write_xdmf(path, entries):
    """Write the XDMF 3 temporal collection for ``entries`` (paths relative to the index file)."""
    root = ET.Element("Xdmf", Version="3.0")
    domain = ET.SubElement(root, "Domain")
    series = ET.SubElement(domain, "Grid", Name="TimeSeries", GridType="Collection",
                           CollectionType="Temporal")
    for time, name, dim, npts, ncells, _ in entries:
        grid = ET.SubElement(series, "Grid", Name=f"mesh_{name[:-3]}", GridType="Uniform")
        ET.SubElement(grid, "Time", Value=repr(time))
        topo = ET.SubElement(grid, "Topology", TopologyType=TOPOLOGY[dim], NumberOfElements=str(ncells))
        if dim == 1:
            topo.set("NodesPerElement", "2")
        _data_item(topo, f"{name}:/cells", (ncells, 2 ** dim), "Int", 8)
        geom = ET.SubElement(grid, "Geometry", GeometryType="XYZ")
        _data_item(geom, f"{name}:/points", (npts, 3), "Float", 8)
        _attribute(grid, "velocity", "Vector", "Node", f"{name}:/point_velocity", (npts, 3))
        for field in CELL_FIELDS:
            _attribute(grid, field.split("_", 1)[1], "Scalar", "Cell", f"{name}:/{field}", (ncells,))
        _attribute(grid, "rank", "Scalar", "Cell", f"{name}:/cell_rank", (ncells,), "Int", 4)
    ET.indent(root)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" ?>\n<!DOCTYPE Xdmf SYSTEM "Xdmf.dtd" []>\n')
        fh.write(ET.tostring(root, encoding="unicode"))
        fh.write("\n")
    os.replace(tmp, path)                    # atomic: ParaView never sees a half-written index


def _data_item(parent, ref, shape, number_type, precision):
    item = ET.SubElement(parent, "DataItem", Dimensions=" ".join(map(str, shape)), Format="HDF",
                         NumberType=number_type, Precision=str(precision))
    item.text = ref


def _attribute(grid, name, kind, center, ref, shape, number_type="Float", precision=8):
    attr = ET.SubElement(grid, "Attribute", Name=name, AttributeType=kind, Center=center)
    _data_item(attr, ref, shape, number_type, precision)


def read_fields(path):
    """Read a fields file into a dict of arrays plus ``time``, ``cycle`` and ``config_yaml``."""
    with h5py.File(path, "r") as h5:
        out = {k: h5[k][()] for k in h5 if isinstance(h5[k], h5py.Dataset)}
        out.update(time=float(h5.attrs["time"]), cycle=int(h5.attrs["cycle"]),
                   dim=int(h5.attrs["dim"]), config_yaml=h5.attrs["config_yaml"])
    return out


def write_config_attrs(h5, config):
    """Store the resolved config: full YAML text and one attribute per flattened key path."""
    h5.attrs["config_yaml"] = config.to_yaml()
    grp = h5.require_group("config")
    for key, value in _flatten(config.to_dict()):
        grp.attrs[key] = h5py.Empty("f8") if value is None else (
            np.asarray(value, float) if isinstance(value, list) else value)


def _flatten(d, prefix=""):
    for key, value in d.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


# =============================================================================================
# Summary
# =============================================================================================

SUMMARY_KEYS = ("cycles", "final_time", "dt_min", "dt_max", "kinetic_energy_initial",
                "kinetic_energy_final", "internal_energy_initial", "internal_energy_final",
                "relative_energy_change", "stage_times", "zone_cycles_per_second", "ranks",
                "backend", "energy_norm")


def write_summary(path, summary):
    """Write ``summary.json`` (rank 0 only). Requires every key of SUMMARY_KEYS; extra keys kept."""
    missing = [k for k in SUMMARY_KEYS if k not in summary]
    if missing:
        raise KeyError(f"summary is missing {missing}")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(_jsonable(summary), fh, indent=2)
        fh.write("\n")


def build_summary(sim, st, comm, backend, zones, wall, cycles_run, status):
    """The summary.json dict (collective: energies, |e| and stage-time maxima over ranks).

    ``st`` is the driver state: energy0 (energies at cycle 0), dt_min, dt_max, dt_last (the last
    step taken, clipped to final_time), cg_iterations. ``dt_next`` is the step size after the
    last step's dt control (x grow_factor when the estimate allowed it): the "dt" that Laghos
    prints on its last line, hence the one to compare with its reference records. Wall and stage times
    are those of this run segment (since the start or the restart).
    """
    e0, e1 = st["energy0"], sim.energies()
    stages = {k: comm.allreduce(float(v), "max") for k, v in sorted(sim.timers.items())}
    return {"cycles": sim.cycle, "final_time": sim.t, "dt_min": st["dt_min"], "dt_max": st["dt_max"],
            "dt_last": st.get("dt_last", 0.0), "dt_next": float(sim.dt),
            "kinetic_energy_initial": e0["kinetic"], "kinetic_energy_final": e1["kinetic"],
            "internal_energy_initial": e0["internal"], "internal_energy_final": e1["internal"],
            "source_work_final": e1["source_work"],
            "relative_energy_change": (e1["total"] - e0["total"]) / abs(e0["total"]) if e0["total"] else 0.0,
            "stage_times": stages, "wall_time": wall,
            "zone_cycles_per_second": zones * cycles_run / wall if wall > 0 else 0.0,
            "ranks": comm.size, "backend": backend, "energy_norm": sim.energy_norm(),
            "zones": zones, "rejections": sim.rejections, "cg_iterations": st["cg_iterations"],
            "status": status}


def format_summary(s, outdir, xdmf):
    """A few human-readable lines of the summary (rank 0 prints them at the end)."""
    steps = (f"dt in [{s['dt_min']:.4e}, {s['dt_max']:.4e}], last dt {s['dt_last']:.6f} "
             f"(next {s['dt_next']:.6f})" if s["dt_max"] > 0 else "no step taken")
    lines = [f"\n{s['status']}: {s['cycles']} cycles, t = {s['final_time']:.6g}, {steps}, "
             f"|e| = {s['energy_norm']:.10e}"]
    lines.append(f"  energy: relative change {s['relative_energy_change']:+.3e}; "
                 f"{s['zone_cycles_per_second']:.4g} zone-cycles/s on {s['ranks']} rank(s) ({s['backend']}), "
                 f"wall {s['wall_time']:.2f} s")
    lines.append("  stages [s]: " + ", ".join(f"{k} {v:.3f}" for k, v in s["stage_times"].items()))
    lines.append(f"  output: {xdmf} (ParaView), {os.path.join(outdir, 'summary.json')}")
    return "\n".join(lines)


def _jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None                          # JSON has no NaN/inf; null says "undefined"
    return obj


# =============================================================================================
# Checkpoints: one file per rank, exact (bit-for-bit) round trip of nested dicts of arrays.
# =============================================================================================

def checkpoint_dir(directory, cycle):
    return os.path.join(directory, f"checkpoint_{cycle:08d}")


def write_checkpoint(directory, comm, cycle, sim_state, driver_state, config):
    """Write this rank's restart file ``<directory>/checkpoint_<cycle>/rank_<rank>.h5`` (collective)."""
    path = checkpoint_dir(directory, cycle)
    if comm.rank == 0:
        os.makedirs(path, exist_ok=True)
    comm.barrier()
    tmp = os.path.join(path, f"rank_{comm.rank:05d}.h5.tmp")
    with h5py.File(tmp, "w") as h5:
        h5.attrs["ranks"] = comm.size
        h5.attrs["rank"] = comm.rank
        h5.attrs["cycle"] = cycle
        write_config_attrs(h5, config)
        _store(h5.create_group("simulation"), sim_state)
        _store(h5.create_group("driver"), driver_state)
    os.replace(tmp, tmp[:-4])                # a crash mid-write never leaves a "valid" file
    comm.barrier()
    return path


def find_checkpoint(path):
    """A checkpoint directory, or the newest ``checkpoint_*`` inside an output directory."""
    if glob.glob(os.path.join(path, "rank_*.h5")):
        return path
    found = sorted(glob.glob(os.path.join(path, "checkpoint_*")))
    found = [p for p in found if glob.glob(os.path.join(p, "rank_*.h5"))]
    if not found:
        raise FileNotFoundError(f"no checkpoint in {path!r} (expected rank_*.h5 files or "
                                "checkpoint_* directories)")
    return found[-1]


def read_checkpoint(path, comm):
    """Read this rank's restart file; returns (sim_state, driver_state, config_yaml)."""
    path = find_checkpoint(path)
    fname = os.path.join(path, f"rank_{comm.rank:05d}.h5")
    if not os.path.exists(fname):
        raise FileNotFoundError(f"checkpoint {path!r} has no file for rank {comm.rank}")
    with h5py.File(fname, "r") as h5:
        ranks = int(h5.attrs["ranks"])
        if ranks != comm.size:
            raise ValueError(f"checkpoint {path!r} was written by {ranks} rank(s); restart needs "
                             f"the same count, this run has {comm.size}")
        return _load(h5["simulation"]), _load(h5["driver"]), h5.attrs["config_yaml"]


_LEAVES = "__leaves__"                       # JSON attr holding the non-array entries of a dict


def _store(group, state):
    """Nested dict -> groups; arrays -> datasets (exact bits); other leaves -> one JSON attr."""
    leaves = {}
    for key, value in state.items():
        if isinstance(value, dict):
            _store(group.create_group(key), value)
            continue
        value = _to_numpy(value)
        if isinstance(value, np.ndarray):
            group.create_dataset(key, data=value)
        else:
            # Python floats go through repr, which round-trips exactly
            leaves[key] = value.item() if isinstance(value, np.generic) else value
    group.attrs[_LEAVES] = json.dumps(leaves)


def _load(group):
    out = json.loads(group.attrs[_LEAVES])
    for key, item in group.items():
        out[key] = _load(item) if isinstance(item, h5py.Group) else item[...]
    return out


def _to_numpy(value):
    """Device (CuPy) arrays -> NumPy; everything else unchanged."""
    if hasattr(value, "get") and hasattr(value, "__cuda_array_interface__"):
        return value.get()
    return value
