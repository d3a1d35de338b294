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
"""
import numpy

from .blas import split_batch

__all__ = ["gebrd"]

_CHUNK_BYTES = 4 << 20      # per chunk: a few MiB keeps the trailing matrix in L2/L3
_MIN_CHUNK = 64             # ... but enough matrices that each vector operation is long
_TILE = 32                  # matrices per tile of the layout transposes


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
    wide = m < n
    chunk = max(_MIN_CHUNK, _CHUNK_BYTES // (m * n * a.itemsize))

    def run(lo, hi):
        for s in range(lo, hi, chunk):
            t = min(s + chunk, hi)
            work = _to_batch_last(a[s:t], wide)
            dd, ee, tq, tp = _gebd2_batch_last(work)
            _from_batch_last(work, a[s:t], wide)
            d[s:t], e[s:t] = dd.T, ee.T
            tauq[s:t], taup[s:t] = (tp.T, tq.T) if wide else (tq.T, tp.T)

    split_batch(run, batch, m * n * k)
    return a, d, e, tauq, taup


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
