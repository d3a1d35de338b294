"""Launch parameters of TRSV / one-vector POTRS paths with a stand-in CuPy (NumPy), pointers
canonicalised by first appearance: run on two trees, compare the printed lines."""
import sys, types, numpy
sys.path.insert(0, sys.argv[1])
fake = types.ModuleType("cupy")
for name in ("matmul", "empty", "zeros", "ascontiguousarray", "asarray", "broadcast_to", "ndarray", "full"):
    setattr(fake, name, getattr(numpy, name))
class S: ptr = 0
fake.cuda = types.SimpleNamespace(get_current_stream=lambda: S,
                                  runtime=types.SimpleNamespace(getDevice=lambda: 0))
class Mem:
    def __init__(s, p): s.ptr = p
class A(numpy.ndarray):
    @property
    def data(self): return Mem(self.__array_interface__["data"][0])
def wrap(f):
    return lambda *a, **k: f(*a, **k).view(A)
for name in ("empty", "zeros", "ascontiguousarray", "full"):
    setattr(fake, name, wrap(getattr(numpy, name)))
fake.ndarray = lambda shape, dtype: numpy.ndarray(shape, dtype).view(A)
sys.modules["cupy"] = fake
import linalg
print("tree", linalg.__file__, file=sys.stderr)
from linalg import _tuning
from linalg._cuda import _compile, blas, triangular as tri, trsv as T, cholesky as C
_tuning.gpu_name = lambda *a: "NVIDIA H100 80GB HBM3"
blas.sm_count = lambda: 132
blas.data_ptr = lambda arr: arr.__array_interface__["data"][0]
log = []
class Fn:
    class kernel: ptr = 1
    max_dynamic_shared_size_bytes = 0
def make(family, expr, sig, dtype=None, options=()):
    L = _compile.Launcher(Fn(), sig, A, None, lambda: S)
    def launch(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra):
        import ctypes
        cmap = {"p": ctypes.c_uint64, "i": ctypes.c_int32, "q": ctypes.c_int64}
        table = (ctypes.c_void_p * len(sig)).from_address(params)
        vals = [cmap[c].from_address(table[i]).value for i, c in enumerate(sig)]
        log.append((expr, (gx, gy, gz, bx, by, bz, smem), sig, vals, options))
    L.launch_kernel = launch
    return L
T.kernel = make
C.kernel = make
_compile.current_device = lambda: 0
tri.current_device = lambda: 0
rng = numpy.random.default_rng(0)
def arr(shape, dt):
    return numpy.ascontiguousarray(rng.standard_normal(shape).astype(dt)).view(A)
for dt in (numpy.float32, numpy.float64):
    for batch, n in ((1, 100), (3, 512), (300, 64), (600, 64), (2000, 64), (5, 30), (7, 20)):
        a = arr((batch, n, n), dt)
        for lower, trans in ((True, "N"), (False, "T")):
            for keep in ((), ("x",)):
                x = arr((batch, n), dt)
                T.trsv(a, x, lower=lower, trans=trans, keep=keep)
        for lower in (True, False):
            for keep in ((), ("b",)):
                b = arr((batch, n, 1), dt)
                C.potrs_vector(a, b, lower, keep)
        # strided a (non-unit column stride): the column copy
        at = numpy.asarray(arr((batch, n, n), dt)).transpose(0, 2, 1).view(A)
        T.trsv(at, arr((batch, n), dt), lower=True, trans="N")
        C.potrs_vector(at, arr((batch, n, 1), dt), True)
seen = {}
for expr, launch, sig, vals, opts in log:
    canon = []
    for c, v in zip(sig, vals):
        if c == "p":
            canon.append("P%d" % seen.setdefault(v, len(seen)))
        else:
            canon.append(v)
    print(expr, launch, opts, canon)
print(len(log), "launches", file=sys.stderr)
