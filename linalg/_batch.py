"""The three batch forms and the one routine that runs an operation over any of them.

* strided: one array of shape (batch, rows, cols) (vectors: (batch, n));
* pointer list: a list or tuple of 2-D arrays (1-D for vectors) of equal shapes;
* variable size: a list or tuple of arrays of different shapes, or a packed :class:`VBatch`.

:func:`run_batched` validates the operands' forms, groups matrices of equal shapes and calls the
strided backend once per group (a loop over distinct shapes, never over matrices), then puts the
results back in the caller's form and order. See docs/design.md.
"""
from typing import NamedTuple

import numpy

from . import _dispatch

__all__ = ["VBatch", "Operand", "run_batched"]


class VBatch:
    """A variable-size batch packed in one flat array (MAGMA's vbatched layout, row-major).

    Matrix k is ``data[offsets[k] : offsets[k] + rows[k] * cols[k]].reshape(rows[k], cols[k])``.
    A batch of vectors has ``cols == 1`` everywhere and ``is_vector=True``.

    Attributes:
        data: flat array (NumPy or CuPy) holding all matrices, C order each.
        rows, cols, offsets: int64 NumPy arrays of shape (batch,): host-side sizes, so grouping
            by size needs no device synchronization (GPU kernels get device copies on demand).
        is_vector: True for a batch of vectors.
    """

    def __init__(self, data, rows, cols, offsets=None, is_vector=False):
        rows = numpy.asarray(rows, dtype=numpy.int64).reshape(-1)
        cols = numpy.asarray(cols, dtype=numpy.int64).reshape(-1)
        if rows.shape != cols.shape:
            raise ValueError(f"rows and cols: expected equal lengths, got {rows.size} and {cols.size}")
        if (rows < 0).any() or (cols < 0).any():
            raise ValueError("rows and cols: sizes must be >= 0")
        sizes = rows * cols
        if offsets is None:
            offsets = numpy.cumsum(sizes) - sizes
        offsets = numpy.asarray(offsets, dtype=numpy.int64).reshape(-1)
        if offsets.shape != rows.shape:
            raise ValueError(f"offsets: expected {rows.size} entries, got {offsets.size}")
        if getattr(data, "ndim", None) != 1:
            raise ValueError(f"data: expected a flat 1-D array, got {type(data).__name__} "
                             f"with shape {getattr(data, 'shape', None)}")
        if rows.size and ((offsets < 0).any() or (offsets + sizes).max() > data.shape[0]):
            raise ValueError(f"offsets: matrices run past the end of data (size {data.shape[0]})")
        self.data, self.rows, self.cols, self.offsets = data, rows, cols, offsets
        self.is_vector = bool(is_vector)

    @classmethod
    def from_list(cls, arrays):
        """Pack a list of 2-D arrays (or 1-D vectors), all of one array module and dtype."""
        arrays = list(arrays)
        if not arrays:
            raise ValueError("arrays: expected at least one matrix to pack")
        xp = _dispatch.array_module(arrays[0])
        is_vector = arrays[0].ndim == 1
        shapes = numpy.array([(a.shape[0], 1) if is_vector else a.shape for a in arrays], dtype=numpy.int64)
        data = xp.concatenate([xp.ravel(a) for a in arrays])
        return cls(data, shapes[:, 0], shapes[:, 1], is_vector=is_vector)

    def __len__(self):
        return self.rows.size

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def shapes(self):
        """Per-matrix shapes, int64 array (batch, 2) (or (batch, 1) for vectors)."""
        return self.rows[:, None] if self.is_vector else numpy.stack([self.rows, self.cols], axis=1)

    def __getitem__(self, k):
        start = self.offsets[k]
        block = self.data[start:start + self.rows[k] * self.cols[k]]
        return block if self.is_vector else block.reshape(int(self.rows[k]), int(self.cols[k]))

    def to_list(self):
        """The matrices as a list of views into ``data``."""
        return [self[k] for k in range(len(self))]

    def gather(self, indices, shape):
        """Matrices ``indices`` (all of ``shape``) as one strided (g, *shape) array (a copy)."""
        xp = _dispatch.array_module(self.data)
        size = int(numpy.prod(shape))
        flat = self.offsets[indices][:, None] + numpy.arange(size)
        return self.data[xp.asarray(flat)].reshape((len(indices),) + tuple(shape))

    def __repr__(self):
        kind = "vectors" if self.is_vector else "matrices"
        return f"VBatch({len(self)} {kind}, dtype={self.dtype}, max rows={self.rows.max(initial=0)})"


