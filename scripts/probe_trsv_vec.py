#!/usr/bin/env python3
"""trsv_warp's VEC-wide row loads (kernels/trsv.cu) against single loads, on the device.

For each dtype and n (batch 10240): TRSV in the four variants (lower/upper x N/T) with the
tuning table's lanes, warps and register cap, and the one-vector POTRS (both solves in one
launch, linalg/_cuda/cholesky.py potrs_width lanes), each with vec = 1, 2 and (float32) 4.
GPU time (CUDA graph, scripts/bench_blas.py timeit_gpu), best of two interleaved rounds, and the
effective bandwidth (the triangle read once per solve, x read and written) against a
device-to-device copy measured in the same run. Writes a markdown table to OUT/probe_trsv_vec.md.
--potrs-grid instead times the one-vector POTRS (lower) over lanes x register cap x vector
width, against linalg/_cuda/cholesky.py's rules (potrs_width, potrs_vector_width,
potrs_register_cap), one round: OUT/potrs_grid.md.
--small-grid instead times, at n <= 32, trsv_staged (one warp a matrix from a shared copy of the
triangle, what linalg/_cuda/trsv.py STAGED_RANGE / STAGED_POTRS_RANGE route there) against
trsv_warp over lanes x register cap x vector width, for the four TRSV variants and the
one-vector POTRS, at batch 10240 and 102400: OUT/small_grid.md (best of each) and
OUT/small_grid_all.md (every candidate).
--block-grid times trsv_block (a block of warps a matrix) against trsv_warp (the table's launch
and 32 lanes a matrix) at batches 1 .. 4096 for TRSV lower N, upper T and the one-vector POTRS
(lower), GPU time; and whole calls: the public linalg.trsv / linalg.potrs forced onto each path
(the vendor's, trsv_block, the table's trsv_warp) and torch (solve_triangular, cholesky_solve):
OUT/block_grid.md.
--split-grid times trsv_split (a block a 32-row block of a matrix, the blocks chained by flags)
against trsv_block at batches 1 .. 128, GPU time, and the public call forced onto split, block
and the vendor's path against torch: OUT/split_grid.md.

    python3 scripts/probe_trsv_vec.py [--sizes 64,128,256,512] [--dtypes float32,float64]
    python3 scripts/probe_trsv_vec.py --potrs-grid [--sizes 16,24,48,64,96,128,256]
    python3 scripts/probe_trsv_vec.py --small-grid [--sizes 16,24,28,32]
    python3 scripts/probe_trsv_vec.py --block-grid [--sizes 64,128,256,512]
    python3 scripts/probe_trsv_vec.py --split-grid [--sizes 64,128,256,512] [--batches 1,2,4]
"""
import argparse
import os
import sys

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from bench_blas import timeit_gpu, copy_bandwidth  # noqa: E402

BATCH = 10240


def operands(n, batch, dtype, both=True):
    """(a, x, out): a (batch, n, n) with off-diagonal entries ~ N(0, 1/n^2) and 2 on the
    diagonal, in both triangles (any variant solves it) unless ``both`` is false (lower only);
    x (batch, n) ~ N(0, 1); out an empty array like x. Seeded by n."""
    import cupy
    g = cupy.random.default_rng(n)
    a = cupy.tril(g.standard_normal((batch, n, n), dtype=dtype) / n)
    a[:, cupy.arange(n), cupy.arange(n)] = 2
    if both:
        a = a + cupy.triu(a.transpose(0, 2, 1), 1)
    x = g.standard_normal((batch, n), dtype=dtype)
    return a, x, cupy.empty_like(x)


def write_tables(output, **tables):
    """Each keyword's lines to OUTPUT/<keyword>.md."""
    os.makedirs(output, exist_ok=True)
    for name, lines in tables.items():
        with open(os.path.join(output, name + ".md"), "w") as f:
            f.write("\n".join(lines) + "\n")


