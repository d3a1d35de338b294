#!/bin/bash
# Call 9 (chol_tensor_lauum's rule committed: float64 n = 65..128, float32 97..128): the LAUUM
# tests of the public calls and the default path; the public LAUUM bench of the table's sizes.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 80 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_triangular.py -k "(test_gpu_keep and lauum) or (trtri_lauum and ours)" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 scripts/bench_cholesky.py --ops lauum --dtypes float64,float32 --sizes 64,128 --batches 10240 --fresh --output $R/bench > $R/bench.txt 2>&1
echo "rc $?" >> $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; grep -E "^\| lauum" $R/bench/bench_cholesky.md; tail -1 $R/bench.txt
