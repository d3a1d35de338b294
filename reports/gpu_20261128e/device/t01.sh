#!/bin/bash
# Call 1: tri_block staging by 16-byte chunks + right TRMM tile stores in pairs (the two patches
# of reports/gpu_20261128d, applied) against the committed kernels (device/old/), then tests.
# device/old/ held the committed kernels (git show 2d768e6:kernels/tri_block.cu, ...:kernels/trmm.cu),
# the patches were applied to kernels/ for the call (both since reverted).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128e/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
for tool in memcheck racecheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=tri_ python3 reports/gpu_20261128d/device/small_tri.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt
done
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/tri_block.cu $D/old/trmm.cu /tmp/oldk/
for turn in 1 2; do
  for tree in old new; do
    if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
    timeout 60 python3 reports/gpu_20261128d/device/p_ragged.py --sizes 33,40,48,57,64 --batches 10240 > $R/b64_${tree}$turn.md 2>&1
    timeout 40 python3 reports/gpu_20261128d/device/p_ragged.py --dtype float32 --sizes 40,48,57,64 --batches 10240 --trmm LNl,LTl,LNr --lauum L > $R/b32_${tree}$turn.md 2>&1
    timeout 60 python3 reports/gpu_20261128d/device/p_ragged.py --sizes 72,100,128,150,200,256 --batches 1000,10240 --trmm LNr,UNr,LTr --lauum "" > $R/right_${tree}$turn.md 2>&1
  done
done
unset LINALG_KERNEL_DIR
tar czf $OUT/r.tgz -C $OUT r
timeout 290 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trmm or lauum or block or potri" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt $R/memcheck.txt $R/racecheck.txt
