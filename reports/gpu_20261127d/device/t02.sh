#!/bin/bash
# Call 2: host time of the small TRMM / LAUUM calls (profile_host.py: public, backend, the tile
# path, the vendor's products; cProfile of the public calls), then the public TRMM / LAUUM /
# SYRK / POTRI at small batches with the measured split rule and without (LINALG_CUDA_TILE_SPLIT=1).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 150 python3 scripts/profile_host.py > $R/profile_host.txt 2>&1; echo "rc $?" >> $R/profile_host.txt
pack; head -40 $R/profile_host.txt
for s in 0 1; do
LINALG_CUDA_TILE_SPLIT=$s timeout 150 python3 scripts/bench_small_batch.py --ops trmm,lauum,syrk,potri --sizes 128,256,384,512 --batches 1,2,8,32,100 --output $R/small_split$s > $R/log_small_$s.txt 2>&1; echo "rc $?" >> $R/log_small_$s.txt
pack
done
paste -d' ' <(grep "^| [tlsp]" $R/small_split0/small_batch.md | cut -d'|' -f2-5,7,9) <(grep "^| [tlsp]" $R/small_split1/small_batch.md | cut -d'|' -f5,7,9)
