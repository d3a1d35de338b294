"""kernels/potrf.cu chol_tensor, chol_global and chol_left probe (device): checked against
LAPACK, then timed against the POTRF paths they would replace.

python3 scripts/probe_chol_tensor.py check     # n = 33..128, lower / upper, in and out of place,
                                              # strided views, both dtypes, a failing and a NaN
                                              # matrix inside each batch
python3 scripts/probe_chol_tensor.py small     # a few of those (compute-sanitizer memcheck)
python3 scripts/probe_chol_tensor.py time [--dtype float64] [--sizes 64,128] [--batches 10240]
                                         [--output FILE]
python3 scripts/probe_chol_tensor.py profile [--dtype float64] [--sizes 96] [--batches 10240]
                                            [--defines MACRO,...]
--kernel global: check, small, time and profile chol_global (check: n = 33..512) instead;
--kernel left: check, small and time chol_left (n = 33..512);
--kernel cluster2 / cluster4 / cluster8: chol_cluster with 2, 4 or 8 blocks a matrix (sm_90).
python3 scripts/probe_chol_tensor.py clusters [--dtype float64] [--sizes 256,512] [--batches 1,8]
    # chol_global and chol_cluster (2, 4, 8 blocks) against the public call and the vendors
python3 scripts/probe_chol_tensor.py solve [--dtype float64] [--sizes 64,128] [--batches 10240]
    # chol_tensor_solve (POSV, POTRS with n right-hand sides) against the paths before it,
    # each NT's passes of right-hand sides (TENSOR_SOLVE_CHUNKS), threads a block and scheme
python3 scripts/probe_chol_tensor.py inverse [--dtype float64] [--sizes 64,128] [--batches 10240]
    # chol_tensor_inverse (POTRI, POTI) against the paths before it, each NT's threads a block

``check`` prints one line per case with the scaled residual ||L L^T - A|| / (n ||A|| eps), the
info against LAPACK's (known by construction), whether the other triangle is zero and a
strided view's padding untouched; exits 1 on any failure. ``time`` prints one markdown row per
(dtype, n, batch): ms of the backend's POTRF without the kernel (TENSOR_RANGE or GLOBAL_BATCHES
emptied) and of the kernel, with the input kept (a default call; the kernel out of place) and
in place (a copy back before each call, its time subtracted), of cuSOLVER potrfBatched in
place, the ratios, and the kernel's share of the copy bandwidth (one read and one write of the
batch, against a device-to-device copy timed in the run). ``profile`` prints the cycles a
matrix of each of chol_tensor's phases (-DCT_PROFILE) [--nt, --threads, --carveout, --defines:
more macros for the kernel's compilation].
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

SIZES = (33, 40, 63, 64, 65, 80, 96, 97, 100, 127, 128)
GLOBAL_SIZES = (33, 100, 129, 160, 200, 256, 257, 300, 383, 448, 511, 512)


def spd(gen, batch, n):
    """SPD (batch, n, n) float64 with eigenvalues in [1, 100]."""
    q, _ = numpy.linalg.qr(gen.standard_normal((batch, n, n)))
    lam = numpy.exp(gen.uniform(0, numpy.log(100.0), (batch, n)))
    a = (q * lam[:, None, :]) @ q.swapaxes(1, 2)
    return 0.5 * (a + a.swapaxes(1, 2))


def check_case(factor, cupy, gen, dt, n, lower, out_of_place, strided, batch=11):
    a = spd(gen, batch, n)
    a[4, n // 2, n // 2] = -1.0                # not positive definite from column n / 2 on
    a[7, n - 1, n - 2] = a[7, n - 2, n - 1] = numpy.nan
    a = a.astype(dt)
    # LAPACK's info by construction: the leading minors of an SPD matrix are SPD, the one of
    # order n / 2 + 1 of matrix 4 has a negative diagonal entry; matrix 7's NaN enters at the
    # last pivot.
    expected_info = numpy.zeros(batch, numpy.int32)
    expected_info[4], expected_info[7] = n // 2 + 1, n
    other = numpy.triu(numpy.ones((n, n), bool), 1)
    if not lower:
        other = other.T
    poisoned = a.copy()
    poisoned[:, other] = numpy.nan             # never read
    pad = 3 if strided else 0
    host = numpy.full((batch, n, n + pad), 7.0, dt)
    host[:, :, :n] = poisoned
    src = cupy.asarray(host)[:, :, :n]
    if out_of_place:
        dst = cupy.asarray(numpy.full_like(host, 5.0))[:, :, :n]
        info = factor(dst, lower, src=src)
        if not numpy.array_equal(cupy.asnumpy(src), poisoned, equal_nan=True):
            return False, "input changed"
    else:
        dst = src
        info = factor(dst, lower)
    f = cupy.asnumpy(dst).astype(numpy.float64)
    info = cupy.asnumpy(info)
    good = [k for k in range(batch) if expected_info[k] == 0]
    prod = f @ f.swapaxes(1, 2) if lower else f.swapaxes(1, 2) @ f
    ref = a.astype(numpy.float64)
    res = (numpy.linalg.norm((prod - ref)[good], axis=(1, 2))
           / (n * numpy.linalg.norm(ref[good], axis=(1, 2)) * numpy.finfo(dt).eps)).max()
    zeros = not f[good][:, other].any()
    pad_kept = True
    if strided:
        whole = cupy.asnumpy(dst.base if dst.base is not None else dst)
        fill = 5.0 if out_of_place else 7.0
        pad_kept = bool((whole.reshape(batch, n, n + pad)[:, :, n:] == fill).all())
    ok = res < 30 and zeros and pad_kept and numpy.array_equal(info, expected_info)
    text = (f"{numpy.dtype(dt).name} n={n} {'lower' if lower else 'upper'} "
            f"{'out' if out_of_place else 'in'}{' strided' if strided else ''}: "
            f"residual {res:.2f}, info {info.tolist()} (LAPACK {expected_info.tolist()}), "
            f"zeros {zeros}, pad {pad_kept}")
    return ok, text


def report_head(title, copy_rate, note, columns):
    """The head of a timing report, printed and returned as lines: the title, the copy bandwidth
    measured in the run (GB/s), a note on what is timed, the table's header row."""
    lines = [f"# {title}", "", f"device-to-device copy: {copy_rate:.0f} GB/s", "", note, "",
             "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    print("\n".join(lines), flush=True)
    return lines


def factor_of(kernel):
    """The launcher function of ``kernel`` ("tensor", "global", "cluster2" ...):
    f(a, lower, src=None) -> info."""
    import functools
    from linalg._cuda import cholesky
    if kernel.startswith("cluster"):
        return functools.partial(cholesky.potrf_global, blocks=int(kernel[7:]))
    return {"global": cholesky.potrf_global, "left": cholesky.potrf_left}.get(
        kernel, cholesky.potrf_tensor)


def run_check(sizes, dtypes, kernel="tensor"):
    import cupy
    factor = factor_of(kernel)
    gen = numpy.random.default_rng(7)
    failures = 0
    for dt in dtypes:
        for n in sizes:
            for lower in (True, False):
                for out_of_place in (False, True):
                    for strided in (False, True):
                        ok, text = check_case(factor, cupy, gen, dt, n, lower, out_of_place,
                                              strided)
                        failures += not ok
                        print(("ok   " if ok else "FAIL ") + text, flush=True)
    print(f"{failures} failures")
    return failures


def run_time(dt, sizes, batches, output, kernel="tensor", threads=None):
    """The table of ``time`` (the module's docstring); ``threads``: chol_tensor's threads a block
    at every NT (else TENSOR_THREADS)."""
    import cupy
    from bench_blas import copy_bandwidth, timeit
    from linalg._cuda import cholesky, vendor
    if threads:
        cholesky.TENSOR_THREADS = {nt: threads for nt in cholesky.TENSOR_THREADS}
        cholesky._tensor_config.cache_clear()
    ours = factor_of(kernel)
    rule = {"tensor": "TENSOR_RANGE", "left": "LEFT_RULES"}.get(kernel, "GLOBAL_BATCHES")
    gen = numpy.random.default_rng(3)
    copy_rate = copy_bandwidth()                  # GB/s, one read and one write
    cupy.get_default_memory_pool().free_all_blocks()
    lines = report_head(
        f"chol_{kernel} against the default POTRF path without it ({numpy.dtype(dt).name})",
        copy_rate,
        "ms a call; kept: the input kept (a default call), in place: the input overwritten "
        "(a copy back to the input before each call, its time subtracted); cuSOLVER "
        "potrfBatched in place.",
        ("n", "batch", "kept: default", f"kept: {kernel}", "in place: default",
         f"in place: {kernel}", "cuSOLVER", f"kept default / {kernel}",
         f"in place default / {kernel}", f"cuSOLVER / {kernel} (in place)",
         f"{kernel} % copy bw (kept)"))
    for n in sizes:
        for batch in batches:
            base = spd(gen, min(batch, 256), n).astype(dt)
            a = cupy.asarray(numpy.resize(base, (batch, n, n)))
            out, work = cupy.empty_like(a), cupy.empty_like(a)

            def in_place(fn):
                """ms of fn(work) on a fresh copy of a, the copy's time subtracted."""
                copy = timeit(lambda: cupy.copyto(work, a))
                return timeit(lambda: (cupy.copyto(work, a), fn(work))) - copy
            rules = getattr(cholesky, rule)
            setattr(cholesky, rule, {})                              # the path before
            try:
                default = timeit(lambda: cholesky.potrf(a, True, keep=("a",)))
                default_in_place = in_place(lambda w: cholesky.potrf(w, True))
                ref, _ = cholesky.potrf(a, True, keep=("a",))
            finally:
                setattr(cholesky, rule, rules)
            tensor = timeit(lambda: ours(out, True, src=a))
            tensor_in_place = in_place(lambda w: ours(w, True))
            cus = in_place(lambda w: vendor.potrf(w, True))
            err = float(cupy.abs(out - ref).max() / cupy.abs(ref).max())
            rate = 2 * a.nbytes / tensor / 1e6
            row = (f"| {n} | {batch} | {default:.4f} | {tensor:.4f} | {default_in_place:.4f} | "
                   f"{tensor_in_place:.4f} | {cus:.4f} | {default / tensor:.2f} | "
                   f"{default_in_place / tensor_in_place:.2f} | {cus / tensor_in_place:.2f} | "
                   f"{100 * rate / copy_rate:.0f} |")
            if err > 1e-3:
                row += f" differs {err:.1e}"
            lines.append(row)
            print(row, flush=True)
            del a, out, work, ref
            cupy.get_default_memory_pool().free_all_blocks()
    if output:
        Path(output).write_text("\n".join(lines) + "\n")


def run_profile(dt, sizes, batch, nt_forced=None, carveout=None, threads=None, defines=(),
                kernel="tensor"):
    """Cycles a matrix of each chol_tensor phase (thread 0 of each block, barrier to barrier,
    kernel compiled with -DCT_PROFILE), summed over the batch and divided by it; ``nt_forced``:
    that many 32-blocks a side whatever n; ``carveout``: the kernel's preferred shared-memory
    carveout (percent) set first; ``threads``: a block's (else the launcher's); ``defines``:
    more -D options for the kernel's compilation; ``kernel`` "global" or "cluster2" ...: the
    phases of a step as thread 0 sees them (load, solve, warp 0 factoring the next diagonal
    block while the other warps update, the wait at the step's barrier for the updates), and
    the first diagonal block, cycles a block."""
    import cupy
    from bench_blas import timeit
    from linalg._cuda import _compile, cholesky
    gen = numpy.random.default_rng(5)
    names = (("load", "factor", "solve", "update", "store") if kernel == "tensor" else
             ("load", "solve", "warp 0: next diagonal", "barrier", "first diagonal"))
    print(f"| dtype | n | NT | threads | carveout | defines | batch | ms | "
          + " | ".join(f"{p} cycles" for p in names) + " |")
    print("|---|---|---|---|---|---|---|---|" + "---|" * len(names))
    for n in sizes:
        nt = nt_forced or cholesky.tensor_blocks_a_side(n)
        blocks = int(kernel[7:]) if kernel.startswith("cluster") else 1   # a matrix
        if kernel == "global" or blocks > 1:
            block = threads or cholesky.GLOBAL_THREADS
            name = (f"chol_cluster<{_compile.ctype(dt)}, true, {blocks}>" if blocks > 1 else
                    f"chol_global<{_compile.ctype(dt)}, true>")
            smem = cholesky.global_smem_bytes(n)
        else:
            block = threads or cholesky.TENSOR_THREADS[nt]
            name = f"chol_tensor<{_compile.ctype(dt)}, {nt}, true>"
            smem = cholesky.tensor_smem_bytes(32 * nt)
        options = ("-DCT_PROFILE",) + tuple(f"-D{d}" for d in defines)
        module = _compile._module(cupy.cuda.runtime.getDevice(), "potrf", name, options)
        launcher = _compile.kernel("potrf", name, "pqqiqipp", options=options)
        counters = module.get_global("ct_cycles")
        if carveout is not None:          # CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
            cupy.cuda.driver.funcSetAttribute(launcher.function_ptr, 9, carveout)
        a = cupy.asarray(numpy.resize(spd(gen, 64, n).astype(dt), (batch, n, n)))
        out = cupy.empty_like(a)
        info = cupy.zeros(batch, numpy.int32)
        _, lda, sa = cholesky.tri.view_args(a)

        def call():
            launcher(batch * blocks, block, (out, lda, sa, n, batch, 1, info, a), smem)
        ms = timeit(call)
        cycles = cupy.ndarray((5,), numpy.uint64, counters)
        cycles[...] = 0
        call()
        per = cupy.asnumpy(cycles) / (batch * blocks)     # a block's
        print(f"| {numpy.dtype(dt).name} | {n} | {nt} | {block} | {carveout} | "
              f"{' '.join(defines) or '-'} | "
              f"{batch} | {ms:.4f} | "
              + " | ".join(f"{v:.0f}" for v in per) + " |", flush=True)


def run_clusters(dt, sizes, batches, output):
    """ms of POTRF (input kept) by the public call, chol_global and chol_cluster with 2, 4 and 8
    blocks a matrix, torch.linalg.cholesky_ex and cuSOLVER (in place, a copy back before each
    call, its time subtracted), one markdown row per (n, batch)."""
    import cupy
    import torch
    from bench_blas import timeit
    import linalg
    from linalg._cuda import vendor
    gen = numpy.random.default_rng(4)
    kernels = ("global",) + tuple(f"cluster{c}" for c in (2, 4, 8))
    lines = [f"# POTRF at small batches: chol_global and chol_cluster ({numpy.dtype(dt).name})",
             "", "ms a call, the input kept but for cuSOLVER (in place, the copy subtracted); "
             "ratio: the fastest vendor over the fastest kernel.", "",
             "| n | batch | public | " + " | ".join(kernels) + " | torch.cholesky_ex | cuSOLVER | "
             "best kernel | vendor / best |", "|---|---|---|" + "---|" * (len(kernels) + 4)]
    print("\n".join(lines), flush=True)
    for n in sizes:
        for batch in batches:
            a = cupy.asarray(numpy.resize(spd(gen, min(batch, 64), n).astype(dt),
                                          (batch, n, n)))
            out, work = cupy.empty_like(a), cupy.empty_like(a)
            ta = torch.as_tensor(a, device="cuda")
            times = {"public": timeit(lambda: linalg.potrf(a, return_info=True))}
            ref = linalg.potrf(a)
            for k in kernels:
                fn = factor_of(k)
                times[k] = timeit(lambda: fn(out, True, src=a))
                err = float(cupy.abs(out - ref).max() / cupy.abs(ref).max())
                if err > 1e-3:
                    print(f"{k} n={n} batch={batch} differs from the public call: {err:.1e}")
            times["torch"] = timeit(lambda: torch.linalg.cholesky_ex(ta))
            copy = timeit(lambda: cupy.copyto(work, a))
            times["cusolver"] = timeit(lambda: (cupy.copyto(work, a),
                                                vendor.potrf(work, True))) - copy
            best = min(kernels, key=times.get)
            vend = min(times["torch"], times["cusolver"])
            row = (f"| {n} | {batch} | " + " | ".join(f"{times[k]:.4f}" for k in
                                                       ("public",) + kernels) +
                   f" | {times['torch']:.4f} | {times['cusolver']:.4f} | {best} | "
                   f"{vend / times[best]:.2f} |")
            lines.append(row)
            print(row, flush=True)
            del a, out, work, ta, ref
            cupy.get_default_memory_pool().free_all_blocks()
    if output:
        Path(output).write_text("\n".join(lines) + "\n")


# (passes of 32 right-hand sides, threads a block, "ops" (by operators) or "sub" (substitution))
SOLVE_VARIANTS = {2: ((1, 128, "ops"), (1, 128, "sub"), (2, 128, "ops"), (1, 256, "ops")),
                  3: ((1, 256, "ops"), (1, 256, "sub"), (2, 256, "ops")),
                  4: ((1, 256, "ops"), (1, 256, "sub"), (2, 256, "ops"), (2, 256, "sub"))}


def run_solve(dt, sizes, batches, output, nrhs_list=None):
    """ms of POSV and POTRS with n right-hand sides, in place (the benchmark's form: copies of
    the inputs before each call, untimed), by the backend without chol_tensor_solve
    (TENSOR_SOLVE_RANGE emptied) and with it in each (passes, threads, scheme) of
    SOLVE_VARIANTS; the best variant's ratio and share of the copy bandwidth
    (scripts/bench_cholesky.py's bytes: POSV 2 n^2 + 2 n nrhs, POTRS n^2 + 2 n nrhs) and its
    largest difference from the path before, relative to the solution's largest entry;
    ``nrhs_list``: the right-hand sides' counts (else n)."""
    import cupy
    from bench_cholesky import copy_bandwidth, timeit
    from linalg._cuda import cholesky
    gen = numpy.random.default_rng(9)
    copy_rate = copy_bandwidth()
    lines = report_head(
        f"chol_tensor_solve against the paths before it ({numpy.dtype(dt).name})", copy_rate,
        "ms a call in place (inputs copied back before each call, untimed); variants: "
        "(passes of 32 right-hand sides, threads a block, solve by operators or by "
        "substitution), listed by NT in scripts/probe_chol_tensor.py SOLVE_VARIANTS.",
        ("op", "n", "nrhs", "batch", "before", "variants (passes, threads, scheme): ms", "best",
         "before / best", "best % copy bw", "rel. diff"))
    chunks, threads = dict(cholesky.TENSOR_SOLVE_CHUNKS), dict(cholesky.TENSOR_SOLVE_THREADS)
    schemes = dict(cholesky.TENSOR_SOLVE_OPERATORS)
    for n, nrhs, batch in ((n, nrhs, batch) for n in sizes for nrhs in (nrhs_list or [n])
                           for batch in batches):
        nt = cholesky.tensor_blocks_a_side(n)
        a = cupy.asarray(numpy.resize(spd(gen, min(batch, 256), n).astype(dt),
                                      (batch, n, n)))
        l, _ = cholesky.potrf(a.copy(), True)
        b = cupy.asarray(gen.standard_normal((batch, n, nrhs)).astype(dt))
        wa, wb = cupy.empty_like(a), cupy.empty_like(b)

        def reset():
            cupy.copyto(wa, a)
            cupy.copyto(wb, b)
        for op in ("posv", "potrs"):
            rules = cholesky.TENSOR_SOLVE_RANGE
            cholesky.TENSOR_SOLVE_RANGE = {}
            try:
                if op == "posv":
                    before = timeit(lambda: cholesky.posv(wa, wb, True), reset)
                else:
                    before = timeit(lambda: cholesky.potrs(l, wb, True), reset)
                ref = wb.copy()
            finally:
                cholesky.TENSOR_SOLVE_RANGE = rules
            src = wa if op == "posv" else l
            times = {}
            for c, t, scheme in SOLVE_VARIANTS[nt]:
                cholesky.TENSOR_SOLVE_CHUNKS[nt], cholesky.TENSOR_SOLVE_THREADS[nt] = c, t
                cholesky.TENSOR_SOLVE_OPERATORS[op] = scheme == "ops"
                cholesky._tensor_solve_config.cache_clear()
                times[(c, t, scheme)] = timeit(lambda: cholesky.tensor_solve(
                    src, wb, True, factored=op == "potrs"), reset)
                err = float(cupy.abs(wb - ref).max() / cupy.abs(ref).max())
                if err > (1e-3 if dt == numpy.float32 else 1e-8):
                    print(f"{op} n={n} batch={batch} variant {(c, t, scheme)} differs from "
                          f"the path before: {err:.1e}", flush=True)
            cholesky.TENSOR_SOLVE_CHUNKS.update(chunks)
            cholesky.TENSOR_SOLVE_THREADS.update(threads)
            cholesky.TENSOR_SOLVE_OPERATORS.update(schemes)
            cholesky._tensor_solve_config.cache_clear()
            best = min(times, key=times.get)
            nbytes = ((2 * n * n if op == "posv" else n * n) + 2 * n * nrhs) * batch * a.itemsize
            rate = nbytes / times[best] / 1e6
            row = (f"| {op} | {n} | {nrhs} | {batch} | {before:.4f} | "
                   + ", ".join(f"{k}: {v:.4f}" for k, v in times.items())
                   + f" | {best} | {before / times[best]:.2f} | "
                   f"{100 * rate / copy_rate:.0f} | {err:.1e} |")
            lines.append(row)
            print(row, flush=True)
        del a, l, b, wa, wb, ref
        cupy.get_default_memory_pool().free_all_blocks()
    if output:
        Path(output).write_text("\n".join(lines) + "\n")


# threads a block of chol_tensor_inverse by NT (at least 64 NT)
INVERSE_VARIANTS = {2: (128, 256), 3: (192, 256), 4: (256,)}


def run_inverse(dt, sizes, batches, output):
    """ms of POTRI and POTI, in place (the benchmark's form: a copy of the input before each
    call, untimed) and with the input kept, by the backend without chol_tensor_inverse
    (TENSOR_INVERSE_RANGE emptied) and by the kernel with each INVERSE_VARIANTS thread count;
    the best variant's ratios, its share of the copy bandwidth (scripts/bench_cholesky.py's
    bytes: 2 n^2 a matrix) and its largest difference from the path before, relative to the
    inverse's largest entry."""
    import cupy
    from bench_cholesky import copy_bandwidth, timeit
    from linalg._cuda import cholesky
    gen = numpy.random.default_rng(11)
    copy_rate = copy_bandwidth()
    lines = report_head(
        f"chol_tensor_inverse against the paths before it ({numpy.dtype(dt).name})", copy_rate,
        "ms a call in place (the input copied back before each call, untimed) and with the "
        "input kept (out of place); variants: threads a block "
        "(scripts/probe_chol_tensor.py INVERSE_VARIANTS).",
        ("op", "n", "batch", "before", "variants (threads): ms", "best", "before / best",
         "best % copy bw", "kept: before", "kept: kernel", "kept ratio", "rel. diff"))
    threads = dict(cholesky.TENSOR_INVERSE_THREADS)
    for n, batch in ((n, batch) for n in sizes for batch in batches):
        nt = cholesky.tensor_blocks_a_side(n)
        a = cupy.asarray(numpy.resize(spd(gen, min(batch, 256), n).astype(dt),
                                      (batch, n, n)))
        l, _ = cholesky.potrf(a.copy(), True)
        work = cupy.empty_like(a)
        for op in ("potri", "poti"):
            src = l if op == "potri" else a
            name = "l" if op == "potri" else "a"

            def reset():
                cupy.copyto(work, src)
            backend = getattr(cholesky, op)
            rules = cholesky.TENSOR_INVERSE_RANGE
            cholesky.TENSOR_INVERSE_RANGE = {}
            try:
                before = timeit(lambda: backend(work, True), reset)
                kept_before = timeit(lambda: backend(src, True, keep=(name,)))
                ref, _ = backend(src, True, keep=(name,))
            finally:
                cholesky.TENSOR_INVERSE_RANGE = rules
            times = {}
            for t in INVERSE_VARIANTS[nt]:
                cholesky.TENSOR_INVERSE_THREADS[nt] = t
                cholesky._tensor_inverse_config.cache_clear()
                times[t] = timeit(lambda: cholesky.tensor_inverse(
                    work, True, factored=op == "potri"), reset)
                err = float(cupy.abs(work - ref).max() / cupy.abs(ref).max())
                if err > (1e-3 if dt == numpy.float32 else 1e-8):
                    print(f"{op} n={n} batch={batch} threads {t} differs from the path "
                          f"before: {err:.1e}", flush=True)
            best = min(times, key=times.get)
            cholesky.TENSOR_INVERSE_THREADS[nt] = best
            cholesky._tensor_inverse_config.cache_clear()
            out = cupy.empty_like(a)
            kept = timeit(lambda: cholesky.tensor_inverse(src, True, factored=op == "potri",
                                                          out=out))
            cholesky.TENSOR_INVERSE_THREADS.update(threads)
            cholesky._tensor_inverse_config.cache_clear()
            rate = 2 * a.nbytes / times[best] / 1e6
            row = (f"| {op} | {n} | {batch} | {before:.4f} | "
                   + ", ".join(f"{k}: {v:.4f}" for k, v in times.items())
                   + f" | {best} | {before / times[best]:.2f} | "
                   f"{100 * rate / copy_rate:.0f} | {kept_before:.4f} | {kept:.4f} | "
                   f"{kept_before / kept:.2f} | {err:.1e} |")
            lines.append(row)
            print(row, flush=True)
        del a, l, work, ref
        cupy.get_default_memory_pool().free_all_blocks()
    if output:
        Path(output).write_text("\n".join(lines) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("check", "small", "time", "profile", "clusters",
                                         "solve", "inverse"))
    parser.add_argument("--dtype", default="float64")
    parser.add_argument("--sizes", default="40,64,96,128")
    parser.add_argument("--batches", default="1000,10240,100000")
    parser.add_argument("--output")
    parser.add_argument("--nrhs", help="solve: comma-separated right-hand-side counts (else n)")
    parser.add_argument("--nt", type=int, help="profile: blocks a side, whatever n")
    parser.add_argument("--carveout", type=int, help="profile: preferred carveout, percent")
    parser.add_argument("--threads", type=int, help="profile, time: threads a block")
    parser.add_argument("--defines", default="", help="profile: comma-separated macros")
    parser.add_argument("--kernel", default="tensor",
                        choices=("tensor", "global", "left", "cluster2", "cluster4",
                                 "cluster8"),
                        help="chol_tensor, chol_global, chol_left or chol_cluster (2, 4, 8 "
                             "blocks)")
    args = parser.parse_args(argv)
    if args.mode == "check":
        sizes = SIZES if args.kernel == "tensor" else GLOBAL_SIZES
        return 1 if run_check(sizes, (numpy.float64, numpy.float32), args.kernel) else 0
    if args.mode == "small":
        sizes = (40, 100) if args.kernel == "tensor" else (40, 300)
        return 1 if run_check(sizes, (numpy.float64, numpy.float32), args.kernel) else 0
    if args.mode == "profile":
        run_profile(numpy.dtype(args.dtype).type, [int(v) for v in args.sizes.split(",")],
                    int(args.batches.split(",")[0]), args.nt, args.carveout,
                    args.threads, [d for d in args.defines.split(",") if d], args.kernel)
        return 0
    if args.mode == "solve":
        run_solve(numpy.dtype(args.dtype).type, [int(v) for v in args.sizes.split(",")],
                  [int(v) for v in args.batches.split(",")], args.output,
                  [int(v) for v in args.nrhs.split(",")] if args.nrhs else None)
        return 0
    if args.mode == "inverse":
        run_inverse(numpy.dtype(args.dtype).type, [int(v) for v in args.sizes.split(",")],
                    [int(v) for v in args.batches.split(",")], args.output)
        return 0
    if args.mode == "clusters":
        run_clusters(numpy.dtype(args.dtype).type, [int(v) for v in args.sizes.split(",")],
                     [int(v) for v in args.batches.split(",")], args.output)
        return 0
    run_time(numpy.dtype(args.dtype).type, [int(v) for v in args.sizes.split(",")],
             [int(v) for v in args.batches.split(",")], args.output, args.kernel, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
