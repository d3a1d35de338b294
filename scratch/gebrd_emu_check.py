"""Run the CPU emulator of gebrd_cols (scratch/gebrd_emu.sh) on batches of matrices (random, plus
special ones: zero, zero first column, rank one, scaled by 2^+-990 (float32: 2^+-100): the safe
norm path), for gebd2_fused with every SHARED_S / PEEL combination and gebd2_tall:
reconstruction ||A - Q B P^T||_F / (max(m, n) ||A||_F eps) < 30, the singular values of B against
NumPy's of A within 30 max(m, n) eps max|A|, SHARED_S (and gebd2_tall) against the old row pass
within 1e3 max(m, n) eps on the generic matrices (AGREE), PEEL bit for bit the same as without,
+0 outputs (tau = 0) for the zero matrix; |d|, |e| against a float64 NumPy transcription of
dgebd2 printed (informative).
Usage: gebrd_emu_check.py [quick]"""
import os
import subprocess
import sys
import tempfile

import numpy


def _larfg(alpha, x):
    xnorm = numpy.sqrt((x * x).sum())
    if xnorm == 0:
        return alpha, 0.0, x
    beta = -numpy.copysign(numpy.hypot(alpha, xnorm), alpha)
    return beta, (beta - alpha) / beta, x / (alpha - beta)


def gebd2_ref(a):
    a = a.astype(numpy.float64).copy()
    m, n = a.shape
    d, e, tq, tp = numpy.zeros(n), numpy.zeros(max(n - 1, 0)), numpy.zeros(n), numpy.zeros(n)
    for i in range(n):
        beta, tau, v = _larfg(a[i, i], a[i + 1:, i])
        a[i, i], a[i + 1:, i], d[i], tq[i] = beta, v, beta, tau
        vv = numpy.concatenate([[1.0], v])
        c = a[i:, i + 1:]
        a[i:, i + 1:] = c - tau * numpy.outer(vv, vv @ c)
        if i < n - 1:
            beta, tau, u = _larfg(a[i, i + 1], a[i, i + 2:])
            a[i, i + 1], a[i, i + 2:], e[i], tp[i] = beta, u, beta, tau
            uu = numpy.concatenate([[1.0], u])
            c = a[i + 1:, i + 1:]
            a[i + 1:, i + 1:] = c - tau * numpy.outer(c @ uu, uu)
    return a, d, e, tq, tp


def rebuild(M, d, e, tq, tp):
    """Q B P^T from the stored reflectors (tall case)."""
    R, C = M.shape
    B = numpy.zeros((R, C))
    B[numpy.arange(C), numpy.arange(C)] = d
    if C > 1:
        B[numpy.arange(C - 1), numpy.arange(1, C)] = e
    for i in reversed(range(C)):
        if i < C - 1:
            u = numpy.zeros(C)
            u[i + 1] = 1.0
            u[i + 2:] = M[i, i + 2:]
            B = B - tp[i] * numpy.outer(B @ u, u)
        v = numpy.zeros(R)
        v[i] = 1.0
        v[i + 1:] = M[i + 1:, i]
        B = B - tq[i] * numpy.outer(v, v @ B)
    return B


# (fused, shared_s, peel): the old step first
VARIANTS = ((1, 0, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1), (0, 0, 0))
# The matrices of batch_for whose outputs every variant must reproduce to rounding: not the
# rank-one one (after its first step the trailing matrix is rounding noise, whose reflectors any
# change of rounding replaces) nor the zero-column one (an alpha of step 1 is 0 in exact
# arithmetic, so rounding picks the sign of beta: seen for float32 40 x 64 with SHARED_S).
AGREE = [0, 1, 3, 4]


def emulate(a, fused, shared_s, peel, group, dtype):
    batch, m, n = a.shape
    mn = min(m, n)
    with tempfile.TemporaryDirectory() as tmp:
        fin, fout = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        a.astype(dtype).tofile(fin)
        code = "f" if dtype == numpy.float32 else "d"
        subprocess.run(["/tmp/gebrd_emu", code, str(fused), str(shared_s), str(peel),
                        str(group), str(batch), str(m), str(n), fin, fout], check=True)
        out = numpy.fromfile(fout, dtype)
    k = batch * m * n
    parts = [out[:k].reshape(batch, m, n)]
    for size in (mn, mn - 1, mn, mn):
        parts.append(out[k:k + batch * size].reshape(batch, size))
        k += batch * size
    return parts


def batch_for(m, n, dtype, g):
    """Matrices and the power of two each is scaled by (the reference is computed unscaled)."""
    big = 990 if dtype == numpy.float64 else 100
    a = g.standard_normal((6, m, n))
    a[1] = 0
    a[2][:, 0] = 0                           # tau = 0 at the first column reflector
    if n > 2:
        a[2][0, 2:] = 0                      # and an all-zero x in the first row reflector
    a[5] = numpy.outer(g.standard_normal(m), g.standard_normal(n))
    exps = [0, 0, 0, big, -big, 0]
    a[3], a[4] = a[0], a[0]
    return a, exps


