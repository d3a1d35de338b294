#!/bin/bash
# Call 4 (H100): gebrd_blocked's block size on the H100, the GEBRD bench rows (n = 8-128 at batch
# 10240, 256 at 1024, 512 at 256; seed-003 bound, torch svdvals), the GEBRD GPU tests.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 120 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests/linalg/test_gpu_bidiag.py > $R/tests_bidiag.txt 2>&1; echo "rc $?" >> $R/tests_bidiag.txt
pack
timeout 240 python3 scripts/probe_gebrd_blocked.py threads 256 512 > $R/threads.txt 2>&1
pack
timeout 330 python3 scripts/bench_blas.py --ops gemm,gebrd --output $R/bench > $R/bench_log.txt 2>&1
pack
tail -n 3 $R/tests_bidiag.txt; grep -E "^FAILED" $R/tests_bidiag.txt | head; cat $R/threads.txt; grep gebrd $R/bench/bench_blas.md; tail -n 3 $R/bench_log.txt
