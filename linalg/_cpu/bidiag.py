"""CPU GEBRD on strided batches: LAPACK's unblocked Householder bidiagonalization (?gebd2),
one column (and row) at a time, vectorized across the batch.

Layout. The batch is worked on in chunks transposed to "batch-last" order, (m, n, chunk): each
step of the algorithm is then a handful of NumPy operations on long contiguous vectors (one entry
per matrix) instead of many short rows, and a chunk of a few MiB stays in cache for the whole
factorization. Chunks run on a few threads (NumPy releases the GIL).

m < n. LAPACK's lower-bidiagonal algorithm for A is exactly the upper one for A^H with the roles
of the two reflector sets swapped (its first right reflector is the first left reflector of A^H,
conjugation included), so one kernel serves both: :func:`gebrd` factors A^H and conjugate-
transposes the result back, exchanging tauq and taup.

Real dtypes with min(m, n) >= BLOCKED_FROM take LAPACK's blocked algorithm (?gebrd: ?labrd panels
of BLOCK columns, then two GEMMs update the trailing matrix) in batch-first order instead: every
matrix-vector product of a panel step is one batched ``numpy.matmul`` (the BLAS once a matrix,
looped in C), the trailing matrix is read twice a step (its two products) instead of six times
(the two rank-1 updates' read-modify-writes), and the last UNBLOCKED_TAIL columns run the
unblocked kernel above.
"""
import numpy

from .blas import split_batch

__all__ = ["gebrd"]

_CHUNK_BYTES = 4 << 20      # per chunk: a few MiB keeps the trailing matrix in L2/L3
_MIN_CHUNK = 64             # ... but enough matrices that each vector operation is long
_TILE = 32                  # matrices per tile of the layout transposes
# The blocked path (real dtypes): ?labrd panels of BLOCK columns while more than UNBLOCKED_TAIL
# columns remain, for min(m, n) >= BLOCKED_FROM. Against the unblocked kernel, float64 square,
# 2-core development machine, medians of 5 alternating runs (batch 1000 (64 / n)^3;
# `python3 scripts/probe_cpu_gebrd.py`): n = 64 0.85x (so not there), 80 1.26x, 96 1.27x,
# 128 1.43x, 192 1.67x, 256 2.17x; panels of 32 columns
# took 1.2-1.5x the time of panels of 16 at n = 80-256. Every product of a panel step is a
# batched numpy.matmul, one BLAS call a matrix (~0.2 us each), which is what small n lose on.
BLOCK = 16
BLOCKED_FROM = 80
UNBLOCKED_TAIL = 32
_BLOCKED_CHUNK_BYTES = 8 << 20


def gebrd(a):
    """Bidiagonalize each (m, n) matrix of ``a`` (batch, m, n) in place, as LAPACK ?gebrd.

    Returns ``(a, d, e, tauq, taup)``: ``a`` holding B and the reflectors in LAPACK's positions,
    ``d`` (batch, k) and ``e`` (batch, k - 1) real, ``tauq`` and ``taup`` (batch, k) of a's dtype,
    k = min(m, n).
    """
    batch, m, n = a.shape
    k = min(m, n)
    real = numpy.empty(0, a.dtype).real.dtype
    d = numpy.empty((batch, k), real)
    e = numpy.empty((batch, k - 1), real)
    tauq = numpy.empty((batch, k), a.dtype)
    taup = numpy.empty((batch, k), a.dtype)
    # NaN or Inf in a matrix runs through its own arithmetic only (its outputs are NaN, its
    # neighbours' are not touched), silently, as LAPACK's: no NumPy warnings (the worker threads
    # take this error state from split_batch).
    with numpy.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if k >= BLOCKED_FROM and not numpy.iscomplexobj(a):
            _gebrd_blocked_batch(a, d, e, tauq, taup)
        else:
            _gebrd_unblocked_batch(a, d, e, tauq, taup)
    return a, d, e, tauq, taup


