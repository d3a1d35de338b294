#!/bin/bash
# Call 7: chol_tensor_solve's pipelined POTRS (the PIPE instantiation on a resident grid; off in
# the committed rules): memcheck / racecheck on a small run that crosses matrices (the grid held
# to 2 blocks), its GPU tests, the probe against the committed kernel.
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
chol.TENSOR_SOLVE_PIPELINED = True
chol.resident_blocks = lambda *args: 2            # 5 matrices on 2 blocks: the grid stride
g = numpy.random.default_rng(0)
for n in (40, 100, 150):
    x = g.standard_normal((5, n, n)) / n
    spd = cupy.asarray(x @ x.transpose(0, 2, 1) + numpy.eye(n))
    b = cupy.asarray(g.standard_normal((5, n, 70)))
    for lower in (True, False):
        f, _ = chol.potrf(spd.copy(), lower)
        chol.tensor_solve(f, b, lower, factored=True, out=cupy.empty_like(b))
        chol.tensor_solve(f, b.copy(), lower, factored=True)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck synccheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor_solve python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py -k "pipelined or test_tensor_solve" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/probe_solve_pipeline.py --sizes 64,96,128,160 --batches 1000,10240 > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; cat $R/probe.md
