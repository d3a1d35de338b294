#!/bin/bash
# Call 5: pcg_total by the whole block (each thread at most 4 partials, then pcg_block_sum)
# against warp 0 alone (pcg_total.patch reversed into a copy): the PCG piece by piece and the
# single-GPU benchmark at 32^3, alternating; hydro GPU tests, memcheck and racecheck.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/pcg_total.patch)
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 2 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
pcg() {  # tree label sizes
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 90 python3 $D/p_pcg.py $3) > $R/pcg_$2.md 2>&1
  grep "mass_pcg,\|pcg_update\|pcg_direction\|gather" $R/pcg_$2.md
}
bench() {
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 60 python3 scripts/bench_hydro.py --backends gpu \
     --zones 32 --cycles 10 --output /tmp/b_$2) > $R/bench_$2.txt 2>&1
  tail -n 1 $R/bench_$2.txt
}
pcg $PWD new1 "32 48"; pcg /tmp/oldtree old1 "32 48"; pcg $PWD new2 32; pcg /tmp/oldtree old2 32
tar czf $OUT/r.tgz -C $OUT r
bench $PWD new1; bench /tmp/oldtree old1; bench $PWD new2; bench /tmp/oldtree old2
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 2 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
