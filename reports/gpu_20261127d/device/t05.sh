#!/bin/bash
# Call 5 (H100, the final tree): the whole small-batch table (every Cholesky-family / triangular
# op, TRSV, GEMV-N; n = 8-512; batch 1, 8, 100), float64 and float32: the first full rerun since
# chol_tensor, chol_global, chol_cluster and tri_tile_split.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt; date -u >> $R/gpu.txt
for dt in float64 float32; do
timeout 270 python3 scripts/bench_small_batch.py --dtype $dt --output $R/small_$dt > $R/small_$dt.log 2>&1; echo "rc $?" >> $R/small_$dt.log
pack
echo "$dt: $(grep -c 'vendor faster' $R/small_$dt/small_batch.md) vendor-faster of $(grep -c '^| [a-z]' $R/small_$dt/small_batch.md) rows"; tail -1 $R/small_$dt.log
done
