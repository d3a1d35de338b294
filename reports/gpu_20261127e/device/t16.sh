#!/bin/bash
# Call 16 (H100): the float32 257 x 257 reference mismatch of call 15: where, and with which path.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
echo "== new" > $R/dbg.txt
timeout 120 python3 reports/gpu_20261127e/device/dbg257.py >> $R/dbg.txt 2>&1
echo "== 1row" >> $R/dbg.txt
LINALG_KERNEL_DIR=$PWD/out/device/kernels_1row timeout 120 python3 reports/gpu_20261127e/device/dbg257.py >> $R/dbg.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/dbg.txt
