#!/bin/bash
# Call 1 (H100): gebrd_cols `last_warp` -- pick against the table's rows (float64 n = 48 / 64 /
# 128, float32 128), the GEBRD bench rows with the picked rows, the GEBRD GPU tests beside
# compute-sanitizer memcheck / racecheck / synccheck of the gebrd_cols options.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 150 python3 scripts/probe_gebrd_reg.py pick float64:64:last_warp \
  float64:48:last_warp float64:128:last_warp float32:128:last_warp > $R/pick.txt 2>&1
cp linalg/tuning/nvidia_h100_80gb_hbm3.json $R/ 2>/dev/null
timeout 150 python3 scripts/bench_blas.py --ops gebrd --output $R/bench > $R/bench_log.txt 2>&1
( for tool in memcheck racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/probe_gebrd_reg.py \
      sanitize_cols_options > $R/sanitize_$tool.txt 2>&1; echo "rc $?" >> $R/sanitize_$tool.txt
  done ) &
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
wait
tar czf $OUT/r.tgz -C $OUT r
cat $R/pick.txt | cut -c1-900; grep gebrd $R/bench/bench_blas.md; tail -n 3 $R/tests_bidiag.txt
grep -E "^FAILED" $R/tests_bidiag.txt | head; for t in memcheck racecheck synccheck; do tail -n 3 $R/sanitize_$t.txt; done
