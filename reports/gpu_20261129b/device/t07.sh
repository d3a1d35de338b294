#!/bin/bash
# Call 7: interleaved PCG vectors, page-locked partial sums, assemble_forces, corner_forces with R rows a thread. Hydro GPU tests, memcheck
# of the hydro pass, the stage probe, and the hydro benchmark of this tree against the tree
# before them (force_pcg2.patch reversed into a copy).
source scripts/device_preamble.sh
D=reports/gpu_20261129b/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 3 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 $D/p_hydro_stages.py 32 > $R/stages.md 2> $R/stages.err; cat $R/stages.md; tail -n 3 $R/stages.err
timeout 90 python3 $D/p_pcg.py 32 > $R/pcg.md 2> $R/pcg.err; cat $R/pcg.md; tail -n 3 $R/pcg.err
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldtree && cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/force_pcg2.patch)
for tree in new old; do
  dir=$PWD; [ $tree = old ] && dir=/tmp/oldtree
  (cd $dir && PYTHONPATH=$dir:/tmp/site timeout 150 python3 scripts/bench_hydro.py --backends gpu \
     --zones 16 32 48 --cycles 10 --output $R/bench_$tree > $R/bench_$tree.txt 2>&1)
  tail -n 4 $R/bench_$tree.txt
  tar czf $OUT/r.tgz -C $OUT r
done
timeout 200 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; echo "rc $?" >> $R/laghos_runs.txt
tail -n 8 $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
