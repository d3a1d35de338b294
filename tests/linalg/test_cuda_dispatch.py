"""Kernel-vs-vendor dispatch of the GPU launchers, on the CPU without CuPy: the tuning-table
crossovers (linalg/_tuning.py, linalg/tuning/*.json) and the launchers' choice, with NumPy standing
in for CuPy and the kernel launch recorded instead of run."""
import contextlib
import functools
import itertools
import json
import sys
import types

import numpy
import pytest

from linalg import _tuning
from linalg._cuda import _compile, blas, triangular as tri_mod, trsv as trsv_mod, vendor

H100 = "NVIDIA H100 80GB HBM3"
UNKNOWN = "Some Future GPU"


@pytest.mark.parametrize("op,dtype,dims,vendor", [
    ("gemv_n", "float64", (32, 32), False), ("gemv_n", "float64", (256, 256), True),
    ("gemv_n", "float64", (192, 27), True), ("gemv_n", "float64", (375, 64), False),
    ("gemv_n", "float64", (81, 8), False), ("gemv_n", "float64", (16, 16), False),
    ("gemv_n", "float32", (64, 64), False), ("gemv_n", "float32", (128, 128), False),
    ("gemv_n", "float32", (375, 64), False), ("gemv_n", "float32", (512, 512), True),
    ("gemv_t", "float64", (256, 256), False), ("gemv_t", "float32", (375, 64), False),
    ("gemm", "float64", (16, 16, 16), False), ("gemm", "float64", (81, 8, 64), True),
    ("gemm", "float64", (32, 9, 36), False), ("gemm", "float64", (375, 64, 512), True),
    ("gemm", "float32", (16, 16, 16), False), ("gemm", "float32", (81, 8, 64), False),
    ("gemm", "float32", (64, 64, 64), True), ("gemm", "float32", (192, 27, 216), True),
    ("trsv", "float64", (32,), False), ("trsv", "float64", (64,), False),
    ("trsv", "float32", (256,), False), ("trsv", "float32", (1000,), False),
])
def test_h100_crossovers(op, dtype, dims, vendor):
    choice, reason = _tuning.use_vendor(op, dtype, _tuning.shape_class(*dims), gpu=H100)
    assert choice is vendor and reason


@pytest.mark.parametrize("op,dtype,dims,vendor", [
    ("gemv_n", "float32", (64, 64), True), ("gemv_n", "float32", (375, 64), False),
    ("gemv_n", "float64", (81, 8), False), ("gemv_t", "float64", (512, 512), False),
    ("gemm", "float32", (81, 8, 64), True), ("gemm", "float64", (8, 8, 8), False),
    ("trsv", "float32", (32,), False), ("trsv", "float64", (16,), False),
])
def test_unknown_gpu_uses_conservative_defaults(op, dtype, dims, vendor):
    assert _tuning.use_vendor(op, dtype, _tuning.shape_class(*dims), gpu=UNKNOWN)[0] is vendor


def test_a_gpu_of_a_tuned_family_takes_its_tables_where_it_has_none(monkeypatch):
    """An H200 (own entries for "own" only) takes the H100's entries for "op" before the
    defaults; its own entries still come first; a GPU of no tuned family gets the defaults."""
    fake = {H100: {"op": {"float64": {"*": {"p": 1, "use_vendor": True, "reason": "h100"}}},
                   "own": {"float64": {"*": {"p": 1}}}},
            "NVIDIA H200": {"own": {"float64": {"*": {"p": 2, "use_vendor": False,
                                                      "reason": "h200"}}}},
            "default": {"op": {"float64": {"*": {"p": 0, "use_vendor": False, "reason": "d"}}}}}
    monkeypatch.setattr(_tuning, "tables", lambda: fake)
    assert _tuning.family_gpu("NVIDIA H200") == H100
    assert _tuning.family_gpu("NVIDIA H100 NVL") == H100
    assert _tuning.family_gpu("NVIDIA GH200 480GB") == H100
    assert _tuning.family_gpu("NVIDIA A100-SXM4-80GB") is None
    assert _tuning.use_vendor("op", "float64", "32x32", gpu="NVIDIA H200") == (True, "h100")
    assert _tuning.lookup("op", "float64", "32x32", gpu="NVIDIA H200") == {"p": 1}
    assert _tuning.lookup("own", "float64", "32x32", gpu="NVIDIA H200") == {"p": 2}
    assert _tuning.use_vendor("op", "float64", "32x32", gpu=UNKNOWN) == (False, "d")
    assert _tuning.lookup("op", "float64", "32x32", gpu=UNKNOWN) == {"p": 0}


def test_gemv_small_batch_bounds_of_the_tables(monkeypatch):
    """Every "below_batch" comes with its "below" parameters (and their reason); on the H200
    the float32 20x20 GEMV-T (class 32x32) runs the team kernel under 20480 matrices and
    gemv_stream from there (reports/gpu_20261129b call 9)."""
    for gpu, table in _tuning.tables().items():
        for op, per_dtype in table.items():
            for dtype, classes in per_dtype.items():
                for cls, entry in classes.items():
                    if "below_batch" in entry or "below" in entry:
                        assert op in ("gemv_n", "gemv_t"), (gpu, op, cls)
                        assert int(entry["below_batch"]) > 0 and entry["below"]["reason"]
    monkeypatch.setattr(_tuning, "gpu_name", lambda *a: "NVIDIA H200")
    small = blas.gemv_small_batch_params("gemv_t", numpy.float32, 20, 20, 10240)
    assert small["team"] == 0 and "kernel" not in small
    assert blas.gemv_small_batch_params("gemv_t", numpy.float32, 20, 20, 20480) is None
    assert blas.gemv_small_batch_params("gemv_t", numpy.float32, 20, 20, 10240,
                                        override={"kernel": "stream"}) is None


def test_every_decision_has_a_reason_and_params_resolve():
    for gpu, table in _tuning.tables().items():
        for op, per_dtype in table.items():
            for dtype, classes in per_dtype.items():
                for cls, entry in classes.items():
                    if {"use_vendor", "vendor_from", "vendor_below"} & set(entry):
                        assert entry.get("reason"), (gpu, op, dtype, cls)
                    if cls != "*":      # decision-only entries fall through to parameters
                        assert _tuning.lookup(op, dtype, cls, gpu=gpu)


def test_rule_and_precedence(monkeypatch):
    fake = {"G": {"op": {"float64": {"*": {"p": 1, "vendor_from": {"min_dim": 32}, "reason": "r"},
                                     "64x64": {"use_vendor": False, "reason": "k"},
                                     "128x128": {"q": 2}}}},
            "default": {"op": {"float64": {"*": {"p": 0, "use_vendor": False, "reason": "d"}}}}}
    monkeypatch.setattr(_tuning, "tables", lambda: fake)
    assert _tuning.use_vendor("op", "float64", "32x32", gpu="G") == (True, "r")
    assert _tuning.use_vendor("op", "float64", "16x64", gpu="G") == (False, "r")
    assert _tuning.use_vendor("op", "float64", "64x64", gpu="G") == (False, "k")
    assert _tuning.use_vendor("op", "float64", "128x128", gpu="G")[0] is True
    assert _tuning.use_vendor("op", "float64", "128x128", gpu="H") == (False, "d")
    assert _tuning.lookup("op", "float64", "64x64", gpu="G") == {"p": 1}
    assert _tuning.lookup("op", "float64", "128x128", gpu="G") == {"q": 2}


def test_min_dim_rule_does_not_fire_on_a_big_dimension_alone(monkeypatch):
    """A tall product folded into one matrix (hydro's corner force, 737280 x 4 x 16) has a
    "big" (infinite) dimension; a rule with only "min_dim" must not fire through the volume."""
    fake = {"G": {"op": {"float64": {"*": {"vendor_from": {"min_dim": 16}, "reason": "r"}}}}}
    monkeypatch.setattr(_tuning, "tables", lambda: fake)
    assert _tuning.use_vendor("op", "float64", "bigx4x16", gpu="G") == (False, "r")
    assert _tuning.use_vendor("op", "float64", "bigx16x64", gpu="G") == (True, "r")
    fake["G"]["op"]["float64"]["*"]["vendor_from"] = {"volume": 65536}
    assert _tuning.use_vendor("op", "float64", "bigx4x16", gpu="G")[0] is True


def test_vendor_below_per_size_class_then_default(monkeypatch):
    fake = {"G": {"potrf": {"float64": {"*": {"vendor_below": {"64": 128, "512": 500, "*": 9},
                                              "reason": "g"}}},
                  "trsv": {"float64": {"*": {"kernel": "warp"}}}},
            "default": {"potrf": {"float32": {"*": {"vendor_below": 7, "reason": "d"}}},
                        "trsv": {"float64": {"*": {"vendor_below": 9, "reason": "d"}}}}}
    monkeypatch.setattr(_tuning, "tables", lambda: fake)
    assert _tuning.vendor_below("potrf", "float64", 40, gpu="G") == 128     # class "64"
    assert _tuning.vendor_below("potrf", "float64", 300, gpu="G") == 500    # class "512"
    assert _tuning.vendor_below("potrf", "float64", 100, gpu="G") == 9      # its "*"
    assert _tuning.vendor_below("potrf", "float32", 100, gpu="G") == 7      # one bound for all n
    assert _tuning.vendor_below("trsv", "float64", 64, gpu="G") == 9        # GPU entry lacks it
    assert _tuning.vendor_below("trsm", "float64", 64, gpu="G") == 0        # no rule: never


def test_install_merges_over_the_gpus_earlier_rows(monkeypatch, tmp_path):
    monkeypatch.setattr(_tuning, "TUNING_DIR", tmp_path)
    gpu = "NVIDIA Test GPU 1"
    first = {"gebrd": {"float64": {"32x32": {"kernel": "cols", "team": 64, "reason": "old"},
                                   "64x64": {"kernel": "cols"}}}}
    path = _tuning.install(gpu, first)
    assert path == tmp_path / "nvidia_test_gpu_1.json"
    again = {"gebrd": {"float64": {"32x32": {"kernel": "reg", "reason": "new"}}},
             "gemm": {"float32": {"8x8x8": {"tile": 4}}}}
    _tuning.install(gpu, again, keep=("team",))
    with open(path) as f:
        got = json.load(f)[gpu]
    assert got["gebrd"]["float64"]["32x32"] == {"kernel": "reg", "reason": "new", "team": 64}
    assert got["gebrd"]["float64"]["64x64"] == {"kernel": "cols"}       # untouched class kept
    assert got["gemm"]["float32"]["8x8x8"] == {"tile": 4}
    _tuning.install(gpu, {"gebrd": {"float64": {"32x32": {"kernel": "cols"}}}})
    with open(path) as f:
        assert json.load(f)[gpu]["gebrd"]["float64"]["32x32"] == {"kernel": "cols"}   # no keep


@pytest.mark.parametrize("batch,n,small", [(1, 32, False), (1, 33, True), (9, 33, True),
                                           (10, 33, False), (1, 512, False), (1, 100, True)])
def test_small_batch_rule_above_the_leaf_only(monkeypatch, batch, n, small):
    monkeypatch.setattr(tri_mod, "vendor_below",
                        lambda op, dtype, n: {64: 330, 128: 101, 512: 512}[_tuning.bucket(n)])
    assert tri_mod.small_batch("potrf", numpy.empty((batch, n, n))) is small


@pytest.mark.parametrize("op,dtype,batch,n,one", [
    ("potrf", "float64", 1, 33, True), ("potri", "float64", 99, 64, True),
    ("trtri", "float64", 100, 48, False), ("trtri", "float64", 10 ** 6, 56, True),
    ("trtri", "float64", 10 ** 6, 64, True), ("trtri", "float64", 10 ** 6, 55, False),
    ("trtri", "float32", 100, 64, True),
    ("trtri", "float32", 200, 64, False), ("poti", "float64", 1, 65, True),
    ("poti", "float64", 50, 128, False), ("lauum", "float64", 49, 128, True),
    ("potrf", "float64", 1, 129, False), ("potrf", "float64", 1, 32, False),
    ("lauum", "float64", 1, 40, False)])
def test_one_launch_rules_between_the_leaf_and_128(monkeypatch, op, dtype, batch, n, one):
    """chol_small<T, 64> below ONE_LAUNCH_BELOW for 33..64 (and float64 TRTRI from n = 56 at
    any batch), chol_block below BLOCK_LAUNCH_BELOW for 65..128, per op and dtype."""
    monkeypatch.setattr(tri_mod, "ONE_LAUNCH_FROM", {("trtri", "float64"): 56})
    bounds = {(o, "float64"): 100 for o in ("potrf", "trtri", "potri", "poti")}
    bounds[("trtri", "float32")] = 200
    monkeypatch.setattr(tri_mod, "ONE_LAUNCH_BELOW", bounds)
    monkeypatch.setattr(tri_mod, "BLOCK_LAUNCH_BELOW", {("poti", "float64"): 50,
                                                        ("lauum", "float64"): 50,
                                                        ("potrf", "float64"): 50})
    a = numpy.broadcast_to(numpy.empty((), dtype), (batch, n, n))    # the shape, no memory
    assert tri_mod.one_launch(op, a) is one


def test_one_launch_bounds_cover_each_op_and_dtype():
    for op in ("potrf", "trtri", "potri", "poti"):
        for dtype in ("float32", "float64"):
            assert tri_mod.one_launch_below(op, dtype) > 0
    assert tri_mod.one_launch_below("lauum", "float64") == 0


def test_chol_small_launch_takes_a_chains_override_else_the_size_class_defaults(monkeypatch):
    """chol_small_launch: CHOL_CHAIN_LAUNCH for its (dtype, NMAX, chain), else PER_BLOCK and
    CHOL_REGISTER_CAP (0 where no cap is set)."""
    monkeypatch.setattr(tri_mod, "PER_BLOCK", {16: 8, 32: 4})
    monkeypatch.setattr(tri_mod, "CHOL_REGISTER_CAP", {("float64", 32): 128})
    potrf, trtri = tri_mod.CHOL_POTRF, tri_mod.CHOL_TRTRI
    monkeypatch.setattr(tri_mod, "CHOL_CHAIN_LAUNCH", {("float64", 32, potrf): (2, 96)})
    assert tri_mod.chol_small_launch(numpy.float64, 32, potrf) == (2, 96)
    assert tri_mod.chol_small_launch(numpy.dtype("float64"), 32, trtri) == (4, 128)
    assert tri_mod.chol_small_launch(numpy.float32, 32, potrf) == (4, 0)
    assert tri_mod.chol_small_launch(numpy.float64, 16, potrf) == (8, 0)


def test_block_launch_bounds_cover_each_op_and_dtype():
    """chol_block serves POTRF, TRTRI, POTRI and POTI in both dtypes on small batches; LAUUM
    float64 measured slower than the default path at n = 128 and stays off."""
    for op in ("potrf", "trtri", "potri", "poti"):
        for dtype in ("float32", "float64"):
            assert tri_mod.block_launch_below(op, dtype) > 0
            assert tri_mod.one_launch(op, numpy.empty((1, 100, 100), dtype))
            assert not tri_mod.one_launch(op, numpy.empty((10240, 100, 100), dtype))
    assert tri_mod.block_launch_below("lauum", "float64") == 0


@pytest.mark.parametrize("n", [40, 70, 129])
def test_forced_small_batch_paths_for_the_gpu_tests(monkeypatch, n):
    """tests/linalg/helpers.force_small_batch_paths, which the GPU tests' path fixtures use, and
    one_launch_serves, by which tests/linalg/conftest.py deselects the sizes it does not serve."""
    from .helpers import force_small_batch_paths, one_launch_serves
    big = types.SimpleNamespace(shape=(10**6, n, n), dtype=numpy.dtype("float64"))
    force_small_batch_paths(monkeypatch, tri_mod, vendor=True, one_launch=True)
    assert tri_mod.one_launch("potri", big) == one_launch_serves(n)
    assert tri_mod.pair_launch("trsm", big) == (n <= tri_mod.PAIR_MAX)
    assert tri_mod.small_batch("trsm", big)
    force_small_batch_paths(monkeypatch, tri_mod, vendor=False, one_launch=False)
    assert not tri_mod.one_launch("potri", big) and not tri_mod.small_batch("trsm", big)


def test_vendor_pointer_arrays(monkeypatch):
    """The device address arrays of the batched vendor calls: base + k * stride, any stride."""
    fake = types.ModuleType("cupy")
    fake.asarray = numpy.asarray
    monkeypatch.setitem(sys.modules, "cupy", fake)
    vendor._pointers.cache_clear()
    p = vendor._pointers(0, 2**40 + 16, 4096, 5)
    assert p.dtype == numpy.uintp and p.tolist() == [2**40 + 16 + 4096 * k for k in range(5)]
    assert vendor._pointers(0, 64, 0, 3).tolist() == [64] * 3      # a broadcast operand
    vendor._pointers.cache_clear()


# ---------------------------------------------------------------------------------------------
# The launchers with NumPy standing in for CuPy

def _solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False):
    n = a.shape[-1]
    t = numpy.tril(a) if lower else numpy.triu(a)
    d = t[:, numpy.arange(n), numpy.arange(n)]
    t[:, numpy.arange(n), numpy.arange(n)] = numpy.where(unit_diagonal | (d == 0), 1, d)
    op = t if trans == 0 else (numpy.swapaxes(t, 1, 2).conj() if trans == 2 else
                               numpy.swapaxes(t, 1, 2))
    return numpy.linalg.solve(op, b)


@pytest.fixture(params=[H100, UNKNOWN])
def fake_gpu(request, monkeypatch):
    """cupy/cupyx -> NumPy; launches recorded in the returned list; plan caches cleared."""
    fake = types.ModuleType("cupy")
    for name in ("matmul", "empty", "zeros", "ascontiguousarray", "asarray", "broadcast_to",
                 "ndarray"):
        setattr(fake, name, getattr(numpy, name))
    cupyx = types.ModuleType("cupyx")
    scipy_mod = types.ModuleType("cupyx.scipy")
    linalg_mod = types.ModuleType("cupyx.scipy.linalg")
    linalg_mod.solve_triangular = _solve_triangular
    for name, mod in (("cupy", fake), ("cupyx", cupyx), ("cupyx.scipy", scipy_mod),
                      ("cupyx.scipy.linalg", linalg_mod)):
        monkeypatch.setitem(sys.modules, name, mod)
    launches = []
    monkeypatch.setattr(_tuning, "gpu_name", lambda *a: request.param)
    monkeypatch.setattr(blas, "sm_count", lambda: 132)
    monkeypatch.setattr(blas, "sm_shared_bytes", lambda: 233472)
    monkeypatch.setattr(blas, "data_ptr", lambda arr: arr.ctypes.data)

    def kernel(family, expr, *signature, **options):   # each launch: (family, expr, grid, ...)
        return lambda *call: launches.append((family, expr) + call)
    monkeypatch.setattr(blas, "kernel", kernel)
    monkeypatch.setattr(trsv_mod, "kernel", kernel)
    monkeypatch.setattr(_compile, "current_device", lambda: 0)
    monkeypatch.setattr(trsv_mod, "_diag_info", _numpy_info)
    monkeypatch.setattr(trsv_mod, "vendor", types.SimpleNamespace(trsm=_numpy_trsm))
    monkeypatch.setattr(trsv_mod, "_split_workspace", lambda device, dtype, items: (
        numpy.zeros(items, dtype), numpy.zeros(1, numpy.int32)))
    monkeypatch.setattr(tri_mod, "current_device", lambda: 0)
    monkeypatch.setattr(blas, "_axpby_kernel", lambda: _numpy_axpby)
    monkeypatch.setattr(blas, "vendor", types.SimpleNamespace(gemm=_numpy_gemm))
    caches = (blas._gemv_plan, blas._gemm_plan, blas._table_rows_rule, blas._folds_to_tall,
              trsv_mod._plan,
              trsv_mod._warp_config, trsv_mod._staged_config, trsv_mod._block_config,
              trsv_mod._split_config, tri_mod._vendor_below)
    for fn in caches:
        fn.cache_clear()
    yield request.param, launches
    for fn in caches:
        fn.cache_clear()


