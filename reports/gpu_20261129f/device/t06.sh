#!/bin/bash
# Call 6: float32 as three TF32 products in gemm_stream_mma ("tf32"): its GPU tests, memcheck
# and racecheck on the small run (every shape, both forms), then its timing and accuracy against
# the float64 DMMA form, cuBLAS and the table (p_tf32.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py -k "tensor_core or public_one_b" > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool python3 $D/small_mma.py > $R/$tool.txt 2>&1
  tail -n 2 $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_tf32.py > $R/tf32.md 2>&1; cat $R/tf32.md
tar czf $OUT/r.tgz -C $OUT r
