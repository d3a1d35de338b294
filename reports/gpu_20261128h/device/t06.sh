#!/bin/bash
# Call 6: the draws of call 5 whose cases ran out of GPU memory (15 workers side by side, each up
# to ~6 GB), again with 6 workers, the pool emptied after every case, failing or not.
source scripts/device_preamble.sh
nvidia-smi --query-gpu=memory.used --format=csv,noheader -lms 500 > $R/mem.txt &
MON=$!
for s in 4 5 6 8; do
  LINALG_SWEEP_SEED=$s LINALG_SWEEP_PER_OP=100 timeout 100 python3 -m pytest -q -p no:cacheprovider -m gpu -n 6 -rf -p no:benchmark tests/linalg/test_sweep.py > $R/sweep$s.txt 2>&1
  echo "rc $?" >> $R/sweep$s.txt
  tar czf $OUT/r.tgz -C $OUT r
done
kill $MON; sort -n $R/mem.txt | tail -1 >> $R/gpu.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; for s in 4 5 6 8; do grep -v "^\.*s*\.* *\[" $R/sweep$s.txt | grep -v Warning | cut -c1-300 | tail -8; done