def _numpy_gemm(c, a, b, alpha=1.0, beta=0.0):
    """linalg/_cuda/vendor.py gemm: c := alpha a @ b + beta c in place (c not read for beta 0)."""
    c[...] = alpha * (a @ b) + (beta * c if beta != 0 else 0)


def _numpy_trsm(a, b, right, lower, trans, unit, alpha=1.0):
    """linalg/_cuda/vendor.py trsm (left side), in place."""
    assert not right
    b[...] = alpha * _solve_triangular(a, b, trans=int(trans), lower=lower, unit_diagonal=unit)
    return b


def _numpy_axpby(r, alpha, beta, c, out):
    out[...] = alpha * r + beta * c
    return out


def _numpy_info(a, unit):
    d = numpy.diagonal(a, axis1=1, axis2=2)
    bad = (d == 0) | ~numpy.isfinite(d)
    return numpy.where(bad.any(1), bad.argmax(1) + 1, 0).astype(numpy.int32) if not unit \
        else numpy.zeros(len(a), numpy.int32)


def _expect(op, dtype, dims, gpu, path):
    if path is not None:
        return path == "vendor"
    return _tuning.use_vendor(op, dtype, _tuning.shape_class(*dims), gpu=gpu)[0]


@pytest.mark.parametrize("path", [None, "kernel", "vendor"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("trans", ["N", "T"])
@pytest.mark.parametrize("m,n", [(81, 8), (192, 27), (64, 64), (32, 32), (375, 64), (4, 4)])
def test_gemv_dispatch(fake_gpu, path, dtype, trans, m, n):
    gpu, launches = fake_gpu
    g = numpy.random.default_rng(m * n)
    a = g.standard_normal((3, m, n)).astype(dtype)
    x = g.standard_normal((3, n if trans == "N" else m)).astype(dtype)
    y = g.standard_normal((3, m if trans == "N" else n)).astype(dtype)
    ref = -0.5 * ((a if trans == "N" else a.transpose(0, 2, 1)) @ x[..., None])[..., 0] + 2 * y
    out = blas.gemv(a, x, y.copy(), trans=trans, alpha=-0.5, beta=2.0, _path=path)
    vendor = _expect("gemv_t" if trans == "T" else "gemv_n", dtype, (m, n), gpu, path)
    assert len(launches) == (0 if vendor else 1)
    if vendor:
        numpy.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("below", [{"kernel": "team", "team": 4, "vec": 4, "unroll": 2},
                                   {"use_vendor": True}])
def test_gemv_entry_below_batch_runs_its_small_batch_parameters(fake_gpu, monkeypatch, below):
    """An entry's "below_batch" / "below": fewer matrices run "below"'s parameters (or the
    vendor), as many or more run the entry's own; forced parameters ignore the bound."""
    gpu, launches = fake_gpu
    entry = {"kernel": "staged", "use_vendor": False, "below_batch": 10, "below": below}
    table = {"gemv_t": {"float32": {"32x32": entry}}}
    monkeypatch.setattr(_tuning, "entries", lambda op, dtype, cls, gpu=None: (
        [table[op][dtype][cls]] if op in table and cls in table[op].get(dtype, {}) else
        [{"kernel": "staged"}]))
    blas._gemv_plan.cache_clear()
    g = numpy.random.default_rng(9)
    for batch in (3, 9, 10, 40):
        a = g.standard_normal((batch, 20, 20)).astype("float32")
        x = g.standard_normal((batch, 20)).astype("float32")
        before = len(launches)
        blas.gemv(a, x, trans="T")                     # the fake GPU records the launches
        exprs = [launch[1] for launch in launches[before:]]
        if batch >= 10:
            assert len(exprs) == 1 and exprs[0].startswith("gemv_staged")
        elif below.get("use_vendor"):
            assert exprs == []
        else:
            assert len(exprs) == 1 and exprs[0].startswith("gemv_t_team")
    forced = blas.gemv(a[:3], x[:3], trans="T", _params={"kernel": "staged"})
    assert forced.shape == (3, 20) and launches[-1][1].startswith("gemv_staged")


@pytest.mark.parametrize("batch,m,n,flat", [(1, 128, 128, True), (511, 128, 128, True),
                                             (512, 128, 128, False), (1, 512, 512, True),
                                             (200, 512, 512, False), (1, 64, 64, False),
                                             (1, 1000, 100, False)])
def test_gemv_n_small_batch_of_big_matrices_takes_the_flat_kernel(fake_gpu, batch, m, n, flat):
    """batch * m < GEMV_N_FLAT_ROWS with m, n >= 128: the flat kernel (rows spread over the
    GPU), before the table's choice (one warp a matrix, or cuBLAS); transposes keep theirs."""
    gpu, launches = fake_gpu
    a, x = numpy.ones((batch, m, n)), numpy.ones((batch, n))
    blas.gemv(a, x)
    blas.gemv(a, numpy.ones((batch, m)), trans="T")
    flat_launches = [launch for launch in launches if launch[1].startswith("gemv_n_flat")]
    assert len(flat_launches) == (1 if flat else 0)


@pytest.mark.parametrize("path", [None, "kernel", "vendor"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("m,n,k,shared", [(81, 8, 64, True), (32, 9, 36, True), (16, 16, 16, False),
                                          (375, 64, 512, True), (8, 8, 8, False),
                                          (100, 100, 100, False)])
def test_gemm_dispatch(fake_gpu, path, dtype, m, n, k, shared):
    gpu, launches = fake_gpu
    g = numpy.random.default_rng(m + n + k)
    a = g.standard_normal((4, m, k)).astype(dtype)
    b = g.standard_normal((1 if shared else 4, n, k)).astype(dtype)
    c = g.standard_normal((4, m, n)).astype(dtype)
    ref = 1.5 * (a @ b.transpose(0, 2, 1)) - c
    out = blas.gemm(a, b, c.copy(), transb="T", alpha=1.5, beta=-1.0, _path=path)
    vendor = _expect("gemm", dtype, (m, n, k), gpu, path)
    if path is None and not vendor and blas.default_gemm_config(m, n, k, shared) is None \
            and "cfg" not in blas.params("gemm", dtype, m, n, k):
        vendor = True       # no kernel configuration for the shape
    assert len(launches) == (0 if vendor else 1)
    if vendor:
        numpy.testing.assert_allclose(out, ref, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("tb", ["N", "T"])
def test_gemm_tall_a_by_rows_where_the_table_says(fake_gpu, tb):
    """One tall A (1, R, k) with one B where the H100 table gives the class "rows": float64
    32x36 (9x36)^T as R // 32 matrices on gemm_small and one launch for the R % 32 rows left;
    192x216 (27x216)^T as 192-row matrices on cuBLAS's batched call (no launch, the result
    right). Elsewhere (no rule: an unknown GPU, float32 with B itself) all rows in one call."""
    gpu, launches = fake_gpu
    g = numpy.random.default_rng(11)
    for dtype in ("float64", "float32"):
        rows = 32 * 200 + 7
        a = g.standard_normal((1, rows, 36)).astype(dtype)
        b = g.standard_normal((1, 9, 36) if tb == "T" else (1, 36, 9)).astype(dtype)
        launches.clear()
        blas.gemm(a, b, transb=tb)
        by_rows = gpu == H100 and (dtype == "float64" or tb == "T")
        kinds = [(launch[1].split("<")[0], launch[4][0]) for launch in launches]
        if by_rows:
            assert kinds == [("gemm_small", 200), ("gemm_small", 1)], (gpu, dtype, tb)
        else:
            assert kinds in ([("gemm_tall", rows)], []), (gpu, dtype, tb)    # [] the vendor
    a = g.standard_normal((1, 192 * 30 + 5, 216))
    b = g.standard_normal((1, 27, 216) if tb == "T" else (1, 216, 27))
    launches.clear()
    out = blas.gemm(a, b, transb=tb, alpha=-2.0)
    if gpu == H100:
        assert not launches
    if not launches:                    # the (stand-in) vendor computed it: the rows all right
        ref = -2.0 * (a[0] @ (b[0].T if tb == "T" else b[0]))
        numpy.testing.assert_allclose(out[0], ref, rtol=1e-10, atol=1e-10)


def test_gemm_tall_a_by_rows_takes_the_rules_kernel_parameters(fake_gpu):
    """A rule's "rows_params" reach the row blocks' launch (the double-buffered k-contiguous
    gemm_small there), not the blocks' class entry; without them the class entry serves."""
    gpu, launches = fake_gpu
    a, b = numpy.ones((1, 32 * 300, 36), numpy.float32), numpy.ones((1, 9, 36), numpy.float32)
    rule = {"rows": 32, "rows_params": {"kernel": "small", "kc": True, "stages": 2}}
    blas.gemm(a, b, transb="T", _params=rule)
    blas.gemm(a, b, transb="T", _params={"rows": 32})
    (_, own, *_, own_args, _), (_, table, *_, table_args, _) = launches
    assert own.startswith("gemm_small") and own.endswith("true>") and own_args[-2] == 2
    assert table.startswith("gemm_small") and table_args[0] == own_args[0] == 300
    assert table_args[-2] == 1                          # stages: the class entry's default


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gemm_small_plans(fake_gpu, dtype):
    """gemm_small for the small classes (unless the table names another kernel), gemm_tall for
    one B shared by a tall-skinny batch, the tiled kernel past the small shapes (33^3); one
    block per group, or (stages 2) a persistent double-buffered grid; the k-contiguous
    instantiation for A "N" B "T"."""
    gpu, _ = fake_gpu
    plan = functools.partial(blas._gemm_plan.__wrapped__, gpu, dtype)     # dicts: uncached
    for m, n, k in ((1, 1, 1), (3, 5, 7), (4, 4, 4), (16, 16, 16), (17, 3, 31), (32, 9, 36)):
        for ta, tb in ((0, 0), (1, 1)):
            kind = plan(10240, m, n, k, ta, tb, False, True, None, "kernel")[0]
            assert kind == "small" or "cfg" in blas.params("gemm", dtype, m, n, k), (m, n, k)
    assert plan(100, 33, 33, 33, 0, 0, False, True, None, "kernel")[0] == "tiled"
    assert plan(100, 18, 4, 16, 0, 1, True, True, {"policy": "auto"}, None)[0] == "tall"
    assert plan(100, 18, 4, 16, 1, 1, True, True, {"cfg": "tall"}, None)[0] == "small"
    one = plan(10 ** 6, 16, 16, 16, 0, 0, False, True, {"kernel": "small"}, None)
    two = plan(10 ** 6, 16, 16, 16, 0, 0, False, True, {"kernel": "small", "stages": 2}, None)
    assert one[-1][1] == 1 and one[2] == -(-10 ** 6 // one[-1][0])     # a block per group
    assert two[-1][1] == 2 and two[2] < 10 ** 6 // two[-1][0]           # resident blocks loop
    assert two[4] == 2 * one[4]         # two buffers of the same group size
    kc = plan(100, 18, 4, 16, 0, 1, True, True, {"kernel": "small", "kc": True}, None)
    default = plan(100, 18, 4, 16, 0, 1, True, True, {"kernel": "small"}, None)
    assert kc[1].endswith("true>") and not one[1].endswith("true>")
    assert default[1].endswith("true>") is (dtype == "float32")      # kc: float32 by default


@pytest.mark.parametrize("path", [None, "kernel", "vendor"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [4, 32, 64, 256])
@pytest.mark.parametrize("lower,trans", [(True, "N"), (False, "T")])
def test_trsv_dispatch(fake_gpu, path, dtype, n, lower, trans):
    gpu, launches = fake_gpu
    g = numpy.random.default_rng(n)
    a = g.standard_normal((3, n, n)).astype(dtype) / n + 2 * numpy.eye(n, dtype=dtype)
    a[1, n // 2, n // 2] = 0
    b = g.standard_normal((3, n)).astype(dtype)
    x, info = trsv_mod.trsv(a, b.copy(), lower=lower, trans=trans, _path=path)
    vendor = _expect("trsv", dtype, (n,), gpu, path)
    if path is None and n > tri_mod.LEAF and 3 * n < _tuning.vendor_below("trsv", dtype, n, gpu):
        vendor = True       # a small batch: cuBLAS
    assert len(launches) == (0 if vendor else 1)
    ctype = "float" if dtype == "float32" else "double"
    if not vendor and trsv_mod.staged_serves(trsv_mod.STAGED_RANGE, n, dtype):
        assert launches[0][1] == f"trsv_staged<{ctype}, false>"
    elif not vendor and path is None and n > trsv_mod.STAGED_MAX:     # a small batch: a block
        assert launches[0][1] == f"trsv_split<{ctype}, false>"         # a 32-row block
    elif not vendor:     # the lane-group kernel, group width and row vector by n (both tables)
        entry = _tuning.lookup("trsv", dtype, _tuning.shape_class(n), gpu=gpu)
        width = entry.get("width") or trsv_mod.group_width(n)
        vec = trsv_mod.row_vector(a, entry.get("vec") or 1)
        suffix = f", {vec}" if vec > 1 else ""
        assert launches[0][1] == f"trsv_warp<{ctype}, {width}, false{suffix}>"
    if vendor:
        assert info.tolist() == [0, n // 2 + 1, 0]
        t = numpy.tril(a[0]) if lower else numpy.triu(a[0])
        op = t if trans == "N" else t.T
        numpy.testing.assert_allclose(op @ x[0], b[0], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trsv_small_batches_split_then_block_then_lane_groups(fake_gpu, dtype):
    """Above n = 32: trsv_split up to SPLIT_BLOCKS blocks of 32 rows in all (batch * ceil(n /
    32)), trsv_block below BLOCK_BELOW matrices, then the lane-group kernel; the one-vector POTRS
    the same way (trsv_split in two launches)."""
    from linalg._cuda import cholesky
    _, launches = fake_gpu
    n, ctype = 100, "float" if dtype == "float32" else "double"
    split_batch = trsv_mod.SPLIT_BLOCKS[dtype] // 4                    # 4 blocks of 32 rows
    for batch, want in ((split_batch, "trsv_split"), (split_batch + 1, "trsv_block"),
                        (trsv_mod.BLOCK_BELOW[dtype], "trsv_warp")):
        a = numpy.tril(numpy.ones((batch, n, n), dtype)) + n * numpy.eye(n, dtype=dtype)
        launches.clear()
        trsv_mod.trsv(a, numpy.ones((batch, n), dtype))
        assert [call[1].split("<")[0] for call in launches] == [want], batch
        launches.clear()
        cholesky.potrs_vector(a, numpy.ones((batch, n, 1), dtype), True)
        assert [call[1].split("<")[0] for call in launches] == \
            [want] * (2 if want == "trsv_split" else 1), batch
    assert launches[0][1].startswith(f"trsv_warp<{ctype}")


def test_empty_never_launches(fake_gpu):
    _, launches = fake_gpu
    assert blas.gemv(numpy.zeros((0, 3, 4)), numpy.zeros((0, 4))).shape == (0, 3)
    assert blas.gemv(numpy.zeros((2, 3, 0)), numpy.zeros((2, 0)), numpy.ones((2, 3)),
                     beta=2.0).tolist() == [[2.0] * 3] * 2
    assert blas.gemm(numpy.zeros((0, 3, 4)), numpy.zeros((0, 4, 2))).shape == (0, 3, 2)
    assert (blas.gemm(numpy.zeros((2, 3, 0)), numpy.zeros((2, 0, 2))) == 0).all()
    x, info = trsv_mod.trsv(numpy.zeros((0, 5, 5)), numpy.zeros((0, 5)))
    assert x.shape == (0, 5) and info.shape == (0,)
    assert launches == []


def test_bad_path_raises(fake_gpu):
    with pytest.raises(ValueError, match="_path"):
        blas.gemv(numpy.ones((1, 2, 2)), numpy.ones((1, 2)), _path="cublas")


def test_grid_is_capped_for_huge_batches(fake_gpu):
    _, launches = fake_gpu
    a = numpy.ones((1_000_000, 2, 3), numpy.float32)
    blas.gemv(a, numpy.ones((1_000_000, 3), numpy.float32), _path="kernel")
    blas.gemv(a[:1], numpy.ones((1, 3), numpy.float32), _path="kernel")
    (f1, e1, grid1, *_), (f2, e2, grid2, *_) = launches
    assert 1 <= grid1 <= 64 * 16 * 132 and grid2 == 1


def test_gemm_views_accepts_what_one_cublas_call_takes():
    """blas.gemm_views: the views the in-place cuBLAS path takes without a copy (unit column or
    unit row stride, non-negative strides, C with unit column stride), and _stacks_rows: the
    C-contiguous ones that fold into one tall matrix."""
    x = numpy.zeros((3, 8, 10))
    row_major, padded, transposed = x[:, :, :6], x[:, :5, :6], x.transpose(0, 2, 1)
    broadcast = numpy.broadcast_to(x[:1], x.shape)              # batch stride 0
    for a in (x, row_major, padded, transposed, broadcast):
        assert blas.gemm_views(a, x, None)
        assert blas.gemm_views(x, a, None)
    assert blas.gemm_views(x, x, padded)                         # C: padded rows are fine
    assert not blas.gemm_views(x, x, transposed)                 # C: unit column stride only
    assert not blas.gemm_views(x[:, :, ::2], x, None)            # neither stride unit
    assert not blas.gemm_views(x[:, ::-1], x, None)              # negative stride
    vectors = numpy.zeros((3, 7))[:, ::2][:, :, None]            # strided vector as a column
    assert blas.gemm_views(x[:, :, :4], vectors, vectors)
    assert blas._stacks_rows(x) and not blas._stacks_rows(padded)
    assert not blas._stacks_rows(transposed)


@pytest.mark.parametrize("batch,n,nrhs,trsm_path,potrs_path", [
    (1, 33, 5, "pair", "pair"), (99, 64, 64, "pair", "pair"), (100, 64, 64, "vendor", "vendor"),
    (1, 65, 5, "vendor", "vendor"), (1, 40, 1, "pair", "vendor")])
def test_pair_launch_rule_takes_small_trsm_and_potrs_before_the_vendor(monkeypatch, batch, n,
                                                                      nrhs, trsm_path, potrs_path):
    """One tri_pair launch below PAIR_LAUNCH_BELOW for 33..64 (POTRS: more than one right-hand
    side; one vector keeps its own rules), checked before the small-batch vendor rule (forced
    on here)."""
    from linalg._cuda import cholesky as chol_mod
    monkeypatch.setattr(chol_mod, "TENSOR_SOLVE_RANGE", {})    # chol_tensor_solve off
    monkeypatch.setattr(chol_mod, "TENSOR_TRSM_RULES", {})     # chol_tensor_trsm off
    monkeypatch.setattr(tri_mod, "PAIR_LAUNCH_BELOW", {("trsm", "float64"): 100,
                                                       ("potrs", "float64"): 100})
    monkeypatch.setattr(tri_mod, "vendor_below", lambda op, dtype, n: 10**12)
    monkeypatch.setattr(tri_mod, "cols_below", lambda op, dtype, n: 0)      # tri_cols off
    calls = []
    info = numpy.zeros(batch, numpy.int32)

    def fake_pair(a, b, flags, mode, alpha=1.0, out=None):
        calls.append(("pair", mode))
        return info
    monkeypatch.setattr(tri_mod, "tri_pair", fake_pair)
    monkeypatch.setattr(tri_mod, "_diag_info", lambda a, unit, prior=None: info)
    monkeypatch.setattr(vendor, "trsm", lambda *args, **kwargs: calls.append(("vendor",)))
    monkeypatch.setattr(vendor, "potrs", lambda *args, **kwargs: calls.append(("vendor",)))
    a, b = numpy.empty((batch, n, n)), numpy.empty((batch, n, nrhs))
    tri_mod.trsm(a, b)
    chol_mod.potrs(a, b)
    assert calls == [("pair", tri_mod.TRI_WARP_SOLVE) if trsm_path == "pair" else ("vendor",),
                     ("pair", tri_mod.TRI_WARP_POTRS) if potrs_path == "pair" else ("vendor",)]


@pytest.mark.parametrize("op, dtype, batch, n, nrhs, taken", [
    ("potrs", numpy.float64, 100, 64, 64, True), ("potrs", numpy.float64, 99, 64, 64, False),
    ("potrs", numpy.float64, 10240, 33, 2, True), ("potrs", numpy.float64, 10240, 64, 1, False),
    ("potrs", numpy.float64, 10240, 32, 32, False), ("potrs", numpy.float64, 10240, 128, 5, True),
    ("potrs", numpy.float64, 10240, 129, 5, True), ("potrs", numpy.float64, 1000, 160, 160, True),
    ("potrs", numpy.float64, 10240, 161, 5, False), ("potrs", numpy.float32, 10240, 63, 63, False),
    ("potrs", numpy.float32, 10240, 64, 64, True), ("potrs", numpy.float32, 30000, 160, 160, True),
    ("potrs", numpy.float32, 10239, 112, 112, True), ("potrs", numpy.float32, 10240, 97, 97, False),
    ("potrs", numpy.float32, 10240, 127, 9, False), ("potrs", numpy.float32, 10240, 128, 9, True),
    ("posv", numpy.float64, 10239, 64, 64, True), ("posv", numpy.float64, 10240, 64, 64, False),
    ("posv", numpy.float64, 1000, 65, 65, False), ("posv", numpy.float64, 10240, 96, 96, False),
    ("posv", numpy.float64, 100, 40, 3, True), ("posv", numpy.float64, 10, 40, 3, False)])
def test_tensor_solve_rule_comes_first_for_posv_and_potrs(monkeypatch, op, dtype, batch, n, nrhs,
                                                          taken):
    """chol_tensor_solve takes float64 POSV (n = 33..64 below 10240 matrices) and POTRS (33..160),
    float32 POTRS (64..160, n = 97..127 below 10240 matrices), with several right-hand sides
    from TENSOR_SOLVE_FROM_BATCH matrices, ahead of every other rule; A is only read (no factor
    written by POSV), the solution goes to b itself or, kept, to a new array."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_solve(a, b, lower, factored, out=None):
        calls.append(("tensor", factored, out is b))
        return info

    def elsewhere(*args, **kwargs):
        calls.append(("other",))
        return (b, info) if op == "potrs" else (a, info)
    monkeypatch.setattr(chol_mod, "tensor_solve", fake_tensor_solve)
    monkeypatch.setattr(chol_mod, "potrs_vector", elsewhere)
    monkeypatch.setattr(chol_mod, "potrs_inplace", elsewhere)
    monkeypatch.setattr(chol_mod, "potrf", elsewhere)
    monkeypatch.setattr(tri_mod, "tri_pair", lambda *args, **kwargs: elsewhere())
    monkeypatch.setattr(tri_mod, "tri_cols", lambda *args, **kwargs: elsewhere())
    monkeypatch.setattr(tri_mod, "_diag_info", lambda a, unit, prior=None: info)
    monkeypatch.setattr(vendor, "potrs", lambda *args, **kwargs: elsewhere())
    a, b = numpy.zeros((batch, n, n), dtype), numpy.zeros((batch, n, nrhs), dtype)
    fn = chol_mod.potrs if op == "potrs" else chol_mod.posv
    try:
        fn(a, b)
    except Exception:           # the paths after it need a GPU: only the first call counts
        pass
    assert (calls[:1] == [("tensor", op == "potrs", True)]) == taken, calls


def _triangle_in_larger_matrix(g, lower, unit):
    """(a, t): ``a`` two 7 x 7 blocks of 9 x 9 matrices (lda 9, a kernel's view of a larger
    matrix), ``t`` the triangle the kernel reads from it (ones on the diagonal with ``unit``)."""
    big = numpy.eye(9) * 3 + g.standard_normal((2, 9, 9))
    a = big[:, 1:8, 1:8]
    t = numpy.tril(a) if lower else numpy.triu(a)
    if unit:
        t = t.copy()
        t[:, numpy.arange(7), numpy.arange(7)] = 1.0
    return a, t


def _tensor_operator(args, b_in, backward, right):
    """The operator of chol_tensor_trsm's / chol_tensor_trmm's launch arguments ``args`` (their
    first eleven: A, lda, sa, B, ldb, sb, n, vectors, batch, lower, unit), the layouts checked:
    S, the lower form (A's lower triangle, or its upper one transposed; ones on its diagonal
    with unit), or S^T where ``backward``."""
    (a, lda, sa, dst, ldb, sb, n, nvec, batch, lower, unit) = args
    assert a.strides[1:] == (lda * a.itemsize, a.itemsize) and a.strides[0] == sa * a.itemsize
    assert dst.strides[1:] == (ldb * a.itemsize, a.itemsize) and b_in.strides == dst.strides
    assert dst.shape == ((batch, nvec, n) if right else (batch, n, nvec))
    s = numpy.tril(a) if lower else numpy.tril(a.swapaxes(1, 2))
    if unit:
        s[:, numpy.arange(n), numpy.arange(n)] = 1.0
    return s.swapaxes(1, 2) if backward else s


def _emulate_tensor_trsm(args, backward, right):
    """kernels/potrf.cu chol_tensor_trsm's arithmetic on its launch arguments in NumPy: S, the
    lower form (A's lower triangle, or its upper one transposed), the solve's operator S or,
    backward, S^T; X = alpha op^-1 B read from B_in, written to B (rows ldb apart, matrices sb
    apart; right: X^T and B^T, the vectors B's rows)."""
    dst, (alpha, info, b_in) = args[3], args[11:]
    op = _tensor_operator(args[:11], b_in, backward, right)
    if right:
        dst[...] = alpha * numpy.linalg.solve(op, b_in.swapaxes(1, 2)).swapaxes(1, 2)
    else:
        dst[...] = alpha * numpy.linalg.solve(op, b_in)
    info[...] = 0


def _emulating_config(emulate, right):
    """A stand-in for cholesky._tensor_trsm_config / _tensor_trmm_config whose launcher runs
    ``emulate(args, backward, right)`` (the kernel's arithmetic in NumPy) on its arguments."""
    def config(device, dtype, n, backward, right_, fresh):
        assert right_ == right
        return (lambda grid, threads, args, smem: emulate(args, backward, right)), 256, 0
    return config


@pytest.mark.parametrize("side,lower,trans,unit", list(itertools.product(
    ("left", "right"), (True, False), (False, True), (False, True))))
def test_tensor_trsm_launch_solves_every_variant(monkeypatch, side, lower, trans, unit):
    """cholesky.tensor_trsm's launch (the kernel's BACKWARD from the side, lower and trans, the
    lower form's flag, unit, alpha) solves op(A) X = alpha B or X op(A) = alpha B: the kernel's
    arithmetic emulated on its arguments, out of place (B unchanged) and in place, A a block of
    a larger matrix."""
    from linalg._cuda import cholesky as chol_mod
    right = side == "right"
    monkeypatch.setattr(chol_mod, "_tensor_trsm_config", _emulating_config(_emulate_tensor_trsm, right))
    monkeypatch.setattr(chol_mod, "current_device", lambda: 0)
    monkeypatch.setattr(chol_mod, "info_array", lambda batch: numpy.zeros(batch, numpy.int32))
    g = numpy.random.default_rng(5)
    a, t = _triangle_in_larger_matrix(g, lower, unit)
    op = t.swapaxes(1, 2) if trans else t
    b = g.standard_normal((2, 3, 7) if right else (2, 7, 3))
    expected = (numpy.linalg.solve(op.swapaxes(1, 2), 1.5 * b.swapaxes(1, 2)).swapaxes(1, 2)
                if right else numpy.linalg.solve(op, 1.5 * b))
    out = numpy.empty_like(b)
    info = chol_mod.tensor_trsm(a, b, lower, trans, unit, 1.5, out=out, right=right)
    numpy.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-12)
    assert not info.any()
    kept = b.copy()
    chol_mod.tensor_trsm(a, b, lower, trans, unit, 1.5, right=right)
    numpy.testing.assert_allclose(b, expected, rtol=1e-10, atol=1e-12)
    assert not numpy.array_equal(b, kept)


def _emulate_tensor_trmm(args, backward, right):
    """kernels/potrf.cu chol_tensor_trmm's arithmetic on its launch arguments in NumPy: S, the
    lower form (A's lower triangle, or its upper one transposed; ones on its diagonal with unit),
    the product's operator S or, backward, S^T; alpha op B read from B_in, written to B (right:
    (op B^T)^T, the vectors B's rows)."""
    dst, (alpha, b_in) = args[3], args[11:]
    op = _tensor_operator(args[:11], b_in, backward, right)
    dst[...] = alpha * ((op @ b_in.swapaxes(1, 2)).swapaxes(1, 2) if right else op @ b_in)


@pytest.mark.parametrize("side,lower,trans,unit", list(itertools.product(
    ("left", "right"), (True, False), (False, True), (False, True))))
def test_tensor_trmm_launch_multiplies_every_variant(monkeypatch, side, lower, trans, unit):
    """cholesky.tensor_trmm's launch (the kernel's BACKWARD from the side, lower and trans, the
    lower form's flag, unit, alpha) forms alpha op(A) B or alpha B op(A): the kernel's arithmetic
    emulated on its arguments, out of place (B unchanged) and in place, A a block of a larger
    matrix whose diagonal is not read with unit."""
    from linalg._cuda import cholesky as chol_mod
    right = side == "right"
    monkeypatch.setattr(chol_mod, "_tensor_trmm_config", _emulating_config(_emulate_tensor_trmm, right))
    monkeypatch.setattr(chol_mod, "current_device", lambda: 0)
    g = numpy.random.default_rng(6)
    a, t = _triangle_in_larger_matrix(g, lower, unit)
    op = t.swapaxes(1, 2) if trans else t
    b = g.standard_normal((2, 3, 7) if right else (2, 7, 3))
    expected = 1.5 * (b @ op if right else op @ b)
    kept = b.copy()
    out = numpy.empty_like(b)
    assert chol_mod.tensor_trmm(a, b, lower, trans, unit, 1.5, out=out, right=right) is out
    numpy.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    assert numpy.array_equal(b, kept)
    assert chol_mod.tensor_trmm(a, b, lower, trans, unit, 1.5, right=right) is b
    numpy.testing.assert_allclose(b, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype, batch, n, taken", [
    (numpy.float64, 1, 65, True), (numpy.float64, 30000, 96, True),
    (numpy.float64, 10240, 64, False), (numpy.float64, 1000, 56, True),
    (numpy.float64, 1000, 55, False), (numpy.float64, 299, 64, False),
    (numpy.float64, 2000, 60, True), (numpy.float64, 2000, 59, False),
    (numpy.float64, 2001, 64, False), (numpy.float64, 200, 128, True),
    (numpy.float64, 201, 97, False), (numpy.float64, 100, 160, True),
    (numpy.float64, 99, 129, False), (numpy.float64, 100, 161, False),
    (numpy.float32, 100, 80, True), (numpy.float32, 1001, 80, False),
    (numpy.float32, 99, 96, False), (numpy.float32, 1000, 97, False)])
def test_tensor_trmm_rules_take_their_sizes_and_batches(dtype, batch, n, taken):
    """chol_tensor_trmm's measured rows: float64 n = 65-96 at every batch, 56-64 at 300-1000 and
    60-64 to 2000, 97-128 up to 200 matrices, 129-SOLVE_MAX at 100-200; float32 n = 65-96 at
    100-1000 matrices."""
    from linalg._cuda import cholesky as chol_mod
    a = types.SimpleNamespace(shape=(batch, n, n), dtype=numpy.dtype(dtype))    # no memory
    assert chol_mod.use_tensor_trmm(a) == taken


@pytest.mark.parametrize("keep, in_place", [((), True), (("b",), False)])
def test_tensor_trmm_rule_comes_first_for_trmm(monkeypatch, keep, in_place):
    """chol_tensor_trmm takes a TRMM where a row of TENSOR_TRMM_RULES holds n and the batch, ahead
    of tri_tile's, tri_block's and the dense rules: into b itself, or (b kept) a new array."""
    from linalg._cuda import cholesky as chol_mod
    calls = []

    def fake_tensor_trmm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
        calls.append((lower, trans, unit, alpha, out is b, right))
        return out
    monkeypatch.setattr(chol_mod, "tensor_trmm", fake_tensor_trmm)
    monkeypatch.setattr(chol_mod, "TENSOR_TRMM_RULES", {"float64": ((60, 70, 50),)})
    monkeypatch.setattr(tri_mod, "result_array",
                        lambda x, name, keep: numpy.empty_like(x) if name in keep else x)
    for batch, n in ((49, 64), (50, 59), (50, 71)):                 # off the rule
        assert not chol_mod.use_tensor_trmm(numpy.zeros((batch, n, n)))
    assert not chol_mod.use_tensor_trmm(numpy.zeros((50, 64, 64), numpy.float32))
    a, b = numpy.zeros((50, 64, 64)), numpy.zeros((50, 64, 3))
    tri_mod.trmm(a, b, "left", False, "T", True, 2.0, keep=keep)
    assert calls == [(False, True, True, 2.0, in_place, False)]


@pytest.mark.parametrize("side, dtype, batch, n, taken", [
    ("left", numpy.float64, 100, 100, True), ("left", numpy.float64, 99, 100, False),
    ("left", numpy.float64, 10240, 33, True), ("left", numpy.float64, 10240, 128, True),
    ("left", numpy.float64, 10240, 129, False), ("right", numpy.float64, 10240, 100, True),
    ("left", numpy.float32, 10240, 100, False), ("left", numpy.float64, 299, 160, True),
    ("right", numpy.float64, 100, 129, True), ("left", numpy.float64, 300, 160, False),
    ("left", numpy.float64, 99, 160, False), ("left", numpy.float64, 200, 161, False),
    ("left", numpy.float32, 200, 160, False)])
def test_tensor_trsm_rule_takes_whole_solves(monkeypatch, side, dtype, batch, n, taken):
    """chol_tensor_trsm takes float64 TRSM (either side) where a row of TENSOR_TRSM_RULES holds n
    and the batch (n = 33-128 from 100 matrices, 129-SOLVE_MAX at 100-299), after tri_cols and
    tri_pair's rules (off here)."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_trsm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
        calls.append(("tensor", lower, trans, unit, alpha, out is b, right))
        return info
    monkeypatch.setattr(chol_mod, "tensor_trsm", fake_tensor_trsm)
    monkeypatch.setattr(tri_mod, "cols_below", lambda op, dtype, n: 0)
    monkeypatch.setattr(tri_mod, "pair_launch_below", lambda op, dtype: 0)
    monkeypatch.setattr(tri_mod, "vendor_below", lambda op, dtype, n: 0)
    monkeypatch.setattr(tri_mod, "_diag_info", lambda a, unit, prior=None: info)
    monkeypatch.setattr(tri_mod, "trsm_inplace", lambda *args, **kwargs: calls.append(("other",)))
    a, b = numpy.zeros((batch, n, n), dtype), numpy.zeros((batch, n, 4), dtype)
    tri_mod.trsm(a, b.swapaxes(1, 2) if side == "right" else b, side, False, "T", True, 2.0)
    assert calls == ([("tensor", False, True, True, 2.0, True, side == "right")] if taken
                     else [("other",)])


def test_tensor_trsm_comes_before_the_kept_b_pair_rule(monkeypatch):
    """A kept B at n = 56..64 (PAIR_KEPT_FROM, where tri_pair's out-of-place launch beat the
    recursion) goes to chol_tensor_trsm's out-of-place launch, B only read: H100, batch 10240,
    n = 64, the default call took 0.616 ms through tri_pair, 0.352 in place on chol_tensor_trsm
    (reports/gpu_20261127l call 5)."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(10240, numpy.int32)

    def fake_tensor_trsm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
        calls.append(("tensor", out is not None and out is not b))
        return info
    monkeypatch.setattr(chol_mod, "tensor_trsm", fake_tensor_trsm)
    monkeypatch.setattr(tri_mod, "tri_pair", lambda *args, **kwargs: calls.append(("pair",)))
    monkeypatch.setattr(tri_mod, "pair_launch_below", lambda op, dtype: 0)
    monkeypatch.setattr(tri_mod, "cols_below", lambda op, dtype, n: 0)
    monkeypatch.setattr(tri_mod, "result_array",
                        lambda x, name, keep: numpy.empty_like(x) if name in keep else x)
    a, b = numpy.zeros((10240, 64, 64)), numpy.zeros((10240, 64, 64))
    tri_mod.trsm(a, b, keep=("b",))
    assert calls == [("tensor", True)]


def test_recursions_blocks_take_tensor_trsm_and_tensor_solve(monkeypatch):
    """Above TENSOR_MAX the TRSM recursion's left blocks run chol_tensor_trsm (the first block
    from the kept input, the second in place after the GEMM), and POTRS's recursion its
    diagonal blocks' solves by chol_tensor_trsm and its middle block by chol_tensor_solve."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    batch, n = 100, 256
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_trsm(a, b, lower, trans, unit, alpha=1.0, out=None, right=False):
        calls.append(("trsm", a.shape[1], bool(trans), out is not None))
        return info

    def fake_tensor_solve(a, b, lower, factored, out=None):
        calls.append(("solve", a.shape[1], factored))
        return info
    monkeypatch.setattr(chol_mod, "tensor_trsm", fake_tensor_trsm)
    monkeypatch.setattr(chol_mod, "tensor_solve", fake_tensor_solve)
    monkeypatch.setattr(tri_mod, "gemm", lambda *args, **kwargs: calls.append(("gemm",)))
    monkeypatch.setattr(tri_mod, "copy_into", lambda out, x: calls.append(("copy",)))
    monkeypatch.setattr(tri_mod, "_diag_info", lambda a, unit, prior=None: info)
    monkeypatch.setattr(tri_mod, "vendor_below", lambda op, dtype, n: 0)
    monkeypatch.setattr(tri_mod, "cols_below", lambda op, dtype, n: 0)
    a, b = numpy.zeros((batch, n, n)), numpy.zeros((batch, n, 8))
    tri_mod.trsm_inplace(a, b, False, True, False, False, 1.0, src=b.copy())
    assert calls == [("trsm", 128, False, True), ("copy",), ("gemm",), ("trsm", 128, False, False)]
    calls.clear()
    tri_mod.trsm_inplace(a, numpy.zeros((batch, 8, n)), True, True, False, False, 1.0)
    assert calls == [("trsm", 128, False, False), ("gemm",), ("trsm", 128, False, False)]
    calls.clear()
    chol_mod.potrs_inplace(a, b, True)
    assert calls == [("trsm", 128, False, False), ("gemm",), ("solve", 128, True), ("gemm",),
                     ("trsm", 128, True, False)]


def _emulate_tensor_trtri(args):
    """kernels/potrf.cu chol_tensor_trtri's arithmetic on its launch arguments in NumPy: S, the
    lower form (the lower triangle, or the upper one transposed; ones on the diagonal with flag
    2), S^-1 read from A_in, written to A in the caller's form with a zero other triangle."""
    (a, lda, sa, n, batch, flags, info, a_in) = args
    assert a.strides[1:] == (lda * a.itemsize, a.itemsize) and a.strides[0] == sa * a.itemsize
    assert a_in.strides == a.strides and a.shape == (batch, n, n)
    lower, unit = bool(flags & 1), bool(flags & 2)
    s = numpy.tril(a_in) if lower else numpy.tril(a_in.swapaxes(1, 2))
    if unit:
        s[:, numpy.arange(n), numpy.arange(n)] = 1.0
    x = numpy.linalg.inv(s)
    a[...] = x if lower else x.swapaxes(1, 2)
    info[...] = 0


@pytest.mark.parametrize("lower, unit", list(itertools.product((True, False),
                                                                            (False, True))))
def test_tensor_trtri_launch_inverts_every_variant(monkeypatch, lower, unit):
    """cholesky.tensor_trtri's launch (the lower and unit flags, the view's lda and stride, the
    input read from a kept operand) inverts the triangle: the kernel's arithmetic emulated on its
    arguments, out of place (the input unchanged) and in place, A a block of a larger matrix."""
    from linalg._cuda import cholesky as chol_mod

    def config(device, dtype, n, fresh):
        return (lambda grid, threads, args, smem: _emulate_tensor_trtri(args)), 256, 0
    monkeypatch.setattr(chol_mod, "_tensor_trtri_config", config)
    monkeypatch.setattr(chol_mod, "current_device", lambda: 0)
    monkeypatch.setattr(chol_mod, "info_array", lambda batch: numpy.zeros(batch, numpy.int32))
    g = numpy.random.default_rng(6)
    a, t = _triangle_in_larger_matrix(g, lower, unit)
    expected = numpy.linalg.inv(t)
    kept = a.copy()
    out = numpy.empty((2, 9, 9))[:, 1:8, 1:8]                # the strides of a
    info = chol_mod.tensor_trtri(a, lower, unit, out=out)
    numpy.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-12)
    assert not info.any() and numpy.array_equal(a, kept)
    chol_mod.tensor_trtri(a, lower, unit)
    numpy.testing.assert_allclose(a, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype, batch, n, keep, taken", [
    (numpy.float64, 10240, 65, (), True), (numpy.float64, 10240, 128, ("a",), True),
    (numpy.float64, 1, 100, (), True), (numpy.float64, 10240, 64, (), False),
    (numpy.float64, 10240, 129, (), True), (numpy.float64, 1000, 192, ("a",), True),
    (numpy.float64, 10240, 193, (), False), (numpy.float32, 10240, 100, (), True),
    (numpy.float32, 10240, 192, (), True), (numpy.float32, 10240, 193, (), False),
    (numpy.float32, 10240, 64, (), False)])
def test_tensor_trtri_rule_takes_whole_inverses(monkeypatch, dtype, batch, n, keep, taken):
    """chol_tensor_trtri takes TRTRI with n in TENSOR_TRTRI_RANGE (65..192) at every batch
    after tri_cols's rule (off here) and ahead of the small-batch one-launch rule (chol_block),
    in place or into a new array when the input is kept; chol_small<T, 64> keeps n <= 64."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_trtri(a, lower, unit, out=None):
        calls.append(("tensor", lower, unit, out is a))
        return info

    def elsewhere(*args, **kwargs):
        calls.append(("other",))
        raise RuntimeError("another path")
    monkeypatch.setattr(chol_mod, "tensor_trtri", fake_tensor_trtri)
    monkeypatch.setattr(tri_mod, "cols_below", lambda op, dtype, n: 0)
    for name in ("chol_small", "trtri_recursion", "_diag_info", "writable"):
        monkeypatch.setattr(tri_mod, name, elsewhere)
    monkeypatch.setattr(tri_mod, "result_array",      # NumPy standing in for cupy.empty
                        lambda x, name, k: numpy.empty_like(x) if name in k else x)
    with pytest.raises(RuntimeError) if not taken else contextlib.nullcontext():
        tri_mod.trtri(numpy.zeros((batch, n, n), dtype), False, True, keep=keep)
    assert calls[:1] == ([("tensor", False, True, not keep)] if taken else [("other",)])


def test_tensor_trtri_settings_leave_a_thread_for_each_column(monkeypatch):
    """chol_tensor_trtri's settings give every NT the threads its steps need (a thread a column
    of the diagonal blocks, a warp a strip of block column 0), and a setting short of them is
    refused with the reason before anything compiles."""
    from linalg._cuda import cholesky as chol_mod
    for nt, threads in chol_mod.TENSOR_TRTRI_THREADS.items():
        assert threads >= max(32 * nt, 64 * (nt - 1)) and threads % 32 == 0
    monkeypatch.setattr(chol_mod, "TENSOR_TRTRI_THREADS", {2: 128, 3: 256, 4: 160})
    chol_mod._tensor_trtri_config.cache_clear()
    try:
        with pytest.raises(ValueError, match="at least 192"):
            chol_mod._tensor_trtri_config(0, numpy.dtype(numpy.float64), 128, False)
    finally:
        chol_mod._tensor_trtri_config.cache_clear()


def test_trtri_recursions_blocks_take_tensor_trtri(monkeypatch):
    """Above TENSOR_MAX TRTRI's recursion inverts its diagonal blocks on chol_tensor_trtri (from
    the kept input where there is one) around its two GEMMs, so POTRI / POTI at n = 256 do."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    batch, n = 100, 256
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_trtri(a, lower, unit, out=None):
        calls.append(("trtri", a.shape[1], out is not None))
        return info
    monkeypatch.setattr(chol_mod, "tensor_trtri", fake_tensor_trtri)
    monkeypatch.setattr(tri_mod, "gemm", lambda *args, **kwargs: calls.append(("gemm",)))
    monkeypatch.setattr(tri_mod, "cupy_module", lambda: numpy)    # the GEMMs' work array
    a = numpy.zeros((batch, n, n))
    tri_mod.trtri_recursion(a, True, False)
    assert calls == [("trtri", 128, False), ("trtri", 128, False), ("gemm",), ("gemm",)]
    calls.clear()
    tri_mod.trtri_recursion(a, False, True, src=a.copy())
    assert calls == [("trtri", 128, True), ("trtri", 128, True), ("gemm",), ("gemm",)]


def test_tensor_solve_settings_leave_a_warp_for_each_strip(monkeypatch):
    """chol_tensor_solve's settings give every NT the warps its operators and passes need (a
    16-row strip of each diagonal block and pass a warp), and a setting short of them is refused
    with the reason before anything compiles."""
    from linalg._cuda import cholesky as chol_mod
    for nt, threads in chol_mod.TENSOR_SOLVE_THREADS.items():
        assert threads >= 64 * max(nt, chol_mod.TENSOR_SOLVE_CHUNKS[nt])
    # n = 64 in one pass: three factor blocks and two of right-hand sides of 32 x 36 doubles,
    # 64 reciprocals (46 KB: four blocks an SM on an H100, the measured setting)
    assert chol_mod.tensor_solve_smem_bytes(2, 1) == (5 * 32 * 36 + 64) * 8
    monkeypatch.setattr(chol_mod, "TENSOR_SOLVE_THREADS", {2: 64, 3: 256, 4: 256})
    chol_mod._tensor_solve_config.cache_clear()
    try:
        with pytest.raises(ValueError, match="needs 128 threads"):
            chol_mod._tensor_solve_config(0, numpy.dtype(numpy.float64), 64, True, False)
    finally:
        chol_mod._tensor_solve_config.cache_clear()


@pytest.mark.parametrize("op, dtype, batch, n, taken", [
    ("potri", numpy.float64, 10240, 33, True), ("potri", numpy.float64, 10240, 128, True),
    ("potri", numpy.float64, 10240, 32, False), ("potri", numpy.float64, 10240, 129, True),
    ("potri", numpy.float64, 10240, 192, True), ("potri", numpy.float64, 10240, 193, False),
    ("potri", numpy.float32, 10240, 192, True), ("potri", numpy.float32, 10240, 193, False),
    ("potri", numpy.float64, 1, 64, True), ("potri", numpy.float64, 1, 20, False),
    ("potri", numpy.float32, 10240, 64, True), ("potri", numpy.float32, 10240, 63, False),
    ("poti", numpy.float32, 10240, 64, False), ("poti", numpy.float64, 10240, 64, True),
    ("poti", numpy.float64, 10240, 64, True), ("poti", numpy.float64, 10240, 65, False),
    ("poti", numpy.float64, 999, 128, True), ("poti", numpy.float64, 1000, 96, False),
    ("poti", numpy.float64, 10240, 128, False), ("poti", numpy.float64, 10240, 129, True),
    ("poti", numpy.float64, 1000, 192, True), ("poti", numpy.float64, 10240, 193, False),
    ("poti", numpy.float64, 1, 40, True)])
def test_tensor_inverse_rule_comes_first_for_potri_and_poti(monkeypatch, op, dtype, batch, n,
                                                            taken):
    """chol_tensor_inverse takes float64 POTRI and POTI (n = 33..192) and float32 POTRI (64..192)
    in TENSOR_INVERSE_RANGE at every batch (POTI at n = 65..128 below 1000 matrices only:
    TENSOR_INVERSE_BELOW), ahead of every other rule; the inverse goes to the operand itself, or, kept, to a
    new array (the operand only read)."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(batch, numpy.int32)

    def fake_tensor_inverse(a, lower, factored, out=None):
        calls.append(("tensor", factored, out is a))
        return info

    def elsewhere(*args, **kwargs):
        calls.append(("other",))
        raise RuntimeError("another path")
    monkeypatch.setattr(chol_mod, "tensor_inverse", fake_tensor_inverse)
    for name in ("chol_small", "trtri", "lauum", "_diag_info"):
        monkeypatch.setattr(tri_mod, name, elsewhere)
    monkeypatch.setattr(chol_mod, "potrf", elsewhere)
    monkeypatch.setattr(vendor, "potrs", elsewhere)
    monkeypatch.setattr(tri_mod, "result_array",      # NumPy standing in for cupy.empty
                        lambda x, name, keep: numpy.empty_like(x) if name in keep else x)
    a = numpy.zeros((batch, n, n), dtype)
    fn = chol_mod.potri if op == "potri" else chol_mod.poti
    try:
        fn(a)
    except Exception:           # the paths after it need a GPU: only the first call counts
        pass
    assert (calls[:1] == [("tensor", op == "potri", True)]) == taken, calls
    if taken:
        calls.clear()
        fn(a, keep=("l",) if op == "potri" else ("a",))
        assert calls == [("tensor", op == "potri", False)]


def test_tensor_inverse_settings_leave_a_warp_for_each_strip(monkeypatch):
    """chol_tensor_inverse's settings give every NT the 2 NT warps of its last LAUUM step, and
    a setting short of them is refused with the reason before anything compiles."""
    from linalg._cuda import cholesky as chol_mod
    for nt, threads in chol_mod.TENSOR_INVERSE_THREADS.items():
        assert threads >= 64 * nt and threads % 32 == 0
    # n = 128: ten blocks of 32 x 36 doubles, 128 reciprocals (91 KB: two blocks an SM)
    assert chol_mod.tensor_inverse_smem_bytes(4) == (10 * 32 * 36 + 128) * 8
    monkeypatch.setattr(chol_mod, "TENSOR_INVERSE_THREADS", {2: 128, 3: 128, 4: 256})
    chol_mod._tensor_inverse_config.cache_clear()
    try:
        with pytest.raises(ValueError, match="at least 192"):
            chol_mod._tensor_inverse_config(0, numpy.dtype(numpy.float64), 96, fresh=False,
                                            factored=True)
    finally:
        chol_mod._tensor_inverse_config.cache_clear()


@pytest.mark.parametrize("factored", [True, False])
@pytest.mark.parametrize("out_of_place", [False, True])
def test_tensor_inverse_launches_one_block_a_matrix_with_chol_tensors_parameters(
        monkeypatch, factored, out_of_place):
    """chol_tensor_inverse's launch: chol_tensor's parameter list (the result, its leading
    dimension and batch stride, n, batch, lower, info, the input: the result itself in place),
    a block a matrix, TENSOR_INVERSE_THREADS[NT] threads and its shared bytes; the kernel
    named by dtype, NT, FACTOR (not ``factored``) and OUT."""
    from linalg._cuda import cholesky as chol_mod
    launches, names = [], []
    info = numpy.zeros(7, numpy.int32)

    def fake_kernel(family, name, signature):
        names.append((family, name, signature))
        return lambda grid, threads, args, smem: launches.append((grid, threads, args, smem))
    monkeypatch.setattr(chol_mod, "kernel", fake_kernel)
    monkeypatch.setattr(chol_mod, "current_device", lambda: 0)
    monkeypatch.setattr(chol_mod, "info_array", lambda batch: info)
    chol_mod._tensor_inverse_config.cache_clear()
    try:
        a = numpy.zeros((7, 70, 70))
        out = numpy.zeros_like(a) if out_of_place else None
        assert chol_mod.tensor_inverse(a, False, factored, out=out) is info
    finally:
        chol_mod._tensor_inverse_config.cache_clear()
    dst = a if out is None else out
    assert names == [("potrf", f"chol_tensor_inverse<double, 3, {str(not factored).lower()}, "
                               f"{str(out_of_place).lower()}>", "pqqiqipp")]
    (grid, threads, args, smem), = launches
    assert (grid, threads, smem) == (7, chol_mod.TENSOR_INVERSE_THREADS[3],
                                     chol_mod.tensor_inverse_smem_bytes(3))
    assert args[0] is dst and args[1:7] == (70, 70 * 70, 70, 7, 0, info) and args[7] is a


def test_pair_launch_bounds_cover_trsm_and_potrs_in_both_dtypes():
    """tri_pair serves TRSM and POTRS (n right-hand sides) with 33 <= n <= 64 on small batches
    in both dtypes (bounds measured by scripts/bench_one_launch.py --pair), not large ones."""
    for op in ("trsm", "potrs"):
        for dtype in ("float32", "float64"):
            assert tri_mod.pair_launch_below(op, dtype) > 0
            assert tri_mod.pair_launch(op, numpy.empty((1, 48, 48), dtype))
            assert not tri_mod.pair_launch(op, numpy.empty((20000, 48, 48), dtype))
            assert not tri_mod.pair_launch(op, numpy.empty((1, 65, 65), dtype))


def test_syrk_small_serves_small_batches_up_to_64(monkeypatch):
    """syrk_small serves n <= MAX_N at every batch and n <= SMALL_BATCH_MAX_N below the measured
    SMALL_BATCH_BELOW of the dtype; the rest (and complex) is GEMM + mirror (gemm_small's and
    tri_tile's rules off here: tested below)."""
    from linalg._cuda import syrk as gsyrk
    calls = []
    monkeypatch.setattr(gsyrk, "GEMM_SMALL_UPTO", {})
    monkeypatch.setattr(gsyrk, "TILE_FROM", {})
    monkeypatch.setattr(gsyrk, "_kernel_syrk", lambda *args: calls.append("small"))
    monkeypatch.setattr(gsyrk, "_gemm_syrk", lambda *args: calls.append("gemm"))
    for dtype in ("float32", "float64"):
        below = gsyrk.SMALL_BATCH_BELOW[dtype]
        assert below > 1
        calls.clear()
        for n, batch in ((24, below), (32, 1), (64, below - 1), (32, below), (65, 1)):
            gsyrk.syrk(numpy.empty((batch, n, n), dtype))
        gsyrk.syrk(numpy.empty((1, 32, 32), numpy.complex128))
        assert calls == ["small", "small", "small", "gemm", "gemm", "gemm"], dtype


def test_syrk_gemm_small_and_tri_tile_serve_their_measured_ranges_with_c_unread(monkeypatch):
    """gemm_small (B = A) takes SYRK where GEMM_SMALL_UPTO admits n for the dtype and transpose,
    the inner dimension is at most GEMM_SMALL_MAX_K, C is not read and A is C-contiguous; then
    tri_tile where TILE_FROM admits n, C is not read and A's rows are unit-stride; else the older
    rules (syrk_small up to MAX_N, then GEMM + mirror)."""
    from linalg._cuda import syrk as gsyrk
    assert gsyrk.GEMM_SMALL_UPTO == {("float64", False): 47, ("float64", True): 44,
                                     ("float32", False): 56, ("float32", True): 48}
    assert gsyrk.TILE_FROM == {"float64": (48, 512), "float32": (49, 512)}
    calls = []
    monkeypatch.setattr(gsyrk, "_gemm_small_syrk", lambda *args: calls.append("gemm_small"))
    monkeypatch.setattr(gsyrk.tri, "tile_syrk", lambda *args, **kw: calls.append("tile"))
    monkeypatch.setattr(gsyrk, "_kernel_syrk", lambda *args: calls.append("small"))
    monkeypatch.setattr(gsyrk, "_gemm_syrk", lambda *args: calls.append("gemm"))
    cases = [  # (dtype, n, kd, trans, beta, contiguous) -> path
        ("float64", 32, 32, "N", 0.0, True, "gemm_small"),
        ("float64", 32, 32, "T", 0.0, True, "gemm_small"),
        ("float64", 33, 33, "N", 0.0, True, "gemm_small"),
        ("float64", 47, 64, "N", 0.0, True, "gemm_small"),
        ("float64", 44, 44, "T", 0.0, True, "gemm_small"),
        ("float64", 45, 45, "T", 0.0, True, "gemm"),
        ("float64", 47, 65, "N", 0.0, True, "gemm"),         # k past GEMM_SMALL_MAX_K
        ("float64", 16, 65, "N", 0.0, True, "small"),        # k past GEMM_SMALL_MAX_K
        ("float64", 16, 16, "N", 0.5, True, "small"),        # C read
        ("float64", 16, 16, "N", 0.0, False, "small"),       # a strided view
        ("float32", 56, 56, "N", 0.0, True, "gemm_small"),
        ("float32", 48, 48, "T", 0.0, True, "gemm_small"),
        ("float32", 64, 64, "N", 0.0, True, "tile"),
        ("float32", 64, 64, "T", 0.0, True, "tile"),
        ("float64", 48, 48, "N", 0.0, True, "tile"),
        ("float64", 512, 20, "T", 0.0, True, "tile"),
        ("float64", 513, 20, "T", 0.0, True, "gemm"),         # past the measured range
        ("float64", 64, 64, "N", 0.5, True, "gemm"),          # C read
        ("float64", 64, 64, "N", 0.0, False, "gemm"),         # rows not unit-stride
    ]
    for dtype, n, kd, trans, beta, contiguous, path in cases:
        calls.clear()
        shape = (8, n, kd) if trans == "N" else (8, kd, n)
        a = numpy.empty(shape, dtype) if contiguous else numpy.empty(shape[:2] + (2 * shape[2],),
                                                                     dtype)[:, :, ::2]
        monkeypatch.setattr(gsyrk, "SMALL_BATCH_BELOW", {"float32": 0, "float64": 0})
        c = numpy.empty((8, n, n), dtype) if beta else None
        gsyrk.syrk(a, c, True, trans, 1.0, beta)
        assert calls == [path], (dtype, n, kd, trans, beta, contiguous)


def test_trsv_staged_serves_its_measured_range_only(monkeypatch):
    """trsv_staged serves STAGED_RANGE (float64 n = 25-32, measured by
    scripts/probe_trsv_staged.py; float32 none since its rows load as vectors), never above
    STAGED_MAX or with forced kernel parameters; other n go to trsv_warp."""
    assert trsv_mod.STAGED_RANGE == {"float64": (25, 32)}
    monkeypatch.setattr(trsv_mod, "BLOCK_BELOW", {})        # batch 2, n = 33: else trsv_block
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {})       # (or trsv_split)
    monkeypatch.setitem(sys.modules, "cupy", types.ModuleType("cupy"))     # imported, not used
    calls = []
    monkeypatch.setattr(trsv_mod, "launch_staged", lambda *args, **kwargs: calls.append("staged"))
    monkeypatch.setattr(trsv_mod, "launch_warp", lambda *args, **kwargs: calls.append("warp"))
    monkeypatch.setattr(trsv_mod, "cached_plan", lambda *args: ("warp", 4, None, None, 1, None))
    monkeypatch.setattr(trsv_mod, "small_batch", lambda op, a: False)
    sizes = (8, 24, 25, 31, 32, 33)
    expected = {"float64": ["warp", "warp", "staged", "staged", "staged", "warp"],
                "float32": ["warp", "warp", "warp", "warp", "warp", "warp"]}
    for dtype, wanted in expected.items():
        calls.clear()
        for n in sizes:
            trsv_mod.trsv(numpy.empty((2, n, n), dtype), numpy.empty((2, n), dtype))
        trsv_mod.trsv(numpy.empty((2, 32, 32), dtype), numpy.empty((2, 32), dtype),
                      _params={"kernel": "warp"})
        assert calls == wanted + ["warp"], dtype
    monkeypatch.setattr(trsv_mod, "STAGED_RANGE", trsv_mod.STAGED_EVERY_N)
    calls.clear()
    for n in sizes:
        trsv_mod.trsv(numpy.empty((2, n, n), numpy.float32), numpy.empty((2, n), numpy.float32))
    assert calls == ["staged"] * 5 + ["warp"]
    monkeypatch.setattr(trsv_mod, "STAGED_RANGE", {})
    calls.clear()
    trsv_mod.trsv(numpy.empty((2, 32, 32)), numpy.empty((2, 32)))
    assert calls == ["warp"]


def test_potrs_vector_takes_trsv_staged_in_its_range(monkeypatch):
    """One right-hand side with n in STAGED_POTRS_RANGE (float64 n = 25-32, measured): both
    solves by one trsv_staged launch (potrs=True, trans 0 for lower, 1 for upper); other n,
    float32, or more right-hand sides, never."""
    from linalg._cuda import cholesky as chol_mod
    assert trsv_mod.STAGED_POTRS_RANGE == {"float64": (25, 32)}
    calls = []
    monkeypatch.setattr(trsv_mod, "launch_staged", lambda *args, **kwargs: calls.append(args[2:]))
    monkeypatch.setattr(trsv_mod, "launch_warp", lambda *args, **kwargs: calls.append("warp"))
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: False)
    monkeypatch.setattr(tri_mod, "pair_launch", lambda op, a: False)
    monkeypatch.setattr(chol_mod, "chol_solve", lambda *args, **kwargs: calls.append("solve"))
    monkeypatch.setattr(blas, "data_ptr", lambda arr: arr.ctypes.data)       # NumPy stand-ins
    for lower in (True, False):
        chol_mod.potrs(numpy.empty((3, 27, 27)), numpy.empty((3, 27, 1)), lower)
    chol_mod.potrs(numpy.empty((3, 24, 24)), numpy.empty((3, 24, 1)), True)
    chol_mod.potrs(numpy.empty((3, 27, 27), numpy.float32), numpy.empty((3, 27, 1), numpy.float32))
    chol_mod.potrs(numpy.empty((3, 32, 32), numpy.float32), numpy.empty((3, 32, 1), numpy.float32))
    chol_mod.potrs(numpy.empty((3, 32, 32)), numpy.empty((3, 32, 2)), True)
    assert calls == [(True, 0, False, True), (False, 1, False, True), "warp", "warp", "warp",
                     "solve"]


def test_kept_operands_take_the_out_of_place_kernels_or_one_copy(monkeypatch):
    """With ``keep`` naming the written operand, the one-launch leaves (chol_small, chol_solve,
    tri_vec / tri_warp) get a new ``out`` and read the caller's array; paths that work in place
    only run on one copy (``writable``); tri_tile and the dense products only read B."""
    from linalg._cuda import cholesky as chol_mod
    events = []
    monkeypatch.setattr(tri_mod, "result_array",
                        lambda x, name, keep: (events.append(("new", name)), x.copy())[1]
                        if name in keep else x)
    monkeypatch.setattr(tri_mod, "writable",
                        lambda x, name, keep: (events.append(("copy", name)), x.copy())[1]
                        if name in keep else x)
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: False)
    monkeypatch.setattr(tri_mod, "one_launch", lambda op, a: False)
    monkeypatch.setattr(tri_mod, "pair_launch", lambda op, a: False)
    monkeypatch.setattr(tri_mod, "use_cols", lambda op, a, nvec=None: False)
    def record(name, written=None):
        """A stand-in launcher: records its name (and whether it wrote a new array)."""
        def launch(*args, out=None, **kwargs):
            events.append((name,) if written is None else (name, out is not args[written]))
        return launch
    monkeypatch.setattr(tri_mod, "chol_small", record("chol_small", 0))
    monkeypatch.setattr(chol_mod, "chol_solve", record("chol_solve", 1))
    monkeypatch.setattr(tri_mod, "solve_leaf", record("solve_leaf", 1))
    monkeypatch.setattr(chol_mod, "potrf_panels",
                        lambda a, lower, src=None: events.append(("panels", src is not None)))
    monkeypatch.setattr(trsv_mod, "launch_warp", record("trsv_warp"))
    monkeypatch.setattr(trsv_mod, "launch_staged", record("trsv_staged"))
    monkeypatch.setattr(tri_mod, "trsm_inplace", lambda *args, src=None, **kwargs:
                        events.append(("recursion", src is not None)))
    monkeypatch.setattr(tri_mod, "_diag_info", lambda *args, **kwargs: None)
    monkeypatch.setattr(tri_mod, "tile_trmm", lambda *args, **kwargs: events.append(("tile",)))

    def run(fn, *args, **kwargs):
        events.clear()
        fn(*args, **kwargs)
        return list(events)
    monkeypatch.setattr(chol_mod, "potrf_tensor",
                        lambda a, lower, src=None: events.append(("tensor", src is not None)))
    m16, m100 = numpy.empty((2, 16, 16)), numpy.empty((2, 100, 100))
    assert run(chol_mod.potrf, m16, True, keep=("a",)) == [("new", "a"), ("chol_small", True)]
    assert run(chol_mod.potrf, m16, True) == [("chol_small", False)]
    # chol_tensor in TENSOR_RANGE (float64 48..128), reading a kept input in place of a copy;
    # ahead of the one-launch and small-batch paths; in place from TENSOR_IN_PLACE_FROM or
    # below TENSOR_IN_PLACE_BELOW
    monkeypatch.setattr(chol_mod, "TENSOR_RANGE", {"float64": (48, 128)})
    monkeypatch.setattr(tri_mod, "one_launch", lambda op, a: True)
    assert run(chol_mod.potrf, m100, True, keep=("a",)) == [("new", "a"), ("tensor", True)]
    assert run(chol_mod.potrf, m100, True) == [("tensor", False)]
    monkeypatch.setattr(chol_mod, "TENSOR_IN_PLACE_BELOW", 2)
    assert run(chol_mod.potrf, m100, True) == [("tensor", False)]        # n from 49
    monkeypatch.setattr(chol_mod, "TENSOR_IN_PLACE_FROM", 101)
    assert run(chol_mod.potrf, m100, True, keep=("a",)) == [("new", "a"), ("tensor", True)]
    assert run(chol_mod.potrf, m100, True) == [("chol_small", False)]
    monkeypatch.setattr(tri_mod, "one_launch", lambda op, a: False)
    assert run(chol_mod.potrf, m100, True) == [("panels", False)]
    monkeypatch.setattr(chol_mod, "TENSOR_RANGE", {})          # the panels below
    # chol_global from GLOBAL_FROM to GLOBAL_MAX below its batch bound, ahead of the vendor's
    # small-batch path and the panels, reading a kept input in place of a copy
    # (chol_cluster: the same launcher with its blocks a matrix)
    monkeypatch.setattr(chol_mod, "potrf_global", lambda a, lower, src=None, blocks=1:
                        events.append(("global", src is not None, blocks)))
    monkeypatch.setattr(chol_mod, "clusters", lambda device_id: True)
    monkeypatch.setattr(chol_mod, "current_device", lambda: 0)
    monkeypatch.setattr(chol_mod, "GLOBAL_FROM", 100)
    monkeypatch.setattr(chol_mod, "GLOBAL_BATCHES", {"float64": ((512, 1, 3, 1),)})
    small_batch = tri_mod.small_batch
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: True)
    assert run(chol_mod.potrf, m100, True, keep=("a",)) == [("new", "a"), ("global", True, 1)]
    assert run(chol_mod.potrf, m100, True) == [("global", False, 1)]
    monkeypatch.setattr(chol_mod, "GLOBAL_BATCHES", {"float64": ((512, 1, 3, 4),)})
    assert run(chol_mod.potrf, m100, True, keep=("a",)) == [("new", "a"), ("global", True, 4)]
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: False)
    monkeypatch.setattr(chol_mod, "GLOBAL_BATCHES", {"float64": ((512, 1, 2, 1),)})
    assert run(chol_mod.potrf, m100, True) == [("panels", False)]
    monkeypatch.setattr(chol_mod, "GLOBAL_BATCHES", {})
    monkeypatch.setattr(tri_mod, "small_batch", small_batch)
    # out-of-place panels from PANEL_OUT_FROM (float64 48, float32 64), one copy first below
    assert chol_mod.PANEL_OUT_FROM == {"float64": 48, "float32": 64}
    for m in (m100[:, :48, :48], m100, numpy.zeros((2, 64, 64), numpy.float32)):
        assert run(chol_mod.potrf, m, True, keep=("a",)) == [("new", "a"), ("panels", True)]
        assert run(chol_mod.potrf, m, True) == [("panels", False)]
    for m in (m100[:, :47, :47], numpy.zeros((2, 63, 63), numpy.float32)):
        assert run(chol_mod.potrf, m, True, keep=("a",)) == [("copy", "a"), ("panels", False)]
    assert run(chol_mod.potrs, m16, numpy.empty((2, 16, 3)), True, keep=("b",)) == \
        [("new", "b"), ("chol_solve", True)]
    assert run(chol_mod.potrs, numpy.empty((2, 4, 4)), numpy.empty((2, 4, 1)), True,
               keep=("b",)) == [("new", "b"), ("solve_leaf", True)]
    assert run(chol_mod.potrs, m16, numpy.empty((2, 16, 1)), True, keep=("b",)) == \
        [("new", "b"), ("trsv_warp",)]
    assert run(chol_mod.potrs, numpy.empty((2, 27, 27)), numpy.empty((2, 27, 1)), True,
               keep=("b",)) == [("new", "b"), ("trsv_staged",)]
    assert run(chol_mod.posv, m16, numpy.empty((2, 16, 3)), True, keep=("a", "b")) == \
        [("new", "b"), ("chol_solve", True)]
    assert run(chol_mod.poti, m16, True, keep=("a",)) == [("new", "a"), ("chol_small", True)]
    assert run(chol_mod.potri, m16, True, keep=("l",)) == [("new", "l"), ("chol_small", True)]
    assert run(tri_mod.trsm, m16, numpy.empty((2, 16, 5)), keep=("b",)) == \
        [("new", "b"), ("solve_leaf", True)]
    assert run(tri_mod.trsm, m100, numpy.empty((2, 100, 5)), keep=("b",)) == \
        [("new", "b"), ("recursion", True)]
    assert run(tri_mod.trsm, m100, numpy.empty((2, 100, 5))) == [("recursion", False)]
    monkeypatch.setattr(tri_mod, "trtri_recursion",
                        lambda a, lower, unit, src=None: events.append(("trtri", src is not None)))
    monkeypatch.setattr(tri_mod, "triangle_fix", lambda a, keep_lower, zero: a)
    # chol_tensor_trtri in TENSOR_TRTRI_RANGE, reading a kept input; else the recursion
    monkeypatch.setattr(chol_mod, "tensor_trtri", lambda a, lower, unit, out=None:
                        events.append(("tensor_trtri", out is not a)))
    assert run(tri_mod.trtri, m100, True, False, keep=("a",)) == [("new", "a"),
                                                                 ("tensor_trtri", True)]
    assert run(tri_mod.trtri, m100, True, False) == [("tensor_trtri", False)]
    monkeypatch.setattr(chol_mod, "TENSOR_TRTRI_RANGE", {})
    assert run(tri_mod.trtri, m100, True, False, keep=("a",)) == [("new", "a"), ("trtri", True)]
    assert run(tri_mod.trtri, m100, True, False) == [("trtri", False)]
    assert run(tri_mod.trtri, m16, True, False, keep=("a",)) == [("new", "a"), ("chol_small", True)]
    monkeypatch.setattr(tri_mod, "tri_pair", record("tri_pair", 1))
    monkeypatch.setattr(tri_mod, "tri_block_trmm", record("tri_block", 1))
    monkeypatch.setattr(tri_mod, "tri_block_lauum", record("tri_block", 0))
    m48 = numpy.empty((2, 48, 48))
    # float64 TRSM: tri_pair "nested" -- in the recursion's blocks, and for a kept B from
    # PAIR_KEPT_FROM; the recursion otherwise, out of place for a kept float64 B.
    assert tri_mod.PAIR_RULES[("trsm", "float64")] == "nested"
    assert ("trsm", "float32") not in tri_mod.PAIR_RULES
    m56 = numpy.empty((2, 56, 56))
    assert run(tri_mod.trsm, m56, numpy.empty((2, 56, 5)), keep=("b",)) == \
        [("new", "b"), ("tri_pair", True)]
    assert run(tri_mod.trsm, m56, numpy.empty((2, 56, 5))) == [("recursion", False)]
    assert tri_mod.PAIR_KEPT_FROM == 56               # below: the out-of-place recursion
    assert run(tri_mod.trsm, m48, numpy.empty((2, 48, 5)), keep=("b",)) == \
        [("new", "b"), ("recursion", True)]
    # float32: a copy first (the out-of-place recursion lost there)
    assert tri_mod.RECURSION_SRC_DTYPES == {numpy.dtype(numpy.float64)}
    assert run(tri_mod.trsm, numpy.zeros((2, 48, 48), numpy.float32),
               numpy.zeros((2, 48, 5), numpy.float32), keep=("b",)) == \
        [("copy", "b"), ("recursion", False)]
    monkeypatch.setattr(tri_mod, "use_pair", lambda op, dtype, n, nested=False: True)
    assert run(tri_mod.trsm, m48, numpy.empty((2, 48, 5)), keep=("b",)) == \
        [("new", "b"), ("tri_pair", True)]
    assert run(chol_mod.potrs, m48, numpy.empty((2, 48, 5)), True, keep=("b",)) == \
        [("new", "b"), ("tri_pair", True)]
    monkeypatch.setattr(tri_mod, "use_block", lambda op, dtype, n, variant: True)
    assert run(tri_mod.trmm, m48, numpy.empty((2, 48, 5)), keep=("b",)) == \
        [("new", "b"), ("tri_block", True)]
    assert run(tri_mod.lauum, m48, True, keep=("a",)) == [("new", "a"), ("tri_block", True)]
    monkeypatch.setattr(tri_mod, "use_tile", lambda op, dtype, n, variant, batch=None: True)
    monkeypatch.setattr(tri_mod, "use_block", lambda op, dtype, n, variant: False)
    monkeypatch.setattr(chol_mod, "TENSOR_TRMM_RULES", {})
    assert run(tri_mod.trmm, m100, numpy.empty((2, 100, 5)), keep=("b",)) == [("tile",)]
    # chol_tensor_trmm ahead of the tile where its rules take n: out of place into a new array
    monkeypatch.setattr(chol_mod, "TENSOR_TRMM_RULES", {"float64": ((65, 128, 1),)})
    monkeypatch.setattr(chol_mod, "tensor_trmm", lambda a, b, *args, out=None, right=False:
                        events.append(("tensor_trmm", out is not b)))
    assert run(tri_mod.trmm, m100, numpy.empty((2, 100, 5)), keep=("b",)) == \
        [("new", "b"), ("tensor_trmm", True)]
    assert run(tri_mod.trmm, m100, numpy.empty((2, 100, 5))) == [("tensor_trmm", False)]


def test_tri_tile_serves_the_sizes_that_fill_its_tiles():
    """use_tile: TILE_RULES' (first, last, least fill, least batch) per op, dtype and variant, the
    fill n / (64 ceil(n / 64)) measured by scripts/probe_trmm_tile.py rules (last on the H200 on
    TILE_CHUNKED's grid, 2026-11-28) and p_trmm_syrk.py: float64 left N TRMM from 88 on the chunked
    sizes (n = 80 lost), from a fill of 0.76 above (n = 129-145 stay dense); right N from 72, 0.7
    above (n = 129-134 dense); left T from 72; right T from a fill of 0.9 up to n = 128 (112
    lost); float32 left N / right T from 96 (right T from a fill of 0.85 at 97-128: 104 lost),
    right N from 80, left T from 72; LAUUM float64 everywhere above BLOCK_MAX, float32 from 72
    (n <= 76 from 300 matrices); nothing above TILE_MAX."""
    def sizes(op, dtype, variant):
        return [n for n in (64, 72, 80, 88, 96, 112, 128, 160, 192, 256, 257, 288, 384, 512, 513)
                if tri_mod.use_tile(op, dtype, n, variant)]
    big = [288, 384, 512]
    from72 = [72, 80, 88, 96, 112, 128, 160, 192, 256, 257] + big
    assert sizes("trmm", numpy.float64, "left") == [88, 96, 112, 128, 160, 192, 256, 257] + big
    assert sizes("trmm", numpy.float64, "left_t") == from72
    assert sizes("trmm", numpy.float64, "right") == from72
    assert sizes("trmm", numpy.float64, "right_t") == [128, 192, 256] + big
    assert sizes("trmm", numpy.float32, "left") == [96, 112, 128, 160, 192, 256, 257] + big
    assert sizes("trmm", numpy.float32, "left_t") == from72
    assert sizes("trmm", numpy.float32, "right") == from72[1:]
    assert sizes("trmm", numpy.float32, "right_t") == [96, 112, 128, 160, 192, 256, 257] + big
    assert sizes("lauum", numpy.float64, "upper") == from72
    assert sizes("lauum", numpy.float32, "lower") == from72
    # a rule's fill holds only over its own range of n
    assert [n for n in (130, 131, 145, 146) if tri_mod.use_tile("trmm", numpy.float64, n,
                                                                  "left")] == [146]
    assert [n for n in (129, 134, 135) if tri_mod.use_tile("trmm", numpy.float64, n,
                                                             "right")] == [135]
    assert [n for n in (104, 108, 109, 112) if tri_mod.use_tile("trmm", numpy.float32, n,
                                                                  "right_t")] == [109, 112]
    # and its batch count
    for lower in ("lower", "upper"):
        assert [b for b in (1, 299, 300, 10240) if tri_mod.use_tile("lauum", numpy.float32, 72,
                                                                      lower, b)] == [300, 10240]
        assert tri_mod.use_tile("lauum", numpy.float32, 77, lower, 1)


def test_tri_tile_serves_small_trmm_batches_at_any_fill():
    """TRMM on at most TILE_ANY_FILL_BELOW["trmm"] matrices takes tri_tile at every n the tiles
    serve (its one launch beat the dense path's two at batch 1-300 where the fill had kept it
    off); from the next batch count the fill rules again; LAUUM keeps its own rules (float32
    n = 72 on chol_block below 300 matrices)."""
    small, big = tri_mod.TILE_ANY_FILL_BELOW["trmm"], tri_mod.TILE_ANY_FILL_BELOW["trmm"] + 1
    for dtype in (numpy.float32, numpy.float64):
        for variant in ("left", "left_t", "right", "right_t"):
            for n in (65, 72, 96, 160, 257, 512):
                assert tri_mod.use_tile("trmm", dtype, n, variant, small)
                assert tri_mod.use_tile("trmm", dtype, n, variant, 1)
                assert (tri_mod.use_tile("trmm", dtype, n, variant, big)
                        == tri_mod.use_tile("trmm", dtype, n, variant))
            assert not tri_mod.use_tile("trmm", dtype, 64, variant, 1)
            assert not tri_mod.use_tile("trmm", dtype, 513, variant, 1)
    assert not tri_mod.use_tile("trmm", numpy.float64, 80, "left", big)
    assert not tri_mod.use_tile("lauum", numpy.float32, 72, "lower", 1)
    assert not tri_mod.use_tile("lauum", numpy.float32, 72, "lower", 100)


def test_tri_tile_takes_single_tile_trmm_batches():
    """At TILE_ONE_TILE's first n..64 (one tile a matrix) float64 TRMM takes tri_tile from its
    batch count, every variant (H200, persistent grid, against tri_block in place: 1.0-1.47x at
    n = 56-64 from 3000 matrices; n = 48-54 lost or tied at 3000; trmm also asks
    rows_by_16_bytes); tri_block keeps fewer matrices, smaller n, float32 (it lost with fewer
    vectors than n), LAUUM, and a call without a batch count."""
    first, least = tri_mod.TILE_ONE_TILE[("trmm", "float64")]
    assert 48 < first <= 58 and 1000 < least <= 10240
    assert ("trmm", "float32") not in tri_mod.TILE_ONE_TILE
    for variant in ("left", "left_t", "right", "right_t"):
        for n in (first, 58, 62, 64):
            assert tri_mod.use_tile("trmm", numpy.float64, n, variant, least)
            assert tri_mod.use_tile("trmm", numpy.float64, n, variant, 100 * least)
            assert not tri_mod.use_tile("trmm", numpy.float64, n, variant, least - 1)
            assert not tri_mod.use_tile("trmm", numpy.float64, n, variant)
            assert not tri_mod.use_tile("trmm", numpy.float32, n, variant, 100 * least)
        assert not tri_mod.use_tile("trmm", numpy.float64, first - 1, variant, 100 * least)
    for triangle in ("lower", "upper"):
        assert not tri_mod.use_tile("lauum", numpy.float64, 64, triangle, 100 * least)


def test_rows_by_16_bytes_needs_aligned_rows_matrices_and_base(monkeypatch):
    """rows_by_16_bytes: unit column stride, row stride, batch stride and base on 16 bytes."""
    monkeypatch.setattr(blas, "data_ptr", lambda x: x.ctypes.data)
    base = numpy.empty((4, 64, 66))
    assert base.ctypes.data % 16 == 0
    assert tri_mod.rows_by_16_bytes(base[:, :, :62], base[:, :62, :62])
    assert not tri_mod.rows_by_16_bytes(numpy.empty((4, 61, 61)))          # 488-byte rows
    assert not tri_mod.rows_by_16_bytes(base, base[:, :, 1:])              # base 8 bytes off
    assert not tri_mod.rows_by_16_bytes(base[:, :, ::2])                   # column stride 2
    assert not tri_mod.rows_by_16_bytes(numpy.empty((4, 3, 3), numpy.float32))      # 12-byte rows


def test_trmm_routes_single_tile_batches_by_count_and_alignment(monkeypatch):
    """trmm at n <= 64: tri_tile from TILE_ONE_TILE's first n and batch count where the operands
    move by 16-byte copies (a new array, B only read), tri_block below them or when they do not."""
    events, aligned = [], [True]
    monkeypatch.setattr(tri_mod, "TILE_ONE_TILE", {("trmm", "float64"): (48, 3)})
    monkeypatch.setattr(tri_mod, "rows_by_16_bytes", lambda *arrays: aligned[0])
    monkeypatch.setattr(tri_mod, "tile_trmm", lambda *args: events.append("tile") or "new")
    monkeypatch.setattr(tri_mod, "tri_block_trmm",
                        lambda a, b, flags, alpha, out=None: events.append("tri_block") or out)
    monkeypatch.setattr(tri_mod, "result_array", lambda x, name, keep: x)
    for n, batch, ok, path in ((48, 3, True, "tile"), (64, 3, True, "tile"),
                               (64, 2, True, "tri_block"), (47, 3, True, "tri_block"),
                               (62, 3, False, "tri_block")):
        events.clear()
        aligned[0] = ok
        a, b = numpy.empty((batch, n, n)), numpy.empty((batch, n, 6))
        for side in ("left", "right"):
            tri_mod.trmm(a, b if side == "left" else b.swapaxes(1, 2), side)
        assert events == [path, path], (n, batch, ok)


def record_tri_tile_grids(monkeypatch, split=1):
    """_tri_tile with the device stubbed (132 SMs, device 0, no 16-byte operands, ``split``
    blocks an item) and _tri_tile_config recording its (grid cap, chunked); returns the list."""
    seen = []
    monkeypatch.setattr(blas, "sm_count", lambda: 132)
    monkeypatch.setattr(tri_mod, "current_device", lambda: 0)
    monkeypatch.setattr(tri_mod, "_vec_flag", lambda *args, **kw: 0)
    monkeypatch.setattr(tri_mod, "tile_split", lambda items, kdim, device: split)

    def config(device, dtype, sym, cap, shape, km, patch, split, runs, chunked):
        seen.append((cap, chunked))
        return (lambda grid, threads, args, smem: None), 10**9, 0
    monkeypatch.setattr(tri_mod, "_tri_tile_config", config)
    return seen


def launch_tri_tile(n, persistent=False):
    """One _tri_tile call over 1000 float64 n x n matrices (the operands' shapes unused)."""
    x = numpy.empty((1000, 8, 8))
    tri_mod._tri_tile(x, 0, 1, 8, x, 0, 8, 1, x, 0, 8, 1, n, n, n, 1000, 0, 1.0, False,
                      persistent=persistent)


def test_tile_trmm_launches_single_tiles_on_a_persistent_grid(monkeypatch):
    """tile_trmm asks _tri_tile for the persistent grid at n <= BLOCK_MAX only; _tri_tile caps
    the grid at TILE_SHAPE's blocks an SM times the SMs then, TILE_GRID overriding."""
    asked = []
    monkeypatch.setattr(tri_mod, "cupy_module", lambda: numpy)
    real = tri_mod._tri_tile
    monkeypatch.setattr(tri_mod, "_tri_tile",
                        lambda *args, persistent=False: asked.append(persistent))
    for n in (48, 64, 65):
        tri_mod.tile_trmm(numpy.empty((2, n, n)), numpy.empty((2, n, 8)), False, True, False,
                          False)
    assert asked == [True, True, False]
    monkeypatch.setattr(tri_mod, "_tri_tile", real)
    seen = record_tri_tile_grids(monkeypatch)
    for persistent, grid in ((True, 0), (False, 0), (True, 5)):
        monkeypatch.setattr(tri_mod, "TILE_GRID", grid)
        launch_tri_tile(48, persistent)
    assert [cap for cap, _ in seen] == [tri_mod.TILE_SHAPE["float64"][2] * 132, 0, 5]


def test_chunked_tile_grid_is_persistent_and_compiled_as_such_above_one_tile(monkeypatch):
    """Where TILE_CHUNKED admits n, _tri_tile launches the resident blocks (or TILE_GRID's) of
    tri_tile compiled with TT_CHUNKED_OPT (``chunked``), neither for one tile a matrix (its own
    persistent grid) nor for tri_tile_split nor for an n outside the rule (a block an item)."""
    monkeypatch.setattr(tri_mod, "TILE_CHUNKED", {"float64": (65, 100)})
    blocks = tri_mod.TILE_SHAPE["float64"][2] * 132
    cases = ((100, False, 1, 0), (100, True, 1, 0), (100, False, 4, 0), (100, False, 1, 7),
             (101, False, 1, 0), (64, False, 1, 0))
    seen = []
    for n, persistent, split, grid in cases:
        launches = record_tri_tile_grids(monkeypatch, split)
        monkeypatch.setattr(tri_mod, "TILE_GRID", grid)
        launch_tri_tile(n, persistent)
        seen += launches
    assert seen == [(blocks, True), (blocks, False), (0, False), (7, True), (0, False),
                    (0, False)]


def test_out_of_place_results_must_share_the_inputs_strides_where_they_are_used():
    """check_twin: one leading dimension and batch stride serve both arrays of an out-of-place
    launch; a dimension of length 1 may carry any stride (a vector batch reshaped to (batch, n,
    1), as the public POTRS passes it)."""
    x = numpy.empty((5, 2, 1), numpy.float32)
    reshaped = numpy.lib.stride_tricks.as_strided(x, x.shape, (8, 4, 8))
    assert tri_mod.check_twin(x, reshaped) is x
    with pytest.raises(ValueError, match="does not match its input"):
        tri_mod.check_twin(numpy.empty((5, 2, 3)), numpy.empty((5, 3, 2)).swapaxes(1, 2))
    with pytest.raises(ValueError, match="does not match its input"):
        tri_mod.check_twin(numpy.empty((5, 2, 3), numpy.float32), numpy.empty((5, 2, 3)))


def _numpy_gemm(c, a, b, alpha=1.0, beta=0.0):
    """cuBLAS's C := alpha A B + beta C on views; beta = 0 does not read C (it may be garbage)."""
    c[...] = alpha * (a @ b) + (beta * c if beta else 0)


def _numpy_chol_panel(a, j0, lower, info, src=None):
    """kernels/potrf.cu chol_panel's arithmetic in NumPy: the panel input (src's entries plus,
    past the first panel, a's with src) factored and solved in the lower form; zeros right of the
    diagonal block's rows (left of them, upper)."""
    if not lower:                       # the upper form is the lower one of the transpose
        a = a.swapaxes(1, 2)
        src = None if src is None else src.swapaxes(1, 2)
    w = min(tri_mod.LEAF, a.shape[1] - j0)
    panel = a[:, j0:, j0:j0 + w]
    given = panel if src is None else src[:, j0:, j0:j0 + w] + (panel if j0 else 0)
    d = numpy.tril(given[:, :w, :w])
    factor = numpy.linalg.cholesky(d + numpy.tril(d, -1).swapaxes(1, 2))
    below = given[:, w:, :] @ numpy.linalg.inv(factor).swapaxes(1, 2)
    panel[:, :w, :], panel[:, w:, :] = factor, below
    a[:, j0:j0 + w, j0 + w:] = 0
    return info


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [33, 100])
def test_panels_with_a_source_factor_it_without_writing_it(monkeypatch, lower, n):
    """potrf_panels(out, lower, src) with the GEMMs and panel kernels standing in with NumPy
    (the kernel's OUT arithmetic: src's entries plus the -L L^T that a beta = 0 GEMM wrote):
    out becomes the Cholesky factor of src with a zero other triangle, src is only read, and the
    in-place factorization of a copy gives the same factor."""
    from linalg._cuda import cholesky as chol_mod
    monkeypatch.setattr(tri_mod, "gemm", _numpy_gemm)
    monkeypatch.setattr(chol_mod, "chol_panel", _numpy_chol_panel)
    rng = numpy.random.default_rng(0)
    g = rng.standard_normal((2, n, n))
    spd = g @ g.swapaxes(1, 2) + n * numpy.eye(n)
    other = numpy.triu(numpy.ones((n, n)), 1) if lower else numpy.tril(numpy.ones((n, n)), -1)
    src = numpy.where(other > 0, numpy.nan, spd)      # the other triangle is never read
    before = src.copy()
    out = numpy.full_like(src, numpy.nan)             # a new array: garbage everywhere
    chol_mod.potrf_panels(out, lower, src=src)
    numpy.testing.assert_array_equal(src, before)
    factor = numpy.linalg.cholesky(spd)
    expected = factor if lower else factor.swapaxes(1, 2)
    numpy.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)
    inplace = numpy.where(other > 0, 0.0, spd)
    chol_mod.potrf_panels(inplace, lower)
    numpy.testing.assert_allclose(inplace, out, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [33, 100])
