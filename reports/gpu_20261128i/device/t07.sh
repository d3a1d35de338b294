#!/bin/bash
# Call 7: test_sweep_busy_stream_gpu with each call's operands NaN until the stream's spin ends
# (call 6 spun before the inputs were drawn: 25 of 112 cases failed patched), then the probe
# with linalg's launches sent to the legacy default stream (each way in a fresh process).
source scripts/device_preamble.sh
timeout 150 python3 -m pytest -m gpu -n 8 -rf -p no:benchmark -p no:cacheprovider -q \
  tests/linalg/test_sweep.py -k busy > $R/busy.txt 2>&1
echo "rc $?" >> $R/busy.txt
tar czf $OUT/r.tgz -C $OUT r
for w in plain patched; do
  timeout 150 python3 reports/gpu_20261128i/device/p_stream_mutation.py $w > $R/mutation_$w.txt 2>&1
  echo "rc $?" >> $R/mutation_$w.txt
  tar czf $OUT/r.tgz -C $OUT r
done
grep -E "^FAILED|passed|failed|^rc" $R/busy.txt | cut -c1-300 | tail -15; cut -c1-300 $R/mutation_*.txt
