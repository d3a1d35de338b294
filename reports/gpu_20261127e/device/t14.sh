#!/bin/bash
# Call 14 (H100): as call 13, the accumulation skipped for row i + 1 alone (as the one-row sweep did)
# against one row (out/device/kernels_1row): GEBRD tests, memcheck, A/B in one run.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
pack
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py sanitize > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack
for round in 1 2; do
  for k in 1row new; do
    if [ $k = 1row ]; then export LINALG_KERNEL_DIR=$PWD/out/device/kernels_1row; else unset LINALG_KERNEL_DIR; fi
    echo "== $k (round $round)" >> $R/ab.txt
    timeout 100 python3 scripts/probe_gebrd_blocked.py default 256 512 >> $R/ab.txt 2>&1
  done
done
unset LINALG_KERNEL_DIR
pack
tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head; tail -n 2 $R/memcheck.txt; cat $R/ab.txt
