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


def poison_triangle(a, lower, unit=False):
    """A copy of the (batch, n, n) batch ``a`` with NaN where a triangular kernel must not read:
    the strict triangle opposite to the referenced one and, with ``unit``, the diagonal."""
    a = a.copy()
    n = a.shape[1]
    iu = numpy.triu_indices(n, 1) if lower else numpy.tril_indices(n, -1)
    a[:, iu[0], iu[1]] = numpy.nan
    if unit:
        a[:, numpy.arange(n), numpy.arange(n)] = numpy.nan
    return a


def bidiagonal_singular_values(d, e):
    """Singular values (batch, k) of the upper bidiagonal matrices with diagonals ``d``
    (batch, k) and superdiagonals ``e`` (batch, k - 1), float64."""
    batch, k = d.shape
    b = numpy.zeros((batch, k, k))
    idx = numpy.arange(k)
    b[:, idx, idx] = d
    if k > 1:
        b[:, idx[:-1], idx[:-1] + 1] = e
    return numpy.linalg.svd(b, compute_uv=False)


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


def lapack_gebrd(a):
    """LAPACK ?gebrd on one 2-D matrix through SciPy's cython_lapack (SciPy has no Python wrapper).

    Returns (a, d, e, tauq, taup) with ``a`` in the caller's row-major orientation. Test-only:
    it reaches the Fortran routine through ctypes, so SciPy is needed (a test dependency).
    """
    import ctypes
    from scipy.linalg import cython_lapack

    a = numpy.asarray(a)
    prefix = {"float32": "s", "float64": "d", "complex64": "c", "complex128": "z"}[a.dtype.name]
    routine = _lapack_function(cython_lapack, prefix + "gebrd")
    m, n = a.shape
    k = min(m, n)
    real = numpy.empty(0, a.dtype).real.dtype
    af = numpy.asfortranarray(a.copy())
    d, e = numpy.zeros(max(k, 1), real), numpy.zeros(max(k, 1), real)
    tauq, taup = numpy.zeros(max(k, 1), a.dtype), numpy.zeros(max(k, 1), a.dtype)
    lwork = max(1, (m + n) * 64)
    work = numpy.zeros(lwork, a.dtype)
    ints = [ctypes.c_int(v) for v in (m, n, max(1, m), lwork, 0)]
    routine(ctypes.byref(ints[0]), ctypes.byref(ints[1]), af.ctypes.data, ctypes.byref(ints[2]),
            d.ctypes.data, e.ctypes.data, tauq.ctypes.data, taup.ctypes.data, work.ctypes.data,
            ctypes.byref(ints[3]), ctypes.byref(ints[4]))
    assert ints[4].value == 0, f"{prefix}gebrd info={ints[4].value}"
    return numpy.ascontiguousarray(af), d[:k], e[:max(k - 1, 0)], tauq[:k], taup[:k]


def _lapack_function(module, name):
    import ctypes
    capsule = module.__pyx_capi__[name]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    pointer = get_pointer(capsule, get_name(capsule))
    return ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 11))(pointer)


# ---- triangular / Cholesky helpers (tests/linalg/test_triangular.py, test_decomp_cholesky.py) ----

# (n, batch) pairs that sampled parametrizations cycle through: every awkward size, batch 1000
# only at small n, plus the empty cases.
SIZE_BATCH_CYCLE = ((1, 1000), (2, 3), (3, 1000), (7, 3), (15, 1), (16, 3), (17, 3), (31, 1),
                    (33, 3), (100, 1), (7, 1000), (17, 0), (0, 3))


def cycle_sizes(params):
    """Attach an (n, batch) pair from SIZE_BATCH_CYCLE to each parameter tuple, in turn."""
    return [tuple(p) + SIZE_BATCH_CYCLE[i % len(SIZE_BATCH_CYCLE)] for i, p in enumerate(params)]


def triangle_of(a, lower, unit_diagonal=False):
    """The referenced triangle of each matrix (other triangle zero, unit diagonal set if asked)."""
    t = numpy.tril(a) if lower else numpy.triu(a)
    if unit_diagonal and a.shape[-1]:
        idx = numpy.arange(a.shape[-1])
        t[..., idx, idx] = 1
    return t


def op_of(a, trans):
    """op(A) for trans 'N', 'T' or 'C'."""
    return a if trans == "N" else (numpy.swapaxes(a, -1, -2) if trans == "T" else ct(a))


