#!/bin/bash
# Call 4: the kinematic mass by partial assembly in mass_pcg (mass_zone, pcg_gather_apply) and
# the forces' staging with four loads in flight. Hydro GPU tests, the mass and force probes,
# memcheck and racecheck of the hydro pass, the benchmark, the tree of the session's start
# (pa_all.patch reversed into a copy) at 32^3 and 48^3, and the Laghos runs 2, 4, 6, 7.
source scripts/device_preamble.sh
D=reports/gpu_20261129c/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_mass.py 16 32 48 > $R/mass.md 2> $R/mass.err; cat $R/mass.md
tail -n 3 $R/mass.err
timeout 60 python3 $D/p_forces.py 16 32 48 > $R/forces.md 2> $R/forces.err; cat $R/forces.md
tail -n 3 $R/forces.err
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 2 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 8 16 32 48 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 6 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldtree && cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/pa_all.patch)
(cd /tmp/oldtree && PYTHONPATH=/tmp/oldtree:/tmp/site timeout 80 python3 scripts/bench_hydro.py \
   --backends gpu --zones 32 48 --cycles 10 --output $R/bench_old > $R/bench_old.txt 2>&1)
tail -n 4 $R/bench_old.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; echo "rc $?" >> $R/laghos_runs.txt
tail -n 6 $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
