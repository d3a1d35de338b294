#!/bin/bash
# Call 1: the hydro corner-force GEMM re-batched by rows (p_tall_rows.py), both dtypes.
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
for dt in float64 float32; do
  timeout 280 python3 $D/p_tall_rows.py --dtypes $dt > $R/tall_rows_$dt.md 2> $R/tall_rows_$dt.err
  echo "rc $?" >> $R/tall_rows_$dt.md
  tar czf $OUT/r.tgz -C $OUT r
done
cat $R/tall_rows_float64.md $R/tall_rows_float32.md | cut -c1-400; tail -5 $R/*.err