class Operand(NamedTuple):
    """One batched argument of an operation.

    name: the argument name used in error messages; value: what the caller passed;
    core_ndim: 2 for matrices, 1 for vectors; overwrite: the backend may write into it;
    optional: None is accepted (and the operand dropped), as for ``c`` of ``gemm``;
    broadcast: a strided batch of one matrix serves every matrix of the others (``b`` of
    ``gemm``: one B for a batch of A, as NumPy's matmul broadcasts it; the backends take it
    without a copy per matrix). The first operand is never broadcast.
    (A NamedTuple: every public call builds a few, and a frozen dataclass costs ~3x the time.)
    """
    name: str
    value: object
    core_ndim: int = 2
    overwrite: bool = False
    optional: bool = False
    broadcast: bool = False


def _form(op):
    value = op.value
    if isinstance(value, VBatch):
        return "vbatch"
    if isinstance(value, (list, tuple)):
        return "list"
    if hasattr(value, "ndim") and hasattr(value, "dtype"):
        return "strided"
    raise TypeError(f"{op.name}: expected a NumPy/CuPy array, a list/tuple of arrays or a "
                    f"linalg.VBatch, got {type(value).__name__}")


def _per_matrix_shapes(op, form):
    """(batch count, (k, core_ndim) int64 array of matrix shapes), after the form's own checks.

    k is the batch count, except for a strided batch, whose matrices all have one shape: one row
    (none for an empty batch), so that the checks cost nothing per matrix."""
    v, what = op.value, "(batch, rows, cols)" if op.core_ndim == 2 else "(batch, n)"
    if form == "strided":
        if v.ndim != op.core_ndim + 1:
            hint = "; use a[None] for a single one" if v.ndim == op.core_ndim else ""
            raise ValueError(f"{op.name}: expected a {what} array, got shape {v.shape}{hint}")
        rows = 1 if v.shape[0] else 0
        return v.shape[0], numpy.array([v.shape[1:]] * rows, dtype=numpy.int64).reshape(
            rows, op.core_ndim)
    shapes = _listed_shapes(op, form, v)
    return shapes.shape[0], shapes


def _listed_shapes(op, form, v):
    """(batch, core_ndim) shapes of a VBatch or a list/tuple of arrays."""
    if form == "vbatch":
        if v.is_vector != (op.core_ndim == 1):
            expected = "vectors" if op.core_ndim == 1 else "matrices"
            raise ValueError(f"{op.name}: expected a VBatch of {expected}")
        return v.shapes
    for k, item in enumerate(v):
        if not (hasattr(item, "ndim") and hasattr(item, "dtype")):
            raise TypeError(f"{op.name}[{k}]: expected a NumPy/CuPy array, got {type(item).__name__}")
        if item.ndim != op.core_ndim:
            raise ValueError(f"{op.name}[{k}]: expected a {op.core_ndim}-D array, got shape {item.shape}")
    return numpy.array([item.shape for item in v], dtype=numpy.int64).reshape(len(v), op.core_ndim)


def _array_module_of(ops, form):
    first = ops[0].value
    sample = first.data if form == "vbatch" else (first[0] if form == "list" and len(first) else first)
    xp = _dispatch.array_module(sample) if form != "list" or len(first) else numpy
    for op in ops:
        items = [op.value.data] if form == "vbatch" else (op.value if form == "list" else [op.value])
        for item in items:
            if _dispatch.array_module(item) is not xp:
                raise TypeError(f"{op.name}: mixes NumPy and CuPy arrays; pass all operands on one device")
    return xp