def check_one(x, got, b, wide, dtype):
    """Errors of matrix b of the emulator's output against A = x: (reconstruction in units of
    max(m, n) ||A||_F eps, singular values in units of max(m, n) eps max|A|, |d|/|e| against
    dgebd2 (relative to max|A|))."""
    eps = float(numpy.finfo(dtype).eps)
    size = max(x.shape)
    gM = got[0][b].T if wide else got[0][b]
    gq, gp = (got[4][b], got[3][b]) if wide else (got[3][b], got[4][b])
    d, e = got[1][b], got[2][b]
    if not all(numpy.isfinite(p[b]).all() for p in got):
        return numpy.inf, numpy.inf, numpy.inf
    scale = max(numpy.abs(x).max(), 1e-300)
    res = numpy.linalg.norm(rebuild(gM, d, e, gq, gp) - x) / (
        size * max(numpy.linalg.norm(x), 1e-300) * eps)
    bd = numpy.diag(d) + (numpy.diag(e, 1) if e.size else 0)
    sv = numpy.linalg.svd(bd, compute_uv=False)
    sv_ref = numpy.linalg.svd(x, compute_uv=False)[:bd.shape[0]]
    e_sv = numpy.abs(sv - sv_ref).max() / (size * eps * scale)
    _, rd, re, _, _ = gebd2_ref(x)
    e_de = max(numpy.abs(numpy.abs(d) - numpy.abs(rd)).max(),
               numpy.abs(numpy.abs(e) - numpy.abs(re)).max(initial=0)) / scale
    return res, e_sv, e_de


# (m, n, group): square 33 .. 64, groups below max(m, n) (threads own several rows), tall,
# wide, 16 warps (the reduction slots' far end), smaller than one warp, thin matrices
SHAPES = [(64, 64, 64), (64, 64, 32), (63, 63, 64), (47, 47, 64), (33, 33, 64), (48, 48, 64),
          (40, 40, 16), (64, 40, 64), (40, 64, 64), (57, 33, 64), (33, 57, 64), (64, 1, 64),
          (1, 64, 64), (128, 17, 128), (17, 128, 128), (300, 7, 512), (32, 32, 32), (16, 16, 16),
          (13, 9, 8), (9, 13, 16), (2, 2, 4), (1, 1, 4), (5, 3, 4)]
QUICK = [(64, 64, 64), (64, 64, 32), (33, 33, 64), (40, 64, 64), (13, 9, 8)]


def main(shapes):
    g = numpy.random.default_rng(3)
    bad = 0
    for dtype in (numpy.float64, numpy.float32):
        eps = float(numpy.finfo(dtype).eps)
        for m, n, group in shapes:
            a, exps = batch_for(m, n, dtype, g)
            a = a.astype(dtype)                      # the matrices as the kernel sees them
            scaled = numpy.stack([numpy.ldexp(x, k) for x, k in zip(a, exps)])
            wide = m < n
            size = max(m, n)
            outs = {}
            worst = [0.0, 0.0, 0.0]
            for variant in VARIANTS:
                got = [p.astype(numpy.float64) for p in emulate(scaled, *variant, group, dtype)]
                # undo the power-of-two scalings: B scales with A, reflectors and taus do not
                for b, k in enumerate(exps):
                    if k:
                        got[1][b] = numpy.ldexp(got[1][b], -k)
                        got[2][b] = numpy.ldexp(got[2][b], -k)
                        bidiag = _bidiagonal_mask(m, n)
                        got[0][b][bidiag] = numpy.ldexp(got[0][b][bidiag], -k)
                outs[variant] = got
                errs = []
                for b in range(a.shape[0]):
                    x = a[b].astype(numpy.float64)
                    x = x.T if wide else x
                    errs.append(check_one(x, got, b, wide, dtype))
                    worst = [max(w, v) for w, v in zip(worst, errs[-1])]
                nb = sum(r >= 30 or s >= 30 for r, s, _ in errs)
                zero = [p[1] for p in got]           # a[1] = 0: +0 everywhere, tau = 0
                zero_ok = not any(numpy.signbit(p).any() or p.any() for p in zero if p.size)
                bad += nb + (not zero_ok)
                if nb or not zero_ok:
                    print(f"BAD {numpy.dtype(dtype).name} {m}x{n} G{group} {variant}: "
                          + " ".join(f"({r:.1f},{s:.1f})" for r, s, _ in errs)
                          + f" zero ok {zero_ok}", flush=True)
            peel_same = [all(numpy.array_equal(p, q, equal_nan=True) for p, q in
                             zip(outs[1, shared_s, 1], outs[1, shared_s, 0]))
                         for shared_s in (0, 1)]
            bad += peel_same.count(False)
            base = outs[1, 0, 0]
            agree = []
            for key in ((1, 1, 0), (0, 0, 0)):
                diff = max(float(numpy.abs(p[AGREE] - q[AGREE]).max()
                                 / max(1.0, numpy.abs(q[AGREE]).max()))
                           for p, q in zip(outs[key], base) if q.size)
                agree.append(diff / (size * eps))
                if not diff <= 1e3 * size * eps:
                    bad += 1
                    print(f"BAD {numpy.dtype(dtype).name} {m}x{n} G{group} {key} against the "
                          f"old row pass: {diff:.1e}", flush=True)
            print(f"{numpy.dtype(dtype).name} {m}x{n} G{group}: worst reconstruction "
                  f"{worst[0]:.2f}, singular values {worst[1]:.2f} (units: max(m, n) eps; "
                  f"bound 30), |d|,|e| vs dgebd2 {worst[2]:.1e} of max|A|; shared_s / tall "
                  f"against old: {agree[0]:.2f} / {agree[1]:.2f} max(m, n) eps; peel "
                  f"bit-identical to no peel (shared_s off, on): {peel_same}", flush=True)
    print("emu failures:", bad)
    return bad


def _bidiagonal_mask(m, n):
    i = numpy.arange(m)[:, None]
    j = numpy.arange(n)[None, :]
    return (i == j) | ((j == i + 1) if m >= n else (i == j + 1))


if __name__ == "__main__":
    sys.exit(1 if main(QUICK if "quick" in sys.argv[1:] else SHAPES) else 0)
