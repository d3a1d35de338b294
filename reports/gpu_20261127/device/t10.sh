#!/bin/bash
# Call 10 (final rule: chol_tensor ahead of the small-batch paths): the small-batch table's
# float64 POTRF / POSV / POTI rows, then the GPU tests the rule reaches (default calls that keep
# or overwrite their input, the forced tensor path, the panels).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 80 python3 scripts/bench_small_batch.py --ops potrf,posvn,poti --sizes 48,64,96,128 --batches 1,8,100 --dtype float64 --output $R/small > $R/small_log.txt 2>&1; echo "rc $?" >> $R/small_log.txt
timeout 260 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_cholesky.py -k "factor_and_inverses or solves_keep or tensor or recursion" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/tests.txt; cat $R/small/*.md 2>/dev/null | head -60; tail -3 $R/small_log.txt
