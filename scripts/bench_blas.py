#!/usr/bin/env python3
"""Benchmark our batched GEMV, GEMM, TRSV and GEBRD against the vendor in the same run.

Vendor paths: cupy.matmul (cuBLAS gemmStridedBatched) for GEMM and GEMV (for the hydro A_z B^T
product also one tall GEMM (Z*m x q) @ (q x n), whichever is faster); torch.linalg.solve_triangular
(cuBLAS trsm, one right-hand side) for TRSV; torch.linalg.svdvals(driver='gesvda') for GEBRD
(a singular-value path: there is no vendor batched GEBRD), plus the seed-003 bound for GEBRD
t = (4/3 n^3) / P_gemv + (4/3 n^3) / P_gemm from our own GEMV-T and GEMM rates at that size.

"ours" is the public API call (``linalg.gemv(a, x, y, overwrite_y=True)`` and the like: argument
checks included, the path the tuning table dispatches to, named in the column "dispatch");
"kernel" is our kernel alone through the backend, forced (``_path="kernel"``) even where the table
picks the vendor: the crossover data of linalg/tuning/*.json.

Timing: CUDA events on the current stream around each call, warm-up first, median of reps.
GB/s counts every operand read once and every output written once; "%copy" compares that with a
device-to-device copy measured in the same run (read + write counted), for the public call, and
"kernel %copy" for the kernel alone (GEMV/GEMM: GPU time of calls replayed from a CUDA graph,
free of the host time that bounds a small call; TRSV/GEBRD: calls back to back). Output: a Markdown table
on stdout and <output>/bench_blas.md + bench_blas.csv.

    python3 scripts/bench_blas.py [--quick] [--output DIR]
"""
import argparse
import csv
import math
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import linalg  # noqa: E402

HYDRO = ((18, 4, 16), (32, 9, 36), (81, 8, 64), (192, 27, 216), (375, 64, 512))  # (m, n, q)


def warm_up(fn, calls, seconds=0.03):
    """``calls`` calls of fn() and at least ``seconds`` of them, then a synchronize: a handful
    of sub-ms calls leave the first case timed after a pause slow. The warm-up of every timer
    here and of scripts/bench_cholesky.timeit."""
    import cupy
    until = time.perf_counter() + seconds
    i = 0
    while i < calls or time.perf_counter() < until:
        fn()
        i += 1
        if i % 16 == 0:                    # keep the queue short while warming by time
            cupy.cuda.get_current_stream().synchronize()
    cupy.cuda.get_current_stream().synchronize()


def timeit(fn, reps=20, warmup=3, inner=5):
    """Median milliseconds per call of fn(): CUDA events around `inner` back-to-back calls
    (so the host's launch cost overlaps the previous call, as in a loop of calls), after
    warm-up (:func:`warm_up`); the median over `reps` such groups."""
    import cupy
    warm_up(fn, warmup)
    times = []
    for _ in range(reps):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        for _ in range(inner):
            fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / inner)
    return float(numpy.median(times))


def timeit_gpu(fn, reps=20, warmup=3, inner=10):
    """Median milliseconds of GPU time per call of fn(): ``inner`` calls captured once in a CUDA
    graph and the graph timed with CUDA events, so no host time is in the number (a small call's
    Python and launch time is larger than its kernel). fn must allocate nothing it does not free
    and synchronize nothing; falls back to :func:`timeit` where the capture fails."""
    import cupy
    warm_up(fn, warmup)
    stream = cupy.cuda.Stream(non_blocking=True)
    try:
        with stream:
            stream.begin_capture()
            try:
                for _ in range(inner):
                    fn()
            finally:
                graph = stream.end_capture()
    except Exception:           # e.g. a vendor library call that cannot be captured
        cupy.cuda.get_current_stream().synchronize()
        return timeit(fn, reps, warmup)
    times = []
    for _ in range(reps + 1):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record(stream)
        graph.launch(stream)
        stop.record(stream)
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / inner)
    return float(numpy.median(times[1:]))      # the first launch uploads the graph


