"""Latency of the operations in chol_tensor's diagonal chain (device): one warp runs a chain of
dependent operations and reads the clock before and after; cycles an operation.

python3 scripts/probe_chain_latency.py [--iterations 4096] [--output FILE]

The diagonal factor's step (kernels/potrf.cu chol_potrf_phase, ~190 cycles on the H100 even with
its row updates cut away, reports/gpu_20261127h call 4) is a chain: the pivot's shared-memory
load after a barrier, its reciprocal square root, two products, the next pivot's multiply-add and
its store. Each row below times one link of that kind in a loop of ``--iterations`` dependent
steps (the loop's own cost is the "multiply-add" row's). The reciprocal-square-root variants
are also checked against NumPy's 1 / sqrt(x) in float64 (largest error in units of the last
place over 2^20 values in [2^-40, 2^40]).
"""
import argparse
import sys
from pathlib import Path

import numpy

SOURCE = r"""
__device__ __forceinline__ double rsqrt_mufu(double x) {    // the hardware approximation only
    double y;
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    return y;
}
__device__ __forceinline__ double newton(double x, double y) {   // one step of y -> x^-1/2
    const double h = 0.5 * x * y;
    return fma(y, fma(-h, y, 0.5), y);
}
__device__ __forceinline__ double rsqrt_float_newton2(double x) {
    return newton(x, newton(x, (double)rsqrtf((float)x)));
}
__device__ __forceinline__ double rsqrt_mufu_newton1(double x) {
    return newton(x, rsqrt_mufu(x));
}
__device__ __forceinline__ double rsqrt_mufu_newton2(double x) {
    return newton(x, newton(x, rsqrt_mufu(x)));
}

template <int V>
__device__ __forceinline__ double link(double x, double* s, int lane) {
    if (V == 0) return fma(x, 0.999, 0.001);
    if (V == 1) return rsqrt(x);
    if (V == 2) return 1.0 / x;
    if (V == 3) return sqrt(x);
    if (V == 4) return rsqrt_mufu(x);
    if (V == 5) return rsqrt_mufu_newton1(x);
    if (V == 6) return rsqrt_mufu_newton2(x);
    if (V == 7) return rsqrt_float_newton2(x);
    if (V == 8) {                                  // store, barrier, another lane's load
        s[lane] = x;
        __syncwarp();
        return s[(lane + 1) & 31];
    }
    if (V == 9) return __shfl_sync(0xffffffffu, x, (lane + 1) & 31);
    if (V == 10) {                                 // chol_potrf_phase's step, no row updates
        s[lane] = x;
        __syncwarp();
        const double d = s[(lane + 1) & 31];
        const double ri = rsqrt(d);
        const double c = (x * ri) * ri;
        return fma(-c, 0.5, d);
    }
    return x;
}

template <int V>
__global__ void chain(const double* in, double* out, long long* cycles, int iterations) {
    __shared__ double s[32];
    const int lane = threadIdx.x;
    double x = in[lane];
    __syncwarp();
    const long long t0 = clock64();
    for (int i = 0; i < iterations; ++i) x = link<V>(x, s, lane);
    const long long t1 = clock64();
    out[lane] = x;
    if (lane == 0) cycles[blockIdx.x] = t1 - t0;
}

template <int V>
__global__ void apply(const double* in, double* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = link<V>(in[i], nullptr, 0);
}
"""

NAMES = {0: "multiply-add (the loop's floor)", 1: "rsqrt (CUDA)", 2: "1.0 / x", 3: "sqrt",
         4: "rsqrt.approx.ftz.f64 alone", 5: "rsqrt.approx + 1 Newton step",
         6: "rsqrt.approx + 2 Newton steps", 7: "rsqrtf (float) + 2 Newton steps",
         8: "shared store, __syncwarp, load", 9: "__shfl_sync (double)",
         10: "store, __syncwarp, load, rsqrt, 2 products, multiply-add"}
RSQRT_VARIANTS = (1, 4, 5, 6, 7)


def ulp_error(got, want):
    """Largest |got - want| in units of want's last place."""
    spacing = numpy.spacing(numpy.abs(want))
    return float(numpy.max(numpy.abs(got - want) / spacing))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=4096)
    parser.add_argument("--output")
    args = parser.parse_args(argv)
    import cupy
    names = [f"chain<{v}>" for v in NAMES] + [f"apply<{v}>" for v in RSQRT_VARIANTS]
    module = cupy.RawModule(code=SOURCE, options=("--std=c++17",), name_expressions=names)
    gen = numpy.random.default_rng(1)
    start = cupy.asarray(gen.uniform(0.5, 2.0, 32))
    out = cupy.empty(32)
    cycles = cupy.zeros(1, numpy.int64)
    lines = [f"# chain latency ({cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}, "
             f"{args.iterations} dependent steps, one warp)", "",
             "| link | cycles a step | max error (ulp) |", "|---|---|---|"]
    x = numpy.exp(gen.uniform(numpy.log(2.0**-40), numpy.log(2.0**40), 1 << 20))
    want = 1.0 / numpy.sqrt(x)
    xd, yd = cupy.asarray(x), cupy.empty(x.size)
    for v, name in NAMES.items():
        kernel = module.get_function(f"chain<{v}>")
        best = None
        for _ in range(5):
            kernel((1,), (32,), (start, out, cycles, numpy.int32(args.iterations)))
            got = int(cycles.get()[0]) / args.iterations
            best = got if best is None else min(best, got)
        error = "-"
        if v in RSQRT_VARIANTS:
            module.get_function(f"apply<{v}>")(((x.size + 255) // 256,), (256,),
                                               (xd, yd, numpy.int32(x.size)))
            error = f"{ulp_error(cupy.asnumpy(yd), want):.3g}"
        lines.append(f"| {name} | {best:.1f} | {error} |")
        print(lines[-1], flush=True)
    if args.output:
        Path(args.output).write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