def _gebrd_unblocked_batch(a, d, e, tauq, taup):
    """The unblocked path of :func:`gebrd`: chunks of the batch in batch-last order (the module
    docstring) on a few threads; fills d, e, tauq, taup."""
    wide = a.shape[1] < a.shape[2]

    def chunk(s, t):
        work = _to_batch_last(a[s:t], wide)
        dd, ee, tq, tp = _gebd2_batch_last(work)
        _from_batch_last(work, a[s:t], wide)
        d[s:t], e[s:t] = dd.T, ee.T
        tauq[s:t], taup[s:t] = (tp.T, tq.T) if wide else (tq.T, tp.T)

    _over_chunks(a, _CHUNK_BYTES, chunk)


def _gebrd_blocked_batch(a, d, e, tauq, taup):
    """The blocked path of :func:`gebrd` for a real (batch, m, n) ``a``: chunks of the batch on a
    few threads, a wide chunk transposed (the m < n algorithm is the tall one on A^T, tauq and
    taup exchanged); fills d, e, tauq, taup."""
    wide = a.shape[1] < a.shape[2]

    def chunk(s, t):
        work = numpy.ascontiguousarray(a[s:t].swapaxes(1, 2) if wide else a[s:t])
        q, p = (taup, tauq) if wide else (tauq, taup)
        _gebrd_tall(work, d[s:t], e[s:t], q[s:t], p[s:t])
        if wide:
            a[s:t] = work.swapaxes(1, 2)
        elif not numpy.shares_memory(work, a):    # a was not C-contiguous
            a[s:t] = work

    _over_chunks(a, _BLOCKED_CHUNK_BYTES, chunk)