def test_trtri_recursion_out_of_place_reads_the_source_and_inverts(monkeypatch, lower, n):
    """trtri_recursion(x, lower, unit, src): with the leaves (chol_small) and GEMMs standing in
    with NumPy, x becomes the inverse of src's triangle, src is unchanged, and the in-place
    recursion on a copy gives the same result."""
    from linalg._cuda import cholesky as chol_mod
    monkeypatch.setattr(chol_mod, "TENSOR_TRTRI_RANGE", {})    # the recursion below its leaf
    fake = types.ModuleType("cupy")
    fake.empty = numpy.empty
    monkeypatch.setitem(sys.modules, "cupy", fake)

    def leaf(t, ops, low, unit, out=None):
        tri = numpy.tril(t) if low else numpy.triu(t)
        (t if out is None else out)[...] = numpy.linalg.inv(tri)

    monkeypatch.setattr(tri_mod, "chol_small", leaf)
    monkeypatch.setattr(tri_mod, "gemm", _numpy_gemm)
    rng = numpy.random.default_rng(7)
    src = rng.standard_normal((3, n, n)) + 4 * numpy.eye(n)
    before = src.copy()
    keep_tri = numpy.tril if lower else numpy.triu
    # the new array as trtri hands it over: garbage (NaN) in the referenced triangle, zeros in
    # the other (triangle_fix)
    x = numpy.where(keep_tri(numpy.ones((3, n, n))) > 0, numpy.nan, 0.0)
    tri_mod.trtri_recursion(x, lower, False, src=src)
    assert numpy.array_equal(src, before)
    expected = numpy.linalg.inv(keep_tri(src))
    assert numpy.allclose(x, expected, rtol=1e-10, atol=1e-12)
    inplace = keep_tri(src.copy())
    tri_mod.trtri_recursion(inplace, lower, False)
    assert numpy.allclose(inplace, x, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dtype,n,big,leaves", [
    ("float64", 128, False, [32, 32, 32, 32]), ("float64", 112, False, [32, 32, 32, 16]),
    ("float64", 64, False, [32, 32]), ("float32", 96, False, [32, 32, 32]),
    ("float64", 40, False, [32, 8]),
    ("float64", 128, True, [64, 64]), ("float64", 112, True, [64, 48]),
    ("float32", 96, True, [64, 32]), ("float64", 80, True, [64, 16]),
    ("float64", 40, True, [40]), ("float32", 39, True, [32, 7]), ("float64", 256, True, [64] * 4)])
