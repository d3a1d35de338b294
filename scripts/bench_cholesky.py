"""Benchmark our GPU Cholesky family / triangular BLAS against the vendor, in the same run.

    python3 scripts/bench_cholesky.py [--quick] [--output DIR] [--dtypes float64,float32] [--sizes 4,8]

For each operation, dtype, n and batch: our median time (CUDA events, warm-up first) through the
public API (``linalg.potrf(a, overwrite_a=True, return_info=True)`` and the like: in place, no
device synchronization, as the vendor's batched calls), the backend alone (``backend_ms``: the same
kernels without the public layer's argument checks; the difference is host time), and the best
vendor path measured in the same run (cuSOLVER potrfBatched/potrsBatched called directly through
CuPy, torch.linalg.cholesky_ex / solve_triangular / cholesky_solve / cholesky_inverse, and
cupy.matmul for the products), GFLOP/s with LAPACK flop counts, effective GB/s (each matrix read and
written once), the vendor/ours ratio and the percentage of a device-to-device copy's bandwidth
measured at the start. Writes bench_cholesky.md and bench_cholesky.csv under --output.

With --fresh, ``fresh_ms`` (the last column) also times the copy-free default call: the public
call without overwrite on the pristine inputs (``linalg.potrf(a, return_info=True)``,
``linalg.potrs(l, b, return_info=True)``, ``linalg.posv(a, b, return_info=True)``,
``linalg.trsm(l, b, return_info=True)``, ``linalg.trmm(l, b)``,
``linalg.trtri(l, return_info=True)``, ``linalg.lauum(l)``, ``linalg.potri(l, return_info=True)``,
``linalg.poti(a, return_info=True)``: outputs allocated by the call, from CuPy's memory pool; no
reset, the inputs are not written). Empty without --fresh and for syrk (whose public call in the
ours_ms column is already that call).
"""
import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import cupy  # noqa: E402

import linalg  # noqa: E402
from bench_blas import warm_up  # noqa: E402
from linalg._cuda import cholesky as gchol  # noqa: E402
from linalg._cuda import syrk as gsyrk  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

try:
    import torch
except ImportError:  # vendor rows through torch are skipped
    torch = None


def timeit(fn, reset=None, reps=10, warmup=2, short_ms=0.2, short_reps=50, warm_s=0.03):
    """Median milliseconds of fn() between CUDA events; reset() (untimed) runs before each call.
    Warm-up: ``warmup`` calls and at least ``warm_s`` seconds of them (a handful of sub-ms calls
    left the first operation timed after a pause up to 1.4x slow -- SYRK n = 32 batch 10 240,
    0.237 against 0.165 ms timed again after other calls, scripts/probe_gemv_syrk.py -- which
    favoured whichever side was timed second). Calls shorter than ``short_ms`` after warm-up get
    ``short_reps`` repetitions (their host-side time moves by up to 2x between calls)."""
    start, end = cupy.cuda.Event(), cupy.cuda.Event()

    def call():
        if reset is not None:
            reset()
        fn()

    def once():
        if reset is not None:
            reset()
        start.record()
        fn()
        end.record()
        end.synchronize()
        return cupy.cuda.get_elapsed_time(start, end)

    warm_up(call, warmup, warm_s)
    if once() < short_ms:
        reps = max(reps, short_reps)
    return statistics.median(once() for _ in range(reps))


def alternate(call, reset, result, settings, apply, rounds):
    """Time call() under each of ``settings`` in turn (``apply(setting)`` first), alternated over
    ``rounds`` so that drift favours none: ({setting: [median ms of each round]}, {setting: a
    copy of result() after one more call}, the largest difference of those results from the
    first setting's over its largest entry)."""
    times, outs = {s: [] for s in settings}, {}
    for _ in range(rounds):
        for s in settings:
            apply(s)
            times[s].append(timeit(call, reset))
            reset()
            outs[s] = result(call()).copy()
    first = outs[settings[0]]
    diff = max(float(abs(outs[s] - first).max() / abs(first).max()) for s in settings)
    return times, outs, diff


def copy_bandwidth():
    """GB/s of a device-to-device copy of 1 GiB (bytes read + written)."""
    src = cupy.ones(2**27, dtype=numpy.float64)
    dst = cupy.empty_like(src)
    ms = timeit(lambda: cupy.copyto(dst, src), reps=10)
    return 2 * src.nbytes / ms / 1e6


