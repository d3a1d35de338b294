#!/bin/bash
# Call 2: chol_tensor_trmm with two pass buffers (the next pass in flight) and the right side's
# passes transposed in shared memory: its GPU tests, memcheck / racecheck, then the public TRMM
# against the rules before it and the dense product (p_trmm.py; call 1's table again), NT = 4's
# shapes, the batch counts, float32.
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
timeout 150 python3 $D/p_trmm.py float64 40,48,56,64,72,80,88,96,104,112,120,128,144,160 10240 \
  > $R/trmm_f64.md 2>&1; cat $R/trmm_f64.md
tar czf $OUT/r.tgz -C $OUT r
for shape in 4:2,1,512 4:1,2,256 4:1,1,512; do
  timeout 30 python3 $D/p_trmm.py float64 112,128 10240 LN,RN $shape | grep "| float64"
done > $R/trmm_nt4_shapes.md 2>&1; cat $R/trmm_nt4_shapes.md
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_trmm.py float64 48,64,80,96,112,128,160 100,300,1000,3000,100000 LN,RN \
  > $R/trmm_f64_batches.md 2>&1; cat $R/trmm_f64_batches.md
tar czf $OUT/r.tgz -C $OUT r
timeout 50 python3 $D/p_trmm.py float32 48,64,80,96,112,128,160 10240 LN,RN,LT \
  > $R/trmm_f32.md 2>&1; cat $R/trmm_f32.md
tar czf $OUT/r.tgz -C $OUT r