def test_trtri_recursion_leaves_follow_one_launch_from(monkeypatch, dtype, n, big, leaves):
    """The TRTRI recursion's leaves are chol_small's up to LEAF, in order, and with
    ONE_LAUNCH_LEAVES also every block from ONE_LAUNCH_FROM to ONE_LAUNCH_MAX (chol_small<T, 64>)."""
    from linalg._cuda import cholesky as chol_mod
    monkeypatch.setattr(chol_mod, "TENSOR_TRTRI_RANGE", {})    # the recursion below its leaf
    fake = types.ModuleType("cupy")
    fake.empty = numpy.empty
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.setattr(tri_mod, "ONE_LAUNCH_FROM", {("trtri", "float64"): 40,
                                                     ("trtri", "float32"): 40})
    monkeypatch.setattr(tri_mod, "ONE_LAUNCH_LEAVES", big)
    seen = []
    monkeypatch.setattr(tri_mod, "chol_small",
                        lambda t, ops, low, unit, out=None: seen.append(t.shape[1]))
    monkeypatch.setattr(tri_mod, "gemm", lambda *args, **kwargs: None)
    tri_mod.trtri_recursion(numpy.zeros((2, n, n), dtype), True, False)
    assert seen == leaves


def _numpy_solve(a, b, flags, alpha=1.0, out=None, *mode):
    """The leaf / tri_pair solve in NumPy: op(T) X = alpha B (left) or X op(T) = alpha B (right)
    for the flag word of linalg/_cuda/triangular.py, or with TRI_POTRS A X = B for A = L L^T
    (lower) or U^T U, into ``out`` (b when None)."""
    t = numpy.tril(a) if flags & tri_mod.TRI_LOWER else numpy.triu(a)
    if flags & tri_mod.TRI_POTRS:
        spd = t @ t.swapaxes(1, 2) if flags & tri_mod.TRI_LOWER else t.swapaxes(1, 2) @ t
        (b if out is None else out)[...] = numpy.linalg.solve(spd, b)
        return
    if flags & tri_mod.TRI_UNIT:
        idx = numpy.arange(a.shape[1])
        t[:, idx, idx] = 1
    op = numpy.linalg.inv(t.swapaxes(1, 2) if flags & tri_mod.TRI_TRANS else t)
    x = alpha * (b @ op if flags & tri_mod.TRI_RIGHT else op @ b)
    (b if out is None else out)[...] = x


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("n", [40, 100])
def test_trsm_recursion_out_of_place_reads_the_source_and_solves(monkeypatch, right, lower,
                                                                 trans, n):
    """trsm_inplace(a, x, ..., src=b): with the leaves, tri_pair, GEMMs and copies standing in
    with NumPy, x becomes the solution for every side / triangle / transpose, b is unchanged,
    and the in-place recursion on a copy of b gives the same result."""
    monkeypatch.setattr(tri_mod, "solve_leaf", _numpy_solve)
    monkeypatch.setattr(tri_mod, "tri_pair",
                        lambda a, b, flags, mode, alpha=1.0, out=None:
                        _numpy_solve(a, b, flags, alpha, out))
    monkeypatch.setattr(tri_mod, "gemm", _numpy_gemm)
    monkeypatch.setattr(tri_mod, "copy_into", lambda out, x: out.__setitem__(Ellipsis, x))
    rng = numpy.random.default_rng(3)
    a = rng.standard_normal((2, n, n)) + 2 * n * numpy.eye(n)
    b = rng.standard_normal((2, 5, n) if right else (2, n, 5))
    before = b.copy()
    x = numpy.full_like(b, numpy.nan)
    tri_mod.trsm_inplace(a, x, right, lower, trans, False, 0.5, src=b)
    numpy.testing.assert_array_equal(b, before)
    flags = tri_mod._flags(right, lower, trans, False)
    expected = numpy.empty_like(b)
    _numpy_solve(a, b, flags, 0.5, expected)
    numpy.testing.assert_allclose(x, expected, rtol=1e-12, atol=1e-14)
    inplace = b.copy()
    tri_mod.trsm_inplace(a, inplace, right, lower, trans, False, 0.5)
    numpy.testing.assert_allclose(inplace, x, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dtype,batch,pair_blocks", [(numpy.float32, 2, True),
                                                     (numpy.float32, 4096, False),
                                                     (numpy.float64, 2, True)])