def spd_batch(batch, n, dtype):
    gen = cupy.random.default_rng(n)
    x = gen.standard_normal((batch, n, n), dtype=numpy.float64)
    a = x @ x.swapaxes(1, 2) / n + cupy.eye(n)
    return cupy.ascontiguousarray(a.astype(dtype))


def _t(x):
    return torch.from_dlpack(x)


# ----------------------------------------------------------------------------- vendor paths

def cusolver_potrf(a_work):
    """cuSOLVER potrfBatched on our full symmetric row-major arrays with its lower fill: on
    symmetric data it factors the same matrix (leaving L^T in our upper triangle), and it is the
    faster fill (H100, n = 256 batch 100: 0.34 against 0.42 ms for the upper fill, which reads our
    lower triangle; scripts/probe_cusolver_fill.py)."""
    from cupy.cuda import device
    from cupy_backends.cuda.libs import cublas, cusolver
    batch, n = a_work.shape[0], a_work.shape[1]
    fn = cusolver.dpotrfBatched if a_work.dtype == numpy.float64 else cusolver.spotrfBatched
    item = a_work.itemsize
    ptrs = cupy.arange(a_work.data.ptr, a_work.data.ptr + batch * n * n * item, n * n * item,
                       dtype=cupy.uintp)
    info = cupy.empty(batch, dtype=numpy.int32)
    handle = device.get_cusolver_handle()
    return lambda: fn(handle, cublas.CUBLAS_FILL_MODE_LOWER, n, ptrs.data.ptr, n, info.data.ptr,
                      batch)


def cusolver_potrs(l, b_work):
    """cuSOLVER potrsBatched (nrhs = 1) on our row-major factor (lower) and vectors."""
    from cupy.cuda import device
    from cupy_backends.cuda.libs import cublas, cusolver
    batch, n = l.shape[0], l.shape[1]
    fn = cusolver.dpotrsBatched if l.dtype == numpy.float64 else cusolver.spotrsBatched
    item = l.itemsize
    pa = cupy.arange(l.data.ptr, l.data.ptr + batch * n * n * item, n * n * item, dtype=cupy.uintp)
    pb = cupy.arange(b_work.data.ptr, b_work.data.ptr + batch * n * item, n * item, dtype=cupy.uintp)
    info = cupy.empty(1, dtype=numpy.int32)
    handle = device.get_cusolver_handle()
    return lambda: fn(handle, cublas.CUBLAS_FILL_MODE_UPPER, n, 1, pa.data.ptr, n, pb.data.ptr, n,
                      info.data.ptr, batch)


def torch_lib(name):
    """Context: torch.backends.cuda.preferred_linalg_library(name) for the duration."""
    class _Ctx:
        def __enter__(self):
            self.old = torch.backends.cuda.preferred_linalg_library()
            torch.backends.cuda.preferred_linalg_library(name)

        def __exit__(self, *exc):
            torch.backends.cuda.preferred_linalg_library(self.old)
    return _Ctx()


# ----------------------------------------------------------------------------- operations

