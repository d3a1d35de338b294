#!/bin/bash
# Call 3: TRMM at n = 64 on tri_tile from TILE_FULL_FROM matrices -- the batch sweep
# (p_tile64_batch.py), the GPU tests of TRMM, the public bench of TRMM at n = 48-64.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128e/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 150 python3 $D/p_tile64_batch.py > $R/tile64_f64.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 40 python3 $D/p_tile64_batch.py --dtype float32 --batches 30000,100000 --trmm LNl,LTl,LNr > $R/tile64_f32.md 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 120 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm --sizes 48,60,64 --batches 1000,4096,10240,100000 --output $R/pub > $R/pub.log 2>&1
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_keep.py -k "trmm or tile or block" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep "all" $R/tile64_f64.md; cat $R/tile64_f32.md | cut -c1-160
