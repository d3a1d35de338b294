#!/bin/bash
# Session 2026-11-28d, call 4 (the final kernels): racecheck with the filter of call 1 (kns=tri_,
# which ran clean there; with kns=tri_block the tool itself failed in calls 2-3 on the previous
# kernel as on this one), then the TRMM / LAUUM / POTRI GPU tests with more time.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128d/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool racecheck --error-exitcode 9 --kernel-name kns=tri_ python3 $D/small_tri.py > $R/racecheck.txt 2>&1
echo "rc $?" >> $R/racecheck.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 290 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trmm or lauum or block or potri" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/racecheck.txt
