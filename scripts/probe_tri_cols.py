"""tri_cols probe (device): kernels/tri_cols.cu checked against NumPy on every variant, then timed
against the default dispatch of the same backend call and against torch at small batches.

python3 scripts/probe_tri_cols.py check            # every side / triangle / transpose / unit,
                                                  # TRTRI and POTRS modes, in and out of place,
                                                  # strided operands, widths 1 and 8; n = 33..512
python3 scripts/probe_tri_cols.py small            # a few of those (compute-sanitizer memcheck)
python3 scripts/probe_tri_cols.py time [--dtype float64] [--sizes 64,128] [--batches 1,8]
                                   [--ops trsm,trtri,potrs] [--output FILE]
python3 scripts/probe_tri_cols.py bounds FILE      # COLS_BELOW-style bounds from a time table

``time`` prints one markdown row per (op, n, batch): ms a call (CUDA events around 20 calls,
median of 5) of the backend's default path, of tri_cols at each width and at the default width,
and for TRSM of torch.linalg.solve_triangular; the last column is default path / best tri_cols.
``bounds`` reads such a table (its default column runs with tri_cols off) and prints, per op
and n, one more than the largest batch up to which tri_cols at its default width beat the
default path at every measured batch (TRSM: both sides): the bounds linalg/_cuda/triangular.py
COLS_BELOW takes.
"""
import argparse
import itertools
import statistics
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VARIANTS = list(itertools.product(("left", "right"), (True, False), (False, True), (False, True)))
WIDTHS = (1, 2, 4, 8)


def triangle(gen, batch, n, dt, lower, scale=1.0):
    """I + scale * a random triangle / n (well conditioned: repeated in-place solves stay
    bounded), the other triangle poisoned with NaN (never read)."""
    t = numpy.eye(n) + scale * gen.standard_normal((batch, n, n)) / n
    t = numpy.tril(t) if lower else numpy.triu(t)
    ones = numpy.ones((n, n), bool)
    other = numpy.triu(ones, 1) if lower else numpy.tril(ones, -1)
    poisoned = t.copy()
    poisoned[:, other] = numpy.nan
    return t, poisoned.astype(dt)


def op_of(t, unit, trans):
    m = t.copy()
    if unit:
        m[:, numpy.arange(m.shape[1]), numpy.arange(m.shape[1])] = 1.0
    return m.swapaxes(1, 2) if trans else m


def residual(lhs, rhs, scale, n, dt):
    """max over the batch of ||lhs - rhs||_F / (scale n eps)."""
    r = numpy.linalg.norm(lhs - rhs, axis=(1, 2)) / (scale * n * numpy.finfo(dt).eps)
    return float(r.max())


def check_solve(gen, dt, n, nvec, width, out_of_place, strided):
    worst = 0.0
    batch = 2
    for side, lower, trans, unit in VARIANTS:
        t, tp = triangle(gen, batch, n, dt, lower, 4.0)
        if unit:
            tp[:, numpy.arange(n), numpy.arange(n)] = numpy.nan    # not read
        shape = (batch, n, nvec) if side == "left" else (batch, nvec, n)
        b = gen.standard_normal(shape)
        # strided: B a view of every other column of a wider array, A a transposed copy's view
        full = numpy.zeros(shape[:2] + (2 * shape[2],))
        full[:, :, ::2] = b
        db = cupy.asarray(full.astype(dt))[:, :, ::2] if strided else cupy.asarray(b.astype(dt))
        da = cupy.asarray(numpy.ascontiguousarray(tp.swapaxes(1, 2))).swapaxes(1, 2) if strided \
            else cupy.asarray(tp)
        out = None
        if out_of_place:        # the same strides as B's (an out-of-place result is B's twin)
            out = cupy.empty((batch,) + shape[1:2] + (2 * shape[2],), dtype=dt)[:, :, ::2] \
                if strided else cupy.empty_like(db)
        before = db.get()
        info = tri.tri_cols(da, db, side == "right", lower, trans, unit, 1.5, out=out, width=width)
        x = (out if out_of_place else db).get().astype(numpy.float64)
        if out_of_place and not numpy.array_equal(db.get(), before, equal_nan=True):
            return f"B changed out of place {side} {lower} {trans} {unit}"
        if info.get().any():
            return f"info {info.get()} {side} {lower} {trans} {unit}"
        m = op_of(t, unit, trans)
        lhs = m @ x if side == "left" else x @ m
        scale = numpy.linalg.norm(m, axis=(1, 2)).max() * numpy.linalg.norm(x, axis=(1, 2)).max()
        e = residual(lhs, 1.5 * b, scale, n, dt)
        if not e < 30:
            return f"residual {e:.1f} {side} {lower} {trans} {unit}"
        worst = max(worst, e)
    return worst


