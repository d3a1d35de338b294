#!/bin/bash
# Call 1: the triangle kernels at NT = 5-6 (n = 129..192, one block an SM, 384 threads): their
# GPU tests (direct calls; the tensor / tensor_inverse / tensor_tri path parameters at n =
# 255..257, whose TRTRI recursion takes a 129-block), memcheck / racecheck on a small run, the
# probe against the committed paths; the fused POSV at n = 96 / 128 with 512 threads.
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
for n in (150, 192):
    x = g.standard_normal((2, n, n)) / n
    spd = cupy.asarray(x @ x.transpose(0, 2, 1) + numpy.eye(n))
    f = cupy.empty_like(spd)
    chol.potrf_tensor(f, True, src=spd)
    chol.tensor_inverse(f.copy(), True, factored=True)
    chol.tensor_inverse(spd, False, factored=False, out=cupy.empty_like(spd))
    for lower, unit in itertools.product((True, False), (False, True)):
        chol.tensor_trtri(f, lower, unit, out=cupy.empty_like(f))
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py -k "triangle_kernels_past_128 or test_tensor_inverse or (tensor_inverse and (255 or 256 or 257)) or (tensor_tri and trtri and (255 or 256 or 257))" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/probe_triangle_192.py --sizes 160,192 --batches 1000,10240 > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/probe_posv_rule.py --sizes 96,128 --batches 1000,10240 > $R/posv.md 2>&1
echo "rc $?" >> $R/posv.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt; cat $R/probe.md $R/posv.md