def potrs_grid(sizes, dtypes, output, caps=(0, 64, 96)):
    """Fastest (lanes, register cap, vec) of the fused one-vector POTRS per dtype and n; every
    candidate's time also to OUT/potrs_grid_all.md."""
    from linalg._cuda import trsv, cholesky
    lines = ["| dtype | n | rules (lanes, cap, vec) | rules ms | best (lanes, cap, vec) | best ms "
             "| rules / best |", "| --- | --- | --- | --- | --- | --- | --- |"]
    every = ["| dtype | n | lanes | cap | vec | ms |", "| --- | --- | --- | --- | --- | --- |"]
    for dname in dtypes:
        dtype = numpy.dtype(dname)
        for n in sizes:
            a, x, out = operands(n, BATCH, dtype, both=False)

            def run(width, cap, vec):
                return timeit_gpu(lambda: trsv.launch_warp(a, x, True, 0, False, True, 4, width,
                                                           cap or None, vec, out=out), 10, 2)
            rule = (cholesky.potrs_width(n, dtype.itemsize),
                    cholesky.potrs_register_cap(n, dtype.itemsize) or 0,
                    cholesky.potrs_vector_width(n, dtype.itemsize))
            times = {rule: run(*rule)}
            for width in (8, 16, 32):
                for cap in caps:
                    for vec in ((1, 2, 4) if dtype.itemsize == 4 else (1, 2)):
                        if width * vec <= 128 and n % vec == 0 and (width, cap, vec) not in times:
                            times[(width, cap, vec)] = run(width, cap, vec)
            best = min(times, key=times.get)
            every += [f"| {dname} | {n} | {w} | {c} | {v} | {t:.4f} |"
                      for (w, c, v), t in sorted(times.items())]
            lines.append(f"| {dname} | {n} | {rule} | {times[rule]:.4f} | {best} | "
                         f"{times[best]:.4f} | {times[rule] / times[best]:.2f}x |")
            print(lines[-1], flush=True)
            del a, x, out
    write_tables(output, potrs_grid=lines, potrs_grid_all=every)


