#!/bin/bash
# Call 5: chol_tensor_trmm skipping the strips wholly past n (skip.patch), against the kernel
# before it (the patch reversed in /tmp/oldtree), alternating processes; its tests and memcheck;
# the small-batch table of TRMM with the committed rules (bench_small_batch.py).
source scripts/device_preamble.sh
D=reports/gpu_20261129e/device
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/skip.patch)
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 \
  tests/linalg/test_gpu_triangular.py -k "tensor_tri or tensor_trmm" > $R/tests_trmm.txt 2>&1
tail -n 2 $R/tests_trmm.txt
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 $D/small_trmm.py \
  > $R/memcheck_trmm.txt 2>&1; echo "memcheck rc $?" >> $R/memcheck_trmm.txt
tail -n 2 $R/memcheck_trmm.txt
tar czf $OUT/r.tgz -C $OUT r
for tree in $PWD /tmp/oldtree $PWD /tmp/oldtree; do
  echo "tree $tree"
  (cd $tree && PYTHONPATH=$tree:/tmp/site timeout 40 python3 $D/p_trmm.py float64 65,72,80,96 \
    10240 LN,RN | grep "| float64")
done > $R/skip_ab.md 2>&1; cat $R/skip_ab.md
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_small_batch.py --ops trmm --sizes 8,32,64,72,96,112,128,160,256,512 --output $R/small > $R/small.txt 2>&1
tail -n 5 $R/small.txt
tar czf $OUT/r.tgz -C $OUT r
