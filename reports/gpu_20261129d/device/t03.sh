#!/bin/bash
# Call 3: MPI ranks on the GPU through mass_pcg_ranks (the single-GPU PCG kernels, the shared
# dofs and the dot products reduced on the host between them). Hydro GPU tests (two ranks against
# one), the PCG piece by piece with both MPI paths on one rank (p_pcg.py), two ranks at 32^3
# against the session's starting tree (start.patch reversed into a copy), weak scaling 1-2-4
# ranks sharing the GPU, memcheck of the hydro pass, the single-GPU benchmark at 32^3.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/start.patch)
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 3 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 $D/p_pcg.py 32 48 > $R/pcg.md 2>&1; cat $R/pcg.md
tar czf $OUT/r.tgz -C $OUT r
run2() {  # tree label: two ranks at 32^3 zones, 10 cycles
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 120 mpiexec -n 2 python3 -m hydro.run \
     cases/sedov3d.yaml --output /tmp/out_$2 --set mesh.nx=32 --set mesh.refine=0 \
     --set time_step.max_steps=10 --set output.every=null) > $R/mpi2_$2.txt 2>&1
  grep -a "zone-cycles/s on\|stages" $R/mpi2_$2.txt | tail -n 2
}
run2 $PWD new1; run2 /tmp/oldtree old; run2 $PWD new2
tar czf $OUT/r.tgz -C $OUT r
timeout 150 python3 scripts/weak_scaling.py --ranks 1 2 4 --zones-per-rank 16384 --cycles 10 \
  --output /tmp/ws > $R/weak_scaling.txt 2>&1; tail -n 5 $R/weak_scaling.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
  --hydro-only > $R/memcheck_hydro.txt 2>&1; echo "memcheck rc $?" >> $R/memcheck_hydro.txt
tail -n 2 $R/memcheck_hydro.txt
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 3 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
