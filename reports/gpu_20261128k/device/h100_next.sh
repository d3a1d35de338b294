#!/bin/bash
# Prepared for the next session (not run): on an H100, if one is lent (gemm_stream and
# gemv_stream were measured on the H200 only; the H100's table has no "stream" entries). The
# tuner's gemm_rows stage (gemm_stream candidates, rows rules, public time) installed into the
# H100's table, the GEMV ring swept on the hydro shapes, and the public A/B of the tuned GEMM
# table against the committed one. About 6 minutes. Then: keep the classes that gain in the
# A/B (as reports/gpu_20261128k calls 2-3 did), write gemv_stream entries where the sweep
# gains >= 5 % (call 5), A/B them (p_gemv_table_ab.py, call 6), run the GEMM / GEMV GPU tests.
source scripts/device_preamble.sh
D=reports/gpu_20261128k/device
G=linalg/tuning/nvidia_h100_80gb_hbm3.json
cp $G $R/old_h100.json
timeout 260 python3 scripts/tune_blas.py --stages gemm_rows --budget-s 200 --output $R/tune \
  --install > $R/tune.txt 2>&1; echo "rc $?" >> $R/tune.txt
cp $G $R/new_h100.json
tar czf $OUT/r.tgz -C $OUT r
timeout 100 python3 $D/p_table_ab.py $R/old_h100.json --zones 40960 > $R/table_ab.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 $D/p_gemv_stream.py > $R/gemv_stream.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/tune.txt $R/table_ab.md; cut -c1-150 $R/gemv_stream.md
