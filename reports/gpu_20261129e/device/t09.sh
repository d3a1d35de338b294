#!/bin/bash
# Call 9: float passes of chol_tensor_trsm / chol_tensor_solve / chol_tensor_trmm staged by
# cp.async in cts_load_rhs / ctt_load_rows and widened (cts_widen_pass): the tensor paths' GPU
# tests (both dtypes), memcheck on small float batches, float32 TRSM and POTRS with n vectors on
# the kernels against the float32 rules (p_f32_tensor.py), float32 TRMM again, racecheck last
# (the session's last device seconds).
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
timeout 110 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py \
  -k "tensor_tri or tensor_trmm or tensor_solve or tensor_trsm" > $R/tests.txt 2>&1
tail -n 2 $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 30 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $D/small_f32.py \
  > $R/memcheck_f32.txt 2>&1; echo "memcheck rc $?" >> $R/memcheck_f32.txt
tail -n 2 $R/memcheck_f32.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 $D/p_f32_tensor.py 64,96,128 10240 > $R/f32_tensor.md 2>&1
cat $R/f32_tensor.md
tar czf $OUT/r.tgz -C $OUT r
timeout 15 python3 $D/p_trmm.py float32 96 10240 LN,RN > $R/trmm_f32.md 2>&1
cat $R/trmm_f32.md
tar czf $OUT/r.tgz -C $OUT r
timeout 30 compute-sanitizer --tool racecheck --error-exitcode 9 python3 $D/small_f32.py \
  > $R/racecheck_f32.txt 2>&1; echo "racecheck rc $?" >> $R/racecheck_f32.txt
tail -n 2 $R/racecheck_f32.txt
tar czf $OUT/r.tgz -C $OUT r
