#!/bin/bash
# Call 4: the GEMM and POTRS GPU tests whole (call 3's run stopped at its 150 s limit, 82 %
# through, no failure), gemm_stream_mma's small run under memcheck and racecheck again (launch
# bound 256 now), then the bench's hydro rows with the H200's new float64 192x216 (27x216)^T
# entry (gemm_stream_mma) installed.
source scripts/device_preamble.sh
D=reports/gpu_20261129f/device
timeout 330 python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 8 -m gpu \
  tests/linalg/test_gpu_blas.py tests/linalg/test_gpu_cholesky.py \
  -k "gemm or potrs" > $R/pytest.txt 2>&1
tail -n 6 $R/pytest.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool python3 $D/small_mma.py > $R/$tool.txt 2>&1
  tail -n 2 $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_blas.py --ops hydro --output $R/bench > $R/bench.txt 2>&1
grep gemm_AzBt $R/bench/*.md | head -20
tar czf $OUT/r.tgz -C $OUT r
