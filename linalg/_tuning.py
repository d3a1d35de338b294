"""Tuned kernel parameters and kernel-vs-vendor crossovers as data: ``linalg/tuning/*.json``.

Each JSON file maps a GPU name (``cudaDeviceProp.name``, e.g. ``"NVIDIA H100 80GB HBM3"``) or
``"default"`` to a table ``{op: {dtype: {shape_class: entry}}}``; ``scripts/tune_blas.py`` writes
the GPU entries after searching the pruned parameter space on the device and timing the vendor
routine on the same class. The entries that apply to one call are, most specific first: the GPU's
entry for the shape class, the GPU's ``"*"`` entry for that op and dtype, the same two of the tuned
GPU of its family (``FAMILY_TABLES``: an H200 takes the H100's tables where it has none of its
own), then the default table's class and its ``"*"`` (``entries``). A GPU of no tuned family gets
the defaults.

An entry holds kernel parameters and/or a vendor decision:

* ``"use_vendor": true|false`` with ``"reason"`` (one line: the measured ratio) decides the class
  (``"vendor": true`` is the older spelling of ``"use_vendor": true``);
* ``"vendor_from": {"min_dim": d, "volume": v}`` (in ``"*"`` entries) decides every class it reaches:
  the vendor when each class dimension is >= d, or when their product is >= v;
* ``"vendor_below": v`` or ``{"64": v64, "128": v128, ..., "*": v}`` (the Cholesky family,
  triangular ops and TRSV above the leaf size, ``"*"`` entries): the vendor path on batches with
  batch * n < v, the bound taken per size class of n where a dict gives one (``vendor_below``):
  there our launches cost more host time than the vendor's call;
* ``"below_batch": b`` with ``"below": {...}`` (GEMV entries): on batches of fewer than b matrices
  the class runs the parameters of ``"below"`` instead (which may say ``"use_vendor": true``):
  gemv_stream's persistent grid, tuned at large batches, gives a block a tile or two on small
  ones (linalg/_cuda/blas.py ``gemv_small_batch_params``).

``lookup`` returns the first entry with kernel parameters (decision keys stripped); ``use_vendor``
the first decision, else False (our kernel). A class with no parameters raises ``KeyError``.

Shape classes round each dimension up to a power of two (``shape_class(81, 8) == "128x8"``), so a
table stays small while the hydro shapes (18x4, 32x9, 81x8, 192x27, 375x64) and the square sizes
each land in their own class.
"""
import functools
import json
import math
import re
from pathlib import Path

from . import _dispatch

__all__ = ["lookup", "use_vendor", "entries", "shape_class", "class_dims", "bucket", "gpu_name",
           "tables", "vendor_below", "install", "family_gpu", "TUNING_DIR", "DEFAULT_KEY",
           "DECISION_KEYS", "FAMILY_TABLES"]

TUNING_DIR = Path(__file__).resolve().parent / "tuning"
DEFAULT_KEY = "default"
DECISION_KEYS = frozenset(("use_vendor", "vendor", "vendor_from", "vendor_below", "reason"))
_MAX_BUCKET = 4096
# (pattern of GPU names, the tuned GPU whose tables they take where they have none of their own):
# one SM architecture and memory system, so the tuned kernel parameters carry over far better than
# the defaults (H200, float64 GEMV-N 32x9 at batch 40960: 23 % of the copy bandwidth with the
# defaults, 58 % with the H100's table, same call; reports/gpu_20261126/ab_tuning_family.md).
FAMILY_TABLES = ((re.compile(r"\bG?H(100|200|800)\b"), "NVIDIA H100 80GB HBM3"),)


def bucket(x):
    """Smallest power of two >= x (x >= 1), capped: sizes above the cap share one class."""
    p = 1
    while p < x and p < _MAX_BUCKET:
        p *= 2
    return p if x <= _MAX_BUCKET else "big"


def shape_class(*dims):
    """Class key of a shape, e.g. ``shape_class(81, 8) == "128x8"``."""
    return "x".join(str(bucket(int(d))) for d in dims)


def class_dims(cls):
    """Dimensions of a class key ("big" -> infinity), e.g. ``class_dims("128x8") == [128, 8]``."""
    return [math.inf if d == "big" else int(d) for d in cls.split("x")]


@functools.lru_cache(maxsize=None)
def tables():
    """All tables of linalg/tuning/*.json merged: {gpu_or_default: {op: {dtype: {cls: entry}}}}."""
    merged = {}
    for path in sorted(TUNING_DIR.glob("*.json")):
        with open(path) as f:
            data = json.load(f)
        for gpu, table in data.items():
            dest = merged.setdefault(gpu, {})
            for op, per_dtype in table.items():
                for dtype, classes in per_dtype.items():
                    dest.setdefault(op, {}).setdefault(dtype, {}).update(classes)
    return merged


