#!/usr/bin/env bash
# Session 2026-11-26j call 10: TRMM's small-batch tile rule: GPU tests of TRMM / LAUUM / the tiles, and public calls before / after (p_trmm_small.py).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv > $R/gpu.txt 2>&1
timeout 200 python3 out/device/p_trmm_small.py > $R/trmm_small.txt 2>&1; echo "rc=$?" >> $R/trmm_small.txt
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests -k "trmm or lauum or tile or potri or poti" > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r
