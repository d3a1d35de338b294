#!/bin/bash
# Call 2: chol_tensor_trtri (TRTRI of 65..128 in one launch, and the recursion's blocks for
# POTRI / POTI above 128): its GPU tests (tensor_tri / tensor_inverse path parameters, the kept
# inputs), memcheck / racecheck / synccheck on a small run, the probe against the recursion,
# the public bench of TRTRI / POTRI / POTI.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "tensor_tri or tensor_inverse or (test_gpu_keep and (trtri or potri or poti))" > $R/tests.txt 2>&1
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
for dt, n in itertools.product((numpy.float32, numpy.float64), (40, 100)):
    for lower, unit in itertools.product((True, False), (False, True)):
        t = numpy.eye(n) * 2 + g.standard_normal((3, n, n)) / n
        a = cupy.asarray(t.astype(dt))
        chol.tensor_trtri(a, lower, unit, out=cupy.empty_like(a))
        chol.tensor_trtri(a, lower, unit)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck synccheck; do
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_trtri python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/probe_tensor_trtri.py --sizes 80,96,112,128,192,256 --batches 1000,10240 > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/probe_tensor_trtri.py --sizes 80,128 --batches 1,10,100 --ops trtri,trtri_kept > $R/probe_small.md 2>&1
timeout 60 python3 scripts/probe_tensor_trtri.py --sizes 96,128,256 --batches 10240 --ops trtri,potri --threads 3:128,4:192 >> $R/probe_small.md 2>&1
timeout 40 python3 scripts/probe_tensor_trtri.py --sizes 96,128 --batches 10240 --ops trtri --dtypes float32 >> $R/probe_small.md 2>&1
echo "rc $?" >> $R/probe_small.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 2 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; cat $R/probe.md $R/probe_small.md
