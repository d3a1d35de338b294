#!/bin/bash
# Session 2026-11-28c, call 7: TRSM's rule as one table of rows (commit 0e38dba): the GPU tests
# whose fixtures set it (tensor_tri / tensor_trsm paths) and the kept-input tests of the solves
# on the committed rules; then the whole float64 small-batch table on the final tree.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 220 python3 -m pytest -q -p no:cacheprovider -m gpu -n 12 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "tensor_tri or tensor_trsm or solves_keep or products_and_solves" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 170 python3 scripts/bench_small_batch.py --output $R/small > $R/small.log 2>&1
echo "rc $?" >> $R/small.log
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 1 $R/small.log
grep -c "^| " $R/small.log; grep "vendor faster" $R/small.log
