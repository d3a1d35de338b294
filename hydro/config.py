"""Case files: YAML -> validated, frozen, fully resolved configuration.

The schema is docs/case-file.md; the attribute names here are its keys (``cfg.mesh.nx``,
``cfg.solver.cg_tol``, ...). Each dataclass field carries its own rule (a :class:`Rule` in the
field metadata), so the schema, the validation and the defaults live in one place.

Loading is strict (as PyClaw's ``Solver.__setattr__`` catches misspelled settings): unknown keys,
wrong types and impossible values are *all* collected and reported together in one
:class:`CaseFileError` whose message names each key path, the value given and what is allowed.

Nulls that have a structural default are resolved here, so the echoed / stored config is the one
that actually runs: ``mesh.ny``/``mesh.nz`` -> ``mesh.nx``, ``mesh.extent`` -> the problem's domain,
``order_thermo`` -> ``order - 1``, ``quadrature_order`` -> ``3*order + order_thermo - 1`` (Laghos),
``gamma``/``viscosity.enabled``/``viscosity.vorticity`` -> the problem's (see :data:`PROBLEMS`),
``output.dir`` -> ``out/<case file stem>``. ``gamma`` stays null for ``triple_point``, whose gamma is
piecewise per material (1.5 / 1.4) and set by the problem module.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import types
from dataclasses import dataclass, field
from typing import Any, Mapping

import yaml

__all__ = ["CaseConfig", "CaseFileError", "load_case", "PROBLEMS", "ProblemInfo"]


class CaseFileError(ValueError):
    """A case file (or ``--set`` override) is invalid; ``.errors`` lists ``(key_path, message)``."""

    def __init__(self, errors, source="case"):
        self.errors = list(errors)
        lines = [f"{len(self.errors)} error(s) in {source}:"]
        lines += [f"  {path}: {msg}" for path, msg in self.errors]
        super().__init__("\n".join(lines))


# --------------------------------------------------------------------------------------------
# Problem table: what config needs to know about each problem to validate and resolve defaults.
# Physics (rho0, v0, e0, source terms) lives in hydro/problems/; this is only dims and defaults.
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProblemInfo:
    """Dims a problem supports and its defaults (domain per dim, gamma, viscosity, vorticity)."""
    dims: tuple
    domain: Mapping[int, tuple]     # dim -> ((min, max), ...) per axis
    gamma: float | None             # None: piecewise, set by the problem module
    viscosity: bool
    vorticity: bool = False


def _box(lo, hi, dims=(1, 2, 3)):
    return {d: tuple((lo, hi) for _ in range(d)) for d in dims}


# Domains and gammas from reference/hydro-method.md §1.2 and §1.4 (Laghos problems and meshes);
# the 3-D triple point box is that of Laghos data/box01_hex.mesh: [0,7]x[0,3]x[0,3].
PROBLEMS = {
    "sedov": ProblemInfo((1, 2, 3), _box(0.0, 1.0), 1.4, True),
    "taylor_green": ProblemInfo((2, 3), _box(0.0, 1.0, (2, 3)), 5.0 / 3.0, False),
    "sod": ProblemInfo((1, 2, 3), _box(0.0, 1.0), 1.4, True),
    # 2-D cylindrical Noh on the quadrant [0,1]^2 (symmetry walls on x=0, y=0).
    "noh": ProblemInfo((2, 3), _box(0.0, 1.0, (2, 3)), 5.0 / 3.0, True),
    "triple_point": ProblemInfo((2, 3), {2: ((0.0, 7.0), (0.0, 3.0)),
                                         3: ((0.0, 7.0), (0.0, 3.0), (0.0, 3.0))}, None, True),
    "gresho": ProblemInfo((2,), {2: ((-0.5, 0.5), (-0.5, 0.5))}, 5.0 / 3.0, False),
    "rayleigh_taylor": ProblemInfo((2,), {2: ((0.0, 0.5), (-1.0, 1.0))}, 5.0 / 3.0, True, True),
}

INTEGRATORS = ("rk2avg", "rk4")
BACKENDS = ("auto", "cpu", "gpu")


# --------------------------------------------------------------------------------------------
# Rules: one per field, checked by _check_value. ``allowed`` is the text shown in errors.
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rule:
    kind: str                       # int | float | bool | str | choice | extent | mapping
    nullable: bool = False
    lo: float | None = None         # bounds; lo_open/hi_open make them strict
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False
    choices: tuple = ()

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "choice":
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        elif self.kind == "extent":
            text = "a list of [min, max] pairs, one per dimension, with min < max"
        elif self.kind == "mapping":
            text = "a mapping of names to values"
        elif self.kind in ("int", "float"):
            text = ("an integer" if self.kind == "int" else "a number")
            if self.lo is not None:
                text += f" {'>' if self.lo_open else '>='} {self.lo:g}"
            if self.hi is not None:
                text += f"{' and' if self.lo is not None else ''} {'<' if self.hi_open else '<='} {self.hi:g}"
        else:
            text = {"bool": "true or false", "str": "a string"}[self.kind]
        return text + (" (or null)" if self.nullable else "")


def _f(default, kind, **kw):
    """A dataclass field with a default and its validation rule."""
    rule = Rule(kind, **kw)
    if isinstance(default, dict):
        return field(default_factory=lambda: types.MappingProxyType({}), metadata={"rule": rule})
    return field(default=default, metadata={"rule": rule})


_POS = dict(lo=0.0, lo_open=True)


@dataclass(frozen=True)
class MeshConfig:
    nx: int = _f(8, "int", lo=1)
    ny: int | None = _f(None, "int", nullable=True, lo=1)
    nz: int | None = _f(None, "int", nullable=True, lo=1)
    extent: tuple | None = _f(None, "extent", nullable=True)
    file: str | None = _f(None, "str", nullable=True)
    refine: int = _f(0, "int", lo=0, hi=12)


@dataclass(frozen=True)
class ViscosityConfig:
    enabled: bool | None = _f(None, "bool", nullable=True)
    q1: float = _f(0.5, "float", lo=0.0)
    q2: float = _f(2.0, "float", lo=0.0)
    vorticity: bool | None = _f(None, "bool", nullable=True)


@dataclass(frozen=True)
class SolverConfig:
    cg_tol: float = _f(1.0e-8, "float", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    cg_max_iter: int = _f(300, "int", lo=1)


@dataclass(frozen=True)
class TimeStepConfig:
    initial: float | None = _f(None, "float", nullable=True, **_POS)
    max_steps: int | None = _f(None, "int", nullable=True, lo=1)
    reject_factor: float = _f(0.85, "float", lo=0.0, hi=1.0, lo_open=True, hi_open=True)
    grow_factor: float = _f(1.02, "float", lo=1.0)
    grow_threshold: float = _f(1.25, "float", lo=1.0)
    min_dt: float = _f(1.0e-12, "float", **_POS)


@dataclass(frozen=True)
class OutputConfig:
    dir: str | None = _f(None, "str", nullable=True)
    every: float | None = _f(None, "float", nullable=True, **_POS)
    every_cycles: int | None = _f(None, "int", nullable=True, lo=1)


@dataclass(frozen=True)
class CheckpointConfig:
    every_cycles: int | None = _f(None, "int", nullable=True, lo=1)


@dataclass(frozen=True)
class CaseConfig:
    """The resolved case: attribute names are the keys of docs/case-file.md."""
    problem: str = _f(None, "choice", choices=tuple(PROBLEMS))
    dim: int = _f(None, "choice", choices=(1, 2, 3))
    mesh: MeshConfig = field(default_factory=MeshConfig)
    order: int = _f(2, "int", lo=1, hi=8)
    order_thermo: int | None = _f(None, "int", nullable=True, lo=0, hi=8)
    quadrature_order: int | None = _f(None, "int", nullable=True, lo=1, hi=40)
    final_time: float = _f(0.6, "float", **_POS)
    cfl: float = _f(0.5, "float", lo=0.0, hi=1.0, lo_open=True)
    gamma: float | None = _f(None, "float", nullable=True, lo=1.0, lo_open=True)
    integrator: str = _f("rk2avg", "choice", choices=INTEGRATORS)
    viscosity: ViscosityConfig = field(default_factory=ViscosityConfig)
    solver: SolverConfig = field(default_factory=SolverConfig)
    time_step: TimeStepConfig = field(default_factory=TimeStepConfig)
    parameters: Mapping[str, Any] = _f({}, "mapping")
    output: OutputConfig = field(default_factory=OutputConfig)
    checkpoint: CheckpointConfig = field(default_factory=CheckpointConfig)
    backend: str = _f("auto", "choice", choices=BACKENDS)
    verbose: bool = _f(True, "bool")

    def to_dict(self) -> dict:
        """Plain nested dict (lists, not tuples) that ``load_case`` accepts back unchanged."""
        return _plain(self)

    def to_yaml(self) -> str:
        """The resolved config as YAML text (rank 0 echoes it; Laghos ``PrintOptions``)."""
        return yaml.safe_dump(self.to_dict(), sort_keys=False, default_flow_style=None)

    @property
    def zones_per_dim(self) -> tuple:
        """Generated-box zone counts per axis after ``mesh.refine`` (meaningless for mesh files)."""
        n = (self.mesh.nx, self.mesh.ny, self.mesh.nz)[: self.dim]
        return tuple(k * 2 ** self.mesh.refine for k in n)


_REQUIRED = ("problem", "dim")


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------

def load_case(path_or_dict, overrides=()) -> CaseConfig:
    """Read a case (YAML path or dict), apply ``key.sub=value`` overrides, validate, resolve.

    Raises :class:`CaseFileError` listing every problem found (never only the first).
    Relative ``mesh.file`` paths are taken relative to the case file's directory.
    """
    errors = []
    if isinstance(path_or_dict, Mapping):
        raw, stem, base, source = _thaw(path_or_dict), "case", None, "case"
    else:
        path = os.fspath(path_or_dict)
        raw, source = _read_yaml(path), path
        stem = os.path.splitext(os.path.basename(path))[0]
        base = os.path.dirname(os.path.abspath(path))
    if not isinstance(raw, dict):
        raise CaseFileError([("<top>", f"expected a mapping of keys, got {type(raw).__name__}")], source)
    for text in overrides:
        _apply_override(raw, text, errors)
    cfg = _build(CaseConfig, raw, "", errors)
    if not errors:
        _check_consistency(cfg, base, errors)
    if errors:
        raise CaseFileError(errors, source)
    return _resolve(cfg, stem, base)


def _read_yaml(path):
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except FileNotFoundError:
        raise CaseFileError([("<file>", f"case file {path!r} does not exist")], path) from None
    except yaml.YAMLError as exc:
        raise CaseFileError([("<file>", f"not valid YAML: {exc}")], path) from None
    return {} if data is None else data


def _apply_override(raw, text, errors):
    """Set ``a.b.c=value`` in the raw dict; the value is parsed as a YAML scalar/flow value."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key:
        errors.append((text, "an override must look like key.sub=value"))
        return
    try:
        parsed = yaml.safe_load(value) if value.strip() else None
    except yaml.YAMLError as exc:
        errors.append((key, f"override value {value!r} is not valid YAML ({exc.__class__.__name__})"))
        return
    parts = key.split(".")
    node = raw
    for i, part in enumerate(parts[:-1]):
        child = node.get(part)
        if child is None:
            child = node[part] = {}
        if not isinstance(child, dict):
            errors.append((".".join(parts[: i + 1]), f"{_show(child)} is not a section; cannot set {key}"))
            return
        node = child
    node[parts[-1]] = parsed


