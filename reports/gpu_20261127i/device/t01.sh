#!/bin/bash
# Call 1 (H100): chol_factor_shfl, one warp's 32 x 32 diagonal factor by shuffles (CT_DIAG = 2,
# with DEFER; 1 without), against the shared-memory steps (CT_DIAG = 0: chol_potrf_phase in
# ct_factor, chol_factor_32 in chol_global). Checks of the new default (chol_tensor,
# chol_global, chol_cluster), then the phase profile of each variant, and the POSV / POTRS /
# POTRI / POTI kernels by kernel directories (out/device/kernels_diag0 / _diag1 carried).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 120 python3 scripts/probe_chol_tensor.py check > $R/check_tensor.txt 2>&1; echo "rc $?" >> $R/check_tensor.txt
timeout 120 python3 scripts/probe_chol_tensor.py check --kernel global > $R/check_global.txt 2>&1; echo "rc $?" >> $R/check_global.txt
timeout 60 python3 scripts/probe_chol_tensor.py small --kernel cluster8 > $R/check_cluster8.txt 2>&1; echo "rc $?" >> $R/check_cluster8.txt
for round in 1 2; do
  for v in 0 1 2; do
    timeout 60 python3 scripts/probe_chol_tensor.py profile --sizes 64,96,128 --batches 10240 \
      --defines CT_DIAG=$v >> $R/profile_tensor.md 2>&1
  done
done
for v in 0 1 2; do
  timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel global --sizes 256,512 --batches 1 \
    --defines CT_DIAG=$v >> $R/profile_global.md 2>&1
  timeout 60 python3 scripts/probe_chol_tensor.py profile --kernel cluster8 --sizes 256,512 --batches 1 \
    --defines CT_DIAG=$v >> $R/profile_cluster8.md 2>&1
done
for src in kernels_diag0 kernels_diag1 new; do
  if [ $src = new ]; then unset LINALG_KERNEL_DIR; else export LINALG_KERNEL_DIR=$PWD/out/device/$src; fi
  echo "## $src" | tee -a $R/solve_ab.md $R/inverse_ab.md $R/time_ab.md > /dev/null
  timeout 120 python3 scripts/probe_chol_tensor.py solve --sizes 64,96,128 --batches 10240 >> $R/solve_ab.md 2>&1
  timeout 120 python3 scripts/probe_chol_tensor.py inverse --sizes 64,96,128 --batches 10240 >> $R/inverse_ab.md 2>&1
  timeout 120 python3 scripts/probe_chol_tensor.py time --sizes 64,128 --batches 10240 >> $R/time_ab.md 2>&1
done
unset LINALG_KERNEL_DIR
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt; tail -n 2 $R/check_*.txt; grep -c "differs\|Error\|error" $R/*.md
grep -E "^\| float" $R/profile_tensor.md $R/profile_global.md $R/profile_cluster8.md | cut -c1-200
grep -E "^## |^\| p" $R/solve_ab.md $R/inverse_ab.md | cut -c1-220
grep -E "^## |^\| [0-9]" $R/time_ab.md
