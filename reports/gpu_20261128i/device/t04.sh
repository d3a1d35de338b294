#!/bin/bash
# Call 4: gebrd_unpack with w^H R over the contiguous output (call 3: the pool grew by the
# strided block's copy a step, a row larger each time): the probe of call 2 again, the GEBRD
# tests (with the new pool test) and test_gpu_large, then the seed-5 draw of call 1 on 15
# workers (last session's call 5 ran out of memory on 15) with the device memory sampled.
# Before the call: git show f97b45b:linalg/_bidiag.py > reports/gpu_20261128i/device/bidiag_start.py
# (the start tree's accumulation; untracked files travel to the device, not committed).
source scripts/device_preamble.sh
D=reports/gpu_20261128i/device
timeout 150 python3 $D/p_unpack_memory.py --old $D/bidiag_start.py > $R/unpack.md 2>&1
echo "rc $?" >> $R/unpack.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 -p no:benchmark -rf \
  tests/linalg/test_gpu_bidiag.py tests/linalg/test_bidiag.py tests/linalg/test_gpu_large.py \
  > $R/bidiag.txt 2>&1
echo "rc $?" >> $R/bidiag.txt
tar czf $OUT/r.tgz -C $OUT r
( while :; do echo "T $(date +%s.%N) $(nvidia-smi --query-gpu=memory.used --format=csv,noheader)"; sleep 0.25; done ) > $R/mem.txt &
MON=$!
LINALG_SWEEP_SEED=5 LINALG_SWEEP_PER_OP=100 timeout 120 python3 -m pytest -q -p no:cacheprovider \
  -m gpu -n 15 -rf -p no:benchmark tests/linalg/test_sweep.py > $R/sweep5.txt 2>&1
echo "rc $?" >> $R/sweep5.txt
kill $MON
tar czf $OUT/r.tgz -C $OUT r
cat $R/unpack.md; tail -3 $R/bidiag.txt; tail -3 $R/sweep5.txt; sort -k3 -n $R/mem.txt | tail -3
