#!/bin/bash
# Call 2 (the rules of call 1 committed: TRTRI / POTRI / POTI float64 up to n = 192 on the
# triangle kernels): memcheck of the float32 launches at NT = 5-6; the probe at small batches
# and in float32; the public bench of TRTRI / POTRI / POTI; every POTRI / POTI / TRTRI GPU test
# (backend and public calls).
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
    spd = cupy.asarray((x @ x.transpose(0, 2, 1) + numpy.eye(n)).astype(numpy.float32))
    f = cupy.empty_like(spd)
    chol.potrf_tensor(f, True, src=spd)
    chol.tensor_inverse(f.copy(), True, factored=True)
    chol.tensor_inverse(spd, False, factored=False, out=cupy.empty_like(spd))
    for lower, unit in itertools.product((True, False), (False, True)):
        chol.tensor_trtri(f, lower, unit, out=cupy.empty_like(f))
cupy.cuda.Device().synchronize()
print("small done")
PY
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=chol_tensor python3 /tmp/small.py > $R/memcheck32.txt 2>&1
echo "rc $?" >> $R/memcheck32.txt
timeout 120 python3 scripts/probe_triangle_192.py --sizes 160,192 --batches 1,10,100 --ops trtri,potri,poti > $R/probe_small.md 2>&1
echo "rc $?" >> $R/probe_small.md
timeout 90 python3 scripts/probe_triangle_192.py --sizes 160,192 --batches 1000,10240 --ops trtri,potri --dtype float32 > $R/probe32.md 2>&1
echo "rc $?" >> $R/probe32.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/bench_cholesky.py --ops trtri,potri,poti --dtypes float64 --sizes 160,192,256 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_keep.py -k "potri or poti or trtri" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck32.txt; cat $R/probe_small.md $R/probe32.md; cat $R/bench/bench_cholesky.md 2>/dev/null | tail -20; tail -3 $R/bench.txt
