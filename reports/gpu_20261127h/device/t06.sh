#!/bin/bash
# Call 6 (H100): the final rules (chol_tensor_inverse for float64 POTRI / POTI n = 33..128 and
# float32 POTRI 64..128, staged float loads): the GPU suite but test_gpu_cholesky.py (public
# calls, hydro), then the benchmark's POTRI / POTI rows in both dtypes for the README table.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests \
  --ignore=tests/linalg/test_gpu_cholesky.py > $R/tests_suite.txt 2>&1
echo "rc $?" >> $R/tests_suite.txt
timeout 240 python3 scripts/bench_cholesky.py --ops potri,poti --dtypes float64,float32 \
  --sizes 32,64,128,256 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_suite.txt
grep -hE "^FAILED|Error" $R/tests_suite.txt | head -10
grep -E "potri|poti" $R/bench/bench_cholesky.csv