def test_trsm_recursion_runs_tri_pair_on_its_blocks_by_the_rules(monkeypatch, dtype, batch,
                                                                  pair_blocks):
    """TRSM's recursion (n = 160: blocks of 96 and 64, the 96 as 64 and 32) with the leaves,
    tri_pair and the GEMMs standing in with NumPy: tri_pair on the 64-row blocks for float64 (PAIR_RULES
    "nested") and for float32 (RECURSION_PAIR_BLOCKS) but n <= 128 on 2048 matrices or more
    (here the bound moved to n = 160 at batch 4096, batch 1 computed); the solution either way."""
    monkeypatch.setattr(tri_mod, "solve_leaf", _numpy_solve)
    pairs = []

    def fake_pair(a, b, flags, mode, alpha=1.0, out=None):
        pairs.append(a.shape[1])
        _numpy_solve(a, b, flags, alpha, out)
    monkeypatch.setattr(tri_mod, "tri_pair", fake_pair)
    monkeypatch.setattr(tri_mod, "gemm", _numpy_gemm)
    for name in ("use_cols", "small_batch", "pair_launch"):
        monkeypatch.setattr(tri_mod, name, lambda *args, **kwargs: False)
    monkeypatch.setattr(tri_mod, "_diag_info", lambda a, unit, prior=None: None)
    monkeypatch.setitem(tri_mod.RECURSION_PAIR_BLOCKS, ("trsm", "float32"), (160, 2048))
    assert tri_mod.recursion_pair_blocks("trsm", numpy.empty((batch, 160, 160), dtype)) == \
        (pair_blocks and dtype == numpy.float32)
    assert not tri_mod.recursion_pair_blocks("trsm", numpy.empty((2, 161, 161), numpy.float64))
    rng = numpy.random.default_rng(7)
    a = (rng.standard_normal((1, 160, 160)) + 320 * numpy.eye(160)).astype(dtype)
    b = rng.standard_normal((1, 160, 3)).astype(dtype)
    # the rule reads the batch count: a view of one matrix standing for `batch` of them
    monkeypatch.setattr(tri_mod, "recursion_pair_blocks",
                        lambda op, x, rule=tri_mod.recursion_pair_blocks:
                        rule(op, numpy.empty((batch,) + x.shape[1:], x.dtype)))
    expected = numpy.linalg.solve(numpy.tril(a.astype(numpy.float64)), b)
    x, _ = tri_mod.trsm(a, b.copy(), "left", True, "N", False, 1.0)
    assert pairs == ([64, 64] if pair_blocks else [])
    numpy.testing.assert_allclose(x, expected, rtol=1e-4 if dtype == numpy.float32 else 1e-12)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", [40, 100])
