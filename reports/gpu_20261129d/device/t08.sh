#!/bin/bash
# Call 8 (nvidia-h200-x2, a GPU a rank): weak scaling 1 -> 2 ranks at 32^3 zones a rank, this
# tree against the session's starting tree (start.patch reversed), 20 cycles.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
nvidia-smi --query-gpu=index,name --format=csv,noheader >> $R/gpu.txt
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/start.patch)
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
