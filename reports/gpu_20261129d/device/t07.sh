#!/bin/bash
# Call 7: the PCG's vector kernels with FLAT (a thread an interleaved entry; p_flat.py times
# both forms) and the tree's tests with it; the MPI path on one rank against call 3's form of
# mass_pcg_ranks (ranks_host7.patch reversed) and the session's start (p_ranks.py); memcheck
# and racecheck.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
cp -r . /tmp/call3tree && (cd /tmp/call3tree && patch -s -R -p1 < $D/ranks_host7.patch)
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 2 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_flat.py 32 48 > $R/flat.md 2>&1; cat $R/flat.md
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 1 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
for tree in $PWD /tmp/call3tree $PWD; do
  (cd $tree && PYTHONPATH=$tree:/tmp/site timeout 60 python3 $D/p_ranks.py 32) 2>&1 \
    | grep "| 32" | tee -a $R/ranks_ab.md
done
tar czf $OUT/r.tgz -C $OUT r
