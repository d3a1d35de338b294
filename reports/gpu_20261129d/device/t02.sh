#!/bin/bash
# Call 2: the tree with the staging helper reverted (call 1: force_rhs 12 % slower with it) and
# the two-ranks GPU test's tolerance; the PCG kernel by kernel (p_pcg.py) at 32^3 and 48^3.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_pcg.py 32 48 > $R/pcg.md 2>&1; cat $R/pcg.md
tar czf $OUT/r.tgz -C $OUT r
