#!/bin/bash
# Call 3: the seeded random sweep of the public API (tests/linalg/test_sweep.py, 420 GPU cases:
# every operation, sizes at and beside the dispatch rules' bounds, batches up to 10^6 matrices,
# NaN in what must not be read, one non-SPD matrix in some POTRF / POSV / POTI batches).
source scripts/device_preamble.sh
timeout 420 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 --durations=15 -rf tests/linalg/test_sweep.py > $R/sweep.txt 2>&1
echo "rc $?" >> $R/sweep.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; grep -v "^\.*s*\.* *\[" $R/sweep.txt | cut -c1-300 | tail -60
