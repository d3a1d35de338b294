#!/bin/bash
# Call 3: tri_tensor with ordered (volatile) loads of T, no named barrier (a warp updates and
# solves its own column block of the next row): GPU tests, racecheck / synccheck / memcheck on
# small runs, the probe against the default paths at n = 96, 128, 256, batch 10240.
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
from linalg._cuda import triangular as tri
g = numpy.random.default_rng(0)
sizes = [int(v) for v in sys.argv[1].split(",")]
for dt, n, (blocks, vecs) in itertools.product((numpy.float32, numpy.float64), sizes, ((3, 32), (3, 64), (4, 64))):
    for right, lower, trans in itertools.product((False, True), (True, False), (False, True)):
        t = numpy.eye(n) * 2 + g.standard_normal((2, n, n)) / n
        b = g.standard_normal((2, 70, n) if right else (2, n, 70))
        tri.tri_tensor(cupy.asarray(t.astype(dt)), cupy.asarray(b.astype(dt)), right, lower, trans, False, min_blocks=blocks, vecs=vecs)
    tri.tri_tensor(cupy.asarray(t.astype(dt)), cupy.asarray(g.standard_normal((2, n, 70)).astype(dt)), False, True, False, False, potrs=True, min_blocks=blocks, vecs=vecs)
cupy.cuda.Device().synchronize()
print("small done")
PY
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 tests/linalg/test_gpu_tri_tensor.py > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tensor python3 /tmp/small.py 33,100,256 > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/probe_tri_tensor.py --sizes 96,128,256 --batches 10240 --ops trsm,potrs --launches 3x32,3x64 > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
for tool in racecheck synccheck; do
  timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=tri_tensor python3 /tmp/small.py 100 > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep -E "FAILED|Error" $R/tests.txt | head -20; tail -n 3 $R/memcheck.txt $R/racecheck.txt $R/synccheck.txt; cat $R/probe.md
