#!/bin/bash
# Call 7: the final tree: the one-B GEMM GPU tests (refactored into _one_b_cases after call 6,
# the TF32 products reverted), then the bench's hydro rows with the H200's float64 and float32
# gemm_stream_mma entries (public linalg.gemm, the zones folded into one tall A).
source scripts/device_preamble.sh
timeout 150 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py -k "tensor_core or bulk_copy or public_one_b or hydro" \
  > $R/pytest.txt 2>&1
tail -n 4 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_blas.py --ops hydro --output $R/bench > $R/bench.txt 2>&1
grep gemm_AzBt $R/bench/*.md | grep 192x216
tar czf $OUT/r.tgz -C $OUT r
