#!/bin/bash
# Call 2: tri_tile (DMMA, a tile a matrix) against tri_block at 33 <= n <= 64 (p_block_tile.py),
# memcheck of tri_tile on those sizes (small_tile.py).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128e/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 120 python3 $D/p_block_tile.py --sizes 33,36,40,44,48,52,57,60,64 --batches 1000,10240 > $R/bt64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 90 python3 $D/p_block_tile.py --dtype float32 --sizes 33,40,48,57,64 --batches 1000,10240 > $R/bt32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 $D/small_tile.py > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/memcheck.txt; cat $R/bt64.md | cut -c1-200 | head -80
