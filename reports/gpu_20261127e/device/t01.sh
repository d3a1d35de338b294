#!/bin/bash
# Call 1: the TRSM GPU tests with float32 RECURSION_PAIR_BLOCKS as the default (last session's
# t08, never run), and GEBRD's current times at n = 128 / 256 / 512 (before a blocked path).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_triangular.py -k trsm > $R/tests_trsm.txt 2>&1; echo "rc $?" >> $R/tests_trsm.txt
pack
timeout 300 python3 - > $R/gebrd_now.txt 2>&1 <<'PY'
import time, numpy, cupy
from linalg._cuda import bidiag
for dtype in (numpy.float64, numpy.float32):
    for n, batch in ((128, 2048), (192, 1024), (256, 1024), (384, 256), (512, 256)):
        a0 = cupy.random.standard_normal((batch, n, n)).astype(dtype)
        a = a0.copy()
        cfg = bidiag.plan(n, n, dtype)
        bidiag.gebrd(a); cupy.cuda.runtime.deviceSynchronize()
        ts = []
        for _ in range(3):
            a[...] = a0
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record(); bidiag.gebrd(a); e.record(); e.synchronize()
            ts.append(cupy.cuda.get_elapsed_time(s, e))
        ms = float(numpy.median(ts))
        byt = a0.nbytes
        print(f"{numpy.dtype(dtype).name} n={n} batch={batch} {cfg['kernel']} {ms:.3f} ms "
              f"({ms / batch * 1e3:.2f} us/matrix, {8 / 3 * n**3 * batch / ms / 1e6:.0f} GFLOP/s)", flush=True)
        del a, a0
PY
pack
tail -n 3 $R/tests_trsm.txt; grep "^FAILED" $R/tests_trsm.txt | head; cat $R/gebrd_now.txt
