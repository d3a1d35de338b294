#!/bin/bash
# Call 3 (the committed rules: TRTRI float64 / float32, POTRI float64 / float32 and POTI float64
# on the triangle kernels up to n = 192): the probe at the NT = 5-6 sizes between (n = 129 pads
# 31 rows of 32), the recursion's blocks at n = 320 / 384, and small batches against the vendor.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/probe_triangle_192.py --sizes 129,136,144,176 --batches 1000,10240 --ops trtri,potri,poti > $R/probe_between.md 2>&1
echo "rc $?" >> $R/probe_between.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/probe_triangle_192.py --sizes 320,384 --batches 1000,3000 --ops trtri,potri,poti > $R/probe_large.md 2>&1
echo "rc $?" >> $R/probe_large.md
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/bench_small_batch.py --ops trtri,potri,poti --sizes 136,160,192,384 --batches 1,8,100 --output $R/small64 > $R/small64.txt 2>&1
echo "rc $?" >> $R/small64.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 scripts/bench_small_batch.py --ops trtri,potri --sizes 160,192 --batches 1,8,100 --dtype float32 --output $R/small32 > $R/small32.txt 2>&1
echo "rc $?" >> $R/small32.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/probe_between.md $R/probe_large.md; tail -n 25 $R/small64.txt; tail -n 12 $R/small32.txt
