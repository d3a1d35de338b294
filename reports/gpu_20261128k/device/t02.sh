#!/bin/bash
# Call 2: gemm_stream's tests after the fallback fix; tune_blas's gemm_rows stage (gemm_stream
# candidates and rows rules) on this GPU; its entries installed here (not committed by this
# script) and the public A/B of the tables before / after (p_table_ab.py).
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
timeout 120 python3 -m pytest -q -m gpu -n 8 -p no:benchmark tests/linalg/test_gpu_blas.py \
  -k "bulk_copy or shared_b or tall or hydro" > $R/tests_stream.txt 2>&1
echo "rc $?" >> $R/tests_stream.txt; tail -4 $R/tests_stream.txt
tar czf $OUT/r.tgz -C $OUT r
cp linalg/tuning/nvidia_h200.json $R/old_h200.json
timeout 330 python3 scripts/tune_blas.py --stages gemm_rows --budget-s 240 --output $R/tune \
  --install > $R/tune.txt 2>&1; echo "rc $?" >> $R/tune.txt; cat $R/tune.txt
cp linalg/tuning/nvidia_h200.json $R/new_h200.json
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_table_ab.py $R/old_h200.json --zones 40960 > $R/table_ab.md 2> $R/table_ab.err
echo "rc $?" >> $R/table_ab.md; cat $R/table_ab.md; tail -3 $R/table_ab.err
tar czf $OUT/r.tgz -C $OUT r
