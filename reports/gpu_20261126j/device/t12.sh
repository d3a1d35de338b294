#!/usr/bin/env bash
# Session 2026-11-26j call 12: memcheck of TRMM on small batches at the fill-excluded n (now on tri_tile), and the whole GPU suite on the final tree.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv > $R/gpu.txt 2>&1
git log --oneline -1 >> $R/gpu.txt 2>&1
timeout 170 compute-sanitizer --tool memcheck --error-exitcode 9 python3 out/device/p_sanitize_trmm.py > $R/sanitizer_trmm.txt 2>&1; echo "rc=$?" >> $R/sanitizer_trmm.txt
timeout 410 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r
