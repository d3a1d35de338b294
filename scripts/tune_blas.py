#!/usr/bin/env python3
"""Autotune the batched GEMV / GEMM / TRSV / GEBRD kernels on the current GPU.

For each op, dtype and shape class (linalg._tuning.shape_class) it times the candidates of the
pruned search space (seed 004 Table 1: threads per row / team (DIM-X, DIM-Y), rows in flight
(BLK-M), vector width; GEMM tile menu blas.GEMM_CONFIGS x matrices per block, pruned to tiles that
do not exceed the problem by more than 2x, plus cuBLAS itself) by their GPU time (calls replayed
from a CUDA graph: at the small shapes a call's host time would hide the kernel's) and writes the
fastest into
``{gpu_name: {op: {dtype: {class: params}}}}`` JSON: <output>/tuned_blas.json, and with
--install into linalg/tuning/<gpu>.json where linalg._tuning reads it. The stage gemm_rows
searches the "rows" rules of the tall one-B GEMM (hydro's corner force; :func:`tune_gemm_rows`)
and gemm_stream's parameters for it.

    python3 scripts/tune_blas.py [--quick] [--budget-s 60] [--output DIR] [--install]
"""
import argparse
import json
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_blas import timeit, timeit_gpu, fit_batch, HYDRO  # noqa: E402


class Tuner:
    def __init__(self, budget_s, reps):
        self.deadline = time.time() + budget_s
        self.reps = reps
        self.table = {}
        self.log = []

    def out_of_time(self):
        return time.time() > self.deadline

    def pick(self, op, dtype, cls, candidates, run, vendor=None):
        """Time run(params) for each candidate; store the fastest under op/dtype/cls, with the
        crossover decision: ``use_vendor`` (and the measured ratio as ``reason``) when
        ``vendor()`` (the vendor routine on the same data) is faster than the best kernel.
        Returns the (candidate, ms) pairs timed."""
        best, best_ms = None, float("inf")
        timed = []
        if self.out_of_time():
            self.log.append(f"{op} {dtype} {cls}: skipped (budget spent), defaults stay")
            return timed
        for p in candidates:
            if self.out_of_time() and best is not None:
                break
            try:
                ms = timeit_gpu(lambda: run(p), self.reps, 2)
            except Exception as exc:          # a candidate that does not launch is skipped
                self.log.append(f"{op} {dtype} {cls} {p}: {type(exc).__name__}: {exc}")
                continue
            self.log.append(f"{op} {dtype} {cls} {p}: {ms:.4f} ms")
            timed.append((p, ms))
            if ms < best_ms:
                best, best_ms = p, ms
        if best is not None and vendor is not None:
            vms = timeit_gpu(vendor, self.reps, 2)
            best = dict(best, use_vendor=vms < best_ms, reason=(
                f"tune_blas {time.strftime('%Y-%m-%d')}: ours {vms / best_ms:.2f}x vendor "
                f"({best_ms:.4f} vs {vms:.4f} ms)"))
        if best is not None:
            self.table.setdefault(op, {}).setdefault(dtype, {})[cls] = best
            print(f"{op:7s} {dtype:8s} {cls:12s} {best_ms:9.4f} ms  {best}", flush=True)
        return timed


# Register caps tried for each candidate (0: NVRTC's choice; linalg/_cuda/_compile.register_cap).
REGISTER_CAPS = (0, 48, 64, 80)
# trsv_warp holds 72-255 registers uncapped (sm_90, by lanes and vector width): caps below 64
# only spill.
TRSV_REGISTER_CAPS = (0, 64, 96)


