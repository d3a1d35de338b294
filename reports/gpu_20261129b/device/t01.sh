#!/bin/bash
# Call 1: the hydro kernels (kernels/hydro.cu) on the device. GPU tests of hydro (the new kernel
# tests and the CPU/GPU agreement), compute-sanitizer memcheck on the hydro pass of the smoke
# script, then the hydro benchmark with both paths (fused kernels / the array-module reference).
source scripts/device_preamble.sh
python3 -c "import cupy, sys; print('python', sys.version.split()[0], 'cupy', cupy.__version__, 'CUDA runtime', cupy.cuda.runtime.runtimeGetVersion())" >> $R/gpu.txt
timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 5 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
  python3 scripts/sanitizer_smoke.py --hydro-only > $R/memcheck_hydro.txt 2>&1
echo "memcheck rc $?" >> $R/memcheck_hydro.txt; tail -n 4 $R/memcheck_hydro.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 240 python3 scripts/bench_hydro.py --backends gpu --reference --zones 8 16 24 32 \
  --cycles 10 --output $R/bench > $R/bench_log.txt 2>&1; tail -n 14 $R/bench_log.txt
tar czf $OUT/r.tgz -C $OUT r
