#!/bin/bash
# Call 4 (H100): the final gebrd_cols (peel by default, the row pass unrolled by two, the matrix
# staged by cp.async): GEBRD bench rows, the GPU suite but test_gpu_cholesky.py (unchanged code)
# beside compute-sanitizer memcheck / racecheck / synccheck of the gebrd_cols options.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/bench_blas.py --ops gebrd --output $R/bench > $R/bench_log.txt 2>&1
( for tool in memcheck racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/probe_gebrd_reg.py \
      sanitize_cols_options > $R/sanitize_$tool.txt 2>&1; echo "rc $?" >> $R/sanitize_$tool.txt
  done ) &
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests \
  --ignore=tests/linalg/test_gpu_cholesky.py > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
grep gebrd $R/bench/bench_blas.md | cut -c1-200; tail -n 3 $R/tests.txt
grep -E "^FAILED" $R/tests.txt | head; for t in memcheck racecheck synccheck; do tail -n 3 $R/sanitize_$t.txt; done
