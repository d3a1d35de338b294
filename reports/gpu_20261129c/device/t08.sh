#!/bin/bash
# Call 8: the final tree (the forces' blocking of call 7). Hydro GPU tests, memcheck and
# racecheck of the hydro pass, the benchmark at 32^3 and 48^3.
source scripts/device_preamble.sh
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 2 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 32 48 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 4 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