def case(op, n, batch, dtype, reps, fresh=False):
    """((public ms, backend ms), vendor_ms, vendor_name, flops, bytes, fresh ms) for one operation;
    fresh ms (None unless ``fresh`` and the op has one): the public call without overwrite."""
    a = spd_batch(batch, n, dtype)
    l, _ = gchol.potrf(a.copy(), True)
    work = cupy.empty_like(a)
    gen = cupy.random.default_rng(1)
    vendors = {}
    fresh_fn = None              # the copy-free default call: no overwrite, pristine inputs

    def reset_a():
        cupy.copyto(work, a)

    def reset_l():
        cupy.copyto(work, l)

    def both(public, backend, reset=None):
        """(public API ms, backend ms): ``linalg.<op>`` in its in-place, no-synchronization form
        (overwrite_*=True, return_info=True: the contract of cuSOLVER's batched calls and of
        torch's *_ex), and the backend function alone (without the public layer's checks)."""
        return timeit(public, reset, reps), timeit(backend, reset, reps)

    def vtime(name, fn, reset=None):
        try:
            vendors[name] = timeit(fn, reset, reps)
        except Exception as exc:  # a vendor path missing in this build: report, keep going
            print(f"  vendor {name} failed: {type(exc).__name__}: {str(exc)[:100]}", flush=True)

    if op == "potrf":
        ours = both(lambda: linalg.potrf(work, overwrite_a=True, return_info=True),
                    lambda: gchol.potrf(work, True), reset_a)
        fresh_fn = lambda: linalg.potrf(a, return_info=True)  # noqa: E731
        vtime("cusolver.potrfBatched", cusolver_potrf(work), reset_a)
        if torch is not None:
            vtime("torch.cholesky_ex", lambda: torch.linalg.cholesky_ex(_t(a)))
        flops, nbytes = n**3 / 3, 2 * n * n
    elif op in ("potrs1", "potrsn", "posvn"):
        nrhs = 1 if op == "potrs1" else n
        b = gen.standard_normal((batch, n, nrhs), dtype=numpy.float64).astype(dtype)
        bw = cupy.empty_like(b)

        def reset_b():
            cupy.copyto(bw, b)
        if op == "posvn":
            def reset_ab():
                reset_a()
                reset_b()
            ours = both(lambda: linalg.posv(work, bw, overwrite_a=True, overwrite_b=True,
                                            return_info=True),
                        lambda: gchol.posv(work, bw, True), reset_ab)
            fresh_fn = lambda: linalg.posv(a, b, return_info=True)  # noqa: E731
            flops, nbytes = n**3 / 3 + 2 * n * n * nrhs, 2 * n * n + 2 * n * nrhs
        else:
            ours = both(lambda: linalg.potrs(l, bw, overwrite_b=True, return_info=True),
                        lambda: gchol.potrs(l, bw, True), reset_b)
            fresh_fn = lambda: linalg.potrs(l, b, return_info=True)  # noqa: E731
            flops, nbytes = 2 * n * n * nrhs, n * n + 2 * n * nrhs
            if nrhs == 1:
                vtime("cusolver.potrsBatched", cusolver_potrs(l, bw), reset_b)
        if torch is not None:
            tl = _t(l)
            tb = _t(b)
            if op == "posvn":
                def tposv():
                    f, _ = torch.linalg.cholesky_ex(_t(a))
                    return torch.cholesky_solve(tb, f)
                with torch_lib("magma"):
                    vtime("torch.cholesky_ex+cholesky_solve[magma]", tposv)
            else:
                with torch_lib("magma"):
                    vtime("torch.cholesky_solve[magma]", lambda: torch.cholesky_solve(tb, tl))
    elif op == "trsm":
        b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        bw = cupy.empty_like(b)
        ours = both(lambda: linalg.trsm(l, bw, overwrite_b=True, return_info=True),
                    lambda: gtri.trsm(l, bw, "left", True, "N", False, 1.0),
                    lambda: cupy.copyto(bw, b))
        fresh_fn = lambda: linalg.trsm(l, b, return_info=True)  # noqa: E731
        if torch is not None:
            tl, tb = _t(l), _t(b)
            vtime("torch.solve_triangular", lambda: torch.linalg.solve_triangular(tl, tb, upper=False))
        flops, nbytes = n**3, 3 * n * n
    elif op == "trmm":
        b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        bw = cupy.empty_like(b)
        ours = both(lambda: linalg.trmm(l, bw, overwrite_b=True),
                    lambda: gtri.trmm(l, bw, "left", True, "N", False, 1.0),
                    lambda: cupy.copyto(bw, b))
        fresh_fn = lambda: linalg.trmm(l, b)  # noqa: E731
        vtime("cupy.matmul (dense)", lambda: cupy.matmul(l, b))
        flops, nbytes = n**3, 3 * n * n
    elif op == "syrk":
        ours = both(lambda: linalg.syrk(a), lambda: gsyrk.syrk(a, None, True, "N", 1.0, 0.0))
        vtime("cupy.matmul (dense)", lambda: cupy.matmul(a, a.swapaxes(1, 2)))
        flops, nbytes = n**3, 2 * n * n
    elif op in ("trtri", "lauum", "potri", "poti"):
        src = a if op == "poti" else l
        public = {"trtri": lambda: linalg.trtri(work, overwrite_a=True, return_info=True),
                  "lauum": lambda: linalg.lauum(work, overwrite_a=True),
                  "potri": lambda: linalg.potri(work, overwrite_l=True, return_info=True),
                  "poti": lambda: linalg.poti(work, overwrite_a=True, return_info=True)}[op]
        backend = {"trtri": lambda: gtri.trtri(work, True, False),
                   "lauum": lambda: gtri.lauum(work, True),
                   "potri": lambda: gchol.potri(work, True), "poti": lambda: gchol.poti(work, True)}[op]
        ours = both(public, backend, lambda: cupy.copyto(work, src))
        fresh_fn = {"trtri": lambda: linalg.trtri(l, return_info=True),
                    "lauum": lambda: linalg.lauum(l),
                    "potri": lambda: linalg.potri(l, return_info=True),
                    "poti": lambda: linalg.poti(a, return_info=True)}[op]
        if torch is not None:
            tl, ta = _t(l), _t(a)
            if op == "trtri":
                eye = torch.eye(n, dtype=tl.dtype, device=tl.device).expand(batch, n, n)
                vtime("torch.solve_triangular(L, I)",
                      lambda: torch.linalg.solve_triangular(tl, eye, upper=False))
            elif op == "lauum":
                vtime("torch.matmul(L^T, L) (dense)", lambda: torch.matmul(tl.mT, tl))
            elif op == "potri":
                with torch_lib("magma"):
                    vtime("torch.cholesky_inverse[magma]", lambda: torch.cholesky_inverse(tl))
            else:
                def tpoti():
                    f, _ = torch.linalg.cholesky_ex(ta)
                    return torch.cholesky_inverse(f)
                with torch_lib("magma"):
                    vtime("torch.cholesky_ex+cholesky_inverse[magma]", tpoti)
        flops = {"trtri": n**3 / 3, "lauum": n**3 / 3, "potri": 2 * n**3 / 3, "poti": n**3}[op]
        nbytes = 2 * n * n
    else:
        raise ValueError(op)
    fresh_ms = None
    if fresh and fresh_fn is not None:
        try:
            fresh_ms = timeit(fresh_fn, None, reps)
        except Exception as exc:  # keep the row's other columns
            print(f"  fresh {op} failed: {type(exc).__name__}: {str(exc)[:100]}", flush=True)
    best = min(vendors.items(), key=lambda kv: kv[1]) if vendors else (None, float("nan"))
    item = numpy.dtype(dtype).itemsize
    return ours, best[1], best[0], flops * batch, nbytes * batch * item, fresh_ms


