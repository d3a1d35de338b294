#!/bin/bash
# Call 8 (H100): labrd_panel's row walks from the 128-byte line of their first entry (seed 003's
# padding) against the kernels of 46c3a44 (out/device/kernels_base), interleaved twice
# (probe_gebrd_blocked.py default); the GEBRD GPU tests and memcheck of forced gebrd_blocked runs.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for side in base new; do
    dir=$PWD/kernels; [ $side = base ] && dir=$PWD/out/device/kernels_base
    echo "== round $round $side" >> $R/ab.txt
    LINALG_KERNEL_DIR=$dir timeout 100 python3 scripts/probe_gebrd_blocked.py default 256 300 512 >> $R/ab.txt 2>&1
  done
done
( timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py \
    sanitize > $R/sanitize_blocked.txt 2>&1; echo "rc $?" >> $R/sanitize_blocked.txt ) &
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_bidiag.py \
  > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
wait
tar czf $OUT/r.tgz -C $OUT r
cut -c1-300 $R/ab.txt; tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head
tail -n 3 $R/sanitize_blocked.txt
