#!/bin/bash
# Call 6: the tall one-B GEMM's rows rules with a zone's own height among the candidates
# (tune_blas.py gemm_rows stage; the bench's "cupy.matmul batched" form of float64 192x216
# (27x216)^T was 1.10x the one tall call the table runs), written to $R/tune (installed by hand
# from there), then the bench's hydro GEMM rows with those entries installed in this tree.
source scripts/device_preamble.sh
timeout 300 python3 scripts/tune_blas.py --stages gemm_rows --dtypes float64,float32 \
  --budget-s 280 --output $R/tune --install > $R/tune.txt 2>&1; tail -n 12 $R/tune.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_blas.py --ops hydro --output $R/bench > $R/bench.txt 2>&1
grep gemm_AzBt $R/bench/*.md | head -20
tar czf $OUT/r.tgz -C $OUT r
