"""Host time of the public layer alone, on the CPU: microseconds a call of small public calls whose
backend is a stand-in that returns at once (argument checks, the call plan, copies decided,
result and info handed back; no kernel, no GPU). This is the part of a small GPU call's host time
that scripts/profile_host.py cannot separate from CuPy and the driver.

    python3 scripts/profile_public.py [--repeat 15] [--calls 20000] [--profile potrf]

Strided NumPy operands (the plan path a CuPy call takes too), in place, return_info=True: the
calls of scripts/bench_cholesky.py / bench_blas.py; the "(input kept)" cases are the default
calls (no overwrite: the operand reaches the backend with ``keep``). Prints the best of --repeat rounds of --calls
calls each in this thread's CPU time (other processes on the machine then add little; their
noise only ever adds time); --profile NAME adds cProfile's view.
"""
import argparse
import cProfile
import pstats
import sys
import time
import types
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import linalg  # noqa: E402
from linalg import _dispatch  # noqa: E402

BATCH = 64


def install_stub_backends():
    """Backends that return their output operand (and a zero info) at once, with the real
    READS_ONLY and OUT_OF_PLACE tables, so that the public layer takes the same copy decisions
    as on the GPU (a kept operand reaches them with ``keep``, which they ignore).
    Returns what they replaced (for :func:`restore_backends`)."""
    from linalg._cuda import blas, cholesky, syrk, triangular, trsv
    info = numpy.zeros(BATCH, numpy.int32)

    def returns(position, with_info=True):
        def backend_op(*args, **kwargs):
            out = args[position]
            return (out, info) if with_info else out
        return backend_op

    stubs = {
        "cholesky": types.SimpleNamespace(READS_ONLY=cholesky.READS_ONLY,
                                          OUT_OF_PLACE=cholesky.OUT_OF_PLACE, potrf=returns(0),
                                          potrs=returns(1), posv=returns(1), potri=returns(0),
                                          poti=returns(0)),
        "triangular": types.SimpleNamespace(READS_ONLY=triangular.READS_ONLY,
                                            OUT_OF_PLACE=triangular.OUT_OF_PLACE, trsm=returns(1),
                                            trmm=returns(1), trtri=returns(0),
                                            lauum=returns(0, with_info=False)),
        "trsv": types.SimpleNamespace(READS_ONLY=trsv.READS_ONLY, OUT_OF_PLACE=trsv.OUT_OF_PLACE,
                                      trsv=returns(1)),
        "blas": types.SimpleNamespace(READS_ONLY=blas.READS_ONLY, gemm=returns(2, False),
                                      gemv=returns(2, False)),
        "syrk": types.SimpleNamespace(READS_ONLY=syrk.READS_ONLY, syrk=returns(1, False)),
    }
    replaced = {key: _dispatch._BACKENDS.get(key) for key in ((True, f) for f in stubs)}
    for family, stub in stubs.items():
        _dispatch._BACKENDS[(True, family)] = stub
    return replaced


def restore_backends(replaced):
    for key, module in replaced.items():
        if module is None:
            _dispatch._BACKENDS.pop(key, None)
        else:
            _dispatch._BACKENDS[key] = module


def cases():
    """name -> zero-argument call, n = 4 (hydro shape 18x4 for gemv)."""
    n = 4
    a, b, c = (numpy.zeros((BATCH, n, n)) for _ in range(3))
    v = numpy.zeros((BATCH, n))
    ga, gx, gy = numpy.zeros((BATCH, 18, 4)), numpy.zeros((BATCH, 4)), numpy.zeros((BATCH, 18))
    return {
        "potrf": lambda: linalg.potrf(a, overwrite_a=True, return_info=True),
        "potrf (input kept)": lambda: linalg.potrf(a, return_info=True),
        "potrs (vector)": lambda: linalg.potrs(a, v, overwrite_b=True, return_info=True),
        "posv": lambda: linalg.posv(a, b, overwrite_a=True, overwrite_b=True, return_info=True),
        "potri": lambda: linalg.potri(a, overwrite_l=True, return_info=True),
        "trsm": lambda: linalg.trsm(a, b, overwrite_b=True, return_info=True),
        "trsm (input kept)": lambda: linalg.trsm(a, b, return_info=True),
        "trmm": lambda: linalg.trmm(a, b, overwrite_b=True),
        "trtri": lambda: linalg.trtri(a, overwrite_a=True, return_info=True),
        "trsv": lambda: linalg.trsv(a, v, overwrite_x=True, return_info=True),
        "gemm": lambda: linalg.gemm(a, b, c, overwrite_c=True),
        "gemv 18x4": lambda: linalg.gemv(ga, gx, gy, overwrite_y=True),
        "syrk": lambda: linalg.syrk(a, c, overwrite_c=True),
    }


def best_us(fn, repeat, calls):
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.thread_time() - start) / calls * 1e6)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20000, help="calls a round")
    parser.add_argument("--profile", default=None, help="case name for a cProfile view")
    args = parser.parse_args(argv)
    replaced = install_stub_backends()
    try:
        table = cases()
        if args.profile is not None and args.profile not in table:
            parser.error(f"--profile: unknown case {args.profile!r}; expected one of {list(table)}")
        print(f"public layer, stand-in backend, batch {BATCH}, best of {args.repeat} x "
              f"{args.calls} calls")
        for name, fn in table.items():
            print(f"{name:20s} {best_us(fn, args.repeat, args.calls):6.2f} us a call", flush=True)
        if args.profile:
            fn = table[args.profile]
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(5000):
                fn()
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(20)
    finally:
        restore_backends(replaced)
    return 0


if __name__ == "__main__":
    sys.exit(main())
