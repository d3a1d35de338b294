"""Host time per call of small public calls on the GPU machine, against the backend, a bare kernel
launch, cupy.empty and the vendor calls (us a call, no synchronization inside the loop), then
cProfile of four public calls.  python3 scripts/profile_host.py"""
import cProfile, pstats, io, time, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import numpy, cupy
import linalg
from linalg._cuda import cholesky as C, triangular as T, blas as B, trsv as TV, syrk as S
from linalg._cuda._compile import current_device

def host_us(fn, n=3000):
    for _ in range(200): fn()
    cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(n): fn()
    h = (time.perf_counter() - t) / n * 1e6
    cupy.cuda.Device().synchronize()
    return h

rng = numpy.random.default_rng(0)
def spd(batch, n, dt=numpy.float64):
    m = rng.standard_normal((batch, n, n))
    return cupy.asarray(m @ m.transpose(0, 2, 1) + n * numpy.eye(n), dtype=dt)

a = spd(10240, 4); L = cupy.linalg.cholesky(a); b = cupy.asarray(rng.standard_normal((10240, 4, 4)))
v = cupy.asarray(rng.standard_normal((10240, 4)))
ga = cupy.asarray(rng.standard_normal((40960, 18, 4))); gx = cupy.asarray(rng.standard_normal((40960, 4))); gy = cupy.zeros((40960, 18))
ma = cupy.asarray(rng.standard_normal((10240, 8, 8))); mc = cupy.zeros((10240, 8, 8))
s32 = spd(1, 32); l8 = cupy.linalg.cholesky(spd(1, 8))
b8 = cupy.asarray(rng.standard_normal((1, 8, 8)))
l512 = cupy.linalg.cholesky(spd(1, 512)); b512 = cupy.asarray(rng.standard_normal((1, 512, 512)))
w512 = l512.copy()
import torch
ta = torch.as_tensor(a, device="cuda")
tl, tv = torch.as_tensor(L, device="cuda"), torch.as_tensor(v, device="cuda")[..., None]
tl512 = torch.as_tensor(l512, device="cuda")
cases = {
 "noop": lambda: None,
 "cupy.empty": lambda: cupy.empty(10240, dtype=numpy.int32),
 "getDevice": lambda: cupy.cuda.runtime.getDevice(),
 "torch.cholesky_ex": lambda: torch.linalg.cholesky_ex(ta),
 "backend potrf": lambda: C.potrf(a, True),
 "public potrf": lambda: linalg.potrf(a, overwrite_a=True, return_info=True),
 "public potrf default": lambda: linalg.potrf(a, return_info=True),
 "backend trsm": lambda: T.trsm(L, b, "left", True, "N", False, 1.0),
 "public trsm": lambda: linalg.trsm(L, b, overwrite_b=True, return_info=True),
 "public potrs vec": lambda: linalg.potrs(L, v, overwrite_b=True, return_info=True),
 "public trsm default": lambda: linalg.trsm(L, b, return_info=True),
 "public potrs vec dflt": lambda: linalg.potrs(L, v, return_info=True),
 "public trsv default": lambda: linalg.trsv(L, v, return_info=True),
 "public gemv 18x4": lambda: linalg.gemv(ga, gx, gy, overwrite_y=True, beta=0),
 "public gemm 8": lambda: linalg.gemm(ma, ma, mc, overwrite_c=True),
 "cupy.matmul 8": lambda: cupy.matmul(ma, ma),
 "a.copy()": lambda: a.copy(),
 "empty_like+memcpy": lambda: _memcpy_copy(a),
 "public trsv": lambda: linalg.trsv(L, v, overwrite_x=True, return_info=True),
 "backend trsv": lambda: TV.trsv(L, v),
 "torch solve_triangular v": lambda: torch.linalg.solve_triangular(tl, tv, upper=False),
 "public syrk 8": lambda: linalg.syrk(ma, mc, overwrite_c=True),
 "public gemv 18x4 dflt": lambda: linalg.gemv(ga, gx),
 "public syrk 32 batch 1": lambda: linalg.syrk(s32),
 "backend syrk 32 batch 1": lambda: S.syrk(s32, None, True, "N", 1.0, 0.0),
 "public trmm 8 batch 1": lambda: linalg.trmm(l8, b8, overwrite_b=True),
 "backend trmm 8 batch 1": lambda: T.trmm(l8, b8, "left", True, "N", False, 1.0),
 "public trmm 512 batch 1": lambda: linalg.trmm(l512, b512, overwrite_b=True),
 "backend trmm 512 batch 1": lambda: T.trmm(l512, b512, "left", True, "N", False, 1.0),
 "tile_trmm 512 batch 1": lambda: T.tile_trmm(l512, b512, False, True, False, False),
 "cupy.matmul 512 batch 1": lambda: cupy.matmul(l512, b512),
 "public lauum 512 batch 1": lambda: linalg.lauum(w512, overwrite_a=True),
 "backend lauum 512 batch 1": lambda: T.lauum(w512, True),
 "torch.matmul LtL 512 b1": lambda: torch.matmul(tl512.mT, tl512),
}
def _memcpy_copy(x):
    out = cupy.empty_like(x)
    out.data.copy_from_device_async(x.data, x.nbytes)
    return out
for name, fn in cases.items():
    print(f"{name:24s} {host_us(fn):7.1f} us/call", flush=True)
launcher, grid, threads, smem = T._chol_config(current_device(), a.dtype, 4, 10240)
info = cupy.empty(10240, dtype=numpy.int32)
print(f"{'bare launcher':24s} {host_us(lambda: launcher(grid, threads, (a, 4, 16, 4, 10240, T.CHOL_POTRF, 1, 0, info, a), smem)):7.1f} us/call")
for name in ["public potrf", "public trsm", "public potrs vec", "public trmm 8 batch 1",
             "public trmm 512 batch 1", "public lauum 512 batch 1"]:
    pr = cProfile.Profile(); fn = cases[name]
    pr.enable()
    for _ in range(2000): fn()
    pr.disable(); cupy.cuda.Device().synchronize()
    s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18)
    print("=====", name); print(s.getvalue()[:6000])
