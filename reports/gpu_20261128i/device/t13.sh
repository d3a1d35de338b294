#!/bin/bash
# Call 13: compute-sanitizer memcheck over the layout draw's small cases (p_memcheck_layouts.py).
source scripts/device_preamble.sh
timeout 170 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 \
  python3 reports/gpu_20261128i/device/p_memcheck_layouts.py > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
grep -v " ok$" $R/memcheck.txt | tail -30