def test_potrs_recursion_out_of_place_reads_the_source_and_solves(monkeypatch, lower, n):
    """potrs_inplace(l, x, lower, src=b) with the leaves, tri_pair, GEMMs and copies standing in
    with NumPy: x solves A X = B for the factor's A, b is unchanged, and the in-place recursion
    on a copy gives the same result."""
    from linalg._cuda import cholesky as chol_mod
    monkeypatch.setattr(tri_mod, "solve_leaf", _numpy_solve)
    monkeypatch.setattr(tri_mod, "tri_pair",
                        lambda a, b, flags, mode, alpha=1.0, out=None: _numpy_solve(
                            a, b, flags | (tri_mod.TRI_POTRS if mode == tri_mod.TRI_WARP_POTRS
                                           else 0), alpha, out))
    monkeypatch.setattr(tri_mod, "gemm", _numpy_gemm)
    monkeypatch.setattr(tri_mod, "copy_into", lambda out, x: out.__setitem__(Ellipsis, x))
    rng = numpy.random.default_rng(5)
    g = rng.standard_normal((2, n, n))
    factor = numpy.linalg.cholesky(g @ g.swapaxes(1, 2) + n * numpy.eye(n))
    l = factor if lower else factor.swapaxes(1, 2).copy()
    b = rng.standard_normal((2, n, 3))
    before = b.copy()
    x = numpy.full_like(b, numpy.nan)
    chol_mod.potrs_inplace(l, x, lower, src=b)
    numpy.testing.assert_array_equal(b, before)
    expected = numpy.linalg.solve(factor @ factor.swapaxes(1, 2), b)
    numpy.testing.assert_allclose(x, expected, rtol=1e-10, atol=1e-12)
    inplace = b.copy()
    chol_mod.potrs_inplace(l, inplace, lower)
    numpy.testing.assert_allclose(inplace, x, rtol=1e-12, atol=1e-14)


