"""Scratch: one trsv_staged launch (float64, lower N, n = 32, batch 10240; argv[1] = 'async' for
the cp.async copy) for Nsight Compute."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
import cupy  # noqa: E402
from linalg._cuda import trsv as gtrsv, _compile  # noqa: E402

opts = ("-DTRSV_STAGED_ASYNC",) if sys.argv[1:] == ["async"] else ()


def config(device_id, dtype, batch, warps, fresh=False):
    name = gtrsv.name_expr("trsv_staged", _compile.ctype(dtype), _compile.cbool(fresh))
    launcher = _compile.kernel("trsv", name, "qipqqpqqpiiiip", options=opts)
    smem = warps * (gtrsv.STAGED_MAX * (gtrsv.STAGED_MAX + 1) // 2) * dtype.itemsize
    return launcher, gtrsv.grid_for(batch, warps), 32 * warps, smem


gtrsv._staged_config = config
n, batch = 32, 10240
gen = cupy.random.default_rng(0)
a = gen.standard_normal((batch, n, n)) / n
a[:, numpy.arange(n), numpy.arange(n)] = 2.0
x = gen.standard_normal((batch, n))
for _ in range(3):
    gtrsv.launch_staged(a, x, True, 0, False, False, 4)
cupy.cuda.Device().synchronize()
