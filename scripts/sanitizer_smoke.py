"""Call every linalg operation once on small CuPy batches, for compute-sanitizer memcheck.

    compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py
        [--hydro-only]

Sizes cover the kernel size classes (tiny register kernels, shared-memory, blocked) with odd
shapes, where out-of-bounds accesses hide (33 and 64 through the one-launch small-batch path);
further passes force the one-launch paths, turn the small-batch rules (vendor crossovers, one
launch) off so that the recursive paths run too, and force the vendor paths. The hydro driver's
kernels (kernels/hydro.cu) run first, through a few small simulations (--hydro-only: just those).
"""
import itertools

import cupy
import numpy

import linalg

SIZES = (1, 3, 8, 17, 33, 64, 70, 128)
BATCH = 5


def spd(n, dtype):
    rng = numpy.random.default_rng(n)
    a = rng.standard_normal((BATCH, n, n))
    return cupy.asarray(a @ a.transpose(0, 2, 1) + n * numpy.eye(n), dtype=dtype)


def main():
    calls = 0
    for dtype in (numpy.float32, numpy.float64):
        for n in SIZES:
            a = spd(n, dtype)
            b = cupy.asarray(numpy.random.default_rng(1).standard_normal((BATCH, n, 2)), dtype=dtype)
            x = b[:, :, 0].copy()
            l = linalg.potrf(a)
            for lower in (True, False):
                f = linalg.potrf(a, lower=lower)
                linalg.potrs(f, b, lower=lower); linalg.posv(a, b, lower=lower)
                linalg.potri(f, lower=lower); linalg.poti(a, lower=lower)
                linalg.trtri(f, lower=lower); linalg.lauum(f, lower=lower)
                linalg.potrs(f, x, lower=lower)           # one vector: the fused warp kernel
                # the same in place (the kernels' in-place instantiations; the calls above keep
                # their inputs: the out-of-place ones)
                linalg.potrf(a.copy(), lower=lower, overwrite_a=True)
                linalg.potrs(f, b.copy(), lower=lower, overwrite_b=True)
                linalg.posv(a.copy(), b.copy(), lower=lower, overwrite_a=True, overwrite_b=True)
                linalg.poti(a.copy(), lower=lower, overwrite_a=True)
                linalg.potri(f.copy(), lower=lower, overwrite_l=True)
                linalg.trtri(f.copy(), lower=lower, overwrite_a=True)
                linalg.lauum(f.copy(), lower=lower, overwrite_a=True)
                linalg.potrs(f, x.copy(), lower=lower, overwrite_b=True)
                for trans in "NT":
                    linalg.trsv(f, x, lower=lower, trans=trans)
                    linalg.trsv(f, x, lower=lower, trans=trans, unit_diagonal=True)
                    linalg.trsv(f, x.copy(), lower=lower, trans=trans, overwrite_x=True)
                linalg.syrk(a, lower=lower)
                calls += 23                              # the calls above, this lower
                for side in ("left", "right"):
                    rhs = b if side == "left" else cupy.ascontiguousarray(b.transpose(0, 2, 1))
                    for trans in "NT":
                        linalg.trsm(f, rhs, side=side, lower=lower, trans=trans)
                        linalg.trmm(f, rhs, side=side, lower=lower, trans=trans)
                        linalg.trsm(f, rhs.copy(), side=side, lower=lower, trans=trans,
                                    overwrite_b=True)
                        linalg.trmm(f, rhs.copy(), side=side, lower=lower, trans=trans,
                                    overwrite_b=True)
                        calls += 4
            for ta in "NT":
                for tb in "NT":
                    linalg.gemm(a, a, transa=ta, transb=tb); calls += 1
                linalg.gemv(a, x, trans=ta)
            rect = cupy.asarray(numpy.random.default_rng(2).standard_normal((BATCH, n + 2, n)), dtype=dtype)
            linalg.gebrd(rect); linalg.gebrd(cupy.ascontiguousarray(rect.transpose(0, 2, 1)))
            calls += 5                                   # potrf (l), two gemv, two gebrd
            del l
    for rows, cols in ((18, 4), (32, 9), (81, 8), (192, 27), (200, 131)):
        a = cupy.ones((BATCH, rows, cols)); linalg.gemv(a, cupy.ones((BATCH, cols)))
        linalg.gemv(a, cupy.ones((BATCH, rows)), trans="T")
        linalg.gemm(a, cupy.ones((BATCH, 5, cols)), transb="T")
    # gebrd_blocked (labrd.cu panels and GEMMs), the default above shared memory's size, forced
    # on small matrices: tall, wide, panel widths that do not divide n, every block size
    from linalg._cuda import bidiag
    for dtype in (numpy.float32, numpy.float64):
        for (m, n), nb, threads in (((70, 70), 8, 256), ((61, 97), 5, 512), ((97, 61), 32, 1024)):
            rect = cupy.asarray(numpy.random.default_rng(3).standard_normal((3, m, n)), dtype=dtype)
            bidiag.gebrd(rect, _params={"kernel": "blocked", "nb": nb, "tail": 0,
                                        "threads": threads})
            calls += 1
    cupy.cuda.runtime.deviceSynchronize()
    print(f"sanitizer smoke: {calls} calls completed")


