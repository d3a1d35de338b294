#!/bin/bash
# Call 7: the second half of the GPU suite (everything but test_gpu_cholesky.py), then the GEBRD
# bench rows with the fused panel kernel (bench_blas --ops gemm,gebrd: the GEMM rates feed the
# seed-003 bound).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 400 python3 -m pytest -m gpu -q -p no:cacheprovider -n 15 tests --ignore=tests/linalg/test_gpu_cholesky.py > $R/tests_other.txt 2>&1; echo "rc $?" >> $R/tests_other.txt
pack
timeout 180 python3 scripts/bench_blas.py --ops gemm,gebrd --output $R/bench > $R/bench_log.txt 2>&1
pack
tail -n 3 $R/tests_other.txt; grep -E "^FAILED" $R/tests_other.txt | head -20; grep gebrd $R/bench/bench_blas.md; tail -n 2 $R/bench_log.txt
