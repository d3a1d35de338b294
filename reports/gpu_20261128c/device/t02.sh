#!/bin/bash
# Session 2026-11-28c, call 2: "never slower than the vendor" at sizes between the table's
# (odd n, the rules' edges) and batch counts 1-10 240: scripts/bench_cholesky.py, float64, every
# Cholesky-family / triangular operation, three size groups under their own time limits.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
run() {  # name, limit, sizes, batches
  timeout $2 python3 scripts/bench_cholesky.py --dtypes float64 --sizes $3 --batches $4 \
    --output $R/$1 > $R/$1.log 2>&1
  echo "rc $?" >> $R/$1.log
  tar czf $OUT/r.tgz -C $OUT r
}
run small 230 3,5,7,12,20,27,40,57,81,100 1,100,1000,10240
run mid 170 129,150,200,250 1,100,1000,3000
run large 140 300,400,500 1,100,1000
cat $R/gpu.txt
for g in small mid large; do tail -n 1 $R/$g.log; python3 - $R/$g/bench_cholesky.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), "rows;", "slower:")
for r in rows:
    if float(r["speedup"]) < 1.0:
        print(" ", r["op"], r["n"], r["batch"], r["ours_ms"], r["backend_ms"], r["vendor_ms"], r["vendor"], r["speedup"])
PY
done
