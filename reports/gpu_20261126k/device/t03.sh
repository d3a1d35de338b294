#!/bin/bash
# Call 3: GPU tests of the triangular / Cholesky / keep files (tri_cols paths forced and by
# default), then the small-batch table with tri_cols off and on (same machine).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tail -4 $R/tests.txt
OFF="import runpy, sys; import linalg._cuda.triangular as t; t.cols_below = lambda op, dtype, n: 0; sys.argv = ['bench_small_batch.py'] + sys.argv[1:]; runpy.run_path('scripts/bench_small_batch.py', run_name='__main__')"
ARGS="--ops trsm,trtri,potrsn,posvn,potri,poti --sizes 64,128,256,512 --batches 1,8,100"
timeout 100 python3 -c "$OFF" $ARGS --output $R/off > $R/off.log 2>&1
timeout 100 python3 scripts/bench_small_batch.py $ARGS --output $R/on > $R/on.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep -c "vendor faster" $R/off/small_batch.md $R/on/small_batch.md
