#!/bin/bash
# Call 1: tri_tile_split (a cluster of 2 / 4 / 8 blocks a tile item, runs of k tiles, the sums
# met in distributed shared memory): GPU time of every split on small batches, the tile tests,
# tri_tile at batch 10240 against the kernels before (kernels_old: the session's start), and
# the public TRMM / LAUUM / SYRK / POTRI at small batches with the split rule and without.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/probe_trmm_tile.py split 128,256,384,512 1,2,8,32 > $R/split.txt 2>&1; echo "rc $?" >> $R/split.txt
pack; cat $R/split.txt | cut -c1-230
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests/linalg/test_gpu_triangular.py -k "tile or syrk or lauum" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
pack; tail -n 3 $R/tests.txt; grep -i "^FAILED\|Error" $R/tests.txt | head -5
timeout 100 python3 scripts/probe_trmm_tile.py time 128,256 > $R/time_new.txt 2>&1
LINALG_KERNEL_DIR=$PWD/out/device/kernels_old LINALG_CUDA_TILE_SPLIT=1 timeout 100 python3 scripts/probe_trmm_tile.py time 128,256 > $R/time_old.txt 2>&1
pack; cat $R/time_new.txt $R/time_old.txt | cut -c1-200
for s in 0 1; do
LINALG_CUDA_TILE_SPLIT=$s timeout 120 python3 scripts/bench_small_batch.py --ops trmm,lauum,syrk,potri --sizes 128,256,384,512 --batches 1,8,100 --output $R/small_split$s > $R/log_small_$s.txt 2>&1; echo "rc $?" >> $R/log_small_$s.txt
pack
done
paste -d' ' <(grep "^| [tlsp]" $R/small_split0/small_batch.md | cut -d'|' -f2-5,8) <(grep "^| [tlsp]" $R/small_split1/small_batch.md | cut -d'|' -f5,8)
