#!/bin/bash
# Call 3: the whole GPU suite on the final kernels and rules (tri_tile_split's launches forced in
# the tile tests), beside compute-sanitizer memcheck of scripts/sanitizer_smoke.py (its
# tri_tile_split section included).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
(timeout 555 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 560 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
tar czf $OUT/r.tgz -C $OUT r
tail -n 3 $R/tests.txt; grep -i "^FAILED\|^ERROR" $R/tests.txt | head -8; tail -n 3 $R/memcheck.txt
