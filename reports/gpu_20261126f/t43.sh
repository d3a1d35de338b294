#!/usr/bin/env bash
# Session 2026-11-26f call 2: chol_small<T, 64>'s TRTRI phase by 32 x 32 blocks (working tree)
# against the plain phase (ab_base = 95b8250): register caps, tests, racecheck, A/B.
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
cat > /tmp/race.py <<'PY'
import cupy, numpy, linalg
for n in (33, 40, 56, 64):
    for dt in (numpy.float64, numpy.float32):
        x = cupy.random.standard_normal((3, n, n)).astype(dt)
        a = x @ x.swapaxes(1, 2) + n * cupy.eye(n, dtype=dt)
        l = linalg.potrf(a)
        for lower in (True, False):
            t = l if lower else l.swapaxes(1, 2).copy()
            linalg.trtri(t, lower=lower); linalg.potri(t, lower=lower); linalg.poti(a, lower=lower)
cupy.cuda.runtime.deviceSynchronize(); print("race script done")
PY
( timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 python3 /tmp/race.py > $R/racecheck.txt 2>&1; echo "rc=$?" >> $R/racecheck.txt
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 python3 /tmp/race.py > $R/memcheck.txt 2>&1; echo "rc=$?" >> $R/memcheck.txt ) &
SAN=$!
timeout 300 python3 -m pytest -m gpu -q -p no:cacheprovider -n 13 tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_triangular.py > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
wait $SAN
tail -2 $R/tests.txt; grep -E "^FAILED" $R/tests.txt | head; tail -3 $R/racecheck.txt; tail -2 $R/memcheck.txt
echo "== base (plain phase) caps"; PYTHONPATH=$PWD/ab_base:/tmp/site LINALG_KERNEL_DIR=$PWD/ab_base/kernels timeout 120 python3 ab_base/scripts/probe_chol_small.py --n 48 64 --caps 0 128 168 --per-block 1 --no-trsm 2>&1 | grep -E "^(trtri|potri)" | tee $R/caps_base.txt
echo "== new (blocked phase) caps"; timeout 120 python3 scripts/probe_chol_small.py --n 48 64 --caps 0 128 168 --per-block 1 --no-trsm --ops trtri,potri,poti 2>&1 | tee $R/caps_new.txt
OUT=$R/ab1 timeout 150 bash scripts/ab_kernels.sh run --ops trtri,potri,poti --sizes 40,48,56,64 --batches 10240,100000 > /dev/null
cat $R/ab1/ab_kernels.md | head -60
for m in 0 1 2; do timeout 80 python3 scripts/probe_trtri_one_launch.py $R/ol$m $m --ops trtri,potri,poti --sizes 40,48,56,64 --batches 10240 > /dev/null 2>&1; done
python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol1/bench_cholesky.csv > $R/ol_trtri.md 2>&1; cat $R/ol_trtri.md
python3 scripts/ab_table.py $R/ol0/bench_cholesky.csv $R/ol2/bench_cholesky.csv > $R/ol_all.md 2>&1; cat $R/ol_all.md
tar czf $OUT/t43.tgz -C $OUT r
