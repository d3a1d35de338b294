#!/bin/bash
# Prepared, not run: on an H100 (the GPU of Laghos's rates in ../shared/reference/hydro-method.md
# §3): the hydro benchmark with both paths, the force and mass probes, the hydro GPU tests and
# the four long Laghos runs. Supersedes reports/gpu_20261129b/device/h100_next.sh; run after
# reports/gpu_20261129a/device/h100_next.sh (linalg).
source scripts/device_preamble.sh
D=reports/gpu_20261129c/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
timeout 240 python3 scripts/bench_hydro.py --backends gpu --reference --zones 8 16 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 9 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_forces.py 32 48 > $R/forces.md 2> $R/forces.err; cat $R/forces.md
timeout 40 python3 $D/p_mass.py 32 > $R/mass.md 2> $R/mass.err; cat $R/mass.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; tail -n 6 $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
