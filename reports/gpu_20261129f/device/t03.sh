#!/bin/bash
# Call 3: call 2 again with the k loop unrolled by hand and CH sums. gemm_stream_mma
# (kernels/gemm.cu) correct on the device (its GPU tests, the bulk-copy
# and public one-B tests beside it, float32 POTRS now on chol_tensor_solve), memcheck and
# racecheck on a small run, then its parameters timed against the table's call (p_mma.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 150 python3 -m pytest -q -x -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py tests/linalg/test_gpu_cholesky.py \
  -k "tensor_core or bulk_copy or public_one_b or potrs" > $R/pytest.txt 2>&1
tail -n 15 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool python3 $D/small_mma.py > $R/$tool.txt 2>&1
  tail -n 3 $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 $D/p_mma.py > $R/mma.md 2>&1; cat $R/mma.md
tar czf $OUT/r.tgz -C $OUT r
