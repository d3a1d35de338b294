#!/usr/bin/env python3
"""Does programmatic dependent launch (PDL) shorten back-to-back memory-bound kernels here?
A grid-stride double2 copy of S MB (the kernel waits on griddepcontrol.wait before touching
memory; TRIG says where it calls griddepcontrol.launch_dependents: 0 never, 1 at its start,
2 after its loop), launched 20 times back to back by cuLaunchKernelEx (ctypes) with and without
the programmatic-stream-serialization attribute, and by CuPy's launch. Median of 15 CUDA-event
timings of the 20 launches, us a launch; the legacy stream and a non-blocking stream.
Also checks that the copies' result is right after PDL chains (a chain of dependent adds)."""
import ctypes
import sys

import cupy
import numpy

SRC = r"""
extern "C" __global__ void copy2(const double2* __restrict__ s, double2* __restrict__ d,
                                 long long n, int trig) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (trig == 1) asm volatile("griddepcontrol.launch_dependents;");
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) d[i] = s[i];
    if (trig == 2) asm volatile("griddepcontrol.launch_dependents;");
}
extern "C" __global__ void add1(double* __restrict__ d, long long n, int trig) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (trig == 1) asm volatile("griddepcontrol.launch_dependents;");
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) d[i] += 1.0;
    if (trig == 2) asm volatile("griddepcontrol.launch_dependents;");
}
"""


class Attr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("pad", ctypes.c_uint32), ("val", ctypes.c_byte * 64)]


class Config(ctypes.Structure):
    _fields_ = [("gx", ctypes.c_uint32), ("gy", ctypes.c_uint32), ("gz", ctypes.c_uint32),
                ("bx", ctypes.c_uint32), ("by", ctypes.c_uint32), ("bz", ctypes.c_uint32),
                ("smem", ctypes.c_uint32), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(Attr)), ("nattrs", ctypes.c_uint32)]


cuda = ctypes.CDLL("libcuda.so.1")
cuda.cuLaunchKernelEx.argtypes = [ctypes.POINTER(Config), ctypes.c_void_p,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
attr = Attr()
attr.id = 6                                   # PROGRAMMATIC_STREAM_SERIALIZATION
attr.val[0] = 1


def launcher(fn, grid, block, args, pdl, stream):
    """A zero-argument function launching fn once (ctypes arguments built once)."""
    holders = [ctypes.c_void_p(a.data.ptr) if isinstance(a, cupy.ndarray) else
               (ctypes.c_longlong(a) if isinstance(a, int) and abs(a) > 2**31 - 1 or
                isinstance(a, numpy.int64) else ctypes.c_int(a)) for a in args]
    params = (ctypes.c_void_p * len(holders))(*[ctypes.addressof(h) for h in holders])
    cfg = Config(grid, 1, 1, block, 1, 1, 0, ctypes.c_void_p(stream.ptr),
                 ctypes.pointer(attr) if pdl else None, 1 if pdl else 0)
    ptr = ctypes.c_void_p(fn.kernel.ptr if hasattr(fn, "kernel") else fn.ptr)
    pc = ctypes.byref(cfg)

    def go():
        r = cuda.cuLaunchKernelEx(pc, ptr, params, None)
        if r:
            raise RuntimeError(f"cuLaunchKernelEx {r}")
    go.keep = (holders, params, cfg)
    return go


def timeit(f, stream, reps=15, calls=20):
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(3):
        f()
    out = []
    for _ in range(reps):
        s.record(stream)
        for _ in range(calls):
            f()
        e.record(stream)
        e.synchronize()
        out.append(cupy.cuda.get_elapsed_time(s, e) * 1e3 / calls)
    return float(numpy.median(out))


def main():
    mod = cupy.RawModule(code=SRC, options=("-arch=sm_90",))
    copy2, add1 = mod.get_function("copy2"), mod.get_function("add1")
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    print(cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(), "SMs", sms)
    # correctness of a dependent chain
    for trig in (0, 1, 2):
        d = cupy.zeros(1 << 22)
        st = cupy.cuda.Stream(non_blocking=True)
        with st:
            g = launcher(add1, sms * 4, 256, (d, numpy.int64(d.size), trig), True, st)
            for _ in range(50):
                g()
        st.synchronize()
        print(f"chain trig={trig}: all 50.0: {bool((d == 50).all())}")
    print("\n| MB | stream | trig | cupy launch us | Ex plain us | Ex PDL us | PDL gain us |")
    print("|---|---|---|---|---|---|---|")
    for mb in (8, 32, 64, 108, 256):
        n2 = mb * (1 << 20) // 16
        s = cupy.random.standard_normal(2 * n2)
        d = cupy.empty_like(s)
        for sname, st in (("legacy", cupy.cuda.Stream.null),
                          ("nonblocking", cupy.cuda.Stream(non_blocking=True))):
            for blocks in (sms * 4,):
                for trig in (0, 1, 2):
                    with st:
                        plain = launcher(copy2, blocks, 256, (s, d, numpy.int64(n2), trig),
                                         False, st)
                        pdl = launcher(copy2, blocks, 256, (s, d, numpy.int64(n2), trig),
                                       True, st)
                        cp = lambda: copy2((blocks,), (256,), (s, d, numpy.int64(n2),
                                                                numpy.int32(trig)))
                        t = [timeit(f, st) for f in (cp, plain, pdl, plain, pdl)]
                    tp, tq = min(t[1], t[3]), min(t[2], t[4])
                    print(f"| {mb} | {sname} | {trig} | {t[0]:.2f} | {tp:.2f} | {tq:.2f} | "
                          f"{tp - tq:.2f} |")
                    sys.stdout.flush()


main()
