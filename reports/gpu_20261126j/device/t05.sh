#!/usr/bin/env bash
# Session 2026-11-26j call 5: compute-sanitizer memcheck of scripts/sanitizer_smoke.py on main (every kernel family, trsv_split included).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
timeout 560 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/sanitizer.txt 2>&1; echo "rc=$?" >> $R/sanitizer.txt
cd $OUT && tar czf r.tgz r && rm -rf r
