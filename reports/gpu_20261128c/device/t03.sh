#!/bin/bash
# Session 2026-11-28c, call 3: the LAUUM rule's GPU tests (n = 56-64 from 1000 matrices); the
# TRMM / SYRK paths at the n where call 2 found them behind the dense product
# (device/p_trmm_syrk.py, float64 then float32); the odd-size sweep in float32.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
timeout 120 python3 -m pytest -q -p no:cacheprovider -m gpu -n 8 tests/linalg/test_gpu_triangular.py -k "lauum" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 130 python3 reports/gpu_20261128c/device/p_trmm_syrk.py > $R/paths64.md 2>&1
echo "rc $?" >> $R/paths64.md
tar czf $OUT/r.tgz -C $OUT r
timeout 80 python3 reports/gpu_20261128c/device/p_trmm_syrk.py --dtype float32 --trmm 40,57,72,81,100,129,150,200 --syrk 36,40,44,52 > $R/paths32.md 2>&1
echo "rc $?" >> $R/paths32.md
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/bench_cholesky.py --dtypes float32 --sizes 5,12,27,40,57,100,150,200 --batches 100,1000,10240 --output $R/f32 > $R/f32.log 2>&1
echo "rc $?" >> $R/f32.log
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; cat $R/paths64.md $R/paths32.md; tail -n 1 $R/f32.log
python3 - $R/f32/bench_cholesky.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), "float32 rows; slower:")
for r in rows:
    if float(r["speedup"]) < 1.0:
        print(" ", r["op"], r["n"], r["batch"], r["ours_ms"], r["backend_ms"], r["vendor_ms"], r["vendor"], r["speedup"])
PY