def with_garbage(a, lower, value=numpy.nan):
    """A copy with the unreferenced triangle overwritten (NaN by default): it must never be read."""
    a = a.copy()
    n = a.shape[-1]
    mask = numpy.triu(numpy.ones((n, n), bool), 1) if lower else numpy.tril(numpy.ones((n, n), bool), -1)
    a[..., mask] = value
    return a


def solve_residual(a, x, b, dtype):
    """LAPACK's solve residual: max ||A X - B|| / (n ||A|| ||X|| eps) over the batch (A square)."""
    n = a.shape[-1]
    return scaled_residual(a @ x - b, fro(a) * fro(x), n, dtype)


def inverse_residual(a, ainv, dtype):
    """LAPACK's inverse residual: max ||I - A A^-1|| / (n ||A|| ||A^-1|| eps) over the batch."""
    n = a.shape[-1]
    return scaled_residual(numpy.eye(n) - a @ ainv, fro(a) * fro(ainv), n, dtype)


def build_host_program(tmp_path_factory, name, source):
    """Compile ``source`` (C++ that #includes a kernels/*.cu file to run its device functions on
    the CPU) with nvcc; returns the executable's path, or skips the test where nvcc is absent."""
    import shutil
    import subprocess
    from .test_kernels_compile import KERNELS
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        import pytest
        pytest.skip(f"nvcc not found (host build for {name})")
    folder = tmp_path_factory.mktemp(name)
    (folder / "main.cu").write_text(source)
    subprocess.run([nvcc, "-std=c++17", f"-I{KERNELS}", "-o", str(folder / "main"),
                    str(folder / "main.cu")], check=True, capture_output=True)
    return folder / "main"


def one_launch_serves(n):
    """Whether the one-launch paths (chol_small, chol_block) serve size ``n`` at all."""
    from linalg._cuda.triangular import CHOL_BLOCK_MAX, LEAF
    return LEAF < n <= CHOL_BLOCK_MAX


def tensor_serves(n):
    """Whether kernels/potrf.cu chol_tensor can serve size ``n`` (forced, every dtype)."""
    from linalg._cuda.cholesky import TRIANGLE_MAX
    from linalg._cuda.triangular import LEAF
    return LEAF < n <= TRIANGLE_MAX


def global_serves(n):
    """Whether kernels/potrf.cu chol_global can serve size ``n`` (forced, every dtype)."""
    from linalg._cuda.cholesky import GLOBAL_MAX
    from linalg._cuda.triangular import LEAF
    return LEAF < n <= GLOBAL_MAX


def above_leaf(n):
    """Whether size ``n`` is above the leaf kernels' (the paths of larger matrices and their
    recursions' blocks serve it)."""
    from linalg._cuda.triangular import LEAF
    return n > LEAF


def cols_serves(n):
    """Whether kernels/tri_cols.cu can serve size ``n`` (forced, from LEAF + 1 for every op)."""
    from linalg._cuda.triangular import COLS_MAX, LEAF
    return LEAF < n <= COLS_MAX


def force_small_batch_paths(monkeypatch, tri, vendor, one_launch, cols=False):
    """Route the GPU triangular/Cholesky launchers (``tri`` = linalg._cuda.triangular) to the
    small-batch vendor path, the one-launch paths (33 <= n <= 128: chol_small, chol_block,
    and tri_pair for TRSM / POTRS up to 64) and/or kernels/tri_cols.cu (TRSM, TRTRI, POTRS with
    several right-hand sides, 33 <= n <= 512) whatever the batch, or none of them (then the
    large-batch paths run on the tests' few matrices). Tests parametrized by ``n`` with sizes
    the one-launch paths or tri_cols do not serve are deselected for them
    (tests/linalg/conftest.py)."""
    below = 10**12 if vendor else 0
    monkeypatch.setattr(tri, "vendor_below", lambda op, dtype, n: below)
    one = 10**12 if one_launch else 0
    monkeypatch.setattr(tri, "one_launch_below", lambda op, dtype: one)
    monkeypatch.setattr(tri, "block_launch_below", lambda op, dtype: one)
    monkeypatch.setattr(tri, "pair_launch_below", lambda op, dtype: one)
    monkeypatch.setattr(tri, "cols_below", lambda op, dtype, n: 10**12 if cols else 0)