def _dtype_of(op, form):
    if form == "list":
        return numpy.result_type(*[item.dtype for item in op.value]) if len(op.value) else numpy.dtype(numpy.float64)
    return op.value.dtype


def run_batched(ops, check_shapes, compute, dtype_policy, empty_result, backend_op=None):
    """Run ``compute`` over operands given in any batch form.

    Args:
        ops: list of :class:`Operand`, all in the same batch form; optional operands that are
            None are dropped, a required one that is None is a TypeError naming it.
        check_shapes: ``f(shapes)`` with ``shapes[name]`` an int64 (batch, core_ndim) array of the
            per-matrix shapes; raises ValueError naming the argument (and batch item) on mismatch.
        compute: ``f(xp, **arrays) -> (outputs, info)``: ``arrays`` are C-contiguous strided
            batches of the compute dtype (batch >= 1, no zero dimension), ``outputs`` a tuple of
            strided arrays (batch, ...) and ``info`` an int32 (batch,) array or None. Where the
            backend lists operands in OUT_OF_PLACE[op], ``f`` may also get ``keep=names`` (the
            operands it must leave as they are: the caller's own arrays) to hand to the backend.
        dtype_policy: ``f(**dtypes_by_name) -> dtype`` (``_validate.compute_dtype``).
        empty_result: ``f(xp, dtype, batch, shapes) -> outputs`` for a batch that is empty or has
            a zero dimension (no backend call).
        backend_op: ``(family, op)``: the backend module ``linalg._cpu/_cuda.<family>`` lists in
            ``READS_ONLY[op]`` the operands it never writes, which a strided call then passes
            without a copy (see :func:`_make_plan`). None: every operand not marked ``overwrite``
            is copied.

    Returns:
        ``(outputs, info, form)``: outputs in the caller's form (arrays, lists or VBatches), info
        int32 (batch,) in the caller's array module or None.
    """
    fast = _run_planned(ops, check_shapes, compute, dtype_policy, backend_op)
    if fast is not None:
        return fast
    for op in ops:
        if op.value is None and not op.optional:
            raise TypeError(f"{op.name}: expected a NumPy/CuPy array, a list/tuple of arrays or a "
                            "linalg.VBatch, got None")
    ops = [op for op in ops if op.value is not None]
    forms = {op.name: _form(op) for op in ops}
    form = forms[ops[0].name]
    for name, f in forms.items():
        if f != form:
            raise TypeError(f"{name}: batch form '{f}' differs from {ops[0].name}'s '{form}'; "
                            "pass all operands as arrays, as lists, or as VBatch")
    measured = {op.name: _per_matrix_shapes(op, form) for op in ops}
    counts = {name: count for name, (count, _) in measured.items()}
    batch = counts[ops[0].name]
    if any(count != batch and not (op.broadcast and form == "strided" and count == 1)
           for op, count in zip(ops, counts.values())):
        raise ValueError(f"batch counts differ: {counts}" + _broadcast_hint(ops, form))
    first = len(measured[ops[0].name][1])      # a strided batch: 1 row of shapes, or 0 if empty
    shapes = {op.name: measured[op.name][1][:first] if op.broadcast and form == "strided"
              else measured[op.name][1] for op in ops}
    check_shapes(shapes)
    xp = _array_module_of(ops, form)
    dtype = dtype_policy(**{op.name: numpy.empty(0, _dtype_of(op, form)) for op in ops})
    if form == "strided":
        return _run_strided(ops, shapes, compute, empty_result, xp, dtype, batch) + ("strided",)
    groups = _group_by_shape(shapes, batch)
    return _run_grouped(ops, shapes, groups, compute, empty_result, xp, dtype, batch, form) + (form,)


def _broadcast_hint(ops, form):
    """The end of the batch-count error where an operand could have been broadcast."""
    names = [op.name for op in ops if op.broadcast]
    if not names:
        return ""
    return (f" ({' and '.join(names)} may also hold one matrix for all: shape (1, rows, cols))"
            if form == "strided" else
            f" ({' and '.join(names)} may hold one matrix for all only as a (1, rows, cols) array)")


