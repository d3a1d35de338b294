#!/bin/bash
# Call 18 (H100): the GEBRD bench rows on the final kernel (bench_blas --ops gemm,gebrd).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/bench_blas.py --ops gemm,gebrd --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep gebrd $R/bench/bench_blas.md; tail -n 2 $R/bench_log.txt