def small_grid(sizes, dtypes, output, caps=(0, 64), batches=(BATCH, 10 * BATCH)):
    """trsv_staged against the fastest trsv_warp (lanes, register cap, vec) per dtype, n, batch
    and case (TRSV LN / UN / LT / UT, POTRS L / U), GPU time, one round."""
    import cupy
    from linalg._cuda import trsv
    copy = copy_bandwidth()
    lines = [f"# trsv_staged against trsv_warp at n <= {trsv.STAGED_MAX}, "
             f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, copy {copy:.0f} GB/s",
             "", "| dtype | n | batch | case | staged ms | best warp (lanes, cap, vec) | warp ms "
             "| staged / warp | % copy (best) |", "| --- | --- | --- | --- | --- | --- | --- | --- "
             "| --- |"]
    every = ["| dtype | n | batch | case | lanes | cap | vec | ms |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    cases = [("LN", True, 0, False), ("UN", False, 0, False), ("LT", True, 1, False),
             ("UT", False, 1, False), ("POTRS L", True, 0, True), ("POTRS U", False, 1, True)]
    for dname in dtypes:
        dtype = numpy.dtype(dname)
        vecs = (1, 2, 4) if dtype.itemsize == 4 else (1, 2)
        for n in sizes:
            for batch in batches:
                a, x, out = operands(n, batch, dtype)
                for label, lower, tr, potrs in cases:
                    staged = timeit_gpu(lambda: trsv.launch_staged(a, x, lower, tr, False, potrs,
                                                                   out=out), 10, 2)
                    times = {}
                    for width in (4, 8, 16, 32):
                        for cap in caps:
                            for vec in vecs:
                                if n % vec or width * vec > max(n, 32):
                                    continue
                                times[(width, cap, vec)] = timeit_gpu(
                                    lambda: trsv.launch_warp(a, x, lower, tr, False, potrs, 4,
                                                             width, cap or None, vec, out=out),
                                    10, 2)
                    best = min(times, key=times.get)
                    every += [f"| {dname} | {n} | {batch} | {label} | {w} | {c} | {v} | {t:.4f} |"
                              for (w, c, v), t in sorted(times.items())]
                    nbytes = batch * (n * (n + 1) // 2 + 2 * n) * dtype.itemsize
                    fastest = min(staged, times[best])
                    lines.append(f"| {dname} | {n} | {batch} | {label} | {staged:.4f} | {best} | "
                                 f"{times[best]:.4f} | {staged / times[best]:.2f} | "
                                 f"{100 * nbytes / (fastest * 1e6) / copy:.0f} |")
                    print(lines[-1], flush=True)
                del a, x, out
    write_tables(output, small_grid=lines, small_grid_all=every)


def forced_paths(dtypes):
    """(force, restore): force(path) sends the public TRSV and one-vector POTRS calls of
    ``dtypes`` down one path -- "vendor" (the small-batch rule), "split" (trsv_split), "block"
    (trsv_block) or "table" (the lane-group kernel the tuning table picks) --, restore() puts
    the rules back."""
    from linalg._cuda import trsv, triangular
    saved = (trsv.small_batch, triangular.small_batch, dict(trsv.BLOCK_BELOW),
             dict(trsv.SPLIT_BLOCKS))

    def force(path):
        vendor = path == "vendor"
        trsv.small_batch = triangular.small_batch = lambda op, a: vendor
        trsv.BLOCK_BELOW.update({d: (1 << 40 if path == "block" else 0) for d in dtypes})
        trsv.SPLIT_BLOCKS.update({d: (1 << 40 if path == "split" else 0) for d in dtypes})

    def restore():
        trsv.small_batch, triangular.small_batch = saved[:2]
        for table, values in ((trsv.BLOCK_BELOW, saved[2]), (trsv.SPLIT_BLOCKS, saved[3])):
            table.clear()
            table.update(values)
    return force, restore


def public_calls(a, x, ta, tb, lower, tr, potrs, paths, force, restore):
    """Whole-call ms (host time included, scripts/bench_cholesky.timeit) of the public
    linalg.trsv on (a, x), or with ``potrs`` the one-vector linalg.potrs, forced onto each of
    ``paths`` by force(path), then restore(); and of torch's call on the same operands (ta, tb:
    solve_triangular, cholesky_solve). Returns (list of ms, torch ms)."""
    import torch
    import linalg
    from bench_cholesky import timeit
    if potrs:
        b3, t3 = x[:, :, None], tb[..., None]

        def public():
            return linalg.potrs(a, b3, lower=True, overwrite_b=True, return_info=True)
        vendor = timeit(lambda: torch.cholesky_solve(t3, ta, upper=False))
    else:
        def public():
            return linalg.trsv(a, x, lower=lower, trans="N" if tr == 0 else "T",
                               overwrite_x=True, return_info=True)
        op = ta if tr == 0 else ta.transpose(1, 2)
        vendor = timeit(lambda: torch.linalg.solve_triangular(op, tb[..., None],
                                                              upper=(lower == (tr == 1))))
    calls = []
    for path in paths:
        force(path)
        calls.append(timeit(public))
    restore()
    return calls, vendor


def block_grid(sizes, dtypes, output, batches=(1, 2, 4, 8, 64, 256, 512, 1024, 4096)):
    """trsv_block (2 / 4 / 8 warps) against trsv_warp (the table's launch, 32 lanes) at small
    batches, GPU time; the public call on each path (vendor, trsv_block, the table's
    trsv_warp) and torch by whole-call time."""
    import cupy
    import torch
    from linalg import _tuning
    from linalg._cuda import trsv, cholesky
    head = ["table", "32 lanes"] + [f"block {w}" for w in (2, 4, 8)]
    paths = ("vendor", "block", "table")
    lines = [f"# trsv_block at small batches, "
             f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}", "",
             "GPU time (ms) of each launch; then whole calls (ms, host time included): the public "
             "call forced onto each path, and torch.", "",
             "| dtype | n | batch | case | " + " | ".join(head) + " | " +
             " | ".join(f"public {p}" for p in paths) + " | torch |",
             "|" + " --- |" * (4 + len(head) + len(paths) + 1)]
    force, restore = forced_paths(dtypes)

    for dname in dtypes:
        dtype = numpy.dtype(dname)
        cap32 = 96 if dtype.itemsize == 4 else None
        for n in sizes:
            plan = trsv._plan(_tuning.gpu_name(), dtype, n)
            item = dtype.itemsize
            for batch in batches:
                a, x, out = operands(n, batch, dtype)
                ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")
                for label, lower, tr, potrs in (("LN", True, 0, False), ("UT", False, 1, False),
                                                ("POTRS L", True, 0, True)):
                    if potrs:
                        table = (4,) + cholesky.potrs_warp_launch(n, item)[:3]
                    else:
                        table = plan[1:5] if plan[0] == "warp" else (4, 16, 96, 1)
                    times = [timeit_gpu(lambda: trsv.launch_warp(a, x, lower, tr, False, potrs,
                                                                 *table, out=out), 10, 2),
                             timeit_gpu(lambda: trsv.launch_warp(a, x, lower, tr, False, potrs,
                                                                 4, 32, cap32, 2, out=out),
                                        10, 2)]
                    for w in (2, 4, 8):
                        times.append(timeit_gpu(lambda: trsv.launch_block(
                            a, x, lower, tr, False, potrs, w, out=out), 10, 2))
                    calls, vendor = public_calls(a, x, ta, tb, lower, tr, potrs, paths, force,
                                                 restore)
                    lines.append(f"| {dname} | {n} | {batch} | {label} | " +
                                 " | ".join(f"{t:.4f}" for t in times + calls) +
                                 f" | {vendor:.4f} |")
                    print(lines[-1], flush=True)
                del a, x, out, ta, tb
    write_tables(output, block_grid=lines)


