#!/bin/bash
# Call 7, the final tree: hydro GPU tests; the MPI path on one rank against call 3's form of
# mass_pcg_ranks (ranks_host.patch reversed) and the session's start (p_ranks.py); with two
# GPUs (nvidia-h200-x2) weak scaling 1 -> 2 ranks at 32^3 zones a rank, this tree against the
# session's starting tree (start.patch reversed), else 2 ranks sharing the GPU.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
nvidia-smi --query-gpu=index,name --format=csv,noheader >> $R/gpu.txt
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/start.patch)
cp -r . /tmp/call3tree && (cd /tmp/call3tree && patch -s -R -p1 < $D/ranks_host.patch)
timeout 100 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 2 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
for tree in $PWD /tmp/call3tree $PWD; do
  (cd $tree && PYTHONPATH=$tree:/tmp/site timeout 60 python3 $D/p_ranks.py 32) 2>&1 \
    | grep "| 32" | tee -a $R/ranks_ab.md
done
tar czf $OUT/r.tgz -C $OUT r
weak() {  # tree label
  (sleep 20; nvidia-smi --query-compute-apps=pid,gpu_bus_id,used_memory --format=csv) \
    > $R/apps_$2.txt 2>&1 &
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 100 python3 scripts/weak_scaling.py --ranks 1 2 \
     --zones-per-rank 32768 --cycles 20 --output /tmp/ws_$2) > $R/weak_$2.txt 2>&1
  grep -a "zone-cycles/s on\|stages\|^|" $R/weak_$2.txt
  tar czf $OUT/r.tgz -C $OUT r
}
weak $PWD new
weak /tmp/oldtree old
