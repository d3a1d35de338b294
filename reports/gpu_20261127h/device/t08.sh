#!/bin/bash
# Call 8 (H100): A/B of kernel sources in one run (LINALG_KERNEL_DIR; out/device/ carried):
# chol_tensor_solve with its four strip-update loops as one helper (cts_strip_update, this
# tree) against the loops written out (kernels_now = the committed tree), alternated twice;
# chol_tensor against f0d2ec4's sources (kernels_f0d: the same code, the header comment two
# lines shorter, different PTX); then the benchmark's POTRI / POTI rows on this tree.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
for round in 1 2; do
  for src in kernels_now helper; do
    if [ $src = helper ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
    echo "## round $round $src" >> $R/solve_ab.md
    timeout 90 python3 scripts/probe_chol_tensor.py solve --sizes 64,96,128 --batches 10240 \
      >> $R/solve_ab.md 2>&1
  done
done
for src in kernels_f0d kernels_now kernels_f0d kernels_now; do
  export LINALG_KERNEL_DIR=$PWD/out/device/$src
  echo "## $src" >> $R/tensor_ab.md
  timeout 60 python3 scripts/probe_chol_tensor.py time --sizes 64,128 --batches 10240 >> $R/tensor_ab.md 2>&1
done
unset LINALG_KERNEL_DIR
timeout 120 python3 scripts/bench_cholesky.py --ops potri,poti --dtypes float64 --sizes 64,128 \
  --batches 10240 --fresh --output $R/bench > $R/bench_log.txt 2>&1
tar czf $OUT/r.tgz -C $OUT r
grep -E "^## |^\| p|differs" $R/solve_ab.md
grep -E "^## |^\| [0-9]" $R/tensor_ab.md
grep -E "potri|poti" $R/bench/bench_cholesky.csv
