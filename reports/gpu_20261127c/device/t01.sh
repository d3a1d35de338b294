#!/bin/bash
# Call 1: chol_cluster (chol_global's steps, one matrix a thread-block cluster of 2 / 4 / 8
# blocks): checked against LAPACK, memcheck on a small run, profiled, and timed against the
# public call, chol_global, torch.linalg.cholesky_ex and cuSOLVER at batches 1-32.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
python3 -c "import cupy, torch; print(cupy.__version__, torch.__version__, cupy.cuda.runtime.runtimeGetVersion())" >> $R/gpu.txt
timeout 100 python3 scripts/probe_chol_tensor.py small --kernel cluster8 > $R/small8.txt 2>&1; echo "rc $?" >> $R/small8.txt
tail -3 $R/small8.txt; pack
timeout 150 python3 scripts/probe_chol_tensor.py clusters --dtype float64 --sizes 160,256,384,512 --batches 1,2,4,8,16,32 --output $R/clusters_f64.md > $R/clusters_f64.txt 2>&1
pack; cat $R/clusters_f64.txt | tail -30
timeout 90 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,512 --batches 1 > $R/profile.txt 2>&1
timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 256,512 --batches 1 >> $R/profile.txt 2>&1
pack; cat $R/profile.txt
timeout 120 python3 scripts/probe_chol_tensor.py check --kernel cluster8 > $R/check8.txt 2>&1; echo "rc $?" >> $R/check8.txt
for c in 2 4; do timeout 60 python3 scripts/probe_chol_tensor.py small --kernel cluster$c > $R/small$c.txt 2>&1; echo "rc $?" >> $R/small$c.txt; done
pack; tail -2 $R/check8.txt $R/small2.txt $R/small4.txt; grep FAIL $R/check8.txt | head -5
timeout 130 python3 scripts/probe_chol_tensor.py clusters --dtype float32 --sizes 160,256,384,512 --batches 1,2,4,8,16,32 --output $R/clusters_f32.md > $R/clusters_f32.txt 2>&1
pack; tail -26 $R/clusters_f32.txt
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/probe_chol_tensor.py small --kernel cluster4 > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt
pack; tail -4 $R/memcheck.txt
