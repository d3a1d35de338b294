#!/bin/bash
# Call 2: gebrd_blocked (kernels/labrd.cu + GEMMs) first run: the GEBRD GPU tests, memcheck of a
# small forced run, times against gebrd_team / gebrd_cols.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_gebrd_blocked.py sanitize > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack
timeout 240 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 -x tests/linalg/test_gpu_bidiag.py -k "blocked or plan or square or zero or extreme" > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
pack
timeout 200 python3 scripts/probe_gebrd_blocked.py times 128 192 256 512 > $R/times.txt 2>&1
pack
tail -n 3 $R/memcheck.txt; tail -n 5 $R/tests_bidiag.txt; grep -E "^FAILED|Error" $R/tests_bidiag.txt | head -20; cat $R/times.txt