def test_recursion_target_reads_a_kept_float64_operand_and_copies_otherwise(monkeypatch):
    """recursion_target: a kept float64 operand gives a new array and the operand as the
    recursion's source; a kept float32 one a copy to work in place (no source); an operand not
    kept itself."""
    monkeypatch.setattr(tri_mod, "result_array", lambda x, name, keep: ("new", x))
    monkeypatch.setattr(tri_mod, "writable",
                        lambda x, name, keep: ("copy", x) if name in keep else x)
    x64, x32 = numpy.zeros((2, 3, 3)), numpy.zeros((2, 3, 3), numpy.float32)
    out, src = tri_mod.recursion_target(x64, "b", ("b",))
    assert out[0] == "new" and out[1] is x64 and src is x64
    out, src = tri_mod.recursion_target(x32, "b", ("b",))
    assert out[0] == "copy" and out[1] is x32 and src is None
    out, src = tri_mod.recursion_target(x64, "b", ("a",))
    assert out is x64 and src is None


def test_plans_with_a_fixed_override_are_planned_once(monkeypatch):
    """cached_plan: equal override dicts (a caller's fixed kernel, e.g. SYRK's gemm_small) share
    one plan; other overrides, paths or keys get their own; an unhashable value is planned
    afresh each call."""
    calls = []

    def planner(gpu, size, override, path):
        calls.append((size, dict(override), path))
        return ("kernel", size)

    plan_probe = functools.lru_cache(maxsize=None)(planner)     # __wrapped__ is planner
    monkeypatch.setattr(_tuning, "gpu_name", lambda: "a test GPU")
    for _ in range(3):
        assert blas.cached_plan(plan_probe, (8,), {"kernel": "small"}, "kernel") == ("kernel", 8)
    assert len(calls) == 1
    blas.cached_plan(plan_probe, (8,), {"kernel": "small", "rm": 2}, "kernel")
    blas.cached_plan(plan_probe, (16,), {"kernel": "small"}, "kernel")
    blas.cached_plan(plan_probe, (8,), {"kernel": "small"}, None)
    assert len(calls) == 4
    for _ in range(2):
        blas.cached_plan(plan_probe, (8,), {"tiles": [1, 2]}, None)
    assert len(calls) == 6


def test_tri_tile_vector_flags_need_unit_stride_and_aligned_strides_and_base():
    """_vec_flag: 16-byte copies of an operand (v = 16 bytes of elements) and tri_tile's pair
    stores (v = 2): the f stride 1, the k and batch strides multiples of v, the base aligned to
    v elements; else no flag."""
    class Operand:
        def __init__(self, ptr, itemsize):
            self.data, self.itemsize = types.SimpleNamespace(ptr=ptr), itemsize
    flag = tri_mod.TT_VEC_OUT
    assert tri_mod._vec_flag(Operand(256, 8), 1, 64, 4096, flag, v=2) == flag
    assert tri_mod._vec_flag(Operand(256, 4), 1, 64, 4096, flag, v=2) == flag
    assert tri_mod._vec_flag(Operand(264, 4), 1, 64, 4096, flag, v=2) == flag    # 8-byte aligned
    assert tri_mod._vec_flag(Operand(260, 4), 1, 64, 4096, flag, v=2) == 0       # 4-byte only
    assert tri_mod._vec_flag(Operand(256, 8), 1, 65, 4096, flag, v=2) == 0       # odd rows
    assert tri_mod._vec_flag(Operand(256, 8), 1, 64, 4097, flag, v=2) == 0       # odd batch stride
    assert tri_mod._vec_flag(Operand(256, 8), 64, 1, 4096, flag, v=2) == 0       # columns
    assert tri_mod._vec_flag(Operand(264, 4), 1, 64, 4096, tri_mod.TT_VEC_X) == 0   # 16 bytes
    assert tri_mod._vec_flag(Operand(272, 4), 1, 64, 4096, tri_mod.TT_VEC_X) == tri_mod.TT_VEC_X


def test_trsv_without_the_vector_takes_the_class_scalar_row(fake_gpu, monkeypatch):
    """A class tuned with row vectors carries a "scalar" entry (lanes, warps, cap of the fastest
    single-load launch): an operand that cannot take the vector (odd n here) launches with it,
    not with the vector row's cap; an aligned one with the vector row."""
    gpu, _ = fake_gpu
    monkeypatch.setattr(trsv_mod, "BLOCK_BELOW", {})       # batch 3: else trsv_block
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {})      # (or trsv_split)
    seen = []
    config = trsv_mod._warp_config

    def spy(device, dtype, batch, n, warps, width, maxreg=None, fresh=False, vec=1):
        seen.append((warps, width, maxreg, vec))            # the launch's settings
        return config(device, dtype, batch, n, warps, width, maxreg, fresh, vec)
    monkeypatch.setattr(trsv_mod, "_warp_config", spy)
    for n in (255, 256):
        a = numpy.tril(numpy.ones((3, n, n), numpy.float32)) + n * numpy.eye(n, dtype=numpy.float32)
        trsv_mod.trsv(a, numpy.ones((3, n), numpy.float32))
    row = _tuning.lookup("trsv", "float32", "256", gpu=gpu)
    if "scalar" not in row:                  # the unknown GPU's defaults: no vector rows
        assert seen[0][3] == seen[1][3] == 1
        return
    s = row["scalar"]
    assert seen == [(s["warps"], s["width"], s["maxreg"], 1),
                    (row["warps"], row["width"], row["maxreg"], row["vec"])]


def test_small_batches_take_trsv_block(fake_gpu, monkeypatch):
    """Above n = 32 and below BLOCK_BELOW matrices, TRSV and the one-vector POTRS launch
    trsv_block: 4 warps a block up to batch 256, 2 above; from BLOCK_BELOW on, or with forced
    kernel parameters, trsv_warp. Where the table names a vendor batch (the H100's one matrix
    of n = 512), cuBLAS comes first; above MAX_N_KERNEL the one-vector POTRS never takes a
    TRSV kernel."""
    from linalg._cuda import cholesky as chol_mod
    gpu, launches = fake_gpu
    monkeypatch.setattr(trsv_mod, "BLOCK_BELOW", {"float64": 300})
    monkeypatch.setattr(trsv_mod, "SPLIT_BLOCKS", {})       # the smallest batches' kernel
    for batch, n, kernel, threads in ((3, 64, "trsv_block", 128), (299, 40, "trsv_block", 64),
                                      (300, 64, "trsv_warp", None), (3, 24, "trsv_warp", None)):
        launches.clear()
        a = numpy.tile(numpy.eye(n) * 2, (batch, 1, 1))
        x, _ = trsv_mod.trsv(a, numpy.ones((batch, n)))
        assert launches[0][1].startswith(kernel + "<double"), (batch, n)
        if threads:
            assert launches[0][3] == threads
    launches.clear()
    trsv_mod.trsv(numpy.tile(numpy.eye(64), (3, 1, 1)), numpy.ones((3, 64)),
                  _params={"kernel": "warp"}, _path="kernel")
    assert launches[0][1].startswith("trsv_warp<")
    launches.clear()
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: False)
    chol_mod.potrs(numpy.tile(numpy.eye(64), (3, 1, 1)), numpy.ones((3, 64, 1)), True)
    assert launches[0][1].startswith("trsv_block<double") and launches[0][4][12] == 1   # potrs
    monkeypatch.setattr(trsv_mod, "small_batch", lambda op, a: True)
    launches.clear()
    trsv_mod.trsv(numpy.tile(numpy.eye(64), (3, 1, 1)), numpy.ones((3, 64)))
    assert launches == []                                   # the vendor's
    monkeypatch.setattr(tri_mod, "small_batch", lambda op, a: False)
    monkeypatch.setattr(trsv_mod, "MAX_N_KERNEL", 40)       # above it no TRSV kernel, any batch
    monkeypatch.setattr(chol_mod, "potrs_vector", lambda *args: pytest.fail("trsv kernel"))
    monkeypatch.setattr(tri_mod, "use_pair", lambda *args: True)
    monkeypatch.setattr(tri_mod, "tri_pair", lambda *args, **kwargs: "pair")
    assert chol_mod.potrs(numpy.tile(numpy.eye(48), (3, 1, 1)), numpy.ones((3, 48, 1)))[1] == "pair"


# ---------------------------------------------------------------------------------------------
# kernels/tri_cols.cu: small batches of TRSM, TRTRI and POTRS (several right-hand sides)

def test_tri_cols_rules_cover_each_op_and_dtype_up_to_512():
    """Every (op, dtype) of COLS_BELOW has batch bounds reaching COLS_MAX; one matrix is served
    from the first n with a bound (LEAF + 1, or past an n_max whose bound is 0) to COLS_MAX, a
    large batch and the sizes outside are not; a size between two measured ones takes the bound
    of the next larger."""
    for (op, dtype), bounds in tri_mod.COLS_BELOW.items():
        assert max(bounds) == tri_mod.COLS_MAX and min(v for v in bounds.values() if v) > 1
        first = max([m + 1 for m, v in bounds.items() if v == 0], default=tri_mod.LEAF + 1)
        assert tri_mod.LEAF < first <= min(m for m, v in bounds.items() if v)
        assert tri_mod.use_cols(op, numpy.empty((1, first, first), dtype))
        assert tri_mod.use_cols(op, numpy.empty((1, 512, 512), dtype))
        assert not tri_mod.use_cols(op, numpy.empty((1, first - 1, first - 1), dtype))
        assert not tri_mod.use_cols(op, numpy.empty((1, 513, 513), dtype))
        assert not tri_mod.use_cols(op, numpy.empty((10**4, first, first), dtype))
    bounds = tri_mod.COLS_BELOW[("trsm", "float64")]
    assert tri_mod.cols_below("trsm", numpy.dtype("float64"), 100) == bounds[128]
    assert tri_mod.cols_below("trsm", numpy.dtype("float64"), 128) == bounds[128]
    assert tri_mod.cols_below("lauum", numpy.dtype("float64"), 100) == 0


@pytest.mark.parametrize("batch,nvec,width", [(1, 512, 4), (1, 384, 4), (1, 256, 2), (1, 128, 1),
                                              (2, 384, 8), (64, 512, 8), (1, 5, 1)])
def test_cols_width_is_the_widest_that_keeps_enough_blocks(batch, nvec, width):
    assert tri_mod.cols_width(batch, nvec) == width


def _emulate_tri_cols(args, mode):
    """kernels/tri_cols.cu's arithmetic on its launch arguments, sequentially in NumPy: T(i, j) =
    A[g(i) ar + g(j) ac], vector c of X at g(i) xr + c xc, g reversing the order where rev; the
    flat arrays are the operands' bases (their views start there)."""
    (a, sa, ar, ac, rev, unit, n, nvec, batch, alpha, b_in, x, sx, xr, xc, info) = args
    flat_a, flat_b, flat_x = (numpy.asarray(v).base.reshape(-1) if v.base is not None
                              else v.reshape(-1) for v in (a, b_in, x))
    passes = [(ar, ac, rev)] + ([(ac, ar, 1 - rev)] if mode == tri_mod.COLS_POTRS else [])
    for k in range(batch):
        vectors = numpy.array([[(alpha if i == c else 0.0) if mode == tri_mod.COLS_INVERSE else
                                alpha * flat_b[k * sx + i * xr + c * xc] for c in range(nvec)]
                               for i in range(n)])          # by A's own row order
        for ar_, ac_, rev_ in passes:
            g = (lambda i: n - 1 - i) if rev_ else (lambda i: i)
            t = numpy.array([[flat_a[k * sa + g(i) * ar_ + g(j) * ac_] if j <= i else 0.0
                              for j in range(n)] for i in range(n)])
            if unit:
                numpy.fill_diagonal(t, 1.0)
            order = [g(i) for i in range(n)]
            vectors[order] = numpy.linalg.solve(t, vectors[order])
        for i in range(n):
            for c in range(nvec):
                flat_x[k * sx + i * xr + c * xc] = vectors[i, c]
        info[k] = 0


