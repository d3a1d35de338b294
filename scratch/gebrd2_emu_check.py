"""Run the CPU emulator of gebrd_reg (scratch/gebrd2_emu.sh) on batches of matrices (random,
plus special ones: zero, zero columns/rows, huge, tiny, rank one), every option combination:
reconstruction Q B P^T and singular values of B against A within 50 n eps of max |A|, every
variant within 1e3 n eps of the first (old code, no shrink); |d|, |e| against a float64 NumPy
transcription of dgebd2 (scratch/gebrd_emu_check.py) printed."""
import os
import subprocess
import sys
import tempfile

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gebrd_emu_check import gebd2_ref, rebuild  # noqa: E402


def emulate(a, N, trs, stage, shrink, dtype):
    batch, m, n = a.shape
    mn = min(m, n)
    with tempfile.TemporaryDirectory() as tmp:
        fin, fout = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        a.astype(dtype).tofile(fin)
        code = "f" if dtype == numpy.float32 else "d"
        subprocess.run(["/tmp/gebrd2_emu", code, str(N), str(int(trs)), str(int(stage)),
                        str(int(shrink)), str(batch), str(m), str(n), fin, fout], check=True)
        out = numpy.fromfile(fout, dtype).astype(numpy.float64)
    k = batch * m * n
    parts = [out[:k].reshape(batch, m, n)]
    for size in (mn, mn - 1, mn, mn):
        parts.append(out[k:k + batch * size].reshape(batch, size))
        k += batch * size
    return parts


def batch_for(m, n, g):
    a = g.standard_normal((6, m, n))
    a[1] = 0
    a[2][:, 0] = 0                       # tau = 0 at the first column reflector
    if m > 2:
        a[2][0, 2:] = 0 if n > 2 else a[2][0, 2:]
    a[3] = a[0] * 2.0 ** 990             # scaled by powers of two: exact, so the reference of
    a[4] = a[0] * 2.0 ** -990            # a[0] scaled back is theirs (NumPy's would overflow)
    a[5] = numpy.outer(g.standard_normal(m), g.standard_normal(n))
    return a


def main():
    g = numpy.random.default_rng(2)
    bad = 0
    shapes = [(32, 32), (31, 17), (17, 31), (20, 20), (32, 1), (1, 32), (24, 7), (7, 24),
              (16, 16), (9, 9), (11, 16), (8, 8), (5, 3), (3, 5), (2, 2), (1, 1), (17, 17),
              (32, 9), (25, 25)]
    for dtype in (numpy.float64, numpy.float32):
        eps = numpy.finfo(dtype).eps
        for m, n in shapes:
            N = max(8, 1 << (max(m, n) - 1).bit_length())
            a = batch_for(m, n, g)
            scales = [1, 1, 1, 2.0 ** 990, 2.0 ** -990, 1]
            if dtype == numpy.float32:
                a[3] = a[0] * 2.0 ** 100
                a[4] = a[0] * 2.0 ** -100
                scales[3:5] = [2.0 ** 100, 2.0 ** -100]
            a = a.astype(dtype).astype(numpy.float64)
            base = None
            worst_de = [0.0]
            for trs in (0, 1):
                for stage in (0, 1):
                    for shrink in (0, 1):
                        got = emulate(a, N, trs, stage, shrink, dtype)
                        errs = []
                        for b in range(a.shape[0]):
                            wide = m < n
                            x = a[b].T if wide else a[b]
                            M, d, e, tq, tp = gebd2_ref(x / scales[b])
                            d, e = d * scales[b], e * scales[b]
                            gM = got[0][b].T if wide else got[0][b]
                            gq, gp = (got[4][b], got[3][b]) if wide else (got[3][b], got[4][b])
                            scale = max(numpy.abs(x).max(), 1e-300)
                            e_d = numpy.abs(numpy.abs(got[1][b]) - numpy.abs(d)).max() / scale
                            e_e = (numpy.abs(numpy.abs(got[2][b]) - numpy.abs(e)).max() / scale
                                   if e.size else 0)
                            B = rebuild(gM, got[1][b], got[2][b], gq, gp)
                            e_r = numpy.abs(B - x).max() / scale
                            bd = numpy.diag(got[1][b])
                            if e.size:
                                bd = bd + numpy.diag(got[2][b], 1)
                            e_s = numpy.abs(numpy.linalg.svd(bd, compute_uv=False)
                                            - numpy.linalg.svd(x, compute_uv=False)[:bd.shape[0]]
                                            ).max() / scale
                            finite = all(numpy.isfinite(p[b]).all() for p in got)
                            # |d|, |e| against the float64 reference: informative only (float32
                            # near-degenerate reflector sequences drift from it, old code too)
                            worst_de[0] = max(worst_de[0], e_d, e_e)
                            errs.append(max(e_r, e_s) if finite else numpy.inf)
                        worst = max(errs)
                        tol = 50 * max(m, n) * eps
                        nb = int(sum(err > tol for err in errs))
                        bad += nb
                        if base is None:
                            base = got
                        same = all(numpy.allclose(p, q, rtol=1e3 * max(m, n) * eps,
                                                  atol=1e3 * max(m, n) * eps * numpy.abs(q).max())
                                   for p, q in zip(got, base) if q.size)
                        bad += not same
                        if nb or not same:
                            print(f"BAD {numpy.dtype(dtype).name} {m}x{n} N{N} t{trs}s{stage}"
                                  f"k{shrink}: worst {worst:.1e} tol {tol:.1e} bad {nb} "
                                  f"errs {[f'{x:.1e}' for x in errs]} same-as-plain {same}")
            print(f"{numpy.dtype(dtype).name} {m}x{n} N{N} done (|d|,|e| vs float64 reference: "
                  f"{worst_de[0]:.1e} of max|A|)", flush=True)
    print("emu failures:", bad)


if __name__ == "__main__":
    main()
