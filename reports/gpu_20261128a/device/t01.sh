#!/bin/bash
# Call 1: tensor_trsm_right.patch applied (`git apply
# reports/gpu_20261127l/tensor_trsm_right.patch`), chol_tensor_trsm on the right side too: the
# tensor_trsm GPU tests (both sides), memcheck / racecheck / synccheck on a right-side run, the
# probe of both sides against the paths before.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 240 python3 -m pytest -q -p no:cacheprovider -m gpu -n 12 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k tensor_trsm > $R/tests.txt 2>&1
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
    for lower, trans in itertools.product((True, False), (False, True)):
        t = numpy.eye(n) * 2 + g.standard_normal((2, n, n)) / n
        b = cupy.asarray(g.standard_normal((2, 70, n)).astype(dt))
        chol.tensor_trsm(cupy.asarray(t.astype(dt)), b, lower, trans, False, 1.5, right=True)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck synccheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_trsm python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 scripts/bench_cholesky.py --ops posvn --dtypes float64 --sizes 40,64,80,96 --batches 1000,10240 --output $R/bench_posv > $R/bench_posv.txt 2>&1
echo "rc $?" >> $R/bench_posv.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/probe_tensor_trsm.py --sizes 64,96,128,192,256 --batches 1000,10240 --ops trsm,trsm_right,trsm_right_lt > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; tail -n 2 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; cat $R/probe.md; grep -E '^\| posv' $R/bench_posv/bench_cholesky.md
