#!/bin/bash
# Call 3: POTI fused against POTRF then POTRI (probe_posv_rule.py --op poti); 256 / 384 / 512
# threads for chol_tensor_solve and chol_tensor_trsm at NT = 4 (their launch bound now allows
# 512 there) with the GPU tests and sanitizers at 512; the public bench of TRTRI / POTRI / POTI
# with chol_tensor_trtri (float32 range added).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/probe_solve_threads.py > $R/threads.md 2>&1
echo "rc $?" >> $R/threads.md
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/probe_posv_rule.py --op poti --sizes 64,80,96,112,128 --batches 1000,3000,10240 > $R/poti_rule.md 2>&1
echo "rc $?" >> $R/poti_rule.md
tar czf $OUT/r.tgz -C $OUT r
mkdir -p /tmp/plug && cat > /tmp/plug/threads512.py <<'PY'
def pytest_configure(config):
    from linalg._cuda import cholesky
    cholesky.TENSOR_SOLVE_THREADS[4] = 512
PY
PYTHONPATH=$PYTHONPATH:/tmp/plug timeout 150 python3 -m pytest -q -p no:cacheprovider -p threads512 -m gpu -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py -k "tensor_tri or tensor_trsm or tensor_solve" > $R/tests512.txt 2>&1
echo "rc $?" >> $R/tests512.txt
tar czf $OUT/r.tgz -C $OUT r
cat > /tmp/small.py <<'PY'
import sys, itertools
sys.path.insert(0, ".")
import cupy, numpy
from linalg._cuda import _compile
_compile.COMPILE_OPTIONS = tuple(_compile.COMPILE_OPTIONS) + ("-lineinfo",)
from linalg._cuda import cholesky as chol
chol.TENSOR_SOLVE_THREADS[4] = 512
g = numpy.random.default_rng(0)
n = 100
m = g.standard_normal((2, n, n))
l = cupy.asarray(numpy.linalg.cholesky(m @ m.transpose(0, 2, 1) + n * numpy.eye(n)))
for right, trans in itertools.product((False, True), (False, True)):
    b = cupy.asarray(g.standard_normal((2, 70, n) if right else (2, n, 70)))
    chol.tensor_trsm(l, b, True, trans, False, 1.5, right=right)
chol.tensor_solve(l, cupy.asarray(g.standard_normal((2, n, 70))), True, True)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck synccheck; do
  timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_ python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/bench_cholesky.py --ops trtri,potri,poti --dtypes float64,float32 --sizes 64,96,128,192,256 --batches 10240 --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cat $R/threads.md $R/poti_rule.md; tail -n 3 $R/tests512.txt; grep FAILED $R/tests512.txt | head; tail -n 2 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; grep -E "^\| (trtri|potri|poti) " $R/bench/bench_cholesky.md
