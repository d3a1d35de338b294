"""Public GPU calls that keep their inputs (no overwrite_*): the backends' OUT_OF_PLACE paths.

Without ``overwrite_*`` the public layer passes the caller's array to the backend with
``keep`` (linalg/_batch.py); the backend writes its result to a new array -- by the kernels'
out-of-place instantiations (chol_small, chol_solve, tri_vec, tri_warp) or after one copy on
the paths that work in place only. Each case checks that the input is left bit for bit as it
was (NaN in the unread triangle included) and that the result is the in-place call's.
"""
import numpy
import pytest

import linalg

from .helpers import eps, force_small_batch_paths, poison_triangle, random_spd, random_triangular, rng

pytestmark = pytest.mark.gpu

# Every kernel class and path: tri_vec (n < 9), tri_warp / chol_small 16 and 32, trsv_staged
# (25..32, one vector), one launch (33..64: chol_small<T, 64>; 65..128: chol_block, a copy
# first), panels / recursion / tri_tile / dense products above.
SIZES = (1, 2, 3, 8, 9, 16, 17, 25, 27, 32, 33, 64, 65, 100, 160)
REAL = (numpy.float32, numpy.float64)


@pytest.fixture(scope="module")
def cp():
    return pytest.importorskip("cupy")


@pytest.fixture(params=["default", "one_launch", "vendor", "cols"])
def path(request, monkeypatch):
    tri = pytest.importorskip("linalg._cuda.triangular")
    force_small_batch_paths(monkeypatch, tri, vendor=request.param == "vendor",
                            one_launch=request.param == "one_launch",
                            cols=request.param == "cols")
    return request.param


def batch_for(n):
    return 40 if n <= 32 else 3


def kept_and_in_place(cp, call, inputs, written):
    """(result of call(*inputs) with the inputs kept, result of the overwrite call on copies);
    asserts that the kept call left every input as it was. ``written``: the overwrite keyword
    of each input (None: the input is never written)."""
    host = [x.get() for x in inputs]
    kept = call(*inputs, {})
    cp.cuda.Device().synchronize()
    for x, before in zip(inputs, host):
        numpy.testing.assert_array_equal(x.get(), before, err_msg="a kept input changed")
    copies = [x.copy() for x in inputs]
    flags = {w: True for w in written if w}
    in_place = call(*copies, flags)
    return kept, in_place


def assert_same(kept, in_place, dtype):
    kept = kept.get() if hasattr(kept, "get") else kept
    in_place = in_place.get() if hasattr(in_place, "get") else in_place
    numpy.testing.assert_allclose(kept, in_place, rtol=64 * eps(dtype), atol=64 * eps(dtype))


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_factor_and_inverses_keep_their_input(cp, path, n, lower, dtype):
    a = random_spd(rng(n), batch_for(n), n, dtype)
    a_dev = cp.asarray(poison_triangle(a, lower))
    l_dev, _ = linalg.potrf(cp.asarray(a), lower=lower, return_info=True)
    l_dev = cp.asarray(poison_triangle(l_dev.get(), lower))
    calls = {
        "potrf": (lambda x, f: linalg.potrf(x, lower=lower, return_info=True, **f)[0], a_dev, "overwrite_a"),
        "poti": (lambda x, f: linalg.poti(x, lower=lower, return_info=True, **f)[0], a_dev, "overwrite_a"),
        "potri": (lambda x, f: linalg.potri(x, lower=lower, return_info=True, **f)[0], l_dev, "overwrite_l"),
        "trtri": (lambda x, f: linalg.trtri(x, lower=lower, return_info=True, **f)[0], l_dev, "overwrite_a"),
        "lauum": (lambda x, f: linalg.lauum(x, lower=lower, **f), l_dev, "overwrite_a"),
    }
    for name, (call, x, flag) in calls.items():
        kept, in_place = kept_and_in_place(cp, call, [x], [flag])
        assert_same(kept, in_place, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("n", SIZES)
def test_solves_keep_their_right_hand_sides(cp, path, n, lower, dtype):
    gen = rng(100 + n)
    batch = batch_for(n)
    a = random_spd(gen, batch, n, dtype)
    l_dev, _ = linalg.potrf(cp.asarray(a), lower=lower, return_info=True)
    l_dev = cp.asarray(poison_triangle(l_dev.get(), lower))
    a_dev = cp.asarray(poison_triangle(a, lower))
    for shape in ((batch, n), (batch, n, 1), (batch, n, n), (batch, n, 40)):
        b_dev = cp.asarray(gen.standard_normal(shape).astype(dtype))
        kept, in_place = kept_and_in_place(
            cp, lambda l, b, f: linalg.potrs(l, b, lower=lower, return_info=True, **f)[0],
            [l_dev, b_dev], [None, "overwrite_b"])
        assert_same(kept, in_place, dtype)
        kept, in_place = kept_and_in_place(
            cp, lambda x, b, f: linalg.posv(x, b, lower=lower, return_info=True, **f)[0],
            [a_dev, b_dev], ["overwrite_a", "overwrite_b"])
        assert_same(kept, in_place, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("side,lower,trans", [("left", True, "N"), ("left", False, "T"),
                                              ("right", True, "T"), ("right", False, "N")])
def test_triangular_products_and_solves_keep_b(cp, path, n, side, lower, trans, dtype):
    gen = rng(200 + n)
    batch = batch_for(n)
    t = random_triangular(gen, batch, n, dtype, lower=lower)
    t_dev = cp.asarray(poison_triangle(t, lower))
    for nvec in (1, n, 37):
        shape = (batch, n, nvec) if side == "left" else (batch, nvec, n)
        b_dev = cp.asarray(gen.standard_normal(shape).astype(dtype))
        for op in (linalg.trsm, linalg.trmm):
            def call(a, b, f, op=op):
                out = op(a, b, side=side, lower=lower, trans=trans, alpha=0.5, **f)
                return out[0] if isinstance(out, tuple) else out
            kept, in_place = kept_and_in_place(cp, call, [t_dev, b_dev], [None, "overwrite_b"])
            assert_same(kept, in_place, dtype)


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("lower,trans", [(True, "N"), (False, "T"), (True, "T")])
def test_trsv_keeps_its_right_hand_side(cp, path, n, lower, trans, dtype):
    gen = rng(300 + n)
    batch = batch_for(n)
    t_dev = cp.asarray(poison_triangle(random_triangular(gen, batch, n, dtype, lower=lower), lower))
    x_dev = cp.asarray(gen.standard_normal((batch, n)).astype(dtype))
    kept, in_place = kept_and_in_place(
        cp, lambda a, x, f: linalg.trsv(a, x, lower=lower, trans=trans, return_info=True, **f)[0],
        [t_dev, x_dev], [None, "overwrite_x"])
    assert_same(kept, in_place, dtype)