def split_grid(sizes, dtypes, output, batches=(1, 2, 4, 8, 16, 32, 64, 128)):
    """trsv_split (a block a 32-row block of a matrix) against trsv_block (block_warps(batch)
    warps a matrix) at small batches, GPU time; then whole calls: the public call forced onto
    split, block and the vendor's path, and torch."""
    import cupy
    import torch
    from linalg._cuda import trsv
    paths = ("split", "block", "vendor")
    lines = [f"# trsv_split at small batches, "
             f"{cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}", "",
             "GPU time (ms) of each launch, then whole calls (ms, host time included): the public "
             "call forced onto each path, and torch; last column: torch / best public.", "",
             "| dtype | n | batch | case | split | block | split / block | " +
             " | ".join(f"public {p}" for p in paths) + " | torch | torch / ours |",
             "|" + " --- |" * (7 + len(paths) + 2)]
    force, restore = forced_paths(dtypes)

    for dname in dtypes:
        dtype = numpy.dtype(dname)
        for n in sizes:
            for batch in batches:
                a, x, out = operands(n, batch, dtype)
                ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")
                for label, lower, tr, potrs in (("LN", True, 0, False), ("UT", False, 1, False),
                                                ("POTRS L", True, 0, True)):
                    split = timeit_gpu(lambda: trsv.launch_split(a, x, lower, tr, False, potrs,
                                                                 out=out), 10, 2)
                    block = timeit_gpu(lambda: trsv.launch_block(a, x, lower, tr, False, potrs,
                                                                 out=out), 10, 2)
                    calls, vendor = public_calls(a, x, ta, tb, lower, tr, potrs, paths, force,
                                                 restore)
                    lines.append(f"| {dname} | {n} | {batch} | {label} | {split:.4f} | "
                                 f"{block:.4f} | {split / block:.2f} | " +
                                 " | ".join(f"{t:.4f}" for t in calls) +
                                 f" | {vendor:.4f} | {vendor / min(calls[:2]):.2f} |")
                    print(lines[-1], flush=True)
                del a, x, out, ta, tb
    write_tables(output, split_grid=lines)


