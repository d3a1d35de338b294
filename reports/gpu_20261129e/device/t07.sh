#!/bin/bash
# Call 7: chol_tensor_trmm's float passes staged by cp.async and widened in shared memory (as
# its triangle's): the tensor paths' GPU tests, memcheck / racecheck, then float32 public TRMM
# with it against the rules before and the dense product (p_trmm.py), sizes and batches.
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py -k "tensor_tri or tensor_trmm" > $R/tests_trmm.txt 2>&1
tail -n 2 $R/tests_trmm.txt
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D/small_trmm.py \
    > $R/${tool}_trmm.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_trmm.txt
  tail -n 2 $R/${tool}_trmm.txt
done
tar czf $OUT/r.tgz -C $OUT r
(timeout 70 python3 $D/p_trmm.py float32 48,56,64,72,80,96,112,128,160 10240 LN,RN,LT
 timeout 60 python3 $D/p_trmm.py float32 64,72,96,128,160 100,1000,3000,100000 LN,RN \
   | grep "| float32") > $R/trmm_f32.md 2>&1; cat $R/trmm_f32.md
tar czf $OUT/r.tgz -C $OUT r
