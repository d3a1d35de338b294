#!/bin/bash
# Call 5: the sweep's batch forms on the GPU (test_sweep_layouts_gpu: padded rows, spaced
# matrices, matrices by columns, pointer lists, in-place calls; nothing written around an
# operand, no operand changed without its overwrite flag): the default draw (30 an operation),
# then draws of 100 an operation of seeds 1 and 2.
source scripts/device_preamble.sh
T="-m gpu -n 15 -rf -p no:benchmark -p no:cacheprovider -q tests/linalg/test_sweep.py -k layouts_gpu"
timeout 120 python3 -m pytest $T > $R/layouts.txt 2>&1
echo "rc $?" >> $R/layouts.txt
tar czf $OUT/r.tgz -C $OUT r
for s in 1 2; do
  LINALG_SWEEP_SEED=$s LINALG_SWEEP_PER_OP=100 timeout 110 python3 -m pytest $T \
    > $R/layouts_seed$s.txt 2>&1
  echo "rc $?" >> $R/layouts_seed$s.txt
  tar czf $OUT/r.tgz -C $OUT r
done
for f in $R/layouts*.txt; do echo "== $f"; grep -E "^FAILED|passed|failed|^rc" $f | cut -c1-400 | tail -25; done
