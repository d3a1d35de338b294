#!/bin/bash
# Call 3: warp 0 solves the next block row, arrives at a named barrier and factors the next
# diagonal block (its A_KK loaded at the step's start) while the other warps solve the rest,
# store and update. A/B in one run against call 2's kernels (kernels_v2) and, for chol_global at
# its larger batches, the session's starting kernels (kernels_v0).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
V2=$PWD/out/device/kernels_v2; V0=$PWD/out/device/kernels_v0
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for k in global cluster8; do timeout 60 python3 scripts/probe_chol_tensor.py small --kernel $k > $R/small_$k.txt 2>&1; echo "rc $?" >> $R/small_$k.txt; tail -n 2 $R/small_$k.txt; done
timeout 90 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,384,512 --batches 1 > $R/profile.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 512 --batches 1 >> $R/profile.txt 2>&1
pack; cat $R/profile.txt
for dt in float64 float32; do
  timeout 100 python3 scripts/probe_chol_tensor.py clusters --dtype $dt --sizes 160,256,384,512 --batches 1,2,8,16,32 --output $R/clusters_${dt}.md > /dev/null 2> $R/err_$dt.txt
  LINALG_KERNEL_DIR=$V2 timeout 100 python3 scripts/probe_chol_tensor.py clusters --dtype $dt --sizes 160,256,384,512 --batches 1,2,8,16,32 --output $R/clusters_${dt}_v2.md > /dev/null 2>> $R/err_$dt.txt
  pack; paste -d' ' <(cut -d'|' -f2-3,5-9 $R/clusters_${dt}.md) <(cut -d'|' -f5-8 $R/clusters_${dt}_v2.md) | tail -n 21
done
timeout 100 python3 scripts/probe_chol_tensor.py time --kernel global --dtype float64 --sizes 256,512 --batches 64,132,264 --output $R/time_global.md > /dev/null 2> $R/err_time.txt
LINALG_KERNEL_DIR=$V0 timeout 100 python3 scripts/probe_chol_tensor.py time --kernel global --dtype float64 --sizes 256,512 --batches 64,132,264 --output $R/time_global_v0.md > /dev/null 2>> $R/err_time.txt
pack; cut -d'|' -f2-7 $R/time_global.md | tail -n 6; cut -d'|' -f2-7 $R/time_global_v0.md | tail -n 6
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py -k "global or cluster" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
pack; tail -n 3 $R/tests.txt
for k in global cluster8; do timeout 100 python3 scripts/probe_chol_tensor.py check --kernel $k > $R/check_$k.txt 2>&1; echo "rc $?" >> $R/check_$k.txt; tail -n 2 $R/check_$k.txt; grep FAIL $R/check_$k.txt | head -3; done
pack
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small --kernel cluster2 > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack; tail -n 3 $R/memcheck.txt
