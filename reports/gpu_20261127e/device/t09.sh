#!/bin/bash
# Call 9 (H100): gebrd_blocked in chunks of the batch (workspace bound): the GEBRD GPU tests
# (chunk tests added, the H100 table's panel widths as defaults), memcheck of forced runs, and
# default calls at batch 10240 chunked (default) against one chunk.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
pack
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py sanitize > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack
timeout 150 python3 - > $R/chunks.txt 2>&1 <<'PY'
import sys, numpy, cupy
sys.path.insert(0, "scripts")
from bench_blas import timeit
from linalg._cuda import bidiag
for dtype in (numpy.float64, numpy.float32):
    n, batch = 256, 10240
    a0 = cupy.random.standard_normal((batch, n, n)).astype(dtype)
    a = a0.copy()
    cfg = bidiag.plan(n, n, dtype)
    for name, params in (("default (chunks)", None), ("one chunk", {**cfg, "chunk": batch})):
        def run():
            a[...] = a0
            bidiag.gebrd(a, _params=params)
        ms = timeit(run, 3, 1, 1) - timeit(lambda: a.__setitem__(Ellipsis, a0), 3, 1, 1)
        print(f"{numpy.dtype(dtype).name} n={n} batch={batch} {name:18s} plan {cfg} "
              f"{ms:9.3f} ms {ms / batch * 1e3:7.2f} us/matrix", flush=True)
    del a, a0
    cupy.get_default_memory_pool().free_all_blocks()
PY
pack
tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head; tail -n 2 $R/memcheck.txt; cat $R/chunks.txt
