"""Does the fill mode of a vendor call matter? (device probe)

Our row-major lower triangle is cuSOLVER's/cuBLAS's column-major upper one, so a row-major call
picks the opposite fill (linalg/_cuda/vendor.py). This probe times, on the same symmetric data:
cuSOLVER potrf (one matrix) / potrfBatched with the upper and with the lower fill; our small-batch
POTRF path (linalg/_cuda/cholesky.py _cusolver_potrf: mirror, lower fill, transpose back) against
the upper-fill path it replaced (vendor call, zero the other triangle, diagonal info) and
torch.linalg.cholesky_ex; and cuBLAS trsm(Batched) with an n x n right-hand side in its four
side/fill combinations (op N). Float64 and float32, n = 64..512, batch 1 / 8 / 100; the new path's
factor is checked against NumPy (scaled residual) for both triangles.

    python3 scripts/probe_cusolver_fill.py [--output DIR]     # writes cusolver_fill.md
"""
import argparse
import sys
from pathlib import Path

import numpy
import cupy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from cupy.cuda import device                                   # noqa: E402
from cupy_backends.cuda.libs import cublas, cusolver           # noqa: E402

from bench_cholesky import timeit                              # noqa: E402
from linalg._cuda import cholesky as ch, triangular as tri, vendor  # noqa: E402

try:
    import torch
except ImportError:
    torch = None

SIZES = (64, 128, 256, 512)
BATCHES = (1, 8, 100)


def spd(batch, n, dtype):
    x = cupy.random.default_rng(n).standard_normal((batch, n, n))
    return (x @ x.swapaxes(1, 2) / n + 2 * cupy.eye(n)).astype(dtype)


def cusolver_call(a, fill):
    """One cuSOLVER potrf (batch 1) or potrfBatched call in place on ``a`` with ``fill``."""
    handle = device.get_cusolver_handle()
    batch, n = a.shape[0], a.shape[1]
    double = a.dtype == numpy.float64
    info = cupy.empty(batch, numpy.int32)
    if batch == 1:
        size = (cusolver.dpotrf_bufferSize if double else cusolver.spotrf_bufferSize)(
            handle, fill, n, a.data.ptr, n)
        work = cupy.empty(max(1, size), a.dtype)
        fn = cusolver.dpotrf if double else cusolver.spotrf
        return lambda: fn(handle, fill, n, a.data.ptr, n, work.data.ptr, size, info.data.ptr)
    ptrs = vendor.pointers(a)
    fn = cusolver.dpotrfBatched if double else cusolver.spotrfBatched
    return lambda: fn(handle, fill, n, ptrs.data.ptr, n, info.data.ptr, batch)


def upper_fill_path(a):
    """The small-batch POTRF path before this probe (row-major lower = cuSOLVER upper fill)."""
    info = vendor.potrf(a, True)
    tri.triangle_fix(a, True, zero=True)
    return a, tri._diag_info(a, False, prior=info)


def residual(a0, factor, lower):
    a, f = a0.get().astype(numpy.float64), factor.get().astype(numpy.float64)
    other = numpy.triu(f, 1) if lower else numpy.tril(f, -1)
    prod = f @ f.swapaxes(1, 2) if lower else f.swapaxes(1, 2) @ f
    eps = numpy.finfo(a0.dtype).eps
    res = numpy.linalg.norm(prod - a, axis=(1, 2)) / (a.shape[1] * numpy.linalg.norm(a, axis=(1, 2)) * eps)
    return float(res.max()), bool(other.any())