def fit_batch(batch, elements, item, limit=4 << 30):
    """The batch, reduced so that one operand of `elements` numbers per matrix stays <= limit."""
    return max(1, min(batch, limit // max(1, elements * item)))


def copy_bandwidth(nbytes=1 << 30):
    """Device-to-device copy rate in GB/s, read + write counted."""
    import cupy
    src = cupy.ones(nbytes // 4, dtype=cupy.float32)
    dst = cupy.empty_like(src)
    ms = timeit(lambda: cupy.copyto(dst, src), reps=10, warmup=2)
    del src, dst
    return 2 * nbytes / ms / 1e6


def _torch():
    try:
        import torch
        return torch if torch.cuda.is_available() else None
    except ImportError:
        return None


class Bench:
    def __init__(self, quick, copy_gbs):
        self.quick, self.copy_gbs, self.rows = quick, copy_gbs, []
        self.reps = 10 if quick else 20
        print("op | dtype | shape | batch | ours_ms | kernel_ms | vendor_ms | vendor | speedup | "
              "GFLOP/s | GB/s | %copy | kernel %copy | note | dispatch", flush=True)

    def record(self, op, dtype, shape, batch, ours_ms, vendor_ms, vendor, flops, nbytes,
               note="", kernel_ms=None):
        """One row: ``ours_ms`` the public API call (what the tuning table dispatches to, checks
        included), ``kernel_ms`` our kernel alone through the backend (forced, even where the
        table sends the class to the vendor; GPU time from a CUDA graph for GEMV/GEMM)."""
        gbs = nbytes / ours_ms / 1e6
        row = dict(op=op, dtype=numpy.dtype(dtype).name, shape=shape, batch=batch,
                   ours_ms=round(ours_ms, 4),
                   kernel_ms=round(kernel_ms, 4) if kernel_ms else "",
                   vendor_ms=round(vendor_ms, 4) if vendor_ms else "", vendor=vendor,
                   speedup=round(vendor_ms / ours_ms, 2) if vendor_ms else "",
                   gflops=round(flops / ours_ms / 1e6, 1), gbs=round(gbs, 1),
                   pct_copy=round(100 * gbs / self.copy_gbs, 1),
                   kernel_pct_copy=round(100 * nbytes / kernel_ms / 1e6 / self.copy_gbs, 1)
                   if kernel_ms else "", note=note,
                   dispatch=dispatched(op, dtype, shape, batch))
        self.rows.append(row)
        print(" | ".join(str(v) for v in row.values()), flush=True)
        return row


def dispatched(op, dtype, shape, batch=1):
    """'vendor' or 'kernel': what the tuning table picks for this benchmark row's class (for the
    hydro GEMM rows with one B, the tall class where the batch folds into one tall A:
    blas.folds_by_shape)."""
    import re
    from linalg import _tuning
    from linalg._cuda import blas
    dims = [int(d) for d in re.findall(r"\d+", shape)]
    if op == "gemm_AzBt" and blas.folds_by_shape(numpy.dtype(dtype), batch, dims[0], dims[2],
                                                 dims[1]):
        return "kernel"
    name, dims = {"gemv_N": ("gemv_n", dims), "gemv_T": ("gemv_t", dims),
                  "trsv_LN": ("trsv", dims[:1]), "gemm_NN": ("gemm", dims[:1] * 3),
                  "gemm_AzBt": ("gemm", dims[:1] + dims[2:3] + dims[1:2])}.get(op, (None, None))
    if name is None:
        return "kernel"
    vendor = _tuning.use_vendor(name, numpy.dtype(dtype).name, _tuning.shape_class(*dims))[0]
    return "vendor" if vendor else "kernel"


def bench_gemv(b, dtype, shapes, batch0):
    import cupy
    from linalg._cuda import blas
    item = numpy.dtype(dtype).itemsize
    for m, n in shapes:
        batch = fit_batch(batch0, m * n, item)
        a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
        for trans in ("N", "T"):
            xl, yl = (n, m) if trans == "N" else (m, n)
            x = cupy.random.standard_normal((batch, xl)).astype(dtype)
            y = cupy.empty((batch, yl), dtype=dtype)
            ours = timeit(lambda: linalg.gemv(a, x, y, trans=trans, overwrite_y=True), b.reps)
            kernel = timeit_gpu(lambda: blas.gemv(a, x, y, trans=trans, _path="kernel"), b.reps)
            op = a if trans == "N" else a.transpose(0, 2, 1)
            vend = timeit(lambda: cupy.matmul(op, x[:, :, None]), b.reps)
            b.record(f"gemv_{trans}", dtype, f"{m}x{n}", batch, ours, vend, "cupy.matmul",
                     2 * m * n * batch, (m * n + xl + yl) * batch * item, kernel_ms=kernel)
        del a


def bench_gemm(b, dtype, sizes, batch):
    import cupy
    from linalg._cuda import blas
    item = numpy.dtype(dtype).itemsize
    rates = {}
    for n in sizes:
        a = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        bb = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        c = cupy.empty_like(a)
        ours = timeit(lambda: linalg.gemm(a, bb, c, overwrite_c=True), b.reps)
        kernel = timeit_gpu(lambda: blas.gemm(a, bb, c, _path="kernel"), b.reps)
        vend = timeit(lambda: cupy.matmul(a, bb), b.reps)
        row = b.record("gemm_NN", dtype, f"{n}^3", batch, ours, vend, "cupy.matmul",
                       2 * n ** 3 * batch, 3 * n * n * batch * item, kernel_ms=kernel)
        rates[n] = row["gflops"]
        del a, bb, c
    return rates


def bench_hydro_gemm(b, dtype, batch0):
    import cupy
    from linalg._cuda import blas
    item = numpy.dtype(dtype).itemsize
    for m, n, q in HYDRO:
        batch = fit_batch(batch0, m * q, item)
        az = cupy.random.standard_normal((batch, m, q)).astype(dtype)
        bm = cupy.random.standard_normal((1, n, q)).astype(dtype)
        f = cupy.empty((1, batch * m, n), dtype=dtype)
        # as hydro/operators.py calls it: the zones folded into the rows of one tall A
        tall3 = az.reshape(1, batch * m, q)
        ours = timeit(lambda: linalg.gemm(tall3, bm, f, transb="T", overwrite_c=True), b.reps)
        kernel = timeit_gpu(lambda: blas.gemm(tall3, bm, f, transb="T", _path="kernel"), b.reps)
        v1 = timeit(lambda: cupy.matmul(az, bm.transpose(0, 2, 1)), b.reps)
        tall = az.reshape(batch * m, q)
        v2 = timeit(lambda: cupy.matmul(tall, bm[0].T), b.reps)
        vend, name = (v1, "cupy.matmul batched") if v1 < v2 else (v2, "cupy.matmul one tall")
        b.record("gemm_AzBt", dtype, f"{m}x{q}*({n}x{q})^T", batch, ours, vend, name,
                 2 * m * n * q * batch, (m * q + m * n) * batch * item + n * q * item,
                 kernel_ms=kernel)
        del az, bm, f, tall, tall3


def bench_trsv(b, dtype, sizes, batch):
    import cupy
    from linalg._cuda import trsv
    torch = _torch()
    item = numpy.dtype(dtype).itemsize
    for n in sizes:
        # Diagonal in [1, 1.1], off-diagonal entries ~0.1 / n: solving in place again and again
        # (timeit's back-to-back calls, no restore between them) keeps x bounded and normal,
        # so no call is timed with a restore launch whose host time would be subtracted (those
        # host times vary as much as a small solve takes).
        a = cupy.tril(cupy.random.standard_normal((batch, n, n)).astype(dtype) * (0.1 / n))
        idx = cupy.arange(n)
        a[:, idx, idx] = 1 + 0.1 * cupy.random.random((batch, n)).astype(dtype)
        x0 = cupy.random.standard_normal((batch, n)).astype(dtype)
        x = x0.copy()

        def solve():
            linalg.trsv(a, x, lower=True, overwrite_x=True, return_info=True)

        def solve_kernel():
            trsv.trsv(a, x, lower=True, _path="kernel")
        ours = timeit(solve, b.reps)
        kernel = timeit(solve_kernel, b.reps)
        assert bool(cupy.isfinite(x).all()) and float(cupy.abs(x).max()) > 1e-20, "x degenerated"
        vend, name = None, ""
        if torch is not None:
            ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x0, device="cuda")[..., None]
            vend = timeit(lambda: torch.linalg.solve_triangular(ta, tb, upper=False), b.reps)
            name = "torch.solve_triangular"
        b.record("trsv_LN", dtype, f"{n}", batch, ours, vend, name, n * n * batch,
                 (n * (n + 1) // 2 + 2 * n) * batch * item, kernel_ms=kernel)
        del a, x, x0


def bench_gebrd(b, dtype, sizes, batch, gemv_rates, gemm_rates):
    import cupy
    from linalg._cuda import bidiag
    torch = _torch()
    item = numpy.dtype(dtype).itemsize
    for n in sizes:
        a0 = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        a = a0.copy()

        def run():
            a[...] = a0
            linalg.gebrd(a, overwrite_a=True)

        def run_kernel():
            a[...] = a0
            bidiag.gebrd(a)
        restore = timeit(lambda: a.__setitem__(Ellipsis, a0), b.reps)
        ours = timeit(run, b.reps) - restore
        kernel = timeit(run_kernel, b.reps) - restore
        vend, name = None, ""
        if torch is not None and n <= 256:
            ta = torch.as_tensor(a0, device="cuda")
            try:
                vend = timeit(lambda: torch.linalg.svdvals(ta, driver="gesvda"), 3, 1)
                name = "torch.svdvals(gesvda)"
            except Exception as exc:     # gesvda fails for float32 n = 64 (vendor report)
                name = f"gesvda failed: {type(exc).__name__}"
        flops = 8 * n ** 3 / 3 * batch
        note = ""
        pv, pg = gemv_rates.get(n), gemm_rates.get(n)
        if pv and pg:
            t_bound = (4 * n ** 3 / 3 * batch) / (pv * 1e6) + (4 * n ** 3 / 3 * batch) / (pg * 1e6)
            note = f"seed-003 bound {t_bound:.4f} ms ({100 * t_bound / ours:.0f}% of it)"
        b.record("gebrd", dtype, f"{n}x{n}", batch, ours, vend, name, flops,
                 2 * n * n * batch * item, note, kernel_ms=kernel)
        del a0, a


def gemv_t_rates(b, dtype, sizes, batch):
    """Our GEMV-T GFLOP/s on n x n (the seed-003 bound's P_gemv)."""
    import cupy
    from linalg._cuda import blas
    out = {}
    for n in sizes:
        a = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        x = cupy.random.standard_normal((batch, n)).astype(dtype)
        ms = timeit(lambda: blas.gemv(a, x, trans="T"), b.reps)
        out[n] = 2 * n * n * batch / ms / 1e6
        del a, x
    return out


def smoke():
    """Each kernel family once on small awkward shapes (for compute-sanitizer memcheck); checks
    the results against NumPy and prints one line per op."""
    import cupy
    from linalg._cuda import blas, trsv, bidiag
    rs = numpy.random.default_rng(0)
    for dtype in (numpy.float32, numpy.float64):
        for m, n in ((3, 5), (81, 8), (32, 9), (17, 17)):
            a = rs.standard_normal((7, m, n)).astype(dtype)
            for trans, xl in (("N", n), ("T", m)):
                x = rs.standard_normal((7, xl)).astype(dtype)
                y = cupy.asnumpy(blas.gemv(cupy.asarray(a), cupy.asarray(x), trans=trans))
                op = a if trans == "N" else a.transpose(0, 2, 1)
                ref = (op @ x[..., None])[..., 0]
                print("gemv", trans, dtype.__name__, m, n, numpy.abs(y - ref).max())
            for p in (None, {"kernel": "team", "vec": 2, "unroll": 2, "team": 32}):
                x = rs.standard_normal((7, n)).astype(dtype)
                blas.gemv(cupy.asarray(a), cupy.asarray(x), _params=p)
            bt = rs.standard_normal((1, 5, n)).astype(dtype)
            c = cupy.asnumpy(blas.gemm(cupy.asarray(a), cupy.asarray(bt), transb="T"))
            print("gemm tall", dtype.__name__, m, n, numpy.abs(c - a @ bt.transpose(0, 2, 1)).max())
            b2 = rs.standard_normal((7, n, 6)).astype(dtype)
            for p in ({"cfg": "t16", "mpb": 2}, {"cfg": "h64x8", "mpb": 1}):
                c = cupy.asnumpy(blas.gemm(cupy.asarray(a), cupy.asarray(b2), _params=p))
                print("gemm", p["cfg"], dtype.__name__, m, n, numpy.abs(c - a @ b2).max())
            g = cupy.asnumpy(bidiag.gebrd(cupy.asarray(a))[1])
            print("gebrd", dtype.__name__, m, n, g.shape)
        for n in (5, 40):
            t = numpy.tril(rs.standard_normal((3, n, n))).astype(dtype) + 4 * numpy.eye(n, dtype=dtype)
            for lower, tr in ((True, "N"), (True, "T"), (False, "N"), (False, "T")):
                aa = t if lower else t.transpose(0, 2, 1).copy()
                x, info = trsv.trsv(cupy.asarray(aa), cupy.asarray(numpy.ones((3, n), dtype)),
                                    lower=lower, trans=tr)
                print("trsv", lower, tr, dtype.__name__, n, cupy.asnumpy(info).tolist())
    cupy.cuda.Device().synchronize()
    print("# smoke done")


def write(rows, outdir, header):
    os.makedirs(outdir, exist_ok=True)
    keys = list(rows[0].keys())
    with open(os.path.join(outdir, "bench_blas.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    lines = [header, "", "| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
    with open(os.path.join(outdir, "bench_blas.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    import cupy
    from linalg import _tuning
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes and reps")
    ap.add_argument("--output", default=os.environ.get("OUT", "out"))
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--ops", default="gemv,gemm,hydro,trsv,gebrd")
    ap.add_argument("--smoke", action="store_true", help="tiny run of every kernel (sanitizer)")
    args = ap.parse_args(argv)
    if args.smoke:
        return smoke()
    t0 = time.time()
    copy = copy_bandwidth()
    gpu = _tuning.gpu_name()
    header = (f"# bench_blas on {gpu}: CuPy {cupy.__version__}, CUDA runtime "
              f"{cupy.cuda.runtime.runtimeGetVersion()}, copy bandwidth {copy:.0f} GB/s "
              f"(read+write), {'quick' if args.quick else 'full'} mode")
    print(header)
    b = Bench(args.quick, copy)
    ops = args.ops.split(",")
    squares = (4, 8, 16, 32, 64, 128, 256) if args.quick else (4, 8, 16, 32, 64, 128, 256, 512)
    hydro_mn = [(m, n) for m, n, _ in HYDRO]
    sections = []
    for dt in args.dtypes.split(","):
        dtype = numpy.dtype(dt)
        gemm_rates = {}
        gsz = (8, 16, 32, 64) if args.quick else (8, 16, 32, 64, 128)
        if "gemv" in ops:
            sections.append(lambda d=dtype: bench_gemv(b, d, hydro_mn, 40960))
            sections.append(lambda d=dtype: bench_gemv(b, d, hydro_mn, 262144))
            if not args.quick:
                sections.append(lambda d=dtype: bench_gemv(b, d, hydro_mn, 10240))
            sections.append(lambda d=dtype: bench_gemv(b, d, [(n, n) for n in squares], 10240))
        if "trsv" in ops:
            sections.append(lambda d=dtype: bench_trsv(b, d, squares, 10240))
        if "gemm" in ops:
            sections.append(lambda d=dtype, r=gemm_rates: r.update(
                bench_gemm(b, d, squares[:-1], 10240)))
        if "gebrd" in ops:
            sections.append(lambda d=dtype, r=gemm_rates: bench_gebrd(
                b, d, gsz, 10240, gemv_t_rates(b, d, gsz, 10240), r))
            # matrices too large for shared memory (gebrd_blocked), at smaller batches: 10240
            # float64 512 x 512 matrices are 21 GB and one call takes seconds
            for n, nbatch in ((256, 1024),) + (() if args.quick else ((512, 256),)):
                sections.append(lambda d=dtype, r=gemm_rates, n=n, nbatch=nbatch: bench_gebrd(
                    b, d, (n,), nbatch, gemv_t_rates(b, d, (n,), nbatch), r))
        if "hydro" in ops:
            sections.append(lambda d=dtype: bench_hydro_gemm(b, d, 40960))
            if not args.quick:
                sections.append(lambda d=dtype: bench_hydro_gemm(b, d, 262144))
    for section in sections:
        try:
            section()
        except Exception as exc:        # one failing section must not lose the others
            print(f"# section failed: {type(exc).__name__}: {exc}", flush=True)
        import cupy as _cp
        _cp.get_default_memory_pool().free_all_blocks()
    write(b.rows, args.output, header)
    print(f"# done in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
