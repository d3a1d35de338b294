#!/bin/bash
# Call 2: chol_tensor's pipelining choices one at a time (-D macros through the probe's profile
# mode, ms and cycles a phase, batch 10240) against the kernel of 6ce5a22 (out/device/kernels_old
# through LINALG_KERNEL_DIR); then the small-batch POTRF cells at n = 256 / 512.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
P="python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240"
for round in 1 2; do
LINALG_KERNEL_DIR=$PWD/out/device/kernels_old timeout 60 $P > $R/old_$round.md 2>&1
for d in "" CT_LOAD_SPLIT CT_STORE_AT_END CT_NO_LOOKAHEAD CT_LOAD_SPLIT,CT_STORE_AT_END CT_LOAD_SPLIT,CT_NO_LOOKAHEAD CT_STORE_AT_END,CT_NO_LOOKAHEAD CT_LOAD_SPLIT,CT_STORE_AT_END,CT_NO_LOOKAHEAD; do
  timeout 60 $P --defines "$d" 2>&1 | tail -3 >> $R/new_$round.md
done
done
timeout 100 python3 scripts/bench_small_batch.py --ops potrf --sizes 256,512 --batches 1,8,100 --dtype float64 --output $R/small > $R/small_log.txt 2>&1; echo "rc $?" >> $R/small_log.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/old_1.md $R/new_1.md $R/old_2.md $R/new_2.md | grep float64; cat $R/small/*.md | grep potrf; tail -2 $R/small_log.txt
