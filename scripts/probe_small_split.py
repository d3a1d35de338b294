"""Where a small-batch call's time goes: host time and GPU time, separately, of our public call,
our backend and the vendor call, for the cells of scripts/bench_small_batch.py that the vendor
wins (TRMM, LAUUM, SYRK, TRSM, POTRF at batch 1-100), plus the paths we could take instead
(TRMM / LAUUM by tri_tile or the dense product, TRSM by cuBLAS on either side, POTRF's cuSOLVER
path piece by piece and the panels).

    python3 scripts/probe_small_split.py [--ops trmm,lauum] [--sizes 64,128] [--batches 1,8]

Per cell and callable, microseconds a call: "host" (a loop of calls without synchronization,
perf_counter: what the CPU spends issuing it), "gpu" (the calls captured in a CUDA graph and the
graph timed with events: no host time; "-" where the call cannot be captured) and "events"
(CUDA events around back-to-back calls, as bench_small_batch times them: the larger of the two
wherever the host cannot run ahead). float64; prints a Markdown table.
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cupy  # noqa: E402

import linalg  # noqa: E402
from bench_blas import timeit, timeit_gpu  # noqa: E402
from probe_call_costs import host_us  # noqa: E402
from linalg._cuda import cholesky as gchol  # noqa: E402
from linalg._cuda import syrk as gsyrk  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402
from linalg._cuda import vendor  # noqa: E402

try:
    import torch
except ImportError:
    torch = None


def gpu_us(fn):
    try:
        return timeit_gpu(fn) * 1e3
    except Exception:
        return float("nan")


def from_copy(work, src):
    """A wrapper making fn() start from ``work`` refreshed with ``src`` (the in-place calls that
    cannot run twice on their own output: a factor factored again fails early)."""
    def fresh(fn):
        def call():
            cupy.copyto(work, src)
            return fn()
        return call
    return fresh


def callables(op, n, batch, gen):
    """[(label, fn)] of one cell: public, backend, alternatives, vendor."""
    m = gen.standard_normal((batch, n, n))
    a = cupy.asarray(m @ m.transpose(0, 2, 1) + n * numpy.eye(n))
    l = cupy.linalg.cholesky(a)
    b = cupy.asarray(gen.standard_normal((batch, n, n)))
    work = l.copy()
    tl = torch.as_tensor(l, device="cuda") if torch is not None else None
    if op == "trmm":
        return [("public", lambda: linalg.trmm(l, b, overwrite_b=True)),
                ("backend", lambda: gtri.trmm(l, b, "left", True, "N", False, 1.0)),
                ("dense path", lambda: gtri._vendor_trmm(l, b, False, True, "N", False, 1.0)),
                ("tile path", lambda: gtri.tile_trmm(l, b, False, True, False, False)),
                ("cupy.matmul", lambda: cupy.matmul(l, b))]
    if op == "lauum":
        return [("public", lambda: linalg.lauum(work, overwrite_a=True)),
                ("backend", lambda: gtri.lauum(work, True)),
                ("tile path", lambda: gtri.tile_lauum(work, True)),
                ("torch.matmul", lambda: torch.matmul(tl.mT, tl))]
    if op == "syrk":
        return [("public", lambda: linalg.syrk(a)),
                ("backend", lambda: gsyrk.syrk(a, None, True, "N", 1.0, 0.0)),
                ("cupy.matmul", lambda: cupy.matmul(a, a.swapaxes(1, 2)))]
    if op == "trsm":
        tb = torch.as_tensor(b, device="cuda")

        def left_by_transposes():      # B^T copied, a left-side cuBLAS solve, copied back
            bt = cupy.ascontiguousarray(b.swapaxes(1, 2))
            vendor.trsm(l, bt, True, True, True, False, 1.0)
            b[...] = bt.swapaxes(1, 2)
        return [("public", lambda: linalg.trsm(l, b, overwrite_b=True, return_info=True)),
                ("backend", lambda: gtri.trsm(l, b, "left", True, "N", False, 1.0)),
                ("diag_info", lambda: gtri._diag_info(l, False)),
                ("vendor.trsm (right side)", lambda: vendor.trsm(l, b, False, True, False, False)),
                ("vendor.trsm by B^T (left side)", left_by_transposes),
                ("torch.solve_triangular",
                 lambda: torch.linalg.solve_triangular(tl, tb, upper=False))]
    if op == "trtri":
        eye = gtri.identity(batch, n, l.dtype)
        teye = torch.eye(n, dtype=tl.dtype, device=tl.device).expand(batch, n, n)
        fresh = from_copy(work, l)
        return [("copy (in the rows below)", fresh(lambda: None)),
                ("public", fresh(lambda: linalg.trtri(work, overwrite_a=True, return_info=True))),
                ("backend", fresh(lambda: gtri.trtri(work, True, False))),
                ("identity", lambda: gtri.identity(batch, n, l.dtype)),
                ("vendor.trsm(L, I)", lambda: vendor.trsm(l, eye, False, True, False, False)),
                ("torch.solve_triangular(L, I)",
                 lambda: torch.linalg.solve_triangular(tl, teye, upper=False))]
    if op == "potrf":
        # every callable factors a fresh copy of A (a factor factored again fails early)
        ta = torch.as_tensor(a, device="cuda")
        fresh = from_copy(work, a)
        return [("copy (in every row below)", fresh(lambda: None)),
                ("public", fresh(lambda: linalg.potrf(work, overwrite_a=True, return_info=True))),
                ("backend", fresh(lambda: gchol.potrf(work, True))),
                ("mirror", fresh(lambda: gtri.triangle_fix(work, True, zero=False))),
                ("cusolver lower fill", fresh(lambda: vendor.potrf(work, False))),
                ("cusolver upper fill", fresh(lambda: vendor.potrf(work, True))),
                ("move back", fresh(lambda: gtri.triangle_transpose(work, True))),
                ("panels", fresh(lambda: gchol.potrf_panels(work, True))),
                ("torch.cholesky_ex", lambda: torch.linalg.cholesky_ex(ta))]
    raise ValueError(op)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ops", default="trmm,lauum,syrk,trsm,trtri,potrf")
    parser.add_argument("--sizes", default="8,32,64,128,256,512")
    parser.add_argument("--batches", default="1,8,100")
    args = parser.parse_args()
    gen = numpy.random.default_rng(0)
    print("| op | n | batch | callable | host us | gpu us | events us |")
    print("|---|---|---|---|---|---|---|")
    for op in args.ops.split(","):
        for n in map(int, args.sizes.split(",")):
            for batch in map(int, args.batches.split(",")):
                for label, fn in callables(op, n, batch, gen):
                    try:
                        h, g, e = host_us(fn, 300), gpu_us(fn), timeit(fn) * 1e3
                        print(f"| {op} | {n} | {batch} | {label} | {h:.1f} | {g:.1f} | {e:.1f} |",
                              flush=True)
                    except Exception as exc:
                        print(f"| {op} | {n} | {batch} | {label} | failed: "
                              f"{type(exc).__name__}: {str(exc)[:60]} | | |", flush=True)


if __name__ == "__main__":
    main()
