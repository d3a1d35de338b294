"""HDF5 fields + XDMF index well-formed, rank merge, summary, checkpoint exact round trip."""
import json
import os
import xml.etree.ElementTree as ET

import h5py
import numpy as np
import pytest

from hydro import io as hio
from hydro.config import load_case
from hydro.parallel import Comm

from .hydro_fakes import FakeSimulation


@pytest.fixture
def sim_cfg(tmp_path):
    cfg = load_case({"problem": "sedov", "dim": 2, "mesh": {"nx": 3, "ny": 2},
                     "output": {"dir": str(tmp_path / "out")}, "final_time": 0.05})
    return FakeSimulation(cfg), cfg


def check_xdmf(xdmf_path):
    """Parse the index; every DataItem must name an existing dataset of the declared shape."""
    root = ET.parse(xdmf_path).getroot()
    assert root.tag == "Xdmf"
    series = root.find("Domain/Grid")
    assert series.get("CollectionType") == "Temporal"
    grids = series.findall("Grid")
    times = [float(g.find("Time").get("Value")) for g in grids]
    assert times == sorted(times)
    base = os.path.dirname(xdmf_path)
    for grid in grids:
        for item in grid.iter("DataItem"):
            fname, dset = item.text.strip().split(":")
            shape = tuple(int(n) for n in item.get("Dimensions").split())
            with h5py.File(os.path.join(base, fname), "r") as h5:
                assert h5[dset].shape == shape, (fname, dset)
        topo = grid.find("Topology")
        n = int(topo.get("NumberOfElements"))
        assert int(topo.find("DataItem").get("Dimensions").split()[0]) == n
    return grids, times


def test_fields_and_xdmf(sim_cfg):
    sim, cfg = sim_cfg
    writer = hio.FieldWriter(cfg.output.dir, "demo", cfg, Comm())
    writer.write(sim)
    sim.step()
    sim.step()
    path = writer.write(sim)
    grids, times = check_xdmf(writer.xdmf_path)
    assert len(grids) == 2 and times[0] == 0.0 and times[1] == pytest.approx(sim.t)
    assert grids[0].find("Topology").get("TopologyType") == "Quadrilateral"
    f = hio.read_fields(path)
    assert f["cycle"] == 2 and f["time"] == sim.t
    assert f["zone_density"].shape == (6,) and f["zone_center"].shape == (6, 2)
    assert f["points"].shape == (12, 3) and np.all(f["points"][:, 2] == 0)
    assert f["cells"].shape == (6, 4)
    with h5py.File(path, "r") as h5:
        assert h5["config"].attrs["mesh.nx"] == 3
        assert h5["config"].attrs["solver.cg_tol"] == 1e-8
        assert h5["config"].attrs["time_step.max_steps"].shape is None      # null -> h5py.Empty
        np.testing.assert_array_equal(h5["config"].attrs["mesh.extent"], [[0, 1], [0, 1]])
        assert load_case(__import__("yaml").safe_load(h5.attrs["config_yaml"])) == cfg
        np.testing.assert_array_equal(h5["high_order/rank_00000/e"][()], sim.e)