def _strided_module(values):
    """numpy or cupy where ``values`` (non-empty) are all arrays of that one class (the strided
    form on one device), else None. Type checks only: this runs on every public call."""
    cls = type(values[0])
    if cls is not numpy.ndarray and not _dispatch.is_cupy_array(values[0]):
        return None
    if any(type(v) is not cls for v in values):
        return None
    return numpy if cls is numpy.ndarray else _dispatch.array_module(values[0])


# ---------------------------------------------------------------------------------------------
# Call plans: the common case (every operand one non-empty strided array of one array class)
# decided once per kind of call. Everything the public layer decides -- shape checks, compute
# dtype, which operands are passed as they are -- is a function of the operands' classes, shapes,
# strides and dtypes, the options the check and the dtype policy close over, and the backend
# operation; repeating it costs more than the kernel at small n (docs/design.md "Launch overhead").


class _Plan(NamedTuple):
    xp: object               # numpy or cupy
    dtype: numpy.dtype       # the compute dtype
    names: tuple             # the present operands' names, in order
    copied: tuple            # indices of the operands copied (the others are passed as they are)
    guarded: tuple           # (reader, writer) index pairs: copy the reader if the two overlap
    kept: tuple              # names the backend must not write (its OUT_OF_PLACE): keep=kept


_PLANS = {}
_PLANS_MAX = 4096


def _run_planned(ops, check_shapes, compute, dtype_policy, backend_op):
    """The common case in few microseconds, through a cached :class:`_Plan`. Returns None for
    anything else, which the general path then handles (and reports, if it is an error).

    The key holds everything a plan depends on: the check's and the policy's code and option
    values (None when they close over anything else: then the plan is made on every call),
    the backend operation and each present operand's name, class, shape, strides, dtype,
    ``overwrite`` and ``core_ndim``."""
    present = []
    check, policy = _pure_function_key(check_shapes), _pure_function_key(dtype_policy)
    key = [check, policy, backend_op]
    for op in ops:
        value = op.value
        if value is None:
            if op.optional:
                continue
            return None                 # a required operand is None: the general path raises
        strides = getattr(value, "strides", None)
        if strides is None:
            return None                 # a list or a VBatch
        present.append(op)
        key.append((op.name, type(value), value.shape, strides, value.dtype, op.overwrite,
                    op.core_ndim))
    key = tuple(key) if check is not None and policy is not None else None
    plan = _PLANS.get(key) if key is not None else None
    if plan is None:
        plan = _make_plan(present, check_shapes, dtype_policy, backend_op)
        if plan is None:
            return None
        if key is not None:
            if len(_PLANS) >= _PLANS_MAX:
                _PLANS.clear()
            _PLANS[key] = plan
    values = [op.value for op in present]
    for i in plan.copied:
        values[i] = _copy_as(values[i], plan.xp, plan.dtype)
    for reader, writer in plan.guarded:
        if _overlap(values[reader], values[writer], plan.xp):
            values[reader] = _copy_as(values[reader], plan.xp, plan.dtype)
    arrays = dict(zip(plan.names, values))
    if plan.kept:
        outputs, info = compute(plan.xp, keep=plan.kept, **arrays)
    else:
        outputs, info = compute(plan.xp, **arrays)
    return outputs, info, "strided"


_OPTION_TYPES = (str, int, bool, float, type(None))


def _pure_function_key(fn):
    """``fn``'s code when it closes over nothing; (code, closure values) when it closes only
    over option values (str, int, bool, float, None) and functions that do (recursively); else
    None."""
    closure = fn.__closure__
    if closure is None:
        return fn.__code__
    cells = []
    for cell in closure:
        value = cell.cell_contents
        if type(value) not in _OPTION_TYPES:
            value = _pure_function_key(value) if hasattr(value, "__code__") else None
            if value is None:
                return None
        cells.append(value)
    return fn.__code__, tuple(cells)


