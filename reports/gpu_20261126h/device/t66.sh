#!/usr/bin/env bash
# Session 2026-11-26h call 4: block warps by batch, cuBLAS trsv for one matrix: tests, batch 1/2/512 grid, host profile.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt
timeout 100 python3 out/device/p_host_trsv.py > $R/host_trsv.txt 2>&1; echo "rc=$?" >> $R/host_trsv.txt
timeout 200 python3 scripts/probe_trsv_vec.py --block-grid --sizes 64,128,256,512 --batches 1,2,512 --output $R > $R/block_grid.log 2>&1; echo "block rc=$?" >> $R/block_grid.log
tail -n 2 $R/block_grid.log
cd $OUT && tar czf r.tgz r && rm -rf r
