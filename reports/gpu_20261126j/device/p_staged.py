"""Scratch (session 2026-11-26j): trsv_staged compile variants (cp.async copy, wider load
batches) against the default, GPU time by CUDA events, n = 25..32, float64 / float32, lower N,
upper T and the one-vector POTRS, batch 10240 / 100000, 4 and 8 warps a block."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import trsv as gtrsv, _compile  # noqa: E402

VARIANTS = {"default": (), "async": ("-DTRSV_STAGED_ASYNC",),
            "batch16": ("-DTRSV_STAGED_BATCH_OVERRIDE=16",),
            "batch32": ("-DTRSV_STAGED_BATCH_OVERRIDE=32",)}
current = {"options": ()}


def config(device_id, dtype, batch, warps, fresh=False):
    name = gtrsv.name_expr("trsv_staged", _compile.ctype(dtype), _compile.cbool(fresh))
    launcher = _compile.kernel("trsv", name, "qipqqpqqpiiiip", options=current["options"])
    smem = warps * (gtrsv.STAGED_MAX * (gtrsv.STAGED_MAX + 1) // 2) * dtype.itemsize
    return launcher, gtrsv.grid_for(batch, warps), 32 * warps, smem


gtrsv._staged_config = config
print("| dtype | case | n | batch | warps | " + " | ".join(VARIANTS) + " | regs |")
print("|---|---|---|---|---|" + "---|" * (len(VARIANTS) + 1))
for dtype in (numpy.float64, numpy.float32):
    for n in (32, 28, 25):
        for batch in (10240, 100000):
            gen = cupy.random.default_rng(n)
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64) / n
            a[:, numpy.arange(n), numpy.arange(n)] = 2.0
            a = a.astype(dtype)
            x0 = gen.standard_normal((batch, n), dtype=numpy.float64).astype(dtype)
            x = cupy.empty_like(x0)
            for case, lower, trans, potrs in (("LN", True, 0, False), ("UT", False, 1, False),
                                              ("potrs", True, 0, True)):
                for warps in (4, 8):
                    times, regs, ref = [], [], None
                    for name, options in VARIANTS.items():
                        current["options"] = options
                        fn = lambda: gtrsv.launch_staged(a, x, lower, trans, False, potrs, warps)  # noqa
                        times.append(timeit(fn, lambda: cupy.copyto(x, x0), reps=20))
                        cupy.copyto(x, x0)
                        info = fn()
                        got = x.copy()
                        assert not bool(info.any())
                        if ref is None:
                            ref = got
                        else:
                            assert bool((got == ref).all()), (name, case, n)
                        regs.append(str(config(0, a.dtype, batch, warps)[0].function.num_regs))
                    print(f"| {numpy.dtype(dtype).name} | {case} | {n} | {batch} | {warps} | " +
                          " | ".join(f"{t:.4f}" for t in times) + f" | {'/'.join(regs)} |",
                          flush=True)
