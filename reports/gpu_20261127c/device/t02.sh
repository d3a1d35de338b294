#!/bin/bash
# Call 2: chol_global / chol_cluster with warp 0 factoring the next diagonal block under the
# other warps' updates (and the rows below loaded while warp 0 copies the factored block):
# checked, profiled, timed at batches 1-64 against the public call and the vendors, the GPU
# tests of the global and cluster paths, memcheck.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for k in global cluster8; do timeout 60 python3 scripts/probe_chol_tensor.py small --kernel $k > $R/small_$k.txt 2>&1; echo "rc $?" >> $R/small_$k.txt; tail -n 2 $R/small_$k.txt; done
timeout 90 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 160,256,384,512 --batches 1 > $R/profile.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 256,512 --batches 1 >> $R/profile.txt 2>&1
pack; cat $R/profile.txt
timeout 150 python3 scripts/probe_chol_tensor.py clusters --dtype float64 --sizes 160,256,384,512 --batches 1,2,4,8,12,16,24,32,48,64 --output $R/clusters_f64.md > $R/clusters_f64.txt 2>&1
pack; tail -n 42 $R/clusters_f64.txt
timeout 120 python3 scripts/probe_chol_tensor.py clusters --dtype float32 --sizes 160,256,384,512 --batches 1,2,4,8,16,32 --output $R/clusters_f32.md > $R/clusters_f32.txt 2>&1
pack; tail -n 26 $R/clusters_f32.txt
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py -k "global or cluster" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
pack; tail -n 3 $R/tests.txt
for k in global cluster8; do timeout 100 python3 scripts/probe_chol_tensor.py check --kernel $k > $R/check_$k.txt 2>&1; echo "rc $?" >> $R/check_$k.txt; tail -n 2 $R/check_$k.txt; grep FAIL $R/check_$k.txt | head -3; done
pack
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small --kernel cluster2 > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack; tail -n 3 $R/memcheck.txt
