#!/bin/bash
# Call 2 (H100): chol_tensor_solve's solve by operators (the diagonal blocks inverted, W_KI =
# L_KI L_II^-1, M_II = (L_II L_II^T)^-1: every step a DMMA product) against call 1's
# substitution (kernels of ff3f3cc in out/device/kernels_cts1, same run); the tensor_solve GPU
# tests on the new defaults, memcheck / racecheck / synccheck on a small run.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py \
  -k "tensor_solve" > $R/tests_solve.txt 2>&1; echo "rc $?" >> $R/tests_solve.txt
K="test_tensor_solve and (33-2 or 40-70 or 96-100) and float64"
( for tool in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
      -m gpu tests/linalg/test_gpu_cholesky.py -k "$K" > $R/sanitize_$tool.txt 2>&1
    echo "rc $?" >> $R/sanitize_$tool.txt
  done ) &
for side in old new; do
  if [ $side = old ]; then export LINALG_KERNEL_DIR=$PWD/out/device/kernels_cts1; else unset LINALG_KERNEL_DIR; fi
  timeout 150 python3 scripts/probe_chol_tensor.py solve --sizes 33,64,96 --batches 1,100,1000,10240 \
    --output $R/solve_${side}_a.md > $R/solve_${side}_log.txt 2>&1
  timeout 100 python3 scripts/probe_chol_tensor.py solve --sizes 48,80,128 --batches 1000,10240 \
    --output $R/solve_${side}_b.md >> $R/solve_${side}_log.txt 2>&1
done
timeout 60 python3 scripts/probe_chol_tensor.py solve --dtype float32 --sizes 64 --batches 10240 \
  --output $R/solve_new_f32.md >> $R/solve_new_log.txt 2>&1
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 2 $R/tests_solve.txt $R/sanitize_*.txt
grep -E "^FAILED|rror" $R/tests_solve.txt | head -10
for side in old new; do echo "== $side"; grep "^| p\|differs" $R/solve_${side}_log.txt ; done