def gpu_name(device_id=None):
    """Name of the current (or given) CUDA device (the launchers' plans ask on every call)."""
    cupy = _dispatch.cupy_module()
    return _device_name(cupy.cuda.runtime.getDevice() if device_id is None else device_id)


def install(gpu, table, keep=()):
    """Write ``table`` ({op: {dtype: {class: entry}}}, measured on ``gpu``) into
    ``linalg/tuning/<gpu as a file name>.json``, over what earlier runs wrote for that GPU: an
    entry replaces its class's old one, except for the old entry's keys named in ``keep``.
    Returns the file's path. The tuning scripts call this (``--install``), never the library."""
    path = TUNING_DIR / (re.sub(r"[^a-z0-9]+", "_", gpu.lower()).strip("_") + ".json")
    merged = {gpu: {}}
    if path.exists():
        with open(path) as f:
            merged = json.load(f)
    for op, per_dtype in table.items():
        for dtype, classes in per_dtype.items():
            dest = merged.setdefault(gpu, {}).setdefault(op, {}).setdefault(dtype, {})
            for cls, entry in classes.items():
                old = dest.get(cls, {})
                dest[cls] = {**{k: old[k] for k in keep if k in old}, **entry}
    with open(path, "w") as f:
        json.dump(merged, f, indent=1, sort_keys=True)
        f.write("\n")
    tables.cache_clear()
    return path


@functools.lru_cache(maxsize=None)
def _device_name(device_id):
    import cupy
    name = cupy.cuda.runtime.getDeviceProperties(device_id)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def family_gpu(gpu):
    """The tuned GPU of ``gpu``'s family (``FAMILY_TABLES``), or None."""
    for pattern, tuned in FAMILY_TABLES:
        if pattern.search(gpu):
            return tuned
    return None


def entries(op, dtype, cls, gpu=None):
    """The entries that apply to op/dtype/class, most specific first (see the module doc)."""
    gpu = gpu_name() if gpu is None else gpu
    family = family_gpu(gpu)
    found = []
    for key in (gpu,) + ((family,) if family not in (None, gpu) else ()) + (DEFAULT_KEY,):
        classes = tables().get(key, {}).get(op, {}).get(str(dtype), {})
        found += [classes[c] for c in (cls, "*") if c in classes]
    return found


def lookup(op, dtype, cls, gpu=None):
    """Kernel parameters (a dict) for ``op`` ("gemv_n", "gemv_t", "gemm", "trsv", "gebrd") on
    ``dtype`` ("float32"/"float64") and shape class ``cls`` on ``gpu`` (default: current device)."""
    for entry in entries(op, dtype, cls, gpu):
        params = {k: v for k, v in entry.items() if k not in DECISION_KEYS}
        if params:
            return params
    raise KeyError(f"no tuned parameters for op={op!r} dtype={dtype!r} class={cls!r} on GPU "
                   f"{gpu!r}, and no default in {TUNING_DIR}")


def _rule_fires(rule, cls):
    """A "vendor_from" rule: every dimension >= "min_dim", or m*n*k >= "volume" (each only if
    given: a "big" dimension is infinite, and inf >= an absent bound taken as inf would fire)."""
    dims = class_dims(cls)
    return (("min_dim" in rule and min(dims) >= rule["min_dim"])
            or ("volume" in rule and math.prod(dims) >= rule["volume"]))


def use_vendor(op, dtype, cls, gpu=None):
    """``(True, reason)`` where the vendor routine is at least as fast as our kernel for
    op/dtype/class on ``gpu`` (the first decision among ``entries``), else ``(False, reason)``."""
    for entry in entries(op, dtype, cls, gpu):
        for key in ("use_vendor", "vendor"):
            if key in entry:
                return bool(entry[key]), entry.get("reason", "")
        if "vendor_from" in entry:
            return _rule_fires(entry["vendor_from"], cls), entry.get("reason", "")
    return False, "no vendor entry: our kernel"


def vendor_below(op, dtype, n, gpu=None):
    """The batch * n below which ``op`` on ``dtype`` with order ``n`` takes its vendor path, from
    the first entry that sets ``"vendor_below"`` (per size class ``bucket(n)`` where it is a dict,
    else its ``"*"``); 0 (never) where none does."""
    for entry in entries(op, dtype, "*", gpu):
        if "vendor_below" in entry:
            rule = entry["vendor_below"]
            if isinstance(rule, dict):
                rule = rule.get(str(bucket(int(n))), rule.get("*", 0))
            return int(rule)
    return 0
