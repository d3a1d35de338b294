#!/bin/bash
# Call 4: chol_tensor_solve / chol_tensor_trsm at NT = 5 (n = 129..160, one pass of 32 vectors,
# 181 KiB, one block an SM with 512 threads): their GPU tests, memcheck / racecheck on a small
# run, the probe against the recursion (TRSM, POTRS, POSV with n vectors; n = 320's blocks).
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
dt = numpy.float32 if len(sys.argv) > 1 else numpy.float64
for n in (140, 160):
    x = g.standard_normal((2, n, n)) / n
    spd = cupy.asarray((x @ x.transpose(0, 2, 1) + numpy.eye(n)).astype(dt))
    b = cupy.asarray(g.standard_normal((2, n, 40)).astype(dt))
    chol.tensor_solve(spd, b.copy(), True, factored=False)
    f = cupy.empty_like(spd)
    chol.potrf_tensor(f, True, src=spd)
    chol.tensor_solve(f, b, False, factored=True, out=cupy.empty_like(b))
    for lower, trans, right in itertools.product((True, False), (False, True), (False, True)):
        rhs = b.swapaxes(1, 2).copy() if right else b
        chol.tensor_trsm(f, rhs, lower, trans, False, 1.0, out=cupy.empty_like(rhs), right=right)
cupy.cuda.Device().synchronize()
print("small done")
PY
for tool in memcheck racecheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=chol_tensor python3 /tmp/small.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
timeout 60 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_tensor python3 /tmp/small.py float32 > $R/memcheck32.txt 2>&1
echo "rc $?" >> $R/memcheck32.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py -k "tensor_trsm_past_128 or test_tensor_solve or (tensor_trsm and (255 or 256 or 257)) or (tensor_tri and trsm and (255 or 256 or 257))" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/probe_triangle_192.py --sizes 136,160 --batches 1000,10240 --ops trsm,potrs,posv > $R/probe.md 2>&1
echo "rc $?" >> $R/probe.md
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 scripts/probe_triangle_192.py --sizes 160 --batches 1,100 --ops trsm,potrs > $R/probe_small.md 2>&1
timeout 80 python3 scripts/probe_triangle_192.py --sizes 320 --batches 1000,3000 --ops trsm,potrs >> $R/probe_small.md 2>&1
echo "rc $?" >> $R/probe_small.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt $R/memcheck32.txt; cat $R/probe.md $R/probe_small.md