def _over_chunks(a, chunk_bytes, chunk):
    """``chunk(s, t)`` over consecutive slices of a's batch of about ``chunk_bytes`` (at least
    _MIN_CHUNK matrices), the slices shared among a few threads (blas.split_batch)."""
    batch, m, n = a.shape
    size = max(_MIN_CHUNK, chunk_bytes // (m * n * a.itemsize))

    def run(lo, hi):
        for s in range(lo, hi, size):
            chunk(s, min(s + size, hi))

    split_batch(run, batch, m * n * min(m, n))


def _gebrd_tall(a, d, e, tauq, taup):
    """LAPACK ?gebrd on a real batch-first (B, m, n) array with m >= n, in place: ?labrd panels
    of BLOCK columns while more than UNBLOCKED_TAIL columns remain, each followed by the trailing
    update A22 -= V Y^T + X U^T (two batched GEMMs), then the unblocked kernel on the rest.
    d, e, tauq, taup: (B, n), (B, n - 1), (B, n), (B, n) views, written."""
    batch, m, n = a.shape
    p = 0
    while n - p > UNBLOCKED_TAIL:
        nb = BLOCK
        x = numpy.zeros((batch, m - p, nb), a.dtype)
        y = numpy.zeros((batch, n - p, nb), a.dtype)
        blk = a[:, p:, p:]
        _labrd(blk, nb, d[:, p:p + nb], e[:, p:p + nb], tauq[:, p:p + nb], taup[:, p:p + nb],
               x, y)
        trail = blk[:, nb:, nb:]
        trail -= numpy.matmul(blk[:, nb:, :nb], y[:, nb:].swapaxes(1, 2))
        trail -= numpy.matmul(x[:, nb:], blk[:, :nb, nb:])
        idx = numpy.arange(nb)
        blk[:, idx, idx] = d[:, p:p + nb]
        blk[:, idx, idx + 1] = e[:, p:p + nb]
        p += nb
    work = _to_batch_last(a[:, p:, p:], False)
    dd, ee, tq, tp = _gebd2_batch_last(work)
    _from_batch_last(work, a[:, p:, p:], False)
    d[:, p:], e[:, p:], tauq[:, p:], taup[:, p:] = dd.T, ee.T, tq.T, tp.T


def _mv(mat, vec):
    """(B, r, s) @ (B, s) -> (B, r), one BLAS product a matrix."""
    return numpy.matmul(mat, vec[:, :, None])[:, :, 0]


def _vm(vec, mat):
    """(B, r) @ (B, r, s) -> (B, s)."""
    return numpy.matmul(vec[:, None, :], mat)[:, 0, :]


def _labrd(a, nb, d, e, tauq, taup, x, y):
    """LAPACK ?labrd (m >= n) on the batch-first block ``a`` (B, M, N), N > nb: reduces its
    first nb rows and columns, leaving the rest of ``a`` not updated; returns through d, e,
    tauq, taup (B, nb) and the panels x (B, M, nb), y (B, N, nb) with which the caller updates
    the trailing matrix (A22 -= V Y^T + X U^T). As LAPACK, the reflectors' leading ones are
    left in ``a`` (the caller restores d and e)."""
    for i in range(nb):
        if i:                                      # bring column i up to date
            a[:, i:, i] -= _mv(a[:, i:, :i], y[:, i, :i])
            a[:, i:, i] -= _mv(x[:, i:, :i], a[:, :i, i])
        d[:, i], tauq[:, i] = _larfg(a[:, i, i], a[:, i + 1:, i].T)
        a[:, i, i] = 1
        v = a[:, i:, i]
        tq = tauq[:, i]
        yi = _vm(v, a[:, i:, i + 1:])
        if i:
            yi -= _mv(y[:, i + 1:, :i], _vm(v, a[:, i:, :i]))
            xv = _vm(v, x[:, i:, :i])
            y[:, :i, i] = xv
            yi -= _vm(xv, a[:, :i, i + 1:])
        y[:, i + 1:, i] = yi * tq[:, None]
        # bring row i up to date
        a[:, i, i + 1:] -= _mv(y[:, i + 1:, :i + 1], a[:, i, :i + 1])
        if i:
            a[:, i, i + 1:] -= _vm(x[:, i, :i], a[:, :i, i + 1:])
        e[:, i], taup[:, i] = _larfg(a[:, i, i + 1], a[:, i, i + 2:].T)
        a[:, i, i + 1] = 1
        u = a[:, i, i + 1:]
        xi = _mv(a[:, i + 1:, i + 1:], u)
        yu = _vm(u, y[:, i + 1:, :i + 1])
        x[:, :i + 1, i] = yu
        xi -= _mv(a[:, i + 1:, :i + 1], yu)
        if i:
            au = _mv(a[:, :i, i + 1:], u)
            x[:, :i, i] = au
            xi -= _mv(x[:, i + 1:, :i], au)
        x[:, i + 1:, i] = xi * taup[:, i][:, None]


def _to_batch_last(block, wide):
    """(B, m, n) -> (m, n, B) copy (wide: (n, m, B) conjugate transposes), in cache-friendly tiles."""
    b, m, n = block.shape
    work = numpy.empty((n, m, b) if wide else (m, n, b), block.dtype)
    for j in range(0, b, _TILE):
        src = block[j:j + _TILE]
        if wide:
            numpy.conjugate(src.transpose(2, 1, 0), out=work[:, :, j:j + _TILE])
        else:
            work[:, :, j:j + _TILE] = src.transpose(1, 2, 0)
    return work


def _from_batch_last(work, block, wide):
    """The inverse of :func:`_to_batch_last`, written into ``block``."""
    for j in range(0, block.shape[0], _TILE):
        src = work[:, :, j:j + _TILE]
        if wide:
            numpy.conjugate(src.transpose(2, 1, 0), out=block[j:j + _TILE])
        else:
            block[j:j + _TILE] = src.transpose(2, 0, 1)


def _gebd2_batch_last(a):
    """Upper bidiagonalization of a (m, n, B) batch-last array with m >= n, in place.

    Returns d (n, B), e (n-1, B) real and tauq, taup (n, B); taup[n-1] = 0 (LAPACK).
    """
    m, n, batch = a.shape
    is_complex = numpy.iscomplexobj(a)
    d = numpy.empty((n, batch), a.real.dtype)
    e = numpy.empty((max(n - 1, 0), batch), a.real.dtype)
    tauq = numpy.empty((n, batch), a.dtype)
    taup = numpy.zeros((n, batch), a.dtype)
    v = numpy.empty((m, batch), a.dtype)
    scratch = numpy.empty(m * n * batch, a.dtype)
    for i in range(n):
        # H(i): annihilate A(i+1:m, i); B(i, i) = d(i)
        d[i], tauq[i] = _larfg(a[i, i], a[i + 1:, i])
        if i == n - 1:
            break
        rows, cols = m - i, n - i - 1
        v[0], v[1:rows] = 1, a[i + 1:, i]
        _apply_left(a[i:, i + 1:], v[:rows], numpy.conj(tauq[i]), scratch, is_complex)
        # G(i): annihilate A(i, i+2:n) (LAPACK works on the conjugated row, then conjugates back)
        row = a[i, i + 1:]
        if is_complex:
            numpy.conjugate(row, out=row)
        e[i], taup[i] = _larfg(a[i, i + 1], a[i, i + 2:])
        v[0], v[1:cols] = 1, a[i, i + 2:]
        _apply_right(a[i + 1:, i + 1:], v[:cols], taup[i], scratch, is_complex)
        if is_complex:
            numpy.conjugate(a[i, i + 2:], out=a[i, i + 2:])
    return d, e, tauq, taup


def _apply_left(c, v, tau, scratch, is_complex):
    """C := (I - tau v v^H) C for each matrix; c (r, s, B) view, v (r, B), tau (B,)."""
    vh = numpy.conj(v) if is_complex else v
    w = numpy.einsum("ib,ijb->jb", vh, c)          # v^H C
    w *= tau
    update = numpy.multiply(v[:, None, :], w[None], out=scratch[:c.size].reshape(c.shape))
    c -= update


def _apply_right(c, v, tau, scratch, is_complex):
    """C := C (I - tau v v^H) for each matrix; c (r, s, B) view, v (s, B), tau (B,)."""
    z = numpy.einsum("ijb,jb->ib", c, v)           # C v
    z *= tau
    vh = numpy.conj(v) if is_complex else v
    update = numpy.multiply(z[:, None, :], vh[None], out=scratch[:c.size].reshape(c.shape))
    c -= update


def _larfg(alpha_ref, x):
    """LAPACK ?larfg for a batch: H^H (alpha; x) = (beta; 0), H = I - tau (1; v)(1; v)^H.

    ``alpha_ref`` (B,) and ``x`` (r, B) are views into the matrix: alpha_ref becomes beta and x
    becomes v. Returns (beta real (B,), tau (B,)). tau = 0 (H = I) where x = 0 and alpha is real.
    """
    alpha = alpha_ref.copy()
    alphr, alphi = alpha.real, (alpha.imag if numpy.iscomplexobj(alpha) else numpy.zeros_like(alpha.real))
    with numpy.errstate(over="ignore", under="ignore"):
        xnorm2 = _sumsq(x)
    norm = _norm(alpha, x, xnorm2)
    trivial = (xnorm2 == 0) & (alphi == 0)
    beta = numpy.where(alphr >= 0, -norm, norm)
    beta = numpy.where(trivial, alphr, beta)
    safe_beta = numpy.where(trivial, 1, beta)
    if numpy.iscomplexobj(alpha):
        tau = ((beta - alphr) / safe_beta - 1j * (alphi / safe_beta)).astype(alpha.dtype)
    else:
        tau = (beta - alphr) / safe_beta
    tau[trivial] = 0
    if x.shape[0]:
        x /= numpy.where(trivial, 1, alpha - beta)
    alpha_ref[...] = beta
    return beta, tau


def _sumsq(x):
    """Sum of |x|^2 over the first axis (overflow is caught by the caller)."""
    if x.shape[0] == 0:
        return numpy.zeros(x.shape[1], x.real.dtype)
    if numpy.iscomplexobj(x):
        return numpy.einsum("ib,ib->b", x.real, x.real) + numpy.einsum("ib,ib->b", x.imag, x.imag)
    return numpy.einsum("ib,ib->b", x, x)


def _norm(alpha, x, xnorm2):
    """sqrt(|alpha|^2 + ||x||^2), recomputed with scaling where squaring over- or underflows."""
    with numpy.errstate(over="ignore", under="ignore"):
        norm = numpy.sqrt(abs(alpha) ** 2 + xnorm2)
    info = numpy.finfo(norm.dtype)
    risky = ~(numpy.isfinite(norm) & ((norm > numpy.sqrt(info.tiny) / info.eps) | (norm == 0)))
    if risky.any():
        scale = numpy.maximum(abs(alpha), abs(x).max(axis=0, initial=0))
        scale = numpy.where(scale > 0, scale, 1)
        scaled = numpy.sqrt(abs(alpha / scale) ** 2 + _sumsq(x / scale))
        norm = numpy.where(risky & numpy.isfinite(scale), scale * scaled, norm)
    return norm