def _make_plan(present, check_shapes, dtype_policy, backend_op):
    """The :class:`_Plan` of a plain strided call, or None if the call is not one.

    An operand is passed as it is only if it is C-contiguous in the compute dtype and either
    marked ``overwrite`` (the caller allows writing into it), listed in the backend's
    READS_ONLY, or listed in its OUT_OF_PLACE (operands it writes over unless told to keep
    them: the plan's ``kept`` names those it passes without ``overwrite``, and compute gets
    ``keep=kept``, which it hands on to the backend; the backend then writes its result to a
    new array, sparing the copy). A passed operand that is not ``overwrite`` is copied anyway
    when it overlaps an operand written in place (it would be read after being overwritten),
    which :func:`_run_planned` tests per call (addresses are not part of the key)."""
    xp = _strided_module([op.value for op in present])
    if xp is None:
        return None
    batch = present[0].value.shape[0] if present[0].value.ndim else 0
    for op in present:
        v = op.value
        if v.ndim != op.core_ndim + 1 or 0 in v.shape or (
                v.shape[0] != batch and not (op.broadcast and v.shape[0] == 1)):
            return None
    check_shapes({op.name: numpy.array((op.value.shape[1:],), dtype=numpy.int64) for op in present})
    dtype = dtype_policy(**{op.name: op.value for op in present})
    reads_only = out_of_place = ()
    if backend_op is not None:
        family, name = backend_op
        backend = _dispatch.backend(xp, family)
        reads_only = getattr(backend, "READS_ONLY", {}).get(name, ())
        out_of_place = getattr(backend, "OUT_OF_PLACE", {}).get(name, ())
    ready = [op.value.dtype == dtype and op.value.flags.c_contiguous for op in present]
    passed = [r and (op.overwrite or op.name in reads_only or op.name in out_of_place)
              for op, r in zip(present, ready)]
    kept = tuple(op.name for op, p in zip(present, passed)
                 if p and not op.overwrite and op.name in out_of_place)
    writers = [i for i, op in enumerate(present) if passed[i] and op.overwrite]
    guarded = tuple((i, w) for i, op in enumerate(present) if passed[i] and not op.overwrite
                    for w in writers)
    return _Plan(xp, dtype, tuple(op.name for op in present),
                 tuple(i for i, p in enumerate(passed) if not p), guarded, kept)


def _overlap(x, y, xp):
    """Whether two C-contiguous arrays share memory: an address-range test for CuPy arrays
    (``cupy.may_share_memory`` costs tens of microseconds, more than a small batched call)."""
    if xp is numpy:
        return numpy.may_share_memory(x, y)
    x0, y0 = x.data.ptr, y.data.ptr
    return x0 < y0 + y.nbytes and y0 < x0 + x.nbytes


def _copy_as(value, xp, dtype):
    """A C-contiguous copy of the array ``value`` in ``dtype``: one copy kernel (CuPy's
    array(..., copy=True) costs ~3x the host time), or for a C-contiguous CuPy array of that
    dtype one device-to-device memcpy (H100 host: ~9 against ~12 us for ``copy()``)."""
    if value.dtype != dtype:
        return value.astype(dtype, order="C")
    if xp is numpy or not value.flags.c_contiguous:
        return value.copy(order="C")
    out = xp.empty(value.shape, dtype=dtype)
    out.data.copy_from_device_async(value.data, value.nbytes)
    return out


def _is_empty(shapes, batch):
    return batch == 0 or any(s.size and (s == 0).any() for s in shapes.values())


def _run_strided(ops, shapes, compute, empty_result, xp, dtype, batch):
    if _is_empty(shapes, batch):
        core = {op.name: numpy.array(op.value.shape[1:], dtype=numpy.int64) for op in ops}
        return empty_result(xp, dtype, batch, core), xp.zeros(batch, dtype=numpy.int32)
    arrays = {op.name: _strided_operand(op, xp, dtype) for op in ops}
    return compute(xp, **arrays)


def _strided_operand(op, xp, dtype):
    """C-contiguous array of the compute dtype; the caller's own array only when it may be overwritten."""
    value = op.value
    if op.overwrite:
        if isinstance(value, xp.ndarray) and value.dtype == dtype and value.flags.c_contiguous:
            return value           # (asarray + ascontiguousarray would cost microseconds)
        return xp.ascontiguousarray(xp.asarray(value, dtype=dtype))
    if not isinstance(value, xp.ndarray):
        return xp.array(value, dtype=dtype, order="C", copy=True)
    return _copy_as(value, xp, dtype)


