"""CPU benchmark: every linalg operation on a strided batch vs a per-matrix SciPy loop.

For each operation and size n (4, 8, 16, 32, 64, 128), one batch of 10 000 float64 matrices is
processed once by ``linalg`` (one call) and once by a Python loop calling the SciPy BLAS/LAPACK
wrapper on each matrix (scipy.linalg.blas / scipy.linalg.lapack; GEBRD, which SciPy does not wrap,
through scipy.linalg.cython_lapack). Times are the median of repetitions, in milliseconds for the
whole batch; the SciPy loop is timed with the BLAS's default threading and with one BLAS thread
(when threadpoolctl is installed) and the better time is reported. Operations not implemented yet
print 'n/a'.

Shapes: square n x n matrices; the right-hand sides are n x n for TRSM/TRMM, n x 1 for POTRS/POSV,
length n for GEMV/TRSV; SYRK is C = A A^T with A n x n.

    python scripts/bench_cpu.py --output reports/bench_cpu.md     # full table (several minutes)
    python scripts/bench_cpu.py --quick                           # smoke run (seconds)
"""
import argparse
import ctypes
import datetime
import os
import platform
import statistics
import sys
import time

import numpy

OPS = ("trsm", "trmm", "syrk", "potrf", "potrs", "posv", "trtri", "lauum", "potri", "poti",
       "gemm", "gemv", "trsv", "gebrd")
SIZES = (4, 8, 16, 32, 64, 128)


# ---- inputs (float64, well conditioned) ----

def make_inputs(gen, batch, n):
    a = gen.standard_normal((batch, n, n))
    spd = a @ numpy.swapaxes(a, 1, 2) + n * numpy.eye(n)
    chol = numpy.linalg.cholesky(spd)
    tri = numpy.tril(gen.standard_normal((batch, n, n))) / numpy.sqrt(n)
    tri[:, numpy.arange(n), numpy.arange(n)] = 1 + gen.uniform(0, 1, (batch, n))
    return {"a": a, "b": gen.standard_normal((batch, n, n)), "spd": spd, "chol": chol, "tri": tri,
            "rhs": gen.standard_normal((batch, n, 1)), "x": gen.standard_normal((batch, n))}


def ours(linalg, op, d):
    """The linalg call for ``op`` on the inputs ``d`` (lower triangles, no transposes)."""
    return {
        "trsm": lambda: linalg.trsm(d["tri"], d["b"]),
        "trmm": lambda: linalg.trmm(d["tri"], d["b"]),
        "syrk": lambda: linalg.syrk(d["a"]),
        "potrf": lambda: linalg.potrf(d["spd"]),
        "potrs": lambda: linalg.potrs(d["chol"], d["rhs"]),
        "posv": lambda: linalg.posv(d["spd"], d["rhs"]),
        "trtri": lambda: linalg.trtri(d["tri"]),
        "lauum": lambda: linalg.lauum(d["tri"]),
        "potri": lambda: linalg.potri(d["chol"]),
        "poti": lambda: linalg.poti(d["spd"]),
        "gemm": lambda: linalg.gemm(d["a"], d["b"]),
        "gemv": lambda: linalg.gemv(d["a"], d["x"]),
        "trsv": lambda: linalg.trsv(d["tri"], d["x"]),
        "gebrd": lambda: linalg.gebrd(d["a"]),
    }[op]


def scipy_loop(op, d):
    """A per-matrix loop over the SciPy wrapper of the same BLAS/LAPACK routine."""
    from scipy.linalg import blas, lapack
    batch = d["a"].shape[0]
    call = {
        "trsm": lambda k: blas.dtrsm(1.0, d["tri"][k], d["b"][k], lower=1),
        "trmm": lambda k: blas.dtrmm(1.0, d["tri"][k], d["b"][k], lower=1),
        "syrk": lambda k: blas.dsyrk(1.0, d["a"][k], lower=1),
        "potrf": lambda k: lapack.dpotrf(d["spd"][k], lower=1),
        "potrs": lambda k: lapack.dpotrs(d["chol"][k], d["rhs"][k], lower=1),
        "posv": lambda k: lapack.dposv(d["spd"][k], d["rhs"][k], lower=1),
        "trtri": lambda k: lapack.dtrtri(d["tri"][k], lower=1),
        "lauum": lambda k: lapack.dlauum(d["tri"][k], lower=1),
        "potri": lambda k: lapack.dpotri(d["chol"][k], lower=1),
        "poti": lambda k: lapack.dpotri(lapack.dpotrf(d["spd"][k], lower=1)[0], lower=1),
        "gemm": lambda k: blas.dgemm(1.0, d["a"][k], d["b"][k]),
        "gemv": lambda k: blas.dgemv(1.0, d["a"][k], d["x"][k]),
        "trsv": lambda k: blas.dtrsv(d["tri"][k], d["x"][k], lower=1),
        "gebrd": _gebrd_caller(d["a"]),
    }[op]
    call(0)                                            # warm-up: first-call costs are not timed
    return lambda: [call(k) for k in range(batch)]


