#!/bin/bash
# Call 9 (H100): bench_blas --ops gemm,gebrd on the final code (the seed-003 bound from the same
# run's GEMV and GEMM rates).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 330 python3 scripts/bench_blas.py --ops gemm,gebrd --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep gebrd $R/bench/bench_blas.md | cut -c1-260; tail -n 2 $R/bench_log.txt
