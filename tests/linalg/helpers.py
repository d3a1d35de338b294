"""Random inputs with controlled spectra and LAPACK's scaled residuals, shared by linalg tests.

Residuals follow LAPACK's testing: a result passes when the scaled residual is < THRESHOLD (30).
"""
import numpy

THRESHOLD = 30.0
SIZES = (1, 2, 3, 7, 15, 16, 17, 31, 33, 100)        # awkward sizes (255-257 in the slow set)
SLOW_SIZES = (255, 256, 257)
BATCHES = (0, 1, 3, 1000)
DTYPES = (numpy.float32, numpy.float64, numpy.complex64, numpy.complex128)


def eps(dtype):
    return numpy.finfo(numpy.dtype(dtype)).eps


def rng(seed=12345):
    return numpy.random.default_rng(seed)


def random_matrix(gen, shape, dtype):
    """Standard normal entries (complex: real and imaginary parts)."""
    out = gen.standard_normal(shape)
    if numpy.iscomplexobj(numpy.empty(0, dtype)):
        out = out + 1j * gen.standard_normal(shape)
    return out.astype(dtype)


def random_spd(gen, batch, n, dtype, cond=10.0):
    """Hermitian positive definite (batch, n, n) with eigenvalues in [1, cond]."""
    q, _ = numpy.linalg.qr(random_matrix(gen, (batch, n, n), numpy.complex128
                                         if numpy.iscomplexobj(numpy.empty(0, dtype)) else numpy.float64))
    lam = numpy.exp(gen.uniform(0, numpy.log(cond), (batch, n)))
    a = (q * lam[:, None, :]) @ numpy.conj(numpy.swapaxes(q, 1, 2))
    a = 0.5 * (a + numpy.conj(numpy.swapaxes(a, 1, 2)))
    return a.astype(dtype)


def random_triangular(gen, batch, n, dtype, lower=True, unit_diagonal=False):
    """Well-conditioned triangular (batch, n, n): small off-diagonal, diagonal of modulus in [1, 2]."""
    a = random_matrix(gen, (batch, n, n), dtype) / max(n, 1) ** 0.5 * 0.5
    a = numpy.tril(a) if lower else numpy.triu(a)
    d = (1 + gen.uniform(0, 1, (batch, n))) * numpy.where(gen.uniform(size=(batch, n)) < 0.5, -1, 1)
    idx = numpy.arange(n)
    a[:, idx, idx] = 1 if unit_diagonal else d
    return a


def fro(x):
    """Frobenius norm of each matrix (or 2-norm of each vector) of a batch, float64."""
    x = numpy.asarray(x)
    axes = tuple(range(1, x.ndim))
    return numpy.sqrt(numpy.sum(numpy.abs(x.astype(numpy.complex128)) ** 2, axis=axes))


def ct(x):
    """Conjugate transpose of each matrix."""
    return numpy.conj(numpy.swapaxes(x, -1, -2))


def scaled_residual(residual, scale, n, dtype):
    """max over the batch of ||residual|| / (n * scale * eps), scale a per-matrix array or number."""
    r = fro(residual) / (max(n, 1) * numpy.maximum(scale, numpy.finfo(float).tiny) * eps(dtype))
    return float(r.max(initial=0.0))


def to_numpy(x):
    get = getattr(x, "get", None)
    return get() if callable(get) else numpy.asarray(x)