def potrf_rows(dtype):
    rows = []
    for n in SIZES:
        for batch in BATCHES:
            a0 = spd(batch, n, dtype)
            work = a0.copy()

            def reset():
                cupy.copyto(work, a0)
            row = {"op": "potrf", "dtype": numpy.dtype(dtype).name, "n": n, "batch": batch}
            row["cusolver upper fill"] = timeit(cusolver_call(work, cublas.CUBLAS_FILL_MODE_UPPER), reset, 20)
            row["cusolver lower fill"] = timeit(cusolver_call(work, cublas.CUBLAS_FILL_MODE_LOWER), reset, 20)
            row["old path (upper fill)"] = timeit(lambda: upper_fill_path(work), reset, 20)
            row["new path (lower fill)"] = timeit(lambda: ch._cusolver_potrf(work, True), reset, 20)
            if torch is not None:
                ta = torch.from_dlpack(a0)
                row["torch.cholesky_ex"] = timeit(lambda: torch.linalg.cholesky_ex(ta), None, 20)
            checks = []
            for lower in (True, False):
                reset()
                f, info = ch._cusolver_potrf(work, lower)
                res, dirty = residual(a0, f, lower)
                checks.append(f"{'L' if lower else 'U'} {res:.2f}{' OTHER TRIANGLE NOT ZERO' if dirty else ''}"
                              f"{' INFO ' + str(int(info.max())) if int(info.max()) else ''}")
            row["check"] = ", ".join(checks)
            rows.append(row)
            print(row, flush=True)
    return rows


def trsm_rows(dtype):
    rows = []
    handle = device.get_cublas_handle()
    cublas.setPointerMode(handle, cublas.CUBLAS_POINTER_MODE_HOST)
    double = dtype == numpy.float64
    one = numpy.ones(1, dtype)
    for n in SIZES:
        for batch in (1, 100):
            t = cupy.tril(spd(batch, n, dtype)) + n * cupy.eye(n, dtype=dtype)
            t = t + t.swapaxes(1, 2)                 # both fills see a well-conditioned triangle
            b0 = cupy.random.default_rng(1).standard_normal((batch, n, n)).astype(dtype)
            b = b0.copy()
            row = {"op": "trsm", "dtype": numpy.dtype(dtype).name, "n": n, "batch": batch}
            for side_name, side in (("left", cublas.CUBLAS_SIDE_LEFT), ("right", cublas.CUBLAS_SIDE_RIGHT)):
                for fill_name, fill in (("lower", cublas.CUBLAS_FILL_MODE_LOWER), ("upper", cublas.CUBLAS_FILL_MODE_UPPER)):
                    args = (handle, side, fill, cublas.CUBLAS_OP_N, cublas.CUBLAS_DIAG_NON_UNIT, n, n,
                            one.ctypes.data)
                    if batch == 1:
                        fn = cublas.dtrsm if double else cublas.strsm
                        call = (lambda fn=fn, args=args: fn(*args, t.data.ptr, n, b.data.ptr, n))
                    else:
                        fn = cublas.dtrsmBatched if double else cublas.strsmBatched
                        pt, pb = vendor.pointers(t), vendor.pointers(b)
                        call = (lambda fn=fn, args=args, pt=pt, pb=pb:
                                fn(*args, pt.data.ptr, n, pb.data.ptr, n, batch))
                    row[f"cublas {side_name} {fill_name}"] = timeit(call, lambda: cupy.copyto(b, b0), 20)
            rows.append(row)
            print(row, flush=True)
    return rows


def table(rows):
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in rows:
        cells = [f"{row[k]:.4f}" if isinstance(row.get(k), float) else str(row.get(k, "")) for k in keys]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=".")
    args = parser.parse_args(argv)
    props = cupy.cuda.runtime.getDeviceProperties(0)
    text = [f"# cuSOLVER/cuBLAS fill modes (scripts/probe_cusolver_fill.py), {props['name'].decode()}, "
            f"CuPy {cupy.__version__}, CUDA {cupy.cuda.runtime.runtimeGetVersion()}",
            "", "Median ms between CUDA events (host time included); check: max scaled residual "
            "||A - L L^T|| / (n ||A|| eps) of the new path, lower and upper.", ""]
    for dtype in (numpy.float64, numpy.float32):
        text += [f"## POTRF {numpy.dtype(dtype).name}", "", table(potrf_rows(dtype)), ""]
    for dtype in (numpy.float64,):
        text += [f"## TRSM {numpy.dtype(dtype).name} (n x n right-hand side, op N)", "",
                 table(trsm_rows(dtype)), ""]
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cusolver_fill.md").write_text("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
