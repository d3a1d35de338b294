#!/bin/bash
# Call 3: chol_tensor_trmm's final shapes (NT = 2 and 4 back to one pass buffer, as in call 1):
# its GPU tests, memcheck / racecheck, then the batch counts and sizes for its rules (p_trmm.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py -k "tensor_tri or tensor_trmm" > $R/tests_trmm.txt 2>&1
tail -n 3 $R/tests_trmm.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 $D/small_trmm.py \
    > $R/${tool}_trmm.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_trmm.txt
  tail -n 2 $R/${tool}_trmm.txt
done
tar czf $OUT/r.tgz -C $OUT r
(timeout 60 python3 $D/p_trmm.py float64 65,72,81,95 10240 LN,RN
 timeout 60 python3 $D/p_trmm.py float64 72,80,96 1,10,30,30000 LN,RN | grep "| float64"
 timeout 60 python3 $D/p_trmm.py float64 56,60,64 100,300,1000,2000,3000 LN,RN | grep "| float64"
 timeout 60 python3 $D/p_trmm.py float64 112,128,160 1,10,30,100,200,300 LN,RN | grep "| float64"
) > $R/trmm_rules.md 2>&1; cat $R/trmm_rules.md
tar czf $OUT/r.tgz -C $OUT r
