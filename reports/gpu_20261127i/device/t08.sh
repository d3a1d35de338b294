#!/bin/bash
# Call 8 (H100), the final tree: cts_store_rhs two segments a warp at a time against call 6's
# kernels (out/device/kernels_c6) on the POSV / POTRS kernels, alternated; the benchmark's POSV /
# POTRS rows; POTRF in place through the final rule (TENSOR_IN_PLACE_FROM = 49); then the whole
# Cholesky GPU test file.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_c6 new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/solve.md
    timeout 60 python3 scripts/probe_chol_tensor.py solve --sizes 64,128 --batches 10240 >> $R/solve.md 2>&1
  done
done
unset LINALG_KERNEL_DIR
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_cholesky.py --ops potrf,potrsn,posvn --dtypes float64 \
  --sizes 48,64,96,128 --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 380 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py > $R/tests_cholesky.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests_cholesky.txt
grep -E "^## |^\| p" $R/solve.md | cut -c1-200
cat $R/bench/bench_cholesky.csv
