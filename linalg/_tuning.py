"""Tuned kernel parameters as data: ``linalg/tuning/*.json``, keyed by GPU name.

Each JSON file maps a GPU name (``cudaDeviceProp.name``, e.g. ``"NVIDIA H100 80GB HBM3"``) or
``"default"`` to a table ``{op: {dtype: {shape_class: params}}}``; ``scripts/tune_blas.py``
writes the GPU entries after searching the pruned parameter space on the device. A lookup tries,
in order: the GPU's entry for the shape class, the GPU's ``"*"`` entry for that op and dtype, the
default table's class, then its ``"*"``. An unknown GPU therefore gets the defaults; a key found
nowhere raises ``KeyError`` naming the GPU, op, dtype and class.

Shape classes round each dimension up to a power of two (``shape_class(81, 8) == "128x8"``), so a
table stays small while the hydro shapes (18x4, 32x9, 81x8, 192x27, 375x64) and the square sizes
each land in their own class.
"""
import functools
import json
from pathlib import Path

__all__ = ["lookup", "shape_class", "bucket", "gpu_name", "tables", "TUNING_DIR", "DEFAULT_KEY"]

TUNING_DIR = Path(__file__).resolve().parent / "tuning"
DEFAULT_KEY = "default"
_MAX_BUCKET = 4096


def bucket(x):
    """Smallest power of two >= x (x >= 1), capped: sizes above the cap share one class."""
    p = 1
    while p < x and p < _MAX_BUCKET:
        p *= 2
    return p if x <= _MAX_BUCKET else "big"


def shape_class(*dims):
    """Class key of a shape, e.g. ``shape_class(81, 8) == "128x8"``."""
    return "x".join(str(bucket(int(d))) for d in dims)


@functools.lru_cache(maxsize=None)
def tables():
    """All tables of linalg/tuning/*.json merged: {gpu_or_default: {op: {dtype: {cls: params}}}}."""
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


@functools.lru_cache(maxsize=None)
def gpu_name(device_id=None):
    """Name of the current (or given) CUDA device."""
    import cupy
    dev = cupy.cuda.runtime.getDevice() if device_id is None else device_id
    name = cupy.cuda.runtime.getDeviceProperties(dev)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def _find(table, op, dtype, cls):
    classes = table.get(op, {}).get(dtype, {})
    if cls in classes:
        return classes[cls]
    return classes.get("*")


def lookup(op, dtype, cls, gpu=None):
    """Parameters (a dict) for ``op`` ("gemv_n", "gemv_t", "gemm", "trsv", "gebrd") on ``dtype``
    ("float32"/"float64") and shape class ``cls`` on ``gpu`` (default: the current device)."""
    gpu = gpu_name() if gpu is None else gpu
    all_tables = tables()
    for key in (gpu, DEFAULT_KEY):
        table = all_tables.get(key)
        if table is not None:
            found = _find(table, op, str(dtype), cls)
            if found is not None:
                return dict(found)
    raise KeyError(f"no tuned parameters for op={op!r} dtype={dtype!r} class={cls!r} on GPU "
                   f"{gpu!r}, and no default in {TUNING_DIR}")
