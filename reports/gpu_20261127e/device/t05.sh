#!/bin/bash
# Call 5 (H100): labrd_panel's fused sweep (the row pass of step i and the column sums of step
# i + 1 in one read of the trailing rows) against the separate passes (fuse = 0): memcheck of
# forced small runs, the GEBRD GPU tests, the sweep of block size / panel width / fuse.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py sanitize > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
pack
timeout 300 python3 scripts/probe_gebrd_blocked.py threads 256 512 > $R/threads.txt 2>&1
pack
tail -n 2 $R/memcheck.txt; tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head -20; grep -E "Error|error" $R/tests_bidiag.txt | head -5; cat $R/threads.txt
