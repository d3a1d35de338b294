#!/bin/bash
# Call 4: kernels/potrf.cu chol_tensor_trsm (TRSM on the left on chol_tensor_solve's storage):
# its GPU tests (the tensor_trsm path parameters of test_gpu_triangular.py and
# test_gpu_cholesky.py), memcheck on a small run, the probe against the paths before.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
cat > /tmp/small.py <<'PY'
import sys, itertools
sys.path.insert(0, ".")
import cupy, numpy
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
from linalg._cuda import cholesky as chol
g = numpy.random.default_rng(0)
for dt, n in itertools.product((numpy.float32, numpy.float64), (40, 100, 128)):
    for lower, trans, unit in itertools.product((True, False), (False, True), (False, True)):
        t = numpy.eye(n) * 2 + g.standard_normal((3, n, n)) / n
        b = cupy.asarray(g.standard_normal((3, n, 70)).astype(dt))
        chol.tensor_trsm(cupy.asarray(t.astype(dt)), b, lower, trans, unit, 1.5, out=cupy.empty_like(b))
cupy.cuda.Device().synchronize()
print("small done")
PY
timeout 240 python3 -m pytest -q -p no:cacheprovider -m gpu -n 12 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k tensor_trsm > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_tensor_trsm python3 /tmp/small.py > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 scripts/probe_tensor_trsm.py --sizes 64,96,128,192,256 --batches 1000,10240 --ops trsm,trsm_lt,potrs > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep -E "FAILED|Error" $R/tests.txt | head -20; tail -n 3 $R/memcheck.txt; cat $R/probe.md
