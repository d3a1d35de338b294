#!/bin/bash
# Call 5 (H100, the final tree): the whole GPU suite and the sanitizer smoke side by side, then
# (with the time left) tri_cols's timing grid with the default column on the old paths.
start=$(date +%s)
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
( timeout 470 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc $?" >> $R/sanitizer.txt ) &
timeout 470 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
echo "suite+sanitizer $(( $(date +%s) - start )) s" >> $R/gpu.txt
left=$((575 - ($(date +%s) - start)))
if [ $left -gt 40 ]; then timeout $left python3 scripts/probe_tri_cols.py time --dtype float64 --sizes 128,256,512 --batches 1,2,4,8,16,32 --output $R/time_f64_h100.md > $R/time.log 2>&1; fi
grep "^|" $R/time.log > $R/time_rows.md
python3 scripts/probe_tri_cols.py bounds $R/time_rows.md > $R/bounds.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
tail -3 $R/tests.txt; tail -3 $R/sanitizer.txt; cat $R/gpu.txt $R/bounds.txt
