#!/bin/bash
# Call 7: which sweep case fills the GPU (call 6: 6 workers peaked at 142 GB, 4-14 GB the rest
# of the time): every case of draw 5 in one process, the pool's bytes after each.
source scripts/device_preamble.sh
timeout 270 python3 reports/gpu_20261128h/device/p_sweep_memory.py --seeds 5 > $R/memory.md 2>&1
echo "rc $?" >> $R/memory.md
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; cut -c1-250 $R/memory.md
