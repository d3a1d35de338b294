#!/usr/bin/env bash
# Session 2026-11-26g call 5: column-panel vectors in trsv_warp (transposed solves, POTRS's
# second solve). Tests (TRSV, POTRS), sanitizer, probe of all variants x vec, A/B against the
# row-only vectors (ab_base = the commit before) on TRSV LN and one-vector POTRS.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
( timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt ) &
SAN=$!
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_trsv.py tests/linalg/test_gpu_cholesky.py -k "trsv or potrs" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head
wait $SAN; tail -2 $R/sanitizer.txt
timeout 120 python3 scripts/probe_trsv_vec.py --sizes 64,128,256,512 --output $R > $R/probe.txt 2>&1
cat $R/probe_trsv_vec.md
OUT=$R/ab1 timeout 90 bash scripts/ab_kernels.sh run --script bench_blas.py --quick --ops trsv > /dev/null 2>&1
cat $R/ab1/ab_kernels.md | grep -v "^$" | head -30
OUT=$R/ab2 timeout 100 bash scripts/ab_kernels.sh run --ops potrs1 --sizes 16,24,40,64,128,256 --batches 10240 > /dev/null 2>&1
cat $R/ab2/ab_kernels.md | grep -v "^$" | head -30
tar czf $OUT/t54.tgz -C $OUT r
