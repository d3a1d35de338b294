#!/usr/bin/env bash
# Session 2026-11-26i call 7: the full GPU suite on the host-time changes (CuPy from sys.modules, info_array, the Launcher's written-out slot values); host A/B of small public calls, the commit before them (out/device/base) against this tree.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
for round in 1 2; do
  PYTHONPATH=$PWD/out/device/base:/tmp/site timeout 60 python3 out/device/p_host_ab.py > $R/host_base_$round.txt 2>&1
  PYTHONPATH=$PWD:/tmp/site timeout 60 python3 out/device/p_host_ab.py > $R/host_new_$round.txt 2>&1
done
paste $R/host_base_1.txt $R/host_new_1.txt | head -20
export PYTHONPATH=$PWD:/tmp/site
timeout 420 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/gpu_tests.txt 2>&1; echo "rc=$?" >> $R/gpu_tests.txt
tail -3 $R/gpu_tests.txt; grep -E "^FAILED|^ERROR" $R/gpu_tests.txt | head -20
cd $OUT && tar czf r.tgz r && rm -rf r