def main(argv=None):
    import cupy
    from linalg import _tuning
    from linalg._cuda import trsv, cholesky
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="64,128,256,512")
    ap.add_argument("--dtypes", default="float32,float64")
    ap.add_argument("--output", default=os.environ.get("OUT", "out"))
    ap.add_argument("--potrs-grid", action="store_true")
    ap.add_argument("--small-grid", action="store_true")
    ap.add_argument("--block-grid", action="store_true")
    ap.add_argument("--split-grid", action="store_true")
    ap.add_argument("--batches", default=None, help="batch counts of --block-grid")
    ap.add_argument("--caps", default="0,64,96", help="register caps of --potrs-grid")
    args = ap.parse_args(argv)
    if args.block_grid:
        batches = {} if not args.batches else {
            "batches": tuple(int(b) for b in args.batches.split(","))}
        return block_grid([int(s) for s in args.sizes.split(",")], args.dtypes.split(","),
                          args.output, **batches)
    if args.split_grid:
        batches = {} if not args.batches else {
            "batches": tuple(int(b) for b in args.batches.split(","))}
        return split_grid([int(s) for s in args.sizes.split(",")], args.dtypes.split(","),
                          args.output, **batches)
    if args.small_grid:
        return small_grid([int(s) for s in args.sizes.split(",")], args.dtypes.split(","),
                          args.output)
    if args.potrs_grid:
        return potrs_grid([int(s) for s in args.sizes.split(",")], args.dtypes.split(","),
                          args.output, [int(c) for c in args.caps.split(",")])
    copy = copy_bandwidth()
    lines = [f"# trsv_warp row vectors, {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}"
             f", batch {BATCH}, copy {copy:.0f} GB/s", "",
             "| dtype | case | n | lanes | vec 1 ms | vec 2 ms | vec 4 ms | best / vec 1 | "
             "% copy (best) |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for dname in args.dtypes.split(","):
        dtype = numpy.dtype(dname)
        vecs = (1, 2, 4) if dtype.itemsize == 4 else (1, 2)
        for n in (int(s) for s in args.sizes.split(",")):
            a, x, out = operands(n, BATCH, dtype)
            plan = trsv._plan(_tuning.gpu_name(), dtype, n)
            _, warps, width, maxreg = plan[:4]
            runs = {}
            for lower, tr in ((True, 0), (False, 0), (True, 1), (False, 1)):
                label = ("L" if lower else "U") + ("N" if tr == 0 else "T")
                runs[label] = (width or trsv.group_width(n), lambda v, lower=lower, tr=tr:
                               trsv.launch_warp(a, x, lower, tr, False, False, warps, width,
                                                maxreg, v, out=out))
            for lower in (True, False):
                pw = cholesky.potrs_width(n, dtype.itemsize)
                runs["POTRS " + ("L" if lower else "U")] = (pw, lambda v, lower=lower, pw=pw:
                    trsv.launch_warp(a, x, lower, 0 if lower else 1, False, True, width=pw,
                                     vec=v, out=out))
            nbytes = BATCH * (n * (n + 1) // 2 + 2 * n) * dtype.itemsize
            for label, (lanes, run) in runs.items():
                best = {v: float("inf") for v in vecs}
                for _ in range(2):
                    for v in vecs:
                        best[v] = min(best[v], timeit_gpu(lambda: run(v), 10, 2))
                solves = 2 if label.startswith("POTRS") else 1
                top = min(best.values())
                pct = 100 * solves * nbytes / top / 1e6 / copy
                cells = [f"{best[v]:.4f}" if v in best else "" for v in (1, 2, 4)]
                lines.append(f"| {dname} | {label} | {n} | {lanes} | " + " | ".join(cells)
                             + f" | {best[1] / top:.2f}x | {pct:.0f} |")
                print(lines[-1], flush=True)
            del a, x, out
    write_tables(args.output, probe_trsv_vec=lines)


if __name__ == "__main__":
    main()
