"""Case-file loading: defaults, resolution, overrides, strict validation with all errors at once."""
import dataclasses
import glob
import os

import pytest

from hydro.config import CaseConfig, CaseFileError, load_case

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_defaults_resolved():
    cfg = load_case({"problem": "sedov", "dim": 2})
    assert (cfg.mesh.nx, cfg.mesh.ny, cfg.mesh.nz) == (8, 8, None)
    assert cfg.mesh.extent == ((0.0, 1.0), (0.0, 1.0))
    assert (cfg.order, cfg.order_thermo, cfg.quadrature_order) == (2, 1, 6)   # Laghos 3k+ot-1
    assert cfg.gamma == 1.4 and cfg.viscosity.enabled and not cfg.viscosity.vorticity
    assert cfg.time_step.reject_factor == 0.85 and cfg.time_step.grow_factor == 1.02
    assert cfg.output.dir == os.path.join("out", "case")
    assert cfg.integrator == "rk2avg" and cfg.backend == "auto"


def test_problem_specific_defaults():
    tp = load_case({"problem": "triple_point", "dim": 2})
    assert tp.gamma is None                         # piecewise: left to the problem module
    assert tp.mesh.extent == ((0.0, 7.0), (0.0, 3.0))
    rt = load_case({"problem": "rayleigh_taylor", "dim": 2})
    assert rt.viscosity.vorticity and rt.gamma == pytest.approx(5 / 3)
    tg = load_case({"problem": "taylor_green", "dim": 3, "order": 3})
    assert not tg.viscosity.enabled and tg.mesh.nz == 8 and tg.quadrature_order == 10


def test_frozen_and_roundtrip():
    cfg = load_case({"problem": "sedov", "dim": 3, "parameters": {"blast_energy": 2.0, "g": [0, 1]}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.cfl = 0.1
    with pytest.raises(TypeError):
        cfg.parameters["blast_energy"] = 3.0
    again = load_case(cfg.to_dict())
    assert again == cfg
    assert load_case(__import__("yaml").safe_load(cfg.to_yaml())) == cfg


def test_overrides():
    cfg = load_case({"problem": "sedov", "dim": 2},
                    ["mesh.nx=4", "solver.cg_tol=1e-12", "parameters.blast_energy=2", "integrator=rk4",
                     "mesh.extent=[[0, 2], [0, 1]]"])
    assert cfg.mesh.nx == 4 and cfg.mesh.ny == 4
    assert cfg.solver.cg_tol == 1e-12               # '1e-12' (no dot) is accepted as a number
    assert cfg.parameters["blast_energy"] == 2 and cfg.integrator == "rk4"
    assert cfg.mesh.extent == ((0.0, 2.0), (0.0, 1.0))


def test_all_errors_reported_together():
    bad = {"problem": "sedov", "dim": 4, "cfl": -0.5, "order": 0, "integrator": "rk3",
           "backend": "tpu", "mesh": {"nx": 2.5, "extent": [[1, 0]], "nxx": 3},
           "solver": {"cg_tol": "tight"}, "verbos": True}
    with pytest.raises(CaseFileError) as info:
        load_case(bad)
    paths = [p for p, _ in info.value.errors]
    for key in ("dim", "cfl", "order", "integrator", "backend", "mesh.nx", "mesh.extent",
                "mesh.nxx", "solver.cg_tol", "verbos"):
        assert key in paths, key
    msg = str(info.value)
    assert "cfl: -0.5 is not allowed; expected a number > 0 and <= 1" in msg
    assert "integrator: 'rk3' is not allowed; expected one of 'rk2avg', 'rk4'" in msg
    assert "did you mean 'verbose'" in msg and "mesh.nxx: unknown key" in msg
    assert isinstance(info.value, ValueError)


def test_required_and_cross_key_errors():
    with pytest.raises(CaseFileError) as info:
        load_case({})
    assert {p for p, _ in info.value.errors} == {"problem", "dim"}
    with pytest.raises(CaseFileError, match="mesh.extent.*expected 2"):
        load_case({"problem": "sedov", "dim": 2, "mesh": {"extent": [[0, 1]]}})
    with pytest.raises(CaseFileError, match="dim: 3 is not supported by problem 'gresho'"):
        load_case({"problem": "gresho", "dim": 3})
    with pytest.raises(CaseFileError, match="order_thermo"):
        load_case({"problem": "sedov", "dim": 2, "order": 2, "order_thermo": 3})
    with pytest.raises(CaseFileError, match="mesh.file"):
        load_case({"problem": "sedov", "dim": 2, "mesh": {"file": "no/such.mesh"}})
    with pytest.raises(CaseFileError, match="mesh.nx: true"):
        load_case({"problem": "sedov", "dim": 2}, ["mesh.nx=true"])
    with pytest.raises(CaseFileError, match="key.sub=value"):
        load_case({"problem": "sedov", "dim": 2}, ["mesh.nx"])
    with pytest.raises(CaseFileError, match="cfl: 0.5 is not a section"):
        load_case({"problem": "sedov", "dim": 2, "cfl": 0.5}, ["cfl.x=1"])


def test_file_errors(tmp_path):
    with pytest.raises(CaseFileError, match="does not exist"):
        load_case(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("problem: sedov\ndim: [2\n")
    with pytest.raises(CaseFileError, match="not valid YAML"):
        load_case(bad)
    bad.write_text("- 1\n- 2\n")
    with pytest.raises(CaseFileError, match="expected a mapping"):
        load_case(bad)
    good = tmp_path / "mycase.yaml"
    good.write_text("problem: sod\ndim: 1\n")
    assert load_case(good).output.dir == os.path.join("out", "mycase")


def test_schema_doc_matches_dataclasses():
    """docs/case-file.md lists exactly the keys the loader accepts (keep the doc true)."""
    import yaml
    text = open(os.path.join(ROOT, "docs", "case-file.md")).read()
    block = text.split("```yaml", 1)[1].split("```", 1)[0]
    doc = yaml.safe_load(block)
    cfg = load_case({"problem": "sedov", "dim": 2}).to_dict()

    def keys(d, prefix=""):
        out = set()
        for k, v in d.items():
            out.add(prefix + k)
            if isinstance(v, dict) and k != "parameters":
                out |= keys(v, prefix + k + ".")
        return out
    assert keys(doc) == keys(cfg)


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "cases", "*.yaml"))),
                         ids=os.path.basename)
def test_shipped_cases_load(path):
    cfg = load_case(path)
    assert isinstance(cfg, CaseConfig)
