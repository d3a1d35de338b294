#!/usr/bin/env bash
# Session 2026-11-26h call 11: trsv_block with the diagonal blocks staged by the other warps: tests, memcheck + racecheck, block grid.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 out/device/p_sanitize_block.py > $R/sanitizer_block.txt 2>&1; echo "rc=$?" >> $R/sanitizer_block.txt
tail -2 $R/sanitizer_block.txt
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 python3 out/device/p_sanitize_block.py > $R/racecheck_block.txt 2>&1; echo "rc=$?" >> $R/racecheck_block.txt
tail -2 $R/racecheck_block.txt
timeout 200 python3 scripts/probe_trsv_vec.py --block-grid --sizes 64,128,256,512 --batches 1,2,8,256,512 --output $R > $R/block_grid.log 2>&1; echo "block rc=$?" >> $R/block_grid.log
tail -n 2 $R/block_grid.log
cd $OUT && tar czf r.tgz r && rm -rf r