def _group_by_shape(shapes, batch):
    """Indices of matrices with identical shapes of every operand: {shape key: int array}."""
    if batch == 0:
        return {}
    keys = numpy.concatenate([s for s in shapes.values()], axis=1)
    unique, inverse = numpy.unique(keys, axis=0, return_inverse=True)
    order = numpy.argsort(inverse.reshape(-1), kind="stable")
    bounds = numpy.searchsorted(inverse.reshape(-1)[order], numpy.arange(len(unique) + 1))
    return {tuple(unique[g]): order[bounds[g]:bounds[g + 1]] for g in range(len(unique))}


def _gather(op, form, indices, shape, xp, dtype):
    if form == "vbatch":
        return xp.ascontiguousarray(op.value.gather(indices, shape).astype(dtype, copy=False))
    return xp.stack([xp.asarray(op.value[k], dtype=dtype) for k in indices.tolist()])


def _run_grouped(ops, shapes, groups, compute, empty_result, xp, dtype, batch, form):
    """Run each group of equal shapes as one strided batch, then scatter back in input order."""
    results = []              # (indices, outputs) per group
    device_info = []          # (indices, info) per group that reports info
    for indices in groups.values():
        group_shapes = {name: s[indices[0]] for name, s in shapes.items()}
        if _is_empty({n: s[None] for n, s in group_shapes.items()}, len(indices)):
            outputs, ginfo = empty_result(xp, dtype, len(indices), group_shapes), None
        else:
            arrays = {op.name: _gather(op, form, indices, tuple(group_shapes[op.name]), xp, dtype) for op in ops}
            outputs, ginfo = compute(xp, **arrays)
        results.append((indices, outputs))
        if ginfo is not None:
            device_info.append((indices, ginfo))
    info = _scatter_info(device_info, batch, xp)
    if not results:   # an empty list or VBatch: same number of (empty) outputs as a real call
        outputs = empty_result(xp, dtype, 0, {name: numpy.zeros(s.shape[1], numpy.int64)
                                              for name, s in shapes.items()})
        if form == "vbatch":
            return tuple(VBatch(xp.zeros(0, dtype=o.dtype), [], [], is_vector=o.ndim == 2)
                         for o in outputs), info
        return tuple([] for _ in outputs), info
    n_out = len(results[0][1])
    if form == "vbatch":
        return tuple(_pack_output(results, i, batch, xp) for i in range(n_out)), info
    per_item = [[None] * batch for _ in range(n_out)]
    for indices, outputs in results:
        for slot, out in zip(per_item, outputs):
            for j, k in enumerate(indices.tolist()):   # building a list needs one object per matrix
                slot[k] = out[j]
    return tuple(per_item), info


def _scatter_info(device_info, batch, xp):
    if not device_info:
        return None if batch else xp.zeros(0, dtype=numpy.int32)
    info = xp.zeros(batch, dtype=numpy.int32)
    for indices, ginfo in device_info:
        info[xp.asarray(indices)] = ginfo
    return info


def _pack_output(results, i, batch, xp):
    """Output i of every group packed into one VBatch, with one scatter per group."""
    is_vector = results[0][1][i].ndim == 2
    rows = numpy.zeros(batch, dtype=numpy.int64)
    cols = numpy.ones(batch, dtype=numpy.int64)
    for indices, outputs in results:
        rows[indices] = outputs[i].shape[1]
        if not is_vector:
            cols[indices] = outputs[i].shape[2]
    packed = VBatch(xp.empty(int((rows * cols).sum()), dtype=results[0][1][i].dtype), rows, cols,
                    is_vector=is_vector)
    for indices, outputs in results:
        size = int(rows[indices[0]] * cols[indices[0]])
        flat = packed.offsets[indices][:, None] + numpy.arange(size)
        packed.data[xp.asarray(flat)] = outputs[i].reshape(len(indices), size)
    return packed
