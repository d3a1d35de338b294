#!/bin/bash
# Call 6 (H100): dlarfg's shared arithmetic in householder.cuh (norm_safe, scale_exp,
# larfg_finish for gebrd.cu's group_larfg and labrd.cu's lb_larfg and fused sweep; the same
# floating-point instructions): GEBRD bench rows against call 4, the GEBRD GPU tests beside
# compute-sanitizer memcheck of gebrd_cols's options and of forced gebrd_blocked runs.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/bench_blas.py --ops gebrd --output $R/bench > $R/bench_log.txt 2>&1
( timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_reg.py \
    sanitize_cols_options > $R/sanitize_cols.txt 2>&1; echo "rc $?" >> $R/sanitize_cols.txt
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py \
    sanitize > $R/sanitize_blocked.txt 2>&1; echo "rc $?" >> $R/sanitize_blocked.txt ) &
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_bidiag.py \
  > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
wait
tar czf $OUT/r.tgz -C $OUT r
grep gebrd $R/bench/bench_blas.md | cut -c1-120; tail -n 3 $R/tests_bidiag.txt
grep -E "^FAILED" $R/tests_bidiag.txt | head; tail -n 3 $R/sanitize_cols.txt $R/sanitize_blocked.txt
