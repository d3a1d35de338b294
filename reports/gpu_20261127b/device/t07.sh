#!/bin/bash
# Call 7: chol_global left-looking (the strips in registers, L read back from the output):
# checked, forced-path GPU tests, memcheck, profiled, and timed against the default path and
# cuSOLVER, beside the right-looking kernel of 3978fc7 (out/device/kernels_rl through
# LINALG_KERNEL_DIR). Results tarred after each step (the device budget may end the call).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
P="python3 scripts/probe_chol_tensor.py"
timeout 120 $P check --kernel global > $R/check.txt 2>&1; echo "rc $?" >> $R/check.txt; pack
timeout 30 $P profile --kernel global --sizes 256,512 --batches 1 > $R/profile.md 2>&1; pack
timeout 120 $P time --kernel global --dtype float64 --sizes 160,256,384,512 --batches 1,2,8,32,100,264,400,600 --output $R/time_f64.md > /dev/null 2> $R/time_err.txt; pack
LINALG_KERNEL_DIR=$PWD/out/device/kernels_rl timeout 60 $P time --kernel global --dtype float64 --sizes 256,512 --batches 1,8,100 --output $R/time_f64_rl.md > /dev/null 2>> $R/time_err.txt; pack
timeout 90 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_cholesky.py -k "global" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt; pack
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $P small --kernel global > $R/memcheck.txt 2>&1; echo "rc $?" >> $R/memcheck.txt; pack
timeout 60 $P time --kernel global --dtype float32 --sizes 160,256,384,512 --batches 1,8,100,264 --output $R/time_f32.md > /dev/null 2>> $R/time_err.txt; pack
tail -2 $R/check.txt; grep FAIL $R/check.txt | head -3; grep float $R/profile.md; cut -d'|' -f2-10 $R/time_f64.md | grep "^ [0-9]"; cut -d'|' -f2-10 $R/time_f64_rl.md | grep "^ [0-9]"; tail -2 $R/tests.txt; tail -2 $R/memcheck.txt; cut -d'|' -f2-10 $R/time_f32.md | grep "^ [0-9]"; tail -2 $R/time_err.txt