def check_inverse_and_potrs(gen, dt, n, width):
    worst = 0.0
    for lower, unit in itertools.product((True, False), (False, True)):
        t, tp = triangle(gen, 2, n, dt, lower, 4.0)
        if unit:
            tp[:, numpy.arange(n), numpy.arange(n)] = numpy.nan
        x = cupy.empty((2, n, n), dtype=dt)
        info = tri.tri_cols(cupy.asarray(tp), x, False, lower, False, unit, 1.0,
                            mode=tri.COLS_INVERSE, width=width)
        inv = x.get().astype(numpy.float64)
        other = numpy.triu(inv, 1) if lower else numpy.tril(inv, -1)
        if other.any() or info.get().any():
            return f"inverse: other triangle / info, lower={lower} unit={unit}"
        m = op_of(t, unit, False)
        scale = numpy.linalg.norm(m, axis=(1, 2)).max() * numpy.linalg.norm(inv, axis=(1, 2)).max()
        worst = max(worst, residual(inv @ m, numpy.eye(n)[None], scale, n, dt))
    for lower in (True, False):
        t, tp = triangle(gen, 2, n, dt, lower, 1.0)
        a = t @ t.swapaxes(1, 2) if lower else t.swapaxes(1, 2) @ t
        b = gen.standard_normal((2, n, 9))
        db = cupy.asarray(b.astype(dt))
        info = tri.tri_cols(cupy.asarray(tp), db, False, lower, not lower, False, 1.0,
                            mode=tri.COLS_POTRS, width=width)
        x = db.get().astype(numpy.float64)
        scale = numpy.linalg.norm(a, axis=(1, 2)).max() * numpy.linalg.norm(x, axis=(1, 2)).max()
        worst = max(worst, residual(a @ x, b, scale, n, dt))
        if info.get().any():
            return "potrs info"
    return worst if worst < 30 else f"inverse/potrs residual {worst:.1f}"


def check_bad_diagonal(gen, dt, n):
    t, tp = triangle(gen, 4, n, dt, True)
    tp[1, 2, 2] = 0
    tp[2, n - 1, n - 1] = numpy.inf
    tp[2, 5, 5] = numpy.nan
    b = cupy.asarray(gen.standard_normal((4, n, 3)).astype(dt))
    info = tri.tri_cols(cupy.asarray(tp), b, False, True, False, False, 1.0).get()
    if list(info) != [0, 3, 6, 0]:
        return f"info {list(info)}"
    x = b.get().astype(numpy.float64)
    for k in (0, 3):                            # the neighbours are right
        if not numpy.isfinite(x[k]).all():
            return "neighbour not finite"
    # upper (solved from the last row): the first bad entry in A's order
    tu, tpu = triangle(gen, 2, n, dt, False)
    tpu[1, n - 2, n - 2] = 0
    tpu[1, 3, 3] = 0
    info = tri.tri_cols(cupy.asarray(tpu), cupy.zeros((2, n, 2), dt), False, False, False, False,
                        1.0).get()
    return "ok" if list(info) == [0, 4] else f"upper info {list(info)}"


def check(sizes, dtypes, widths, quick=False):
    gen = numpy.random.default_rng(7)
    failures = 0
    for dt in dtypes:
        for n in sizes:
            for nvec, width in itertools.product((1, 7, 64) if not quick else (7,), widths):
                for out_of_place, strided in ((False, False), (True, False), (False, True),
                                              (True, True)):
                    r = check_solve(gen, dt, n, nvec, width, out_of_place, strided)
                    if isinstance(r, str):
                        print("FAIL", numpy.dtype(dt).name, n, nvec, width, out_of_place,
                              strided, r)
                        failures += 1
            for width in widths:
                r = check_inverse_and_potrs(gen, dt, n, width)
                if isinstance(r, str):
                    print("FAIL", numpy.dtype(dt).name, n, width, r)
                    failures += 1
            r = check_bad_diagonal(gen, dt, n)
            if r != "ok":
                print("FAIL bad diagonal", numpy.dtype(dt).name, n, r)
                failures += 1
            print(numpy.dtype(dt).name, n, "checked", flush=True)
    print("failures:", failures)
    return failures


def timed(fn, calls=20, reps=5):
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(3):
        fn()
    cupy.cuda.Device().synchronize()
    times = []
    for _ in range(reps):
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) / calls)
    return statistics.median(times)


