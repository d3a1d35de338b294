#!/bin/bash
# Superseded by reports/gpu_20261129c/device/h100_next.sh. Prepared, not run: the hydro
# benchmark on an H100 (the GPU of Laghos's numbers in
# ../shared/reference/hydro-method.md §3 and of reports/gpu_check_20261122/bench_hydro.md), both
# paths, and the four long Laghos runs. After reports/gpu_20261129a/device/h100_next.sh.
source scripts/device_preamble.sh
timeout 200 python3 scripts/bench_hydro.py --backends gpu --reference --zones 8 16 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 8 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; tail -n 6 $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
