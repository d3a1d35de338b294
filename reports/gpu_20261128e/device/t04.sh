#!/bin/bash
# Call 4: tri_tile's masked tiles staged by 16-byte runs (tt_put_run: a run inside the matrix and
# the triangle is one copy) against the committed kernels/trmm.cu (`git show e82dd21:kernels/
# trmm.cu`, carried as device/old/trmm.cu for the call): sanitizers, the A/B twice in turn, the
# GPU tests of the tiles' users.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128e/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
S=/usr/local/cuda/bin/compute-sanitizer
timeout 100 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_tile.py > $R/memcheck_tile.txt 2>&1; echo "rc $?" >> $R/memcheck_tile.txt
timeout 100 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 reports/gpu_20261128d/device/small_tri.py > $R/memcheck_tri.txt 2>&1; echo "rc $?" >> $R/memcheck_tri.txt
timeout 100 $S --tool racecheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_tile.py > $R/racecheck_tile.txt 2>&1; echo "rc $?" >> $R/racecheck_tile.txt
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/trmm.cu /tmp/oldk/
for turn in 1 2; do
  for tree in old new; do
    if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
    timeout 60 python3 reports/gpu_20261128d/device/p_ragged.py --sizes 72,100,200 --batches 10240 --trmm LNl,LTl,LNr,UNr,LTr --lauum L,U --syrk > $R/rag64_${tree}$turn.md 2>&1
    timeout 30 python3 reports/gpu_20261128d/device/p_ragged.py --dtype float32 --sizes 100,200 --batches 10240 --trmm LNl,LNr --lauum L > $R/rag32_${tree}$turn.md 2>&1
    timeout 40 python3 $D/p_block_tile.py --sizes 48,60,64 --batches 10240 --trmm LNl,LTl,LNr,UTr --lauum "" > $R/bt_${tree}$turn.md 2>&1
  done
done
unset LINALG_KERNEL_DIR
tar czf $OUT/r.tgz -C $OUT r
timeout 230 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck_*.txt $R/racecheck_tile.txt
