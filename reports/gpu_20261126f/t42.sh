#!/usr/bin/env bash
# Session 2026-11-26f call 1: full GPU tests + sanitizer on the review mend (95b8250) plus the
# chol_small NMAX = 64 warp skips (working tree); A/B of the skips against HEAD; one-launch bounds.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
( timeout 330 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -2 $R/sanitizer.txt
OUT=$R/ab1 timeout 120 bash scripts/ab_kernels.sh run --ops trtri,potri,poti --sizes 56,64 --batches 10240,100000 > /dev/null
cat $R/ab1/ab_kernels.md | head -40
OUT=$R/ab2 timeout 60 bash scripts/ab_kernels.sh run --ops potrf,trtri,potri,poti --sizes 48,64 --batches 64,512 --dtypes float64 > /dev/null
cat $R/ab2/ab_kernels.md | head -40
timeout 90 python3 scripts/probe_trtri_one_launch.py $R/ol0 0 --ops trtri,potri,poti --sizes 40,48,56,64 --batches 10240 --dtypes float64 > /dev/null 2>&1
timeout 90 python3 scripts/probe_trtri_one_launch.py $R/ol1 1 --ops trtri,potri,poti --sizes 40,48 --batches 10240 --dtypes float64 > /dev/null 2>&1
python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol1/bench_cholesky.csv > $R/trtri_one_launch.md 2>&1; cat $R/trtri_one_launch.md
timeout 90 python3 scripts/probe_trtri_one_launch.py $R/ol2 2 --ops potri,poti --sizes 40,48,56,64 --batches 10240 --dtypes float64 > /dev/null 2>&1
python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol2/bench_cholesky.csv > $R/potri_one_launch.md 2>&1; cat $R/potri_one_launch.md
tar czf $OUT/t42.tgz -C $OUT r
