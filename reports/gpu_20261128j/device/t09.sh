#!/bin/bash
# Call 9: call 8's A/B again on the forms the public API takes (p_gemm_entry_ab.py, fixed).
source scripts/device_preamble.sh
D=reports/gpu_20261128j/device
timeout 100 python3 $D/p_gemm_entry_ab.py > $R/gemm_entry_ab.md 2> $R/gemm_entry_ab.err
echo "rc $?" >> $R/gemm_entry_ab.md; tar czf $OUT/r.tgz -C $OUT r
cat $R/gemm_entry_ab.md; tail -3 $R/gemm_entry_ab.err
