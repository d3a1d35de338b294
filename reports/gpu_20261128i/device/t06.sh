#!/bin/bash
# Calls 6-10 and 12: test_sweep_busy_stream_gpu (every operation on a busy non-blocking stream
# of the caller's), then p_stream_mutation.py: the same cases with linalg's launches sent to
# the legacy default stream (each way in a fresh process), to see the test fail. The script
# stayed the same (call 6 printed the mutation's lines cut at 300 characters); the test changed
# between calls, each time it caught too little under the mutation (../README.md, calls 6-10):
# call 6 spun before the case's inputs were drawn; 7 held each call's operands NaN until the
# spin ended; 8 kept the saved operands through the call; 9 reserved the call's memory in the
# pool first; 10 ran each case once before its held run; 12 as 10 without 9's reserve (the
# committed test).
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
grep -E "^FAILED|passed|failed|^rc" $R/busy.txt | cut -c1-300 | tail -15; cut -c1-200 $R/mutation_*.txt | head -150
