"""Scratch: host cost of the primitives a small public call is made of, on the device host
(us a call, best of 3 loops of 4000), so the public TRSV call at batch 1 can be split."""
import time, sys, struct
sys.path.insert(0, ".")
import numpy, cupy, torch
import linalg
from linalg import _batch, _validate, _dispatch
from linalg._cuda import trsv as TV, _compile, triangular as TR, blas as B

def us(fn, n=4000):
    best = 1e9
    for _ in range(3):
        for _ in range(100): fn()
        cupy.cuda.Device().synchronize()
        t = time.perf_counter()
        for _ in range(n): fn()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
        cupy.cuda.Device().synchronize()
    return best

n = 128
g = cupy.random.default_rng(n)
a = cupy.tril(g.standard_normal((1, n, n)) / n); a[:, cupy.arange(n), cupy.arange(n)] = 2
x = g.standard_normal((1, n))
ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")[..., None]
check = lambda shapes: None
ops = [_batch.Operand("a", a), _batch.Operand("x", x, core_ndim=1, overwrite=True)]
key = [ _batch._pure_function_key(check), _batch._pure_function_key(_validate.compute_dtype), ("trsv", "trsv")]
for op in ops:
    v = op.value
    key.append((op.name, type(v), v.shape, v.strides, v.dtype, op.overwrite, op.core_ndim))
key = tuple(key)
cfg = TV._block_config(_compile.current_device(), a.dtype, 1, n, 4, False, 2, None)
launcher, grid, block, smem = cfg
info = cupy.empty(1, numpy.int32)
args = (1, n, a, n, n * n, x, 1, n, info, 1, 0, 0, 0, x)
from cupy_backends.cuda.api import driver
stream = cupy.cuda.get_current_stream()
def raw_launch():
    driver.launchKernel(launcher.function_ptr, 1, 1, 1, 128, 1, 1, smem, stream.ptr, launcher.address, 0)
def lambdas():
    f = lambda s: s
    g = lambda s: s
    return f, g
cases = {
  "noop call": lambda: None,
  "a.shape": lambda: a.shape, "a.strides": lambda: a.strides, "a.dtype": lambda: a.dtype,
  "a.data.ptr": lambda: a.data.ptr, "a.nbytes": lambda: a.nbytes, "a.itemsize": lambda: a.itemsize,
  "a.flags.c_contiguous": lambda: a.flags.c_contiguous, "type(a)": lambda: type(a),
  "isinstance(a, cupy.ndarray)": lambda: isinstance(a, cupy.ndarray),
  "cupy.empty(1, int32)": lambda: cupy.empty(1, dtype=numpy.int32),
  "cupy.ndarray((1,), int32)": lambda: cupy.ndarray((1,), numpy.int32),
  "get_current_stream()": lambda: cupy.cuda.get_current_stream(),
  "get_current_stream().ptr": lambda: cupy.cuda.get_current_stream().ptr,
  "runtime.getDevice()": lambda: cupy.cuda.runtime.getDevice(),
  "hash(plan key)": lambda: hash(key),
  "_PLANS.get(key)": lambda: _batch._PLANS.get(key),
  "_pure_function_key(lambda)": lambda: _batch._pure_function_key(check),
  "hash(code)": lambda: hash(check.__code__),
  "two lambdas made": lambdas,
  "Operand x2": lambda: (_batch.Operand("a", a), _batch.Operand("x", x, core_ndim=1, overwrite=True)),
  "_overlap": lambda: _batch._overlap(a, x, cupy),
  "trans_word+check_bool x2": lambda: (_validate.trans_word("N"), _validate.check_bool(True, "lower"), _validate.check_bool(False, "u")),
  "dispatch.backend": lambda: _dispatch.backend(cupy, "trsv"),
  "current_device()": lambda: _compile.current_device(),
  "dtype_name": lambda: _compile.dtype_name(a.dtype),
  "small_batch": lambda: TR.small_batch("trsv", a),
  "block_serves": lambda: TV.block_serves(a),
  "row_vector": lambda: TV.row_vector(a, 2),
  "_block_config (cached)": lambda: TV._block_config(_compile.current_device(), a.dtype, 1, n, 4, False, 2, None),
  "result_array": lambda: TR.result_array(x, "x", ()),
  "raw launchKernel": raw_launch,
  "launcher(...)": lambda: launcher(grid, block, args, smem),
  "TV._launch": lambda: TV._launch(cfg, a, x, x, True, 0, False, False),
  "launch_block": lambda: TV.launch_block(a, x, True, 0, False),
  "backend trsv.trsv": lambda: TV.trsv(a, x),
  "run_batched (public minus finish)": lambda: _batch.run_batched(
      [_batch.Operand("a", a), _batch.Operand("x", x, core_ndim=1, overwrite=True)], check,
      lambda xp, a, x: ((x,), None), _validate.compute_dtype, None, ("trsv", "trsv")),
  "public trsv (in place, info)": lambda: linalg.trsv(a, x, overwrite_x=True, return_info=True),
  "torch.solve_triangular": lambda: torch.linalg.solve_triangular(ta, tb, upper=False),
}
for k, fn in cases.items():
    print(f"  {k:36s} {us(fn):7.2f} us", flush=True)
