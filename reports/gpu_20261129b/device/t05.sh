#!/bin/bash
# Call 5: the four long Laghos verification runs (2, 4, 6, 7) on the GPU backend with the hydro
# kernels (quadrature point update, corner forces, PCG): step, dt and |e| against Laghos's.
source scripts/device_preamble.sh
timeout 570 python3 scripts/laghos_runs.py --runs 2 4 6 7 --backend gpu --jobs 4 \
  --output $R/laghos_runs_gpu.md > $R/laghos_runs.txt 2>&1; echo "rc $?" >> $R/laghos_runs.txt
tail -n 12 $R/laghos_runs.txt; cat $R/laghos_runs_gpu.md
tar czf $OUT/r.tgz -C $OUT r
