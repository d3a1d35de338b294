#!/bin/bash
# Call 6 (H100): ct_load by 8-row units (a block's place found once, the addresses stepped a row
# at a time) and the stores a warp two rows at a time through one ct_store_rows, against the
# committed kernels (out/device/kernels_head): chol_tensor's phase profile alternated twice,
# POTRI / POTI and POSV / POTRS kernels; then the probe's checks and the tensor-path GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_head new; do
    if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/profile.md
    timeout 100 python3 scripts/probe_chol_tensor.py profile --sizes 40,64,96,128 --batches 10240 >> $R/profile.md 2>&1
    timeout 60 python3 scripts/probe_chol_tensor.py profile --dtype float32 --sizes 64,128 --batches 10240 >> $R/profile.md 2>&1
  done
done
tar czf $OUT/r.tgz -C $OUT r
for src in kernels_head new; do
  if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
  echo "## $src" | tee -a $R/inverse.md $R/solve.md > /dev/null
  timeout 100 python3 scripts/probe_chol_tensor.py inverse --sizes 64,96,128 --batches 10240 >> $R/inverse.md 2>&1
  tar czf $OUT/r.tgz -C $OUT r
  timeout 100 python3 scripts/probe_chol_tensor.py solve --sizes 64,96,128 --batches 10240 >> $R/solve.md 2>&1
  tar czf $OUT/r.tgz -C $OUT r
done
unset LINALG_KERNEL_DIR
timeout 100 python3 scripts/probe_chol_tensor.py check > $R/check_tensor.txt 2>&1; echo "rc $?" >> $R/check_tensor.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_cholesky.py -k tensor > $R/tests_tensor.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_tensor.txt; tail -n 2 $R/tests_tensor.txt
grep -E "^## |^\| float" $R/profile.md | cut -c1-160
grep -E "^## |^\| p" $R/inverse.md $R/solve.md | cut -c1-200
