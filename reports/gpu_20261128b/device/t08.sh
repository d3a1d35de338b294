#!/bin/bash
# Call 8: chol_tensor_lauum (LAUUM of 33..192 in one launch: cti_lauum on the triangle itself;
# rule off until measured): its GPU tests, memcheck / racecheck on a small run, the probe
# against the committed LAUUM paths.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 100 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_triangular.py -k "tensor_lauum or (trtri_lauum and tensor_tri)" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/small.py <<'PY'
import sys, itertools
sys.path.insert(0, ".")
import cupy, numpy
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
from linalg._cuda import cholesky as chol
g = numpy.random.default_rng(0)
for dt, n in itertools.product((numpy.float64, numpy.float32), (70, 192)):
    t = cupy.asarray((numpy.eye(n) * 2 + g.standard_normal((2, n, n)) / n).astype(dt))
    for lower in (True, False):
        chol.tensor_lauum(t, lower, out=cupy.empty_like(t))
        chol.tensor_lauum(t.copy(), lower)
cupy.cuda.Device().synchronize()
print("small done")
PY
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_tensor_lauum python3 /tmp/small.py > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 scripts/probe_triangle_192.py --ops lauum --sizes 48,64,96,128,160,192 --batches 100,1000,10240 --rounds 1 > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 --kernel-name kns=chol_tensor_lauum python3 /tmp/small.py > $R/racecheck.txt 2>&1
echo "rc $?" >> $R/racecheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 50 python3 scripts/probe_triangle_192.py --ops lauum --sizes 64,128,192 --batches 1000,10240 --rounds 1 --dtype float32 > $R/probe32.md 2>&1
echo "rc $?" >> $R/probe32.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt; cat $R/probe.md $R/probe32.md
