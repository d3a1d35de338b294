#!/bin/bash
# Call 9: the benchmark with FLAT against the tree before it (flat.patch reversed), alternating;
# the MPI path on one rank against call 3's form of mass_pcg_ranks (ranks_host8.patch reversed;
# call 7's ranks_host7.patch had lost that loop, so its rows were void).
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
cp -r . /tmp/noflat && (cd /tmp/noflat && patch -s -R -p1 < $D/flat.patch)
cp -r . /tmp/call3tree && (cd /tmp/call3tree && patch -s -R -p1 < $D/ranks_host8.patch)
bench() {  # tree label zones
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 80 python3 scripts/bench_hydro.py --backends gpu \
     --zones $3 --cycles 10 --output /tmp/b_$2) > $R/bench_$2.txt 2>&1
  grep "| gpu" $R/bench_$2.txt
  tar czf $OUT/r.tgz -C $OUT r
}
bench $PWD new1 "32 48"; bench /tmp/noflat old1 "32 48"; bench $PWD new2 32; bench /tmp/noflat old2 32
for tree in $PWD /tmp/call3tree $PWD /tmp/call3tree; do
  (cd $tree && PYTHONPATH=$tree:/tmp/site timeout 40 python3 $D/p_ranks.py 32) 2>&1 \
    | grep "| 32" | tee -a $R/ranks_ab.md
  tar czf $OUT/r.tgz -C $OUT r
done
