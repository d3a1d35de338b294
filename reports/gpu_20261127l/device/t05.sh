#!/bin/bash
# Call 5: the committed rules (chol_tensor_trsm for float64 n = 33-128 from 100 matrices and on
# the recursions' blocks; chol_tensor_solve on POTRS's recursion's blocks): the public bench
# for the README table (TRSM, POTRS / POSV with n vectors, batch 10240), the probe at batches
# 100 and 300, the GPU tests of the paths touched, racecheck and synccheck on chol_tensor_trsm.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/bench_cholesky.py --ops trsm,potrsn,posvn --dtypes float64 --sizes 64,96,128,192,256 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 scripts/probe_tensor_trsm.py --sizes 64,96,128,192,256 --batches 100,300 --ops trsm,potrs --rounds 1 > $R/probe_small.md 2>&1
echo "rc $?" >> $R/probe_small.md
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 12 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "(trsm and not tri_warp) or tensor_trsm or (potrs and recursion) or (potrs and tensor_solve)" > $R/tests.txt 2>&1
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
for n, (lower, trans) in itertools.product((40, 100), ((True, False), (True, True))):
    t = numpy.eye(n) * 2 + g.standard_normal((2, n, n)) / n
    b = cupy.asarray(g.standard_normal((2, n, 70)))
    chol.tensor_trsm(cupy.asarray(t), b, lower, trans, False, 1.5)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in racecheck synccheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_trsm python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 4 $R/bench.txt; tail -n 3 $R/tests.txt; grep -E "FAILED" $R/tests.txt | head; tail -n 3 $R/racecheck.txt $R/synccheck.txt; cat $R/probe_small.md; cat $R/bench/*.md 2>/dev/null | head -40
