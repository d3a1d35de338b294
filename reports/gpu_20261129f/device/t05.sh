#!/bin/bash
# Call 5: the tensor-core GEMM test as fixed after call 4, then float32 192x216 (27x216)^T on
# gemm_stream_mma with items of 64-96 whole rows (p_mma32.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py -k "tensor_core or public_one_b" > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_mma32.py > $R/mma32.md 2>&1; cat $R/mma32.md
tar czf $OUT/r.tgz -C $OUT r