OPS = ("potrf", "potrs1", "potrsn", "posvn", "trsm", "trmm", "syrk", "trtri", "lauum", "potri", "poti")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="n <= 128, batch 10240 only, fewer reps")
    p.add_argument("--output", default="out/bench_cholesky")
    p.add_argument("--dtypes", default="float64,float32")
    p.add_argument("--sizes", default=None, help="comma-separated n (default 2..512 powers of 2)")
    p.add_argument("--ops", default=",".join(OPS))
    p.add_argument("--batches", default=None, help="comma-separated batch counts (default 10240, "
                   "and 100000 for n <= 32 unless --quick)")
    p.add_argument("--fresh", action="store_true", help="also time the copy-free default call "
                   "(public call without overwrite, pristine inputs): column fresh_ms")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else (
        [4, 8, 16, 32, 64, 128] if args.quick else [2, 4, 8, 16, 32, 64, 128, 256, 512])
    reps = 5 if args.quick else 10
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    bw = copy_bandwidth()
    dev = cupy.cuda.runtime.getDeviceProperties(0)
    header = (f"GPU {dev['name'].decode()}, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}, "
              f"CuPy {cupy.__version__}, torch {torch.__version__ if torch else '-'}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; copy bandwidth {bw:.0f} GB/s")
    print(header, flush=True)
    rows = []
    for dtype in args.dtypes.split(","):
        for op in args.ops.split(","):
            for n in sizes:
                batches = ([int(b) for b in args.batches.split(",")] if args.batches else
                           [10240] + ([100000] if n <= 32 and not args.quick else []))
                for batch in batches:
                    try:
                        (ours, backend), vend, vname, flops, nbytes, fresh = case(
                            op, n, batch, numpy.dtype(dtype), reps, args.fresh)
                    except Exception as exc:
                        print(f"{op} {dtype} n={n} batch={batch}: FAILED {type(exc).__name__}: {exc}",
                              flush=True)
                        continue
                    gbs = nbytes / ours / 1e6
                    row = dict(op=op, dtype=dtype, n=n, batch=batch, ours_ms=round(ours, 4),
                               backend_ms=round(backend, 4), vendor_ms=round(vend, 4), vendor=vname, speedup=round(vend / ours, 2),
                               gflops=round(flops / ours / 1e6, 1), gbs=round(gbs, 1),
                               pct_bw=round(100 * gbs / bw, 1),
                               fresh_ms="" if fresh is None else round(fresh, 4))
                    rows.append(row)
                    print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
                    write(out, header, rows)          # after every row: a killed run keeps its rows
                    cupy.get_default_memory_pool().free_all_blocks()


def write(out, header, rows):
    if not rows:
        return
    with open(out / "bench_cholesky.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    cols = list(rows[0])
    lines = [f"# bench_cholesky\n\n{header}\n", "| " + " | ".join(cols) + " |",
             "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    (out / "bench_cholesky.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
