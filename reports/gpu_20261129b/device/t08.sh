#!/bin/bash
# Call 8: the PCG's scalars on the device (the host queues iterations, polls every 4). Hydro
# GPU tests, memcheck and racecheck of the hydro pass, the PCG probe, the hydro benchmark with
# both paths (the table of the README), this tree against the one before at 32^3
# (pcg_device_scalars.patch reversed into a copy), and the Laghos runs 2, 4, 6, 7.
source scripts/device_preamble.sh
D=reports/gpu_20261129b/device
timeout 120 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 2 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_pcg.py 32 > $R/pcg.md 2> $R/pcg.err; cat $R/pcg.md; tail -n 3 $R/pcg.err
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/bench_hydro.py --backends gpu --reference --zones 8 16 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 8 $R/bench.txt
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 48 --cycles 10 \
  --output $R/bench48 > $R/bench48.txt 2>&1; tail -n 2 $R/bench48.txt
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldtree && cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/pcg_device_scalars.patch)
(cd /tmp/oldtree && PYTHONPATH=/tmp/oldtree:/tmp/site timeout 50 python3 scripts/bench_hydro.py \
   --backends gpu --zones 32 --cycles 10 --output $R/bench_old > $R/bench_old.txt 2>&1)
tail -n 2 $R/bench_old.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 170 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; echo "rc $?" >> $R/laghos_runs.txt
tail -n 6 $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
