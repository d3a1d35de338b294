#!/bin/bash
# Call 6: call 5 with the reference path mended (ForceOperator builds F on demand). Hydro
# GPU tests and the benchmark table of the README (both paths at 8, 16, 32; the fused at 48).
source scripts/device_preamble.sh
D=reports/gpu_20261129c/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 scripts/bench_hydro.py --backends gpu --reference --zones 8 16 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 9 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 70 python3 scripts/bench_hydro.py --backends gpu --zones 48 --cycles 10 \
  --output $R/bench48 > $R/bench48.txt 2>&1; tail -n 2 $R/bench48.txt
tar czf $OUT/r.tgz -C $OUT r
