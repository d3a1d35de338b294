#!/bin/bash
# Call 4 (H100): compute-sanitizer racecheck and synccheck of tri_tile_split (2 / 4 / 8 blocks
# an item, a one-cluster grid, TRMM both sides, LAUUM both triangles, SYRK; small sizes), the
# split probe on this GPU, and the public TRMM / LAUUM / SYRK / POTRI / POTI at small batches with
# the split rule and without (LINALG_CUDA_TILE_SPLIT=1) in one run.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
cat > /tmp/split_small.py <<'PY'
import cupy, numpy
from linalg._cuda import triangular as T
g = numpy.random.default_rng(0)
for dt in (numpy.float32, numpy.float64):
    for n, s, cap in ((70, 8, 0), (130, 4, 1), (200, 2, 0)):
        T.TILE_SPLIT, T.TILE_GRID = s, cap
        a = cupy.asarray(g.standard_normal((2, n, n)), dtype=dt)
        for lower in (True, False):
            T.tile_trmm(a, a, False, lower, False, False, 0.5)
            T.tile_trmm(a, a, True, lower, True, False, 1.0)
            T.tile_lauum(a, lower)
        T.tile_syrk(a, False)
cupy.cuda.runtime.deviceSynchronize()
print("split small run done")
PY
for tool in racecheck synccheck; do
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 python3 /tmp/split_small.py > $R/$tool.txt 2>&1; echo "rc $?" >> $R/$tool.txt
  tail -n 3 $R/$tool.txt
done
pack
timeout 150 python3 scripts/probe_trmm_tile.py split 128,256,384,512 1,2,8 > $R/split.txt 2>&1; echo "rc $?" >> $R/split.txt
pack; grep float64 $R/split.txt | cut -c1-200
for s in 0 1; do
LINALG_CUDA_TILE_SPLIT=$s timeout 100 python3 scripts/bench_small_batch.py --ops trmm,lauum,syrk,potri,poti --sizes 256,384,512 --batches 1,2,8 --output $R/small_split$s > $R/log_small_$s.txt 2>&1; echo "rc $?" >> $R/log_small_$s.txt
pack
done
paste -d' ' <(grep "^| [tlsp]" $R/small_split0/small_batch.md | cut -d'|' -f2-5,7,9) <(grep "^| [tlsp]" $R/small_split1/small_batch.md | cut -d'|' -f5,7,9)