def time_grid(dtype, sizes, batches, out, ops=None):
    """The timing table; the default path's column with tri_cols off (``cols_below`` 0: what
    the backend ran before COLS_BELOW, whose bounds ``bounds`` reads off this table)."""
    import torch
    tri.cols_below = lambda op, dtype, n: 0
    gen = numpy.random.default_rng(0)
    head = ("| op | n | batch | default ms | " + " | ".join(f"cols w{w}" for w in WIDTHS)
            + " | cols default w | torch ms | default / best cols |")
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    print("\n".join(rows), flush=True)
    for n, batch in itertools.product(sizes, batches):
        t, tp = triangle(gen, batch, n, dtype, True, 0.01)
        a = cupy.asarray(numpy.nan_to_num(tp))
        b = cupy.asarray(gen.standard_normal((batch, n, n)).astype(dtype))
        ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(b, device="cuda")
        spd = t @ t.swapaxes(1, 2)
        l_ = cupy.asarray(numpy.linalg.cholesky(spd).astype(dtype))
        cases = {
            "trsm": (lambda: tri.trsm(a, b, "left", True, "N", False, 1.0),
                     lambda w: (lambda: tri.tri_cols(a, b, False, True, False, False, 1.0, width=w)),
                     lambda: torch.linalg.solve_triangular(ta, tb, upper=False)),
            "trsm_right": (lambda: tri.trsm(a, b, "right", True, "N", False, 1.0),
                           lambda w: (lambda: tri.tri_cols(a, b, True, True, False, False, 1.0,
                                                           width=w)),
                           lambda: torch.linalg.solve_triangular(ta, tb, upper=False, left=False)),
            "trtri": (lambda: tri.trtri(a, True, False, keep=("a",)),
                      lambda w: (lambda: tri.tri_cols(a, cupy.empty_like(a), False, True, False, False,
                                                      1.0, mode=tri.COLS_INVERSE, width=w)),
                      None),
            "potrs": (lambda: chol.potrs(l_, b, True),
                      lambda w: (lambda: tri.tri_cols(l_, b, False, True, False, False, 1.0,
                                                      mode=tri.COLS_POTRS, width=w)),
                      None),
        }
        for op, (default, cols, vendor) in cases.items():
            if ops and op.removesuffix("_right") not in ops:
                continue
            d = timed(default)
            # (a width whose grid has more than 16384 blocks re-reads the triangle that often)
            ws = [timed(cols(w)) if batch * -(-n // w) <= 16384 else float("inf") for w in WIDTHS]
            dw = timed(cols(None))
            v = timed(vendor) if vendor else float("nan")
            row = (f"| {op} | {n} | {batch} | {d:.4f} | " + " | ".join(f"{x:.4f}" for x in ws)
                   + f" | {dw:.4f} (w{tri.cols_width(batch, n)}) | {v:.4f} | {d / min(ws):.2f} |")
            rows.append(row)
            print(row, flush=True)
    if out:
        Path(out).write_text("\n".join(rows) + "\n")


def read_table(text):
    """(op, n, batch, default ms, tri_cols ms at its default width) of each row of a ``time``
    table (TRSM's right side folded into "trsm")."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 9 or not cells[1].isdigit():
            continue
        op = "trsm" if cells[0] == "trsm_right" else cells[0]
        default_width = next(c for c in cells if "(w" in c)        # "0.0159 (w1)"
        rows.append((op, int(cells[1]), int(cells[2]), float(cells[3]),
                     float(default_width.split()[0])))
    return rows


def bounds(rows):
    """{op: {n: bound}}: one more than the largest measured batch up to which tri_cols (at its
    default width) was faster than the default path at every measured batch (TRSM: both sides),
    so that tri_cols serves the batches below the bound; 0 where it lost at the first."""
    cases = {}
    for op, n, batch, default, cols in rows:
        key = (op, n, batch)
        cases[key] = cases.get(key, True) and cols < default
    out = {}
    for (op, n, batch) in sorted(cases):
        out.setdefault(op, {}).setdefault(n, [])
        out[op][n].append((batch, cases[(op, n, batch)]))
    result = {}
    for op, by_n in out.items():
        result[op] = {}
        for n, measured in by_n.items():
            bound = 0
            for batch, won in measured:
                if not won:
                    break
                bound = batch + 1
            result[op][n] = bound
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=("check", "small", "time", "bounds"))
    p.add_argument("table", nargs="?", help="bounds: the markdown table of a time run")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--sizes", default="48,64,96,128,192,256,384,512")
    p.add_argument("--batches", default="1,2,4,8,16,32,64")
    p.add_argument("--output")
    p.add_argument("--ops", default="", help="time: a subset, e.g. trsm,potrs (TRSM both sides)")
    args = p.parse_args()
    if args.mode == "bounds":
        for op, by_n in bounds(read_table(Path(args.table).read_text())).items():
            print(op, by_n)
        return
    global cupy, chol, tri
    import cupy
    import linalg._cuda.cholesky as chol
    import linalg._cuda.triangular as tri
    if args.mode == "check":
        sys.exit(1 if check((33, 47, 64, 100, 129, 256, 300, 512), (numpy.float64, numpy.float32),
                            (1, 8)) else 0)
    if args.mode == "small":
        cupy.cuda.set_allocator(None)      # no pool: memcheck sees every allocation's bounds
        sys.exit(1 if check((33, 70), (numpy.float64,), (1, 4), quick=True) else 0)
    time_grid(numpy.dtype(args.dtype), [int(s) for s in args.sizes.split(",")],
              [int(s) for s in args.batches.split(",")], args.output,
              [op for op in args.ops.split(",") if op])


if __name__ == "__main__":
    main()