def _launch_emulated(monkeypatch):
    def config(device, dtype, n, width, mode):
        return (lambda grid, threads, args, smem: _emulate_tri_cols(args, mode)), 0
    monkeypatch.setattr(tri_mod, "_tri_cols_config", config)
    monkeypatch.setattr(tri_mod, "current_device", lambda: 0)
    monkeypatch.setattr(tri_mod, "info_array", lambda batch: numpy.zeros(batch, numpy.int32))


@pytest.mark.parametrize("side,lower,trans,unit", list(itertools.product(
    ("left", "right"), (True, False), (False, True), (False, True))))
def test_tri_cols_launch_arguments_describe_every_variant(monkeypatch, side, lower, trans, unit):
    """The launcher's strides, order and vector layout solve op(A) X = alpha B (left) or
    X op(A) = alpha B (right): the kernel's arithmetic emulated on its arguments, on a
    transposed view of A and a strided view of B, in place and into a new array."""
    _launch_emulated(monkeypatch)
    g, n, nvec, batch = numpy.random.default_rng(3), 6, 4, 2
    base = numpy.eye(n) * 3 + g.standard_normal((batch, n, n))
    t = numpy.tril(base) if lower else numpy.triu(base)
    a = numpy.ascontiguousarray(base.swapaxes(1, 2)).swapaxes(1, 2)   # column stride n
    shape = (batch, n, nvec) if side == "left" else (batch, nvec, n)
    full = g.standard_normal(shape[:2] + (2 * shape[2],))
    b = full[:, :, ::2]
    rhs = b.copy()
    op = t.copy()
    if unit:
        op[:, numpy.arange(n), numpy.arange(n)] = 1.0
    op = op.swapaxes(1, 2) if trans else op
    expected = numpy.linalg.solve(op, 1.5 * rhs) if side == "left" else \
        numpy.linalg.solve(op.swapaxes(1, 2), 1.5 * rhs.swapaxes(1, 2)).swapaxes(1, 2)
    out_full = numpy.zeros_like(full)
    out = out_full[:, :, ::2]
    info = tri_mod.tri_cols(a, b, side == "right", lower, trans, unit, 1.5, out=out)
    numpy.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-10)
    numpy.testing.assert_array_equal(b, rhs)                     # out of place: B unchanged
    assert not info.any()
    tri_mod.tri_cols(a, b, side == "right", lower, trans, unit, 1.5)
    numpy.testing.assert_allclose(b, expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("lower", [True, False])
def test_tri_cols_inverse_and_potrs_arguments(monkeypatch, lower):
    """COLS_INVERSE writes A^-1 (B not read), COLS_POTRS solves L L^T X = B (lower) or U^T U X =
    B (upper) by the two passes the kernel runs."""
    _launch_emulated(monkeypatch)
    g, n = numpy.random.default_rng(4), 7
    base = numpy.eye(n) * 3 + g.standard_normal((2, n, n))
    t = numpy.tril(base) if lower else numpy.triu(base)
    x = numpy.full((2, n, n), numpy.nan)
    tri_mod.tri_cols(base, x, False, lower, False, False, mode=tri_mod.COLS_INVERSE)
    numpy.testing.assert_allclose(x, numpy.linalg.inv(t), rtol=1e-10, atol=1e-12)
    spd = t @ t.swapaxes(1, 2) if lower else t.swapaxes(1, 2) @ t
    b = g.standard_normal((2, n, 3))
    expected = numpy.linalg.solve(spd, b)
    tri_mod.tri_cols(base, b, False, lower, not lower, False, mode=tri_mod.COLS_POTRS)
    numpy.testing.assert_allclose(b, expected, rtol=1e-9, atol=1e-10)


def test_small_batches_take_tri_cols_where_its_rules_say(monkeypatch):
    """TRSM, TRTRI (a new array), POTRS with several right-hand sides (not one) and POTRI
    (through TRTRI, not the vendor's solves) on one matrix of n = 200 take tri_cols; 10 000
    matrices do not."""
    from linalg._cuda import cholesky as chol_mod
    calls = []
    info = numpy.zeros(1, numpy.int32)

    def fake_cols(a, b, right, lower, trans, unit, alpha=1.0, mode=0, out=None, width=None):
        calls.append((mode, out is not None and out is not b, trans))
        return info
    monkeypatch.setattr(tri_mod, "tri_cols", fake_cols)
    monkeypatch.setattr(tri_mod, "current_device", lambda: 0)
    monkeypatch.setattr(tri_mod, "_vendor_below", lambda *args: 0)
    monkeypatch.setattr(tri_mod, "lauum", lambda a, lower, zeroed=False: calls.append("lauum"))
    fake = types.ModuleType("cupy")
    fake.empty = numpy.empty
    monkeypatch.setitem(sys.modules, "cupy", fake)
    a, b = numpy.empty((1, 200, 200)), numpy.empty((1, 200, 3))
    tri_mod.trsm(a, b, "left", True, "N")
    tri_mod.trsm(a, b, "left", True, "N", keep=("b",))
    tri_mod.trtri(a, False)
    chol_mod.potrs(a, b, lower=False)
    chol_mod.potri(a, True)
    assert calls == [(tri_mod.COLS_SOLVE, False, False), (tri_mod.COLS_SOLVE, True, False),
                     (tri_mod.COLS_INVERSE, False, False), (tri_mod.COLS_POTRS, False, True),
                     (tri_mod.COLS_INVERSE, False, False), "lauum"]
    assert not tri_mod.use_cols("trsm", numpy.empty((10**4, 200, 200)))


def test_tri_cols_counts_more_vectors_than_n_as_a_larger_batch():
    """The bounds were measured with n vectors: n = 256 (bound 17) serves 16 matrices with up to
    256 vectors, 8 with 512 and 1 with 4096, not 9 with 512 or 2 with 4096; fewer vectors than n
    count as n."""
    one = numpy.empty((1, 256, 256))
    assert tri_mod.cols_below("trsm", one.dtype, 256) == 17
    assert tri_mod.use_cols("trsm", numpy.empty((16, 256, 256)), 256)
    assert tri_mod.use_cols("trsm", numpy.empty((16, 256, 256)), 3)
    assert tri_mod.use_cols("trsm", numpy.empty((8, 256, 256)), 512)
    assert not tri_mod.use_cols("trsm", numpy.empty((9, 256, 256)), 512)
    assert tri_mod.use_cols("trsm", one, 16 * 256)
    assert not tri_mod.use_cols("trsm", one, 17 * 256)
    assert not tri_mod.use_cols("trsm", numpy.empty((2, 256, 256)), 16 * 256)


@pytest.mark.parametrize("dtype, batch, n, keep, taken", [
    (numpy.float64, 10240, 64, (), True), (numpy.float64, 1000, 33, ("a",), True),
    (numpy.float64, 999, 64, (), False), (numpy.float64, 1, 65, ("a",), True),
    (numpy.float64, 100, 192, (), True), (numpy.float64, 10240, 193, (), False),
    (numpy.float64, 10240, 32, (), False), (numpy.float32, 10240, 100, (), False)])
def test_tensor_lauum_rule_comes_first(monkeypatch, dtype, batch, n, keep, taken):
    """chol_tensor_lauum takes LAUUM where a row of TENSOR_LAUUM_RULES holds n and the batch,
    ahead of the one-launch, tile and dense paths; the product goes to the operand itself or,
    kept, to a new array (the operand only read)."""
    from linalg._cuda import cholesky as chol_mod
    calls = []

    def fake_tensor_lauum(a, lower, out=None):
        calls.append(("tensor", lower, out is a))
        return out

    def elsewhere(*args, **kwargs):
        calls.append(("other",))
        raise RuntimeError("another path")
    monkeypatch.setattr(chol_mod, "TENSOR_LAUUM_RULES",
                        {"float64": ((33, 64, 1000), (65, 192, 1))})
    monkeypatch.setattr(chol_mod, "tensor_lauum", fake_tensor_lauum)
    for name in ("chol_small", "tile_lauum", "tri_block_lauum", "writable"):
        monkeypatch.setattr(tri_mod, name, elsewhere)
    monkeypatch.setattr(tri_mod, "result_array",      # NumPy standing in for cupy.empty
                        lambda x, name, k: numpy.empty_like(x) if name in k else x)
    a = numpy.zeros((batch, n, n), dtype)
    try:
        tri_mod.lauum(a, False, keep=keep)
    except Exception:           # the paths after it need a GPU: only the first call counts
        pass
    assert (calls[:1] == [("tensor", False, not keep)]) == taken, calls


def test_a_batch_with_one_b_folds_where_the_tall_class_streams():
    """A batch of stacked A with one B runs as one tall A only where the tall class's entry is
    gemm_stream (the H200's float64 32x36 (9x36)^T class); not on the H100's table (rows rules)
    nor where cuBLAS serves the tall class (float64 81x64 (8x64)^T on the H200)."""
    h200 = "NVIDIA H200"
    assert blas._folds_to_tall(h200, "float64", 40960 * 32, 9, 36)
    assert blas._folds_to_tall(h200, "float32", 40960 * 18, 4, 16)
    assert not blas._folds_to_tall(h200, "float64", 40960 * 81, 8, 64)
    assert blas._folds_to_tall(h200, "float64", 12945 * 192, 27, 216)     # gemm_stream_mma
    assert blas._folds_to_tall(h200, "float32", 12945 * 192, 27, 216)
    assert not blas._folds_to_tall(H100, "float64", 12945 * 192, 27, 216)
    assert not blas._folds_to_tall(H100, "float64", 40960 * 32, 9, 36)
    assert not blas._folds_to_tall("Unknown GPU", "float64", 40960 * 32, 9, 36)


def test_folded_batch_is_one_tall_call(fake_gpu, monkeypatch):
    """Where it folds, the batch runs as the tall call (one A of batch * m rows): the launches
    are those of the tall form, and the result is right, with c and beta too."""
    gpu, launches = fake_gpu
    g = numpy.random.default_rng(5)
    a, b = g.standard_normal((300, 32, 36)), g.standard_normal((1, 9, 36))
    c = g.standard_normal((300, 32, 9))
    monkeypatch.setattr(blas, "_folds_to_tall", lambda *key: True)
    monkeypatch.setattr(blas, "FOLD_MIN_BYTES", a.nbytes)
    tall = []
    real_gemm = blas.gemm

    def spy(a_, b_, c_=None, *args, **kwargs):
        tall.append(a_.shape)
        return real_gemm(a_, b_, c_, *args, **kwargs)
    monkeypatch.setattr(blas, "gemm", spy)
    out = real_gemm(a, b, c.copy(), "N", "T", 2.0, 0.5)
    assert tall and tall[0] == (1, 300 * 32, 36)
    if not launches:                    # the (stand-in) vendor computed it
        numpy.testing.assert_allclose(out, 2.0 * (a @ b[0].T) + 0.5 * c, atol=1e-12)


def test_small_batches_with_one_b_do_not_fold(fake_gpu, monkeypatch):
    """Below FOLD_MIN_BYTES of A the batch stays a batch (the fold's second dispatch costs more
    host time than such a call's GPU time saves)."""
    gpu, launches = fake_gpu
    a, b = numpy.ones((300, 32, 36)), numpy.ones((1, 9, 36))
    monkeypatch.setattr(blas, "_folds_to_tall", lambda *key: True)
    monkeypatch.setattr(blas, "FOLD_MIN_BYTES", a.nbytes + 1)
    shapes = []
    real_gemm = blas.gemm
    monkeypatch.setattr(blas, "gemm", lambda a_, *args, **kw: shapes.append(a_.shape) or
                        real_gemm(a_, *args, **kw))
    real_gemm(a, b, None, "N", "T")
    assert (1, 300 * 32, 36) not in shapes



def test_dot_lanes_are_a_rows_pieces_where_its_rows_are_whole_16_byte_pieces():
    """gemv_staged / gemv_stream's default lanes a dot product (kernels/gemv.cu tile_gemv):
    GEMV-N on rows of whole 16-byte pieces takes a lane a piece, else a lane an element (at most
    32, a power of two)."""
    assert blas.dot_lanes(False, 81, 8, 8) == 4          # 8 doubles: four pieces
    assert blas.dot_lanes(False, 18, 4, 4) == 1          # 4 floats: one piece
    assert blas.dot_lanes(False, 375, 64, 4) == 16
    assert blas.dot_lanes(False, 32, 9, 8) == 8          # odd rows: their elements
    assert blas.dot_lanes(True, 81, 8, 8) == 32          # T: the column's elements
    assert blas.dot_lanes(True, 3, 8, 8) == 2


def _sm90(monkeypatch, regs=128):
    """An H100/H200's launch limits for the plans, without a GPU."""
    monkeypatch.setattr(_compile, "current_device", lambda: 0)
    monkeypatch.setattr(_compile, "clusters", lambda device: True)
    monkeypatch.setattr(blas, "opt_in_smem", lambda: 232448)
    monkeypatch.setattr(blas, "sm_shared_bytes", lambda: 233472)
    monkeypatch.setattr(blas, "sm_count", lambda: 132)
    monkeypatch.setattr(blas, "kernel_regs", lambda *args, **kwargs: regs)


@pytest.mark.parametrize("dtype,n,nc,asked,wide", [
    ("float64", 9, 9, True, True), ("float64", 9, 9, False, False),
    ("float32", 9, 9, True, True), ("float32", 9, 16, True, False),   # whole pieces already
    ("float64", 27, 9, True, False),                                   # three column groups
    ("float64", 3, 3, True, True), ("float64", 4, 4, True, False)])
def test_gemm_stream_reads_one_column_group_with_its_padding_where_the_table_says(
        monkeypatch, dtype, n, nc, asked, wide):
    """gemm_stream's "wide" (B^T's rows read by 16-byte loads with their padding) compiles in
    only where it is asked for, one column group covers n and nc is not whole 16-byte pieces;
    B^T's rows take 16-byte multiples either way (the shared bytes)."""
    _sm90(monkeypatch, regs=80)
    k, item = 36, numpy.dtype(dtype).itemsize
    p = {"cfg": "stream", "nc": nc, "rp": 64, "stages": 2, "pad": False, "wide": asked}
    kind, expr, grid, threads, smem, (rp, lds, stages) = blas._stream_plan(
        dtype, 40960 * 32, n, k, True, p)
    assert kind == "stream" and expr.endswith(f", {nc}, {'true' if wide else 'false'}>")
    ldb = -(-(-(-n // nc) * nc) * item // 16) * 16 // item
    assert smem == blas.RING_BARRIER_BYTES + k * ldb * item + stages * rp * lds * item


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("mt,nbw,ch,rb,kc,stages", [
    (2, 4, 1, 128, 9, 2), (1, 2, 2, 32, 1, 2), (2, 2, 1, 64, 27, 3), (2, 4, 1, 256, 8, 2),
    (1, 4, 2, 48, 5, 4), (3, 4, 1, 128, 9, 2), (2, 4, 2, 64, 27, 2), (2, 4, 1, 100, 100, 16)])
def test_gemm_stream_mma_plan_fits_a_block(monkeypatch, dtype, mt, nbw, ch, rb, kc, stages):
    """gemm_stream_mma's plan for the hydro 192x216 (27x216)^T product: an instantiated (MT,
    NBW, CH) (else 1 x 2 x 2), items of whole warps' rows and an odd number of k steps (rows an
    odd number of fragment loads apart: distinct banks) at most k / 8, B's fragments and the
    ring within a block's shared memory (rows or buffers taken off until they fit), a thread a
    lane of whole warps that cover the rows and n's tiles."""
    _sm90(monkeypatch)
    n, k, item = 27, 216, numpy.dtype(dtype).itemsize
    p = {"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": rb, "kc": kc, "stages": stages}
    kind, expr, grid, threads, smem, (rows, steps, buffers) = blas._mma_plan(
        dtype, 12945 * 192, n, k, True, p)
    mt, nbw, ch = (mt, nbw, ch) if (mt, nbw, ch) in blas.MMA_SHAPES else (1, 2, 2)
    assert kind == "mma" and expr.endswith(f", {mt}, {nbw}, {ch}>")
    assert steps % 2 == 1 and 1 <= steps <= min(kc, k // 8)
    assert rows % (16 * mt) == 0 and 0 < rows <= rb and 2 <= buffers <= min(stages, 16)
    groups = -(-4 // nbw)
    assert threads == 32 * rows // (16 * mt) * groups <= blas.MMA_MAX_THREADS
    bf = k // 8 * groups * nbw * 64 * 8
    assert smem == blas.RING_BARRIER_BYTES + bf + buffers * rows * steps * 8 * item <= 232448
    assert 1 <= grid <= 132 * 32


def test_gemm_stream_mma_plan_where_it_does_not_apply(monkeypatch):
    """No gemm_stream_mma before sm_90, for k not a multiple of 8, for an unaligned A, nor where
    op(B)'s fragments leave no room for two items (375x512 (64x512)^T: 256 KiB of them)."""
    _sm90(monkeypatch)
    p = {"cfg": "mma"}
    assert blas._mma_plan("float64", 40960 * 32, 9, 36, True, p) is None
    assert blas._mma_plan("float64", 12945 * 192, 27, 216, False, p) is None
    assert blas._mma_plan("float64", 5592 * 375, 64, 512, True, p) is None
    assert blas._mma_plan("float64", 12945 * 192, 27, 216, True, p) is not None
    monkeypatch.setattr(_compile, "clusters", lambda device: False)
    assert blas._mma_plan("float64", 12945 * 192, 27, 216, True, p) is None


def test_gemm_stream_mma_class_takes_cublas_where_the_kernel_does_not_apply(monkeypatch):
    """Where the table's class entry is gemm_stream_mma (the H200's float64 192x216 (27x216)^T)
    a shape of the class it cannot take (k not a multiple of 8) goes to cuBLAS, not to
    gemm_stream (0.14-0.42x cuBLAS on such wide products); forced to our kernels, gemm_stream."""
    _sm90(monkeypatch)
    monkeypatch.setattr(_tuning, "gpu_name", lambda device_id=None: "NVIDIA H200")
    blas._gemm_plan.cache_clear()
    key = ("float64", 1, 12945 * 192, 27, 212, 0, 1, True, True)
    assert blas._gemm_plan("NVIDIA H200", *key)[0] == "vendor"
    assert blas._gemm_plan("NVIDIA H200", *key, path="kernel")[0] == "stream"
    key = ("float64", 1, 12945 * 192, 27, 216, 0, 1, True, True)
    assert blas._gemm_plan("NVIDIA H200", *key)[0] == "mma"
    blas._gemm_plan.cache_clear()
