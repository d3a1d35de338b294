#!/bin/bash
# Call 8: after the review mend (cg_strip_product shared by the strips and the next diagonal
# block; ptxas merged some shared loads into vector loads): checks, the GPU tests of the global
# and cluster paths, memcheck, and the kernels timed at batch 1 / 8.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for k in global cluster8; do timeout 100 python3 scripts/probe_chol_tensor.py check --kernel $k > $R/check_$k.txt 2>&1; echo "rc $?" >> $R/check_$k.txt; tail -n 2 $R/check_$k.txt; grep FAIL $R/check_$k.txt | head -3; done
pack
(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small --kernel cluster4 > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt) &
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 12 tests/linalg/test_gpu_cholesky.py -k "global or cluster" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
wait
pack; tail -n 3 $R/tests.txt $R/memcheck.txt
timeout 60 python3 scripts/probe_chol_tensor.py clusters --dtype float64 --sizes 256,512 --batches 1,8 --output $R/clusters_f64.md > /dev/null 2> $R/err.txt
pack; cat $R/clusters_f64.md
