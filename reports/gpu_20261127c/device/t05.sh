#!/bin/bash
# Call 5: chol_global / chol_cluster with chol_factor_32 (column j's updates but the next pivot
# column's deferred to step j + 1, under its pivot's reciprocal square root) against
# chol_potrf_phase (kernels_plain: CG_PLAIN_FACTOR) in one run; checks, the cholesky GPU tests
# of both paths, and the public POTRF at small batches.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
P=$PWD/out/device/kernels_plain
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for k in global cluster8; do timeout 60 python3 scripts/probe_chol_tensor.py small --kernel $k > $R/small_$k.txt 2>&1; echo "rc $?" >> $R/small_$k.txt; tail -n 2 $R/small_$k.txt; done
timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,512 --batches 1 > $R/profile.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,512 --batches 1 --defines CG_PLAIN_FACTOR >> $R/profile.txt 2>&1
pack; cat $R/profile.txt
for dt in float64 float32; do
  timeout 80 python3 scripts/probe_chol_tensor.py clusters --dtype $dt --sizes 160,256,384,512 --batches 1,8,32 --output $R/clusters_${dt}.md > /dev/null 2> $R/err_$dt.txt
  LINALG_KERNEL_DIR=$P timeout 80 python3 scripts/probe_chol_tensor.py clusters --dtype $dt --sizes 160,256,384,512 --batches 1,8,32 --output $R/clusters_${dt}_plain.md > /dev/null 2>> $R/err_$dt.txt
  pack; paste -d' ' <(cut -d'|' -f2-3,5-9 $R/clusters_${dt}.md) <(cut -d'|' -f5-8 $R/clusters_${dt}_plain.md) | tail -n 12
done
for k in global cluster8; do timeout 100 python3 scripts/probe_chol_tensor.py check --kernel $k > $R/check_$k.txt 2>&1; echo "rc $?" >> $R/check_$k.txt; tail -n 2 $R/check_$k.txt; grep FAIL $R/check_$k.txt | head -3; done
pack
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py -k "global or cluster" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
pack; tail -n 3 $R/tests.txt
for dt in float64 float32; do
timeout 100 python3 scripts/bench_small_batch.py --ops potrf --sizes 160,256,384,512 --batches 1,2,8,16,32,64,100 --dtype $dt --output $R/potrf_$dt > $R/log_potrf_$dt.txt 2>&1; echo "rc $?" >> $R/log_potrf_$dt.txt
pack; grep "^| potrf" $R/potrf_$dt/*.md
done
