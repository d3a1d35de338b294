#!/bin/bash
# Session 2026-11-28c, call 1: POTI interleaved (reports/gpu_20261128b/poti_interleave.patch applied):
# its GPU tests, memcheck / racecheck / synccheck on a small run, scripts/probe_poti_interleave.py;
# then LAUUM n = 48-64 on chol_tensor_lauum against the committed paths by batch.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
cat > /tmp/small.py <<'PY'
import sys
sys.path.insert(0, ".")
import cupy, numpy
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
from linalg._cuda import cholesky as chol
g = numpy.random.default_rng(0)
for dt in (numpy.float64, numpy.float32):
    for n in (150, 192):
        x = g.standard_normal((2, n, n)) / n
        a = cupy.asarray((x @ x.transpose(0, 2, 1) + numpy.eye(n)).astype(dt))
        for lower in (True, False):
            chol.tensor_inverse(a, lower, factored=False, out=cupy.empty_like(a))
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck synccheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_inverse python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py -k "test_tensor_inverse or (potri_poti and tensor_inverse)" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/probe_poti_interleave.py > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r

timeout 120 python3 scripts/probe_triangle_192.py --ops lauum --sizes 48,56,64 --batches 300,1000,3000,10240 > $R/lauum.md 2>&1
echo "rc $?" >> $R/lauum.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; cat $R/probe.md $R/lauum.md