def _build(cls, raw, prefix, errors):
    """Validate ``raw`` against dataclass ``cls``; returns an instance (with defaults on errors)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        errors.append((prefix.rstrip(".") or "<top>", f"expected a section (mapping), got {_show(raw)}"))
        raw = {}
    names = {f.name: f for f in dataclasses.fields(cls)}
    for key in raw:
        if key not in names:
            hint = _closest(str(key), names)
            errors.append((f"{prefix}{key}", "unknown key" + (f" (did you mean {hint!r}?)" if hint else "")
                           + f"; allowed here: {', '.join(names)}"))
    values = {}
    for name, f in names.items():
        path = prefix + name
        if "rule" not in f.metadata:          # a nested section
            values[name] = _build(_SECTIONS[name], raw.get(name), path + ".", errors)
            continue
        rule = f.metadata["rule"]
        if name not in raw:
            if cls is CaseConfig and name in _REQUIRED:
                errors.append((path, f"is required; {rule.allowed()}"))
            continue
        ok, value = _check_value(raw[name], rule)
        if ok:
            values[name] = value
        else:
            errors.append((path, f"{_show(raw[name])} is not allowed; expected {rule.allowed()}"))
    return cls(**values)


_SECTIONS = {"mesh": MeshConfig, "viscosity": ViscosityConfig, "solver": SolverConfig,
             "time_step": TimeStepConfig, "output": OutputConfig, "checkpoint": CheckpointConfig}


def _check_value(value, rule):
    """Return (ok, normalized value) for one value under ``rule``."""
    if value is None:
        return rule.nullable, None
    kind = rule.kind
    if kind == "choice":
        return (value in rule.choices and not isinstance(value, bool)), value
    if kind == "bool":
        return isinstance(value, bool), value
    if kind == "str":
        return isinstance(value, str) and value != "", value
    if kind == "mapping":
        ok = isinstance(value, dict) and all(isinstance(k, str) for k in value)
        return ok, (types.MappingProxyType(_freeze(value)) if ok else None)
    if kind == "extent":
        return _check_extent(value)
    number = _as_number(value, integer=(kind == "int"))
    if number is None or not _in_bounds(number, rule):
        return False, None
    return True, number


def _as_number(value, integer):
    """int for integer fields (no bools, no 2.5); float for number fields (accepts '1e-8' strings,
    which YAML 1.1 reads as text when the mantissa has no dot)."""
    if isinstance(value, bool):
        return None
    if integer:
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return None
    if isinstance(value, (int, float)):
        v = float(value)
    elif isinstance(value, str):
        try:
            v = float(value)
        except ValueError:
            return None
    else:
        return None
    return v if math.isfinite(v) else None


def _in_bounds(v, rule):
    if rule.lo is not None and (v < rule.lo or (rule.lo_open and v == rule.lo)):
        return False
    if rule.hi is not None and (v > rule.hi or (rule.hi_open and v == rule.hi)):
        return False
    return True


def _check_extent(value):
    if not isinstance(value, (list, tuple)) or not value:
        return False, None
    pairs = []
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return False, None
        lo, hi = (_as_number(p, integer=False) for p in pair)
        if lo is None or hi is None or not lo < hi:
            return False, None
        pairs.append((lo, hi))
    return True, tuple(pairs)


def _check_consistency(cfg, base, errors):
    """Rules that involve several keys (run only when every key is individually valid)."""
    info = PROBLEMS[cfg.problem]
    if cfg.dim not in info.dims:
        errors.append(("dim", f"{cfg.dim} is not supported by problem {cfg.problem!r}; allowed: "
                              + ", ".join(map(str, info.dims))))
    if cfg.mesh.extent is not None and len(cfg.mesh.extent) != cfg.dim:
        errors.append(("mesh.extent", f"{_plain(cfg.mesh.extent)} has {len(cfg.mesh.extent)} "
                                      f"axes; expected {cfg.dim} [min, max] pairs (dim: {cfg.dim})"))
    if cfg.mesh.file is not None:
        path = cfg.mesh.file if base is None else os.path.join(base, cfg.mesh.file)
        if not os.path.exists(path):
            errors.append(("mesh.file", f"{cfg.mesh.file!r} does not exist (looked for {path})"))
    if cfg.order_thermo is not None and cfg.order_thermo > cfg.order:
        errors.append(("order_thermo", f"{cfg.order_thermo} exceeds order ({cfg.order}); "
                                       "allowed: 0 .. order (default order - 1)"))
    if cfg.time_step.initial is not None and cfg.time_step.initial < cfg.time_step.min_dt:
        errors.append(("time_step.initial", f"{cfg.time_step.initial!r} is below time_step.min_dt "
                                            f"({cfg.time_step.min_dt!r})"))
    if cfg.output.every is not None and cfg.output.every_cycles is not None:
        errors.append(("output.every", "give output.every or output.every_cycles, not both"))


def _resolve(cfg, stem, base):
    """Fill the structural defaults (see the module docstring)."""
    info = PROBLEMS[cfg.problem]
    mesh = cfg.mesh
    mesh = dataclasses.replace(
        mesh,
        ny=mesh.ny if mesh.ny is not None else (mesh.nx if cfg.dim >= 2 else None),
        nz=mesh.nz if mesh.nz is not None else (mesh.nx if cfg.dim >= 3 else None),
        extent=mesh.extent if mesh.extent is not None else info.domain[cfg.dim],
        file=(os.path.normpath(os.path.join(base, mesh.file)) if mesh.file and base else mesh.file))
    ot = cfg.order_thermo if cfg.order_thermo is not None else cfg.order - 1
    visc = cfg.viscosity
    visc = dataclasses.replace(
        visc,
        enabled=visc.enabled if visc.enabled is not None else info.viscosity,
        vorticity=visc.vorticity if visc.vorticity is not None else info.vorticity)
    out = cfg.output
    out = dataclasses.replace(out, dir=out.dir if out.dir is not None else os.path.join("out", stem))
    return dataclasses.replace(
        cfg, mesh=mesh, order_thermo=ot,
        quadrature_order=cfg.quadrature_order if cfg.quadrature_order is not None else 3 * cfg.order + ot - 1,
        gamma=cfg.gamma if cfg.gamma is not None else info.gamma,
        viscosity=visc, output=out)


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------

def _show(value):
    """A value as the user wrote it in YAML terms (true/null, not True/None); strings quoted."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(_plain(value))
    except (TypeError, ValueError):
        return repr(value)


def _closest(key, names):
    import difflib
    match = difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)
    return match[0] if match else None


def _freeze(obj):
    """Lists -> tuples, dicts -> read-only mappings (so a frozen config is really immutable)."""
    if isinstance(obj, dict):
        return types.MappingProxyType({k: _freeze(v) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        return tuple(_freeze(v) for v in obj)
    return obj


def _thaw(obj):
    """Deep copy to plain dicts (keeps tuples/lists as lists) so overrides can edit it."""
    if isinstance(obj, Mapping):
        return {k: _thaw(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_thaw(v) for v in obj]
    return obj


def _plain(obj):
    """Inverse of _freeze for output: dataclasses/mappings -> dict, tuples -> list."""
    if dataclasses.is_dataclass(obj):
        return {f.name: _plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj
