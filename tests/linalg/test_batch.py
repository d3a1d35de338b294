"""The three batch forms (strided, pointer list, variable size / VBatch), generic over operations.

Each operation is described once (how to build its operands for an order n); every test runs it
in every form and checks that the forms agree with the strided computation matrix by matrix.
"""
import numpy
import pytest

import linalg
from linalg import VBatch
from . import helpers as h


def _spd(gen, n, dtype):
    return h.random_spd(gen, 1, n, dtype)[0]


def _tri(gen, n, dtype, lower=True):
    return h.random_triangular(gen, 1, n, dtype, lower=lower)[0]


def _chol(gen, n, dtype):
    return numpy.linalg.cholesky(_spd(gen, n, dtype)) if n else numpy.zeros((0, 0), dtype)


# name -> (call(*operands), make(gen, n, dtype) -> operands of one batch item, has_info)
OPS = {
    "potrf": (lambda a: linalg.potrf(a, return_info=True), lambda g, n, d: (_spd(g, n, d),), True),
    "potrs": (lambda l, b: linalg.potrs(l, b, return_info=True),
              lambda g, n, d: (_chol(g, n, d), h.random_matrix(g, (n, 2), d)), True),
    "potrs_vec": (lambda l, b: linalg.potrs(l, b, return_info=True),
                  lambda g, n, d: (_chol(g, n, d), h.random_matrix(g, (n,), d)), True),
    "posv": (lambda a, b: linalg.posv(a, b, lower=False, return_info=True),
             lambda g, n, d: (_spd(g, n, d), h.random_matrix(g, (n, 3), d)), True),
    "posv_vec": (lambda a, b: linalg.posv(a, b, return_info=True),
                 lambda g, n, d: (_spd(g, n, d), h.random_matrix(g, (n,), d)), True),
    "potri": (lambda l: linalg.potri(l, return_info=True), lambda g, n, d: (_chol(g, n, d),), True),
    "poti": (lambda a: linalg.poti(a, lower=False, return_info=True),
             lambda g, n, d: (_spd(g, n, d),), True),
    "trsm": (lambda a, b: linalg.trsm(a, b, "right", False, "C", False, 2.0, return_info=True),
             lambda g, n, d: (_tri(g, n, d, False), h.random_matrix(g, (3, n), d)), True),
    "trmm": (lambda a, b: linalg.trmm(a, b, "left", True, "T", True, -1.5),
             lambda g, n, d: (_tri(g, n, d), h.random_matrix(g, (n, 2), d)), False),
    "trtri": (lambda a: linalg.trtri(a, lower=False, return_info=True),
              lambda g, n, d: (_tri(g, n, d, False),), True),
    "lauum": (lambda a: linalg.lauum(a, lower=False), lambda g, n, d: (_tri(g, n, d, False),), False),
    "trsv": (lambda a, x: linalg.trsv(a, x, True, "N", False, return_info=True),
             lambda g, n, d: (_tri(g, n, d), h.random_matrix(g, (n,), d)), True),
}
NAMES = sorted(OPS)


def _items(name, sizes, dtype, seed=0):
    """Operands per batch item, as a list of tuples (one tuple per matrix)."""
    gen = h.rng(seed)
    return [OPS[name][1](gen, n, dtype) for n in sizes]


def _run(name, *operands):
    """(result, info or None) whatever the op returns."""
    out = OPS[name][0](*operands)
    return out if OPS[name][2] else (out, None)


def _single(name, item):
    """Reference: the strided call on one matrix (batch of one)."""
    result, info = _run(name, *[x[None] for x in item])
    return result[0], (None if info is None else int(info[0]))


def _close(x, y, dtype):
    tol = 1e-5 if dtype in (numpy.float32, numpy.complex64) else 1e-12
    numpy.testing.assert_allclose(x, y, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.complex64])
@pytest.mark.parametrize("name", NAMES)
class TestForms:
    def test_pointer_list_equals_strided(self, name, dtype):
        items = _items(name, [5] * 4, dtype)
        strided = [numpy.stack(ops) for ops in zip(*items)]
        ref, ref_info = _run(name, *strided)
        for container in (list, tuple):
            out, info = _run(name, *[container(ops) for ops in zip(*items)])
            assert isinstance(out, list) and len(out) == 4
            for k in range(4):
                _close(out[k], ref[k], dtype)
            if ref_info is not None:
                numpy.testing.assert_array_equal(info, ref_info)

    def test_variable_size_list_and_vbatch(self, name, dtype):
        sizes = [3, 1, 7, 3, 0, 17, 1]
        items = _items(name, sizes, dtype, seed=1)
        refs = [_single(name, item) for item in items]
        out, info = _run(name, *[list(ops) for ops in zip(*items)])
        packed_out, packed_info = _run(name, *[VBatch.from_list(ops) for ops in zip(*items)])
        assert isinstance(packed_out, VBatch) and len(packed_out) == len(sizes)
        for k, (ref, ref_info) in enumerate(refs):
            assert out[k].shape == ref.shape and out[k].dtype == dtype
            _close(out[k], ref, dtype)
            _close(packed_out[k], ref, dtype)
            if ref_info is not None:
                assert info[k] == ref_info == packed_info[k]

    def test_strided_inputs_not_modified(self, name, dtype):
        items = _items(name, [6] * 3, dtype, seed=2)
        strided = [numpy.stack(ops) for ops in zip(*items)]
        before = [x.copy() for x in strided]
        _run(name, *strided)
        for x, x0 in zip(strided, before):
            numpy.testing.assert_array_equal(x, x0)

    def test_empty_list_and_vbatch(self, name, dtype):
        n_ops = len(_items(name, [2], dtype)[0])
        out, info = _run(name, *([[]] * n_ops))
        assert out == []
        if info is not None:
            assert info.shape == (0,)


class TestFailuresInForms:
    def test_failure_index_in_input_order(self):
        items = _items("potrf", [4, 2, 4, 3, 2], numpy.float64)
        mats = [ops[0] for ops in items]
        mats[2] = -numpy.eye(4)
        mats[4] = numpy.diag([1.0, -1.0])
        refs = [_single("potrf", (m,)) for m in mats]
        for form in (list, VBatch.from_list):
            out, info = linalg.potrf(form(mats), return_info=True)
            assert info.tolist() == [0, 0, 1, 0, 2]
            for k in (0, 1, 3):
                _close(out[k], refs[k][0], numpy.float64)
            with pytest.raises(linalg.LinAlgError, match=r"potrf: .*\[2, 4\].*info=\[1, 2\]"):
                linalg.potrf(form(mats))

    def test_trsv_singular_in_vbatch(self):
        items = _items("trsv", [3, 5, 3], numpy.float32)
        a = [ops[0] for ops in items]
        a[1][4, 4] = 0
        x = VBatch.from_list([ops[1] for ops in items])
        _, info = linalg.trsv(VBatch.from_list(a), x, return_info=True)
        assert info.tolist() == [0, 5, 0]


class TestFormErrors:
    def test_mixed_forms(self):
        with pytest.raises(TypeError, match="batch form"):
            linalg.potrs(numpy.eye(2)[None], [numpy.ones(2)])
        with pytest.raises(TypeError, match="batch form"):
            linalg.trsm([numpy.eye(2)], VBatch.from_list([numpy.ones((2, 1))]))

    def test_vectors_where_matrices_expected(self):
        with pytest.raises(ValueError, match="b: expected a VBatch of matrices"):
            linalg.trmm(VBatch.from_list([numpy.eye(2)]), VBatch.from_list([numpy.ones(2)]))
        with pytest.raises(ValueError, match=r"a\[1\]: expected a 2-D array"):
            linalg.potrf([numpy.eye(2), numpy.ones(2)])

    def test_per_item_shape_errors_name_the_item(self):
        with pytest.raises(ValueError, match=r"a: expected square matrices, got shape .*\(batch item 1\)$"):
            linalg.trtri([numpy.eye(3), numpy.ones((2, 3))])
        pattern = r"b: expected 3 rows to match l of shape \(3, 3\), got shape \(2,\) \(batch item 0\)"
        with pytest.raises(ValueError, match=pattern):
            linalg.potrs([numpy.eye(3), numpy.eye(2)], [numpy.ones(2), numpy.ones(2)])
        with pytest.raises(ValueError, match="batch counts differ"):
            linalg.trsv([numpy.eye(2)], [numpy.ones(2), numpy.ones(2)])

    def test_list_inputs_not_modified(self):
        items = _items("posv", [3, 4], numpy.float64)
        a, b = [ops[0] for ops in items], [ops[1] for ops in items]
        a0, b0 = [x.copy() for x in a], [x.copy() for x in b]
        linalg.posv(a, b, overwrite_a=True, overwrite_b=True)
        for x, y in zip(a + b, a0 + b0):
            numpy.testing.assert_array_equal(x, y)

    def test_required_operand_none_names_the_argument(self):
        with pytest.raises(TypeError, match="b: expected .* got None"):
            linalg.trsm(numpy.eye(2)[None], None)
        with pytest.raises(TypeError, match="a: expected .* got None"):
            linalg.potrf(None)

    def test_square_error_prints_plain_ints(self):
        with pytest.raises(ValueError, match=r"got shape \(2, 3\) \(batch item 1\)"):
            linalg.trtri([numpy.eye(3), numpy.ones((2, 3))])


def test_overwrite_with_dtype_conversion_returns_converted_result():
    """An int32 input with overwrite_a=True cannot be factored in place: a converted copy is used."""
    a = (4 * numpy.eye(3, dtype=numpy.int32))[None]
    l = linalg.potrf(a, overwrite_a=True)
    assert l.dtype == numpy.float64
    numpy.testing.assert_allclose(l[0], 2 * numpy.eye(3))
    assert a[0, 0, 0] == 4


# ---- call plans: the strided short path decides once per kind of call ----

_CHECKED = []


def _recording_check(shapes):
    _CHECKED.append(tuple(int(v) for v in shapes["a"][0]))


def _passthrough(xp, a, b=None):
    return (a,), None


def _no_empty(xp, dtype, batch, shapes):
    raise AssertionError("not called for a non-empty batch")


def _run_plain(a, check=_recording_check, compute=_passthrough, b=None, overwrite_b=False, backend_op=None):
    from linalg._batch import Operand, run_batched
    from linalg._validate import compute_dtype
    ops = [Operand("a", a), Operand("b", b, overwrite=overwrite_b, optional=True)]
    return run_batched(ops, check, compute, compute_dtype, _no_empty, backend_op)


def test_plan_checks_shapes_once_per_kind_of_call():
    _CHECKED.clear()
    for _ in range(3):
        _run_plain(numpy.zeros((2, 3, 5)))
    _run_plain(numpy.zeros((7, 3, 5)))                        # another batch count: another plan
    _run_plain(numpy.zeros((2, 3, 5), dtype=numpy.float32))  # another dtype: another plan
    assert _CHECKED == [(3, 5)] * 3


def test_plan_reruns_a_check_that_closes_over_an_array():
    limit = numpy.array([4])
    calls = []

    def check(shapes):                     # not a pure function of the call's key
        calls.append(1)
        if shapes["a"][0, 0] > limit[0]:
            raise ValueError("a: too large")
    _run_plain(numpy.zeros((2, 3, 3)), check)
    limit[0] = 2
    with pytest.raises(ValueError, match="too large"):
        _run_plain(numpy.zeros((2, 3, 3)), check)
    assert len(calls) == 2


def test_plan_is_kept_per_option_value_the_check_closes_over():
    def check_for(side):
        def check(shapes):                 # closes over an option word: part of the plan's key
            if side == "right" and shapes["a"][0, 0] != shapes["a"][0, 1]:
                raise ValueError("a: square matrices needed on the right")
        return check
    _run_plain(numpy.zeros((2, 3, 5)), check_for("left"))
    with pytest.raises(ValueError, match="square matrices needed"):
        _run_plain(numpy.zeros((2, 3, 5)), check_for("right"))


def test_plan_passes_read_only_operands_without_copy_and_copies_the_rest():
    a, b = numpy.ones((2, 3, 3)), numpy.ones((2, 3, 3))
    seen = {}

    def compute(xp, a, b):
        seen.update(a=a, b=b)
        return (a,), None
    _run_plain(a, lambda shapes: None, compute, b, backend_op=("triangular", "trsm"))   # READS_ONLY a
    assert seen["a"] is a and seen["b"] is not b
    _run_plain(a, lambda shapes: None, compute, b, overwrite_b=True, backend_op=("triangular", "trsm"))
    assert seen["a"] is a and seen["b"] is b
    _run_plain(a, lambda shapes: None, compute, b, overwrite_b=True)                      # no backend_op
    assert seen["a"] is not a and seen["b"] is b


def test_plan_passes_out_of_place_operands_as_they_are_and_asks_the_backend_to_keep_them(monkeypatch):
    from linalg import _batch
    from linalg._cpu import triangular as backend
    monkeypatch.setattr(_batch, "_PLANS", {})
    monkeypatch.setattr(backend, "OUT_OF_PLACE", {"trsm": ("b",)}, raising=False)
    a, b = numpy.ones((2, 3, 3)), numpy.ones((2, 3, 3))
    seen = {}

    def compute(xp, a, b, **keep):
        seen.update(a=a, b=b, keep=keep)
        return (a,), None
    for _ in range(2):                     # the plan made, then the plan reused
        _run_plain(a, lambda shapes: None, compute, b, backend_op=("triangular", "trsm"))
        assert seen["b"] is b and seen["keep"] == {"keep": ("b",)}
    _run_plain(a, lambda shapes: None, compute, b, overwrite_b=True, backend_op=("triangular", "trsm"))
    assert seen["b"] is b and seen["keep"] == {}          # the caller allows writing b
    b32 = numpy.ones((2, 3, 3), dtype=numpy.float32)       # needs a conversion: a private copy
    _run_plain(a, lambda shapes: None, compute, b32, backend_op=("triangular", "trsm"))
    assert seen["b"] is not b32 and seen["keep"] == {}


def test_plan_copies_a_kept_operand_that_overlaps_the_written_one(monkeypatch):
    from linalg import _batch
    from linalg._cpu import triangular as backend
    monkeypatch.setattr(_batch, "_PLANS", {})
    monkeypatch.setattr(backend, "OUT_OF_PLACE", {"trsm": ("a",)}, raising=False)
    a = numpy.arange(18.0).reshape(2, 3, 3)
    seen = {}

    def compute(xp, a, b, **keep):
        seen.update(a=a, b=b, keep=keep)
        return (a,), None
    _run_plain(a, lambda shapes: None, compute, a, overwrite_b=True, backend_op=("triangular", "trsm"))
    assert seen["b"] is a and seen["a"] is not a
    numpy.testing.assert_array_equal(seen["a"], a)


def test_plan_copies_a_read_only_operand_that_overlaps_the_written_one():
    a = numpy.arange(18.0).reshape(2, 3, 3)
    expected = a.copy()

    def compute(xp, a, b):
        b[...] = 0                         # the backend writes b before it reads a
        return (a.copy(),), None
    (out,), _, _ = _run_plain(a, lambda shapes: None, compute, a, overwrite_b=True,
                        backend_op=("triangular", "trsm"))
    numpy.testing.assert_array_equal(out, expected)


def test_trsm_with_b_aliasing_a_solves_against_the_original_a():
    gen = h.rng(3)
    a = h.random_triangular(gen, 4, 5, numpy.float64)
    x = linalg.trsm(a, a, overwrite_b=True)          # A X = A
    numpy.testing.assert_allclose(x, numpy.broadcast_to(numpy.eye(5), (4, 5, 5)), atol=1e-12)
