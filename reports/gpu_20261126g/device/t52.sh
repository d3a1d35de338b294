#!/usr/bin/env bash
# Session 2026-11-26g call 3: one-vector POTRS grid (lanes x register cap x vec); TRSV tuner at
# n = 128 / 256 / 512 with wider vectors allowed (W * vec <= 128).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 230 python3 scripts/probe_trsv_vec.py --potrs-grid --sizes 16,24,48,64,96,128,256 --output $R > $R/potrs_grid.txt 2>&1; echo "rc=$?" >> $R/potrs_grid.txt
cat $R/potrs_grid.txt
timeout 300 python3 scripts/tune_blas.py --stages trsv --dtypes float32,float64 --squares 128,256,512 --budget-s 270 --output $R/tune > $R/tune.txt 2>&1
tail -8 $R/tune.txt
tar czf $OUT/t52.tgz -C $OUT r