def test_merge_ranks_global_order(sim_cfg):
    sim, _ = sim_cfg
    full = sim.output_fields()
    # split the zones into two "ranks" in scrambled order; each keeps all points (duplicates ok)
    idx = [np.array([4, 0, 2]), np.array([5, 1, 3])]
    parts = []
    for ids in idx:
        part = dict(full)
        for k in hio.ZONE_FIELDS + ("zone_global_index",):
            part[k] = full[k][ids]
        part["cells"] = full["cells"][ids]
        for k in hio.CELL_FIELDS:
            part[k] = full[k][ids]
        parts.append(part)
    merged = hio._merge_ranks(parts)
    np.testing.assert_array_equal(merged["zone_global_index"], np.arange(6))
    np.testing.assert_array_equal(merged["zone_energy"], full["zone_energy"])
    assert merged["points"].shape == (24, 3) and merged["cells"].max() == 23
    np.testing.assert_array_equal(merged["cell_rank"], [0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(merged["points"][merged["cells"][3]],
                                  hio._pad3(full["points"])[full["cells"][5]])


def test_xdmf_1d_and_3d(tmp_path):
    for dim, topo in ((1, "Polyline"), (3, "Hexahedron")):
        name = f"f{dim}.h5"
        with h5py.File(tmp_path / name, "w") as h5:
            h5["cells"] = np.zeros((5, 2 ** dim), np.int64)
            h5["points"] = np.zeros((7, 3))
            h5["point_velocity"] = np.zeros((7, 3))
            for k in hio.CELL_FIELDS:
                h5[k] = np.zeros(5)
            h5["cell_rank"] = np.zeros(5, np.int32)
        hio.write_xdmf(str(tmp_path / f"i{dim}.xdmf"), [(0.0, name, dim, 7, 5, 5)])
        grids, _ = check_xdmf(str(tmp_path / f"i{dim}.xdmf"))
        t = grids[0].find("Topology")
        assert t.get("TopologyType") == topo
        assert (t.get("NodesPerElement") == "2") == (dim == 1)


def test_checkpoint_roundtrip_exact(sim_cfg, tmp_path):
    sim, cfg = sim_cfg
    for _ in range(3):
        sim.step()
    state = sim.checkpoint_state()
    driver = {"energy0": {"total": 1 / 3, "kinetic": 0.0}, "dt_min": float("inf"), "n": 5,
              "last": None, "arr": np.arange(4.0)}
    path = hio.write_checkpoint(str(tmp_path), Comm(), sim.cycle, state, driver, cfg)
    assert os.path.exists(os.path.join(path, "rank_00000.h5"))
    got, drv, text = hio.read_checkpoint(str(tmp_path), Comm())          # newest in a directory
    for k in ("x", "v", "e"):
        assert got[k].tobytes() == state[k].tobytes()
    assert got["t"] == state["t"] and got["dt"] == state["dt"] and got["cycle"] == 3
    assert got["nested"] == state["nested"] and got["timers"] == state["timers"]
    assert drv["energy0"]["total"] == 1 / 3 and drv["dt_min"] == float("inf") and drv["last"] is None
    np.testing.assert_array_equal(drv["arr"], np.arange(4.0))
    # restoring and stepping gives bit-identical results to the uninterrupted object
    other = FakeSimulation(cfg)
    other.restore(got)
    sim.step()
    other.step()
    assert sim.e.tobytes() == other.e.tobytes() and sim.x.tobytes() == other.x.tobytes()


def test_checkpoint_rank_mismatch(sim_cfg, tmp_path):
    sim, cfg = sim_cfg
    hio.write_checkpoint(str(tmp_path), Comm(), 0, sim.checkpoint_state(), {}, cfg)
    fname = tmp_path / "checkpoint_00000000" / "rank_00000.h5"
    with h5py.File(fname, "a") as h5:
        h5.attrs["ranks"] = 2
    with pytest.raises(ValueError, match="written by 2 rank"):
        hio.read_checkpoint(str(tmp_path), Comm())
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        hio.read_checkpoint(str(tmp_path / "nothing"), Comm())


def test_summary(sim_cfg, tmp_path):
    sim, _ = sim_cfg
    st = {"energy0": sim.energies(), "dt_min": 0.01, "dt_max": 0.02, "cg_iterations": 3}
    sim.step()
    s = hio.build_summary(sim, st, Comm(), "cpu", 6, 0.5, 1, "completed")
    hio.write_summary(str(tmp_path / "summary.json"), s)
    data = json.load(open(tmp_path / "summary.json"))
    assert set(hio.SUMMARY_KEYS) <= set(data)
    assert data["zone_cycles_per_second"] == 12.0 and data["ranks"] == 1
    assert set(data["stage_times"]) == {"corner_force", "quadrature_update", "pcg", "energy_update",
                                        "dt_reduction", "other"}
    with pytest.raises(KeyError, match="missing"):
        hio.write_summary(str(tmp_path / "x.json"), {"cycles": 1})


def test_plot_script(sim_cfg, tmp_path):
    """scripts/plot_hydro.py draws a 2-D density field and a profile with the exact Sedov curve."""
    import importlib.util
    sim, cfg = sim_cfg
    writer = hio.FieldWriter(cfg.output.dir, "demo", cfg, Comm())
    sim.step()
    writer.write(sim)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    spec = importlib.util.spec_from_file_location("plot_hydro", os.path.join(root, "scripts", "plot_hydro.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    png = mod.main([cfg.output.dir, "--png", str(tmp_path / "p.png")])
    assert os.path.getsize(png) > 10_000


def test_xdmf_reads_with_meshio(sim_cfg):
    """An independent XDMF reader (meshio) opens the time series: quads, cell and point data."""
    meshio = pytest.importorskip("meshio", reason="meshio (test extra) reads XDMF independently")
    sim, cfg = sim_cfg
    writer = hio.FieldWriter(cfg.output.dir, "demo", cfg, Comm())
    writer.write(sim)
    sim.step()
    writer.write(sim)
    with meshio.xdmf.TimeSeriesReader(writer.xdmf_path) as reader:
        points, cells = reader.read_points_cells()
        assert cells[0].type == "quad" and len(cells[0].data) == 6 and points.shape == (12, 3)
        t, point_data, cell_data = reader.read_data(1)
        assert t == pytest.approx(sim.t) and point_data["velocity"].shape == (12, 3)
        np.testing.assert_array_equal(cell_data["energy"][0], sim.e)
