#!/bin/bash
# Call 7, the chunked grid compiled (TT_CHUNKED_OPT) instead of a flag word bit (call 6: the
# bit cost the other launches 3-6 % at n = 104-120): memcheck of the chunked GPU tests at n = 65,
# the GPU tests of the tiles' users, the public TRMM / SYRK / LAUUM at n = 88-120, batch 10240,
# with the previous
# rules and kernel (device/old/: 07ecec6's (the session's start) linalg/_cuda/triangular.py and kernels/trmm.cu,
# carried, not committed) and with these, alternating twice; the better of each kept. About 6
# minutes.
source scripts/device_preamble.sh
D=reports/gpu_20261128g/device
S=/usr/local/cuda/bin/compute-sanitizer
timeout 100 $S --tool memcheck --error-exitcode 9 --kernel-name kns=tri_tile python3 -m pytest -q -p no:cacheprovider -m gpu tests/linalg/test_gpu_triangular.py -k "chunked and 65" > $R/memcheck.txt 2>&1
echo "rc $?" >> $R/memcheck.txt
timeout 250 python3 -m pytest -q -p no:cacheprovider -m gpu -n 15 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py tests/linalg/test_gpu_blas.py -k "tile or trmm or lauum or potri or syrk or chunked" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/old && mkdir /tmp/old && cp -r linalg kernels scripts tests /tmp/old/
cp $D/old/triangular.py /tmp/old/linalg/_cuda/ && cp $D/old/trmm.cu /tmp/old/kernels/
for turn in 1 2; do
  for tree in old new; do
    if [ $tree = old ]; then T=/tmp/old; else T=$PWD; fi
    (cd $T && PYTHONPATH=$T:/tmp/site timeout 100 python3 scripts/bench_cholesky.py --dtypes float64,float32 --ops trmm,syrk,lauum --sizes 88,96,104,112,120 --batches 10240 --output $R/pub_${tree}$turn > $R/pub_${tree}$turn.log 2>&1)
    tar czf $OUT/r.tgz -C $OUT r
  done
done
cat $R/gpu.txt; tail -n 2 $R/tests.txt $R/memcheck.txt
python3 - $R <<'PY'
import csv, sys
def rows(p):
    return {(r["op"], r["dtype"], r["n"]): r for r in csv.DictReader(open(p))}
r = sys.argv[1]
o1, n1 = rows(f"{r}/pub_old1/bench_cholesky.csv"), rows(f"{r}/pub_new1/bench_cholesky.csv")
o2, n2 = rows(f"{r}/pub_old2/bench_cholesky.csv"), rows(f"{r}/pub_new2/bench_cholesky.csv")
for k in n1:
    old = min(float(o1[k]["ours_ms"]), float(o2[k]["ours_ms"]))
    new = min(float(n1[k]["ours_ms"]), float(n2[k]["ours_ms"]))
    ven = min(float(n1[k]["vendor_ms"]), float(n2[k]["vendor_ms"]))
    print(" ".join(k), f"old {old:.4f} new {new:.4f} new/old {old / new:.2f}x vendor {ven:.4f}"
          f" ({n1[k]['vendor']}) vendor/new {ven / new:.2f}x", flush=True)
PY