def _gebrd_caller(a):
    """dgebrd through scipy.linalg.cython_lapack (SciPy has no Python-level gebrd)."""
    from scipy.linalg import cython_lapack
    capsule = cython_lapack.__pyx_capi__["dgebrd"]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    routine = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 11))(get_pointer(capsule, get_name(capsule)))
    m, n = a.shape[1:]
    lwork = (m + n) * 32
    dims = [ctypes.c_int(v) for v in (m, n, m, lwork, 0)]
    refs = [ctypes.byref(v) for v in dims]

    def call(k):
        af = numpy.asfortranarray(a[k])
        d, e, tauq, taup = (numpy.empty(min(m, n)) for _ in range(4))
        work = numpy.empty(lwork)
        routine(refs[0], refs[1], af.ctypes.data, refs[2], d.ctypes.data, e.ctypes.data,
                tauq.ctypes.data, taup.ctypes.data, work.ctypes.data, refs[3], refs[4])
        return af, d, e, tauq, taup
    return call


# ---- timing ----

def median_time(fn, reps, budget_s):
    """Median wall time of ``fn`` in seconds over ``reps`` runs (fewer when one run exceeds the budget)."""
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        if sum(times) > budget_s:
            break
    return statistics.median(times)


def baseline_time(loop, reps, budget_s):
    """The SciPy loop's time with the BLAS's default threading and, where threadpoolctl can set
    it, with one BLAS thread (small per-matrix calls often run faster so): the better of the two."""
    t = median_time(loop, reps, budget_s)
    try:
        import threadpoolctl
    except ImportError:
        return t
    with threadpoolctl.threadpool_limits(1, user_api="blas"):
        return min(t, median_time(loop, reps, budget_s))


def run(sizes, batch, reps, budget_s, ops=OPS, log=print):
    import linalg
    gen = numpy.random.default_rng(12345)
    rows = []
    for n in sizes:
        d = make_inputs(gen, batch, n)
        for op in ops:
            fn = ours(linalg, op, d)
            try:
                fn()                                   # warm-up (and availability check)
            except NotImplementedError:
                rows.append((op, n, None, None))
                log(f"{op:6s} n={n:4d}  n/a")
                continue
            t_ours = median_time(fn, reps, budget_s)
            t_ref = baseline_time(scipy_loop(op, d), reps, budget_s)
            rows.append((op, n, t_ours, t_ref))
            log(f"{op:6s} n={n:4d}  ours {t_ours * 1e3:10.2f} ms  scipy-loop {t_ref * 1e3:10.2f} ms  "
                f"x{t_ref / t_ours:7.1f}")
        del d
    return rows


def table(rows, batch, reps):
    import scipy
    try:
        import threadpoolctl
        blas_info = ", ".join(f"{i['internal_api']} {i['version']} ({i['num_threads']} threads)"
                              for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")
    except ImportError:
        blas_info = "threadpoolctl not installed"
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = [
        "# linalg CPU benchmark: one batched call vs a per-matrix SciPy loop",
        "",
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}; {platform.processor() or platform.machine()}, "
        f"{cpus} CPU cores; Python {platform.python_version()}, NumPy {numpy.__version__}, "
        f"SciPy {scipy.__version__}; BLAS: {blas_info}.",
        f"float64, batch {batch}, median of up to {reps} runs, milliseconds for the whole batch; "
        "scipy-loop: a Python loop over the matrices calling the SciPy BLAS/LAPACK wrapper, the better of "
        "default and single-threaded BLAS. "
        "Reproduce: `python scripts/bench_cpu.py --output reports/bench_cpu.md`.",
        "",
        "| op | n | ours ms | scipy-loop ms | speedup |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for op, n, t_ours, t_ref in rows:
        if t_ours is None:
            lines.append(f"| {op} | {n} | n/a | n/a | n/a |")
        else:
            lines.append(f"| {op} | {n} | {t_ours * 1e3:.2f} | {t_ref * 1e3:.2f} | {t_ref / t_ours:.1f}x |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", help="write the Markdown table to this file")
    parser.add_argument("--quick", action="store_true", help="smoke run: n = 4, 8, batch 100, one repetition")
    parser.add_argument("--batch", type=int, help="matrices per batch (default 10000; 100 with --quick)")
    parser.add_argument("--sizes", type=int, nargs="+", help="matrix sizes (default 4 8 16 32 64 128)")
    parser.add_argument("--ops", nargs="+", choices=OPS, help="operations to run (default: all)")
    parser.add_argument("--reps", type=int, help="repetitions, median taken (default 5; 1 with --quick)")
    args = parser.parse_args(argv)
    batch = args.batch or (100 if args.quick else 10_000)
    sizes = args.sizes or ((4, 8) if args.quick else SIZES)
    reps = args.reps or (1 if args.quick else 5)
    rows = run(sizes, batch, reps, budget_s=2.0 if args.quick else 8.0, ops=args.ops or OPS,
               log=lambda s: print(s, file=sys.stderr, flush=True))
    text = table(rows, batch, reps)
    print(text)
    if args.output:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(main())
