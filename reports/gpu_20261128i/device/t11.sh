#!/bin/bash
# Call 11 (nvidia-h200-x2): test_sweep_two_devices_gpu (every operation on GPU 1, then 0, then 1),
# then every GPU test of test_sweep.py on the final tree (the strided, layout, busy-stream and
# two-device draws) on 12 workers.
source scripts/device_preamble.sh
nvidia-smi -L >> $R/gpu.txt
timeout 150 python3 -m pytest -m gpu -n 8 -rf -p no:benchmark -p no:cacheprovider -q \
  tests/linalg/test_sweep.py -k two_devices > $R/two.txt 2>&1
echo "rc $?" >> $R/two.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 -m pytest -m gpu -n 12 -rf -p no:benchmark -p no:cacheprovider -q \
  tests/linalg/test_sweep.py > $R/sweep.txt 2>&1
echo "rc $?" >> $R/sweep.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; grep -E "^FAILED|passed|failed|^rc" $R/two.txt $R/sweep.txt | cut -c1-300 | tail -30
