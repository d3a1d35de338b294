#!/bin/bash
# Call 3: the partial-assembly steps with rotating axes (odd shared-memory strides), all
# components a pass where they fit (ZB, CB) = (2, 3) at 3-D Q2. Hydro GPU tests, the force probe,
# Nsight Compute on one launch of each kernel at 32^3, memcheck, racecheck, the benchmark.
source scripts/device_preamble.sh
D=reports/gpu_20261129c/device
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 $D/p_forces.py 16 32 48 > $R/forces.md 2> $R/forces.err; cat $R/forces.md
tail -n 3 $R/forces.err
tar czf $OUT/r.tgz -C $OUT r
timeout 120 ncu --target-processes all -k regex:force_ --launch-count 2 --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
  python3 $D/p_forces.py 32 --ncu > $R/ncu_forces.txt 2>&1; echo "rc=$?" >> $R/ncu_forces.txt
grep -E "force_|Duration|Throughput|Achieved Occupancy|Registers|Stall|rc=" $R/ncu_forces.txt | head -40
tar czf $OUT/r.tgz -C $OUT r
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
    --hydro-only > $R/${tool}_hydro.txt 2>&1; echo "$tool rc $?" >> $R/${tool}_hydro.txt
  tail -n 2 $R/${tool}_hydro.txt
done
tar czf $OUT/r.tgz -C $OUT r
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 8 16 32 48 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 6 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
