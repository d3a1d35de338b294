#!/bin/bash
# Call 5: call 4's A/B again, the tree before (gemm_wide.patch reversed: kernel and launcher)
# run from its own copy, alternating old / new twice.
source scripts/device_preamble.sh
D=reports/gpu_20261129a/device
rm -rf /tmp/oldtree && mkdir /tmp/oldtree && cp -r kernels linalg scripts reports /tmp/oldtree/ \
  && patch -s -R -d /tmp/oldtree -p1 < $D/gemm_wide.patch
grep -c WIDE /tmp/oldtree/kernels/gemm.cu kernels/gemm.cu
for turn in 1 2; do
  (cd /tmp/oldtree && PYTHONPATH=/tmp/oldtree:/tmp/site timeout 100 python3 $D/p_stream_wide.py) \
    > $R/wide_old$turn.md 2>&1
  timeout 100 python3 $D/p_stream_wide.py > $R/wide_new$turn.md 2>&1
  tar czf $OUT/r.tgz -C $OUT r
done
for turn in 1 2; do
  paste -d'|' <(grep -E "^##|^- " $R/wide_old$turn.md) <(grep -E "^##|^- " $R/wide_new$turn.md) \
    | grep -A1 "^##"
done