def tune_gemv(t, dtype, shapes, batch0, ops=("N", "T")):
    import cupy
    from linalg._cuda import blas
    from linalg._tuning import shape_class
    vmax = 16 // numpy.dtype(dtype).itemsize
    for m, n in shapes:
        batch = fit_batch(batch0, m * n, numpy.dtype(dtype).itemsize, 2 << 30)
        a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
        for trans in ops:
            xl, yl = (n, m) if trans == "N" else (m, n)
            x = cupy.random.standard_normal((batch, xl)).astype(dtype)
            y = cupy.empty((batch, yl), dtype=dtype)
            vecs = (vmax,) if n % vmax == 0 else (vmax, 1)
            if trans == "N":
                auto = min(32, blas._pow2_ceil(-(-n // vmax)))
                txs = sorted({auto, max(1, auto // 2), max(1, auto // 4)})
                cands = [{"vec": v, "unroll": u, "tx": tx, "block": 256}
                         for v in vecs for u in (4, 2) for tx in txs]
                team = blas.gemv_t_team_auto(m, n, vmax)
                cands += [{"kernel": "team", "vec": v, "unroll": u, "team": tm, "block": 256}
                          for v in vecs for u in (4, 2)
                          for tm in sorted({max(4, team // 2), team, min(256, team * 2)})]
                if n >= 16:
                    cands += [{"kernel": "warp", "warps": w, "vec": v} for w in (2, 4, 8)
                              for v in (1, 2) if n % v == 0]
            else:
                auto = blas.gemv_t_team_auto(m, n, vmax)
                cands = [{"vec": v, "unroll": u, "team": tm, "block": 256}
                         for v in (vmax, 1) for u in (4, 2)
                         for tm in sorted({max(4, auto // 2), auto, min(256, auto * 2)})]
            if m * n * numpy.dtype(dtype).itemsize <= blas.STAGED_MAX_BYTES:
                cands += [{"kernel": "staged", "tile_bytes": tb, "group": gr, "block": bl}
                          for tb in (8192, 16384, 32768) for gr in (0, 1, 4, 16) for bl in (128, 256, 512)]
            cands = [dict(c, maxreg=r) for c in cands for r in REGISTER_CAPS]
            cands += gemv_stream_candidates(m, n, numpy.dtype(dtype).itemsize)
            t.pick(f"gemv_{trans.lower()}", dtype, shape_class(m, n), cands,
                   lambda p: blas.gemv(a, x, y, trans=trans, _params=p),
                   lambda: blas.gemv(a, x, y, trans=trans, _path="vendor"))
        del a


def gemv_stream_candidates(m, n, item):
    """gemv_stream's parameters tried for m x n matrices of ``item`` bytes (those gemv_staged
    takes): tile bytes, lanes a dot product (0: the default; 2 too where GEMV-N's rows are
    whole 16-byte pieces, read a piece a lane), block size, ring depth. No register caps: its
    40 registers a thread (sm_90) leave every block size resident."""
    from linalg._cuda import blas
    if m * n * item > blas.STAGED_MAX_BYTES:
        return []
    groups = (0, 1, 2, 4) if n % (16 // item) == 0 else (0, 1, 4)
    return [{"kernel": "stream", "tile_bytes": tb, "group": gr, "block": bl, "stages": st}
            for tb in (8192, 16384, 32768) for gr in groups for bl in (128, 256)
            for st in (2, 3)]


def _gemm_candidates(m, n, k, shared_b):
    from linalg._cuda.blas import GEMM_CONFIGS, TALL_NC, SMALL_TILES, small_fits
    cands = []
    if small_fits(m, n, k):     # gemm_small: tiles that fit the matrix, block and group sizes,
        kcs = (True, False) if shared_b else (None,)    # both loops for the A_z B^T problems
        cands += [{"kernel": "small", "rm": rm, "rn": rn, "threads": th, "smem_target": tg,
                   **({} if kc is None else {"kc": kc})}
                  for rm, rn in SMALL_TILES if rm <= max(1, m // 2) and rn <= max(1, n // 2)
                  for th in (128, 256) for tg in (16384, 49152) for kc in kcs]
    if shared_b:
        cands += [{"cfg": "tall", "nc": nc, "rp": rp} for nc in TALL_NC if nc <= max(4, 2 * n)
                  for rp in (64, 128, 256)]
    for name, (bm, bn, bk, dx, dy) in GEMM_CONFIGS.items():
        if bm > 2 * max(m, 4) or bn > 2 * max(n, 4) or bk > 2 * max(k, 4):
            continue
        nt = dx * dy
        for mpb in (1, 2, 4, 8, 16):
            if nt * mpb > 512 or nt * mpb < 64:
                continue
            cands.append({"cfg": name, "mpb": mpb})
    return cands


def tune_gemm(t, dtype, problems, batch0):
    import cupy
    from linalg._cuda import blas
    from linalg._tuning import shape_class
    for m, n, k, tb, bcast in problems:
        batch = fit_batch(batch0, m * k, numpy.dtype(dtype).itemsize, 2 << 30)
        a = cupy.random.standard_normal((batch, m, k)).astype(dtype)
        bshape = (1 if bcast else batch,) + ((n, k) if tb == "T" else (k, n))
        b = cupy.random.standard_normal(bshape).astype(dtype)
        c = cupy.empty((batch, m, n), dtype=dtype)
        t.pick("gemm", dtype, shape_class(m, n, k), _gemm_candidates(m, n, k, bcast),
               lambda p: blas.gemm(a, b, c, transb=tb, _params=p),
               lambda: blas.gemm(a, b, c, transb=tb, _path="vendor"))
        del a, b, c


# The tall one-B GEMM as row blocks (linalg/_cuda/blas.py _gemm_by_rows): block heights tried,
# on our kernel and on cuBLAS's batched call.
ROW_BLOCKS = (16, 32, 64, 128, 256)


def rows_candidates(own_params=None, zone_rows=None):
    """The "rows" rules tried: every block height on both paths (and ``zone_rows``, one zone's
    rows: cuBLAS's batched call on the zones' own matrices, the bench's "cupy.matmul batched",
    1.05-1.10x the one tall call on float64 192x216 (27x216)^T at 12 945 zones in bench_blas
    (H200, reports/gpu_20261128k, reports/gpu_20261129e call 6), 0.99-1.00x in this stage's
    6472 zones), and with ``own_params`` (the table's "rows_params" for the class, if any) our
    kernel with those parameters too."""
    heights = ROW_BLOCKS + ((zone_rows,) if zone_rows and zone_rows not in ROW_BLOCKS else ())
    cands = [{"rows": r, "rows_path": p} for r in heights for p in ("kernel", "vendor")]
    if own_params:
        cands += [{"rows": r, "rows_path": "kernel", "rows_params": dict(own_params)}
                  for r in ROW_BLOCKS]
    return cands


def stream_candidates(n, k):
    """gemm_stream's parameters tried for one tall A with n columns of C and rows of k: columns
    per thread (n itself where gemm_stream has it, the power of two above, 4), rows per chunk,
    ring depth, row layout, B^T's rows read with their padding ("wide") where that applies.
    None past n = 16 or k = 128, where a thread per row lost 3-7x to cuBLAS on the H200
    (192x216 (27x216)^T, 375x512 (64x512)^T: reports/gpu_20261128k)."""
    from linalg._cuda.blas import STREAM_NC
    if n > 16 or k > 128:
        return []
    ncs = sorted({nc for nc in (n, 1 << (n - 1).bit_length(), 4) if nc in STREAM_NC})
    # "wide" (B^T's rows read with their padding) where one group of nc odd columns covers n
    return [{"cfg": "stream", "nc": nc, "rp": rp, "stages": st, "pad": pad,
             **({"wide": True} if wide else {})}
            for nc in ncs for wide in ((False, True) if nc % 2 and n <= nc else (False,))
            for rp in (32, 64, 128) for st in (2, 3) for pad in (True, False)]


def mma_candidates(n, k):
    """gemm_stream_mma's parameters tried for one tall A with n columns of C and rows of k,
    where gemm_stream has none (n > 16 or k > 128) and k is whole k steps of 8: the (MT, NBW,
    CH) that led on the H200's 192x216 (27x216)^T (reports/gpu_20261129f calls 3 and 5: items
    of whole rows in two buffers, 48 of them in float64, 64 in float32, whose rows take half
    the bytes; the plan takes rows off where they do not fit) and items of 9 k steps."""
    steps = k // 8
    if k % 8 or stream_candidates(n, k):
        return []
    whole = steps if steps % 2 else steps - 1
    items = ((48, whole, 2), (64, whole, 2), (32, whole, 3), (64, min(9, whole), 4))
    return [{"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": rb, "kc": kc, "stages": st}
            for mt, nbw, ch in ((1, 2, 2), (1, 2, 1), (1, 4, 2), (2, 2, 2))
            for rb, kc, st in items]


def pick_stream(timed, kernel_ms, gain=1.05):
    """The gemm_stream parameters for a class, or None: ``timed`` {op(B): [(candidate, ms)]},
    ``kernel_ms`` {op(B): ms of our one call without them}. One entry serves both op(B), so the
    candidate with the least summed time, kept where that sum gains ``gain`` over ours."""
    forms = sorted(timed)
    if not forms or any(not timed[f] for f in forms):
        return None
    total = {}
    for form in forms:
        for cand, ms in timed[form]:
            key = json.dumps(cand, sort_keys=True)
            total.setdefault(key, {})[form] = ms
    sums = [(sum(v.values()), key) for key, v in total.items() if len(v) == len(forms)]
    if not sums:
        return None
    best, key = min(sums)
    return json.loads(key) if sum(kernel_ms[f] for f in forms) >= gain * best else None


def pick_rows_rule(base, timed, day, gain=1.05):
    """The table entry for a tall one-B GEMM class: a rows rule, or (none gained) the class's
    kernel-or-vendor decision alone, which replaces a rule an earlier run wrote.

    ``base``: {op(B) "T" / "N": (kernel ms, vendor ms)} of all rows in one call; ``timed``:
    {op(B): [(candidate, ms)]} of the rows rules (:func:`rows_candidates`). A rule must gain
    ``gain`` over the faster of the two on every op(B) (the one that gains least decides), else
    on one op(B) alone ("rows_transb", the larger gain); the entry keeps the class's
    kernel-or-vendor decision for calls the rule does not take (``use_vendor``: cuBLAS faster
    summed over both op(B))."""
    forms = sorted(base)
    gains = {}                              # candidate (as JSON) -> {op(B): gain}
    cands, ms = {}, {}
    for form in forms:
        for cand, t in timed[form]:
            key = json.dumps(cand, sort_keys=True)
            cands[key] = cand
            ms[key, form] = t
            gains.setdefault(key, {})[form] = min(base[form]) / t
    both = [(min(g.values()), key) for key, g in gains.items()
            if len(g) == len(forms) and min(g.values()) >= gain]
    one = [(v, key, form) for key, g in gains.items() for form, v in g.items() if v >= gain]
    vendor = sum(base[f][1] for f in forms) < sum(base[f][0] for f in forms)
    if not (both or one):
        top = max((v, f) for g in gains.values() for f, v in g.items())
        return {"use_vendor": vendor, "reason": f"tune_blas {day}: no rows rule gained {gain}x "
                f"(at most {top[0]:.2f}x, op(B) {top[1]}); one call, "
                f"{'cuBLAS' if vendor else 'our kernel'}"}
    if both:
        ratio, key = max(both)
        entry, note, used = dict(cands[key]), "every op(B)", forms
    elif one:
        ratio, key, form = max(one)
        entry = dict(cands[key], rows_transb=form)
        note, used = f"op(B) = {'B^T' if form == 'T' else 'B'}", [form]
    if entry.get("rows_path") == "kernel":
        del entry["rows_path"]
    detail = ", ".join(f"{f}: {ms[key, f]:.4f} vs {min(base[f]):.4f} ms" for f in used)
    entry.update(use_vendor=vendor, reason=f"tune_blas {day}: the rows as blocks {ratio:.2f}x "
                 f"the best single call ({note}; {detail})")
    return entry


def tall_class_entry(base, timed, streamed, day):
    """The entry of a tall one-B class: gemm_stream's parameters where they gain
    (:func:`pick_stream`; the one call then times as gemm_stream), and a rows rule where one
    beats the best one call (:func:`pick_rows_rule`); gemm_stream's parameters stay in the entry
    where the rule leaves calls to them (one op(B) only, or no rule). ``base``, ``timed`` as
    pick_rows_rule's, ``streamed`` as pick_stream's ``timed``."""
    stream = pick_stream(streamed, {f: base[f][0] for f in base})
    if stream is not None:
        ms = {f: next(x for cand, x in streamed[f] if cand == stream) for f in base}
        base = {f: (ms[f], base[f][1]) for f in base}
    entry = pick_rows_rule(base, timed, day)
    if stream is not None and (entry.get("rows_transb") or "rows" not in entry):
        entry = {**stream, **entry}
        kernel = "gemm_stream_mma" if stream["cfg"] == "mma" else "gemm_stream"
        entry["reason"] += f", one call on {kernel} " + ", ".join(
            f"{f}: {ms[f]:.4f} ms" for f in sorted(ms))
    return entry


def tune_gemm_rows(t, dtype, batch0, shapes=HYDRO):
    """The hydro corner force F = A B^T as hydro/operators.py calls it (zones folded into the rows
    of one tall A, one B): gemm_stream's parameters and each rows rule against all rows in one
    call on our kernel and on cuBLAS, both op(B), by the public call's time (host included: a
    rule adds launches, and at 0.03 ms a second launch's host time lost more than the blocks
    gained in GPU time, float64 18x16 (4x16)^T on the H200, reports/gpu_20261128k call 2);
    :func:`tall_class_entry` writes the tall class's entry."""
    import cupy
    from linalg import _tuning
    from linalg._cuda import blas
    item = numpy.dtype(dtype).itemsize
    for m, n, q in shapes:
        rows = fit_batch(batch0, m * q, item, 2 << 30) * m
        cls = _tuning.shape_class(rows, n, q)
        own = next((e["rows_params"] for e in _tuning.entries("gemm", dtype, cls)
                    if e.get("rows_params")), None)
        a = cupy.random.standard_normal((1, rows, q)).astype(dtype)
        c = cupy.empty((1, rows, n), dtype=dtype)
        base, timed, streamed = {}, {}, {}
        for form in ("T", "N"):
            if t.out_of_time():
                break
            b = cupy.random.standard_normal((1, n, q) if form == "T" else (1, q, n)).astype(dtype)
            # Our one call by the untuned default (``_params={}``), not the table's entry: an
            # installed gemm_stream entry would otherwise be the baseline its own candidates
            # are held against, and a rerun would drop it (reports/gpu_20261129e call 6).
            base[form] = (timeit(lambda: blas.gemm(a, b, c, transb=form, _params={},
                                                   _path="kernel"), t.reps, 2),
                          timeit(lambda: blas.gemm(a, b, c, transb=form, _path="vendor"),
                                 t.reps, 2))
            streamed[form] = [(cand, timeit(lambda: blas.gemm(
                a, b, c, transb=form, _params=cand, _path="kernel"), t.reps, 2))
                for cand in stream_candidates(n, q) + mma_candidates(n, q)]
            t.log += [f"gemm stream {dtype} {cls} {form} {cand}: {ms:.4f} ms"
                      for cand, ms in streamed[form]]
            timed[form] = [(cand, timeit(lambda: blas.gemm(a, b, c, transb=form,
                                                               _params=cand), t.reps, 2))
                           for cand in rows_candidates(own, m)]
            t.log += [f"gemm rows {dtype} {cls} {form} {cand}: {ms:.4f} ms"
                      for cand, ms in timed[form]]
            t.log.append(f"gemm rows {dtype} {cls} {form} one call: kernel {base[form][0]:.4f}, "
                         f"vendor {base[form][1]:.4f} ms")
        if len(base) == 2:            # both op(B) timed (else the budget ran out: no entry)
            entry = tall_class_entry(base, timed, streamed, time.strftime("%Y-%m-%d"))
            t.table.setdefault("gemm", {}).setdefault(dtype, {})[cls] = entry
            print(f"gemm    {dtype:8s} {cls:12s} rows {entry}", flush=True)
        del a, c


def tune_trsv(t, dtype, sizes, batch):
    import cupy
    from linalg._cuda import trsv
    from linalg._tuning import shape_class
    for n in sizes:
        a = cupy.tril(cupy.random.standard_normal((batch, n, n)).astype(dtype) / n)
        idx = cupy.arange(n)
        a[:, idx, idx] = 2
        x = cupy.random.standard_normal((batch, n)).astype(dtype)
        vecs = [v for v in (1, 2, 4) if v * numpy.dtype(dtype).itemsize <= 16 and n % v == 0]
        cands = [{"kernel": "warp", "warps": w, "width": width, "maxreg": r, "vec": v}
                 for w in (2, 4, 8) for width in (4, 8, 16, 32) for r in TRSV_REGISTER_CAPS
                 for v in vecs if width * v <= 128]
        timed = t.pick("trsv", dtype, shape_class(n), cands,
                       lambda p: trsv.trsv(a, x, _params=p), lambda: trsv.trsv(a, x, _path="vendor"))
        row = t.table.get("trsv", {}).get(dtype, {}).get(shape_class(n))
        single = [(p, ms) for p, ms in timed if p["vec"] == 1]
        if row and row.get("vec", 1) > 1 and single:   # operands that cannot take the vector
            p, ms = min(single, key=lambda pm: pm[1])
            row["scalar"] = {k: p[k] for k in ("warps", "width", "maxreg")}
            row["scalar"]["reason"] = f"tune_blas: the fastest single-load launch, {ms:.4f} ms"
        del a, x


def tune_gebrd(t, dtype, sizes, batch):
    import cupy
    from linalg._cuda import bidiag
    from linalg._tuning import shape_class
    for n in sizes:
        a = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        cands = [{"kernel": "team", "unroll": 2, "team": tm, "teams_per_block": max(1, 128 // tm)}
                 for tm in (32, 64, 128, 256) if tm <= max(32, 8 * n)]
        cands += [{"kernel": "cols", "group": gr, "per_block": pb}
                  for gr in (0, 32, 64) for pb in (0, 1, 2)]
        t.pick("gebrd", dtype, shape_class(n, n), cands, lambda p: bidiag.gebrd(a, _params=p))
        del a


def main(argv=None):
    from linalg import _tuning
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--budget-s", type=float, default=600.0, help="stop searching after this")
    ap.add_argument("--output", default=os.environ.get("OUT", "out"))
    ap.add_argument("--install", action="store_true", help="also write linalg/tuning/<gpu>.json")
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--squares", default="", help="comma-separated n of the square stages "
                    "(gemv_square, trsv, gemm_square; default 4 .. 512)")
    ap.add_argument("--stages",
                    default="gemv_hydro,gemm_hydro,gemm_rows,gemv_square,trsv,gebrd,gemm_square",
                    help="comma-separated subset, searched in this order")
    args = ap.parse_args(argv)
    gpu = _tuning.gpu_name()
    t = Tuner(args.budget_s, 5 if args.quick else 15)
    hydro_mn = [(m, n) for m, n, _ in HYDRO]
    squares = (4, 8, 16, 32, 64, 128, 256) if args.quick else (4, 8, 16, 32, 64, 128, 256, 512)
    if args.squares:
        squares = tuple(int(s) for s in args.squares.split(","))
    dtypes = args.dtypes.split(",")
    stages = {  # searched in the order of --stages: the budget may end the search early
        "gemv_hydro": lambda dt: tune_gemv(t, dt, hydro_mn, 40960),
        "gemv_hydro_n": lambda dt: tune_gemv(t, dt, hydro_mn, 40960, ops=("N",)),
        "gemm_hydro": lambda dt: tune_gemm(t, dt, [(m, n, q, "T", True) for m, n, q in HYDRO],
                                           40960),
        "gemm_rows": lambda dt: tune_gemm_rows(t, dt, 40960),
        "gemv_square": lambda dt: tune_gemv(t, dt, [(n, n) for n in squares], 10240,
                                            ops=("N",)),
        "trsv": lambda dt: tune_trsv(t, dt, squares, 10240),
        "gebrd": lambda dt: tune_gebrd(t, dt, (8, 16, 32, 64, 128), 4096 if args.quick else 10240),
        "gemm_square": lambda dt: tune_gemm(t, dt, [(n, n, n, "N", False) for n in squares[:6]],
                                            10240),
    }
    for name in args.stages.split(","):
        for dt in dtypes:
            if t.out_of_time():
                break
            try:
                stages[name](dt)
            except Exception as exc:      # keep what was tuned so far
                t.log.append(f"stage {name} failed for {dt}: {type(exc).__name__}: {exc}")
    result = {gpu: t.table}
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, "tuned_blas.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    with open(os.path.join(args.output, "tune_log.txt"), "w") as f:
        f.write("\n".join(t.log) + "\n")
    if args.install:      # merged into what earlier runs tuned for this GPU
        _tuning.install(gpu, t.table)
    print(f"# tuned {sum(len(c) for d in t.table.values() for c in d.values())} classes on {gpu}")


if __name__ == "__main__":
    main()
