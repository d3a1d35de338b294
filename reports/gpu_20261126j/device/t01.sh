#!/usr/bin/env bash
# Session 2026-11-26j call 1: fused POTRF panels against the GEMM panels (probe), and the GPU tests of the Cholesky family / TRSV (fused panels in the dispatch; the review mend of 04bc827).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
timeout 200 python3 scripts/probe_potrf_panels.py --fused --sizes 33,64,96,128,256,512 --options ";-DPANEL_UPDATE_UNROLL=2;-DPANEL_STAGE_GROUP=16" --output $R > $R/fused.txt 2>&1; echo "rc=$?" >> $R/fused.txt
timeout 330 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests -k "potrf or trsv or potrs or posv or poti" -x > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r