def hydro_kernels():
    """kernels/hydro.cu through the hydro driver: 1-D to 3-D, Q1 to Q4 (the partial-assembly
    kernels' blocks of 1 to 16 zones, partly empty), with and without viscosity, two cycles each
    on a few zones."""
    from hydro.config import load_case
    from hydro.simulation import Simulation
    for problem, dim, nx, order, over in (("sod", 1, 5, 1, {}), ("sedov", 2, 3, 2, {}),
                                          ("sedov", 2, 2, 4, {}), ("sedov", 3, 2, 2, {}),
                                          ("sedov", 3, 1, 3, {}), ("rayleigh_taylor", 2, 2, 2, {}),
                                          ("taylor_green", 2, 2, 2,
                                           {"viscosity": {"enabled": False}})):
        cfg = load_case({"problem": problem, "dim": dim, "mesh": {"nx": nx}, "order": order,
                         "final_time": 1.0, "backend": "gpu", **over})
        sim = Simulation(cfg, xp=cupy)
        assert sim.op.fused and sim.op.force.fused
        for _ in range(2):
            sim.step()
    cupy.cuda.runtime.deviceSynchronize()
    print("sanitizer smoke: hydro kernels completed")


if __name__ == "__main__":
    import sys
    hydro_kernels()
    if "--hydro-only" in sys.argv:
        sys.exit(0)
    main()
    from linalg._cuda import syrk as _gsyrk, triangular as _gtri, trsv as _gtrsv
    # Again with the one-launch paths forced (chol_small<T, 64> for 33..64, chol_block for
    # 65..128, tri_pair for TRSM / POTRS 33..64, syrk_small up to 64) whatever their measured
    # bounds, and TRSV / one-vector POTRS by trsv_staged for every n <= 32 (restored after this
    # pass), then with every small-batch rule off, so that our recursive kernels run on these
    # small batches too, then with the vendor paths (and their fix-up kernels) for every n > LEAF.
    _gtri.one_launch_below = _gtri.block_launch_below = lambda op, dtype: 10**12
    _gtri.pair_launch_below = lambda op, dtype: 10**12
    _staged = _gtrsv.STAGED_RANGE, _gtrsv.STAGED_POTRS_RANGE
    _syrk_below, _gsyrk.SMALL_BATCH_BELOW = _gsyrk.SMALL_BATCH_BELOW, {"float32": 10**12, "float64": 10**12}
    _gtrsv.STAGED_RANGE = _gtrsv.STAGED_POTRS_RANGE = _gtrsv.STAGED_EVERY_N
    main()
    _gtrsv.STAGED_RANGE, _gtrsv.STAGED_POTRS_RANGE = _staged
    _gsyrk.SMALL_BATCH_BELOW = _syrk_below
    _gtri.vendor_below = lambda op, dtype, n: 0
    _gtri.one_launch_below = _gtri.block_launch_below = lambda op, dtype: 0
    _gtri.pair_launch_below = lambda op, dtype: 0
    _cols_below, _gtri.cols_below = _gtri.cols_below, lambda op, dtype, n: 0
    main()
    _gtri.cols_below = _cols_below
    _gtri.vendor_below = lambda op, dtype, n: 10**12
    main()
    # trsv_warp's row-vector instantiations (VEC 2, 4), every lane width, every variant.
    for dtype, vecs in ((numpy.float32, (2, 4)), (numpy.float64, (2,))):
        for n in (4, 12, 36, 64, 100):
            f = linalg.potrf(spd(n, dtype))
            x = cupy.ones((BATCH, n), dtype=dtype)
            for width in (4, 8, 16, 32):
                for vec in vecs:
                    for lower in (True, False):
                        for trans in "NT":
                            _gtrsv.trsv(f, x.copy(), lower=lower, trans=trans, _path="kernel",
                                        _params={"kernel": "warp", "width": width, "vec": vec})
                        _gtrsv.launch_warp(f, x.copy(), lower, 0 if lower else 1, False, True,
                                           width=width, vec=vec)
    # trsv_block (small batches): every vector width, 1 / 3 / 8 warps, every variant, both
    # solves of the one-vector POTRS, in place and out of place.
    for dtype, vecs in ((numpy.float32, (1, 2, 4)), (numpy.float64, (1, 2))):
        for n in (33, 64, 100, 129):
            f = linalg.potrf(spd(n, dtype))
            x = cupy.ones((BATCH, n), dtype=dtype)
            for warps in (1, 3, 8):
                for vec in vecs:
                    for lower in (True, False):
                        for trans in (0, 1):
                            _gtrsv.launch_block(f, x.copy(), lower, trans, False, False, warps,
                                                vec)
                            _gtrsv.launch_block(f, x, lower, trans, True, False, warps, vec,
                                                out=cupy.empty_like(x))
                        _gtrsv.launch_block(f, x.copy(), lower, 0 if lower else 1, False, True,
                                            warps, vec)
    # trsv_split (one matrix or a few): every variant, in place and out of place, both POTRS
    # solves; a partial last block row (n = 33, 100) and one block row only (n = 20).
    for dtype in (numpy.float32, numpy.float64):
        for n in (20, 33, 100, 129):
            f = linalg.potrf(spd(n, dtype))
            x = cupy.ones((BATCH, n), dtype=dtype)
            for lower in (True, False):
                for trans in (0, 1):
                    _gtrsv.launch_split(f, x.copy(), lower, trans, False)
                    _gtrsv.launch_split(f, x, lower, trans, True, out=cupy.empty_like(x))
                _gtrsv.launch_split(f, x.copy(), lower, 0 if lower else 1, False, True)
    # tri_cols (small batches of TRSM / TRTRI / POTRS): every width and mode, every variant, in
    # place and out of place, strided B; a partial last block row (33, 70, 300), one block row
    # of trailing rows or several, B's vectors not a multiple of the width (5).
    for dtype in (numpy.float32, numpy.float64):
        for n in (33, 70, 300):
            f = linalg.potrf(spd(n, dtype)[:2])
            for width in _gtri.COLS_WIDTHS:
                for side, lower, trans in itertools.product(("left", "right"), (True, False),
                                                            (False, True)):
                    shape = (2, n, 5) if side == "left" else (2, 5, n)
                    wide = shape[:2] + (2 * shape[2],)
                    b = cupy.ones(wide, dtype=dtype)[:, :, ::2]
                    _gtri.tri_cols(f, b, side == "right", lower, trans, False, 1.0, width=width)
                    _gtri.tri_cols(f, b, side == "right", lower, trans, True, 1.0, width=width,
                                   out=cupy.ones(wide, dtype=dtype)[:, :, ::2])
                for lower in (True, False):
                    _gtri.tri_cols(f, cupy.empty_like(f), False, lower, False, False,
                                   mode=_gtri.COLS_INVERSE, width=width)
                    _gtri.tri_cols(f, cupy.ones((2, n, 5), dtype=dtype), False, lower, not lower,
                                   False, mode=_gtri.COLS_POTRS, width=width)
    # chol_tensor (POTRF 33..128 in one launch): every NT, lower and upper, in place and out of
    # place, a strided view (lda > n), a partial last block (33, 70, 100).
    from linalg._cuda import cholesky as _gchol
    for dtype in (numpy.float32, numpy.float64):
        for n in (33, 64, 70, 100, 128):
            for lower in (True, False):
                a = cupy.zeros((2, n, n + 3), dtype=dtype)
                a[:, :, :n] = spd(n, dtype)[:2]
                _gchol.potrf_tensor(cupy.empty_like(a)[:, :, :n], lower, src=a[:, :, :n])
                _gchol.potrf_tensor(a[:, :, :n], lower)
    # chol_global (POTRF in one launch, the matrix in global memory) and chol_cluster (2, 4, 8
    # blocks a matrix): partial and whole last blocks, lower and upper, in and out of place,
    # strided.
    for dtype in (numpy.float32, numpy.float64):
        for n, blocks in ((40, 1), (129, 1), (256, 1), (40, 8), (129, 2), (256, 4), (300, 8)):
            for lower in (True, False):
                a = cupy.zeros((2, n, n + 3), dtype=dtype)
                a[:, :, :n] = spd(n, dtype)[:2]
                _gchol.potrf_global(cupy.empty_like(a)[:, :, :n], lower, src=a[:, :, :n],
                                    blocks=blocks)
                _gchol.potrf_global(a[:, :, :n], lower, blocks=blocks)
    # tri_tile_split (2, 4, 8 blocks an item; runs of k tiles, empty ones at n = 70): TRMM left
    # and right, LAUUM lower and upper (patched tiles), SYRK, a strided view; one cluster of 4
    # walking every item (TILE_GRID 1).
    for dtype in (numpy.float32, numpy.float64):
        for n, blocks, cap in ((70, 8, 0), (200, 2, 0), (300, 4, 1), (512, 8, 0)):
            _gtri.TILE_SPLIT, _gtri.TILE_GRID = blocks, cap
            a = cupy.zeros((2, n, n + 3), dtype=dtype)
            a[:, :, :n] = spd(n, dtype)[:2]
            v = a[:, :, :n]
            for lower in (True, False):
                _gtri.tile_trmm(v, v, False, lower, False, False, 0.5)
                _gtri.tile_trmm(v, v, True, lower, True, False, 1.0)
                _gtri.tile_lauum(v, lower)
            _gtri.tile_syrk(v, False)
    _gtri.TILE_SPLIT, _gtri.TILE_GRID = 0, 0
    cupy.cuda.get_current_stream().synchronize()
