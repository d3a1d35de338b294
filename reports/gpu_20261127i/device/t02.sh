#!/bin/bash
# Call 2 (H100): latency of the diagonal chain's links (scripts/probe_chain_latency.py), and
# chol_tensor at NT = 2 with 64 threads a block (8 blocks an SM by registers and shared memory)
# against 128 (4 blocks).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chain_latency.py --output $R/chain.md > $R/chain_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
for round in 1 2; do
  for t in 128 64; do
    timeout 150 python3 scripts/probe_chol_tensor.py profile --sizes 40,64 --batches 10240 \
      --threads $t >> $R/profile_threads.md 2>&1
  done
  tar czf $OUT/r.tgz -C $OUT r
done
cat $R/gpu.txt; cat $R/chain_log.txt; grep -E "^\| float" $R/profile_threads.md
