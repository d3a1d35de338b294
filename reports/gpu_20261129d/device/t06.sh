#!/bin/bash
# Call 6: pcg_update / pcg_direction loading U dofs a thread before computing (U = 4 in the
# tree; p_pcg.py times U = 4, 2, 1), the benchmark against the tree before (unroll.patch
# reversed: one dof at a time) alternating; hydro GPU tests, memcheck, racecheck.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/unroll.patch)
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 2 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 $D/p_pcg.py 32 48 > $R/pcg.md 2>&1; grep "U =" $R/pcg.md
tar czf $OUT/r.tgz -C $OUT r
bench() {
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 60 python3 scripts/bench_hydro.py --backends gpu \
     --zones 32 48 --cycles 10 --output /tmp/b_$2) > $R/bench_$2.txt 2>&1
  grep "| gpu" $R/bench_$2.txt
}
bench $PWD new1; bench /tmp/oldtree old1; bench $PWD new2; bench /tmp/oldtree old2
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 1 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
