#!/bin/bash
# Call 1: MPI ranks on the GPU (the partial-assembly mass product in their PCG, only the shared
# dofs crossing to the host) and the force/mass kernels' staging by one helper (stage_items).
# Hydro GPU tests (with two ranks on the GPU against one), kernel A/B against the session's
# starting tree (mpi_pa.patch reversed into a copy), 2 ranks old/new, weak scaling 1-2-4 ranks
# sharing the one GPU, memcheck of the hydro pass, the single-GPU benchmark at 32^3.
source scripts/device_preamble.sh
D=reports/gpu_20261129d/device
source $D/mpi_setup.sh
cp -r . /tmp/oldtree && (cd /tmp/oldtree && patch -s -R -p1 < $D/mpi_pa.patch)
timeout 150 python3 -m pytest -m gpu -q -p no:cacheprovider -p no:benchmark -n 8 tests/hydro \
  > $R/hydro_gpu_tests.txt 2>&1; tail -n 4 $R/hydro_gpu_tests.txt
tar czf $OUT/r.tgz -C $OUT r
for round in 1 2; do
  timeout 60 python3 $D/p_kernels.py 32 > $R/kernels_new_$round.md 2>&1
  (cd /tmp/oldtree && PYTHONPATH=/tmp/oldtree:/tmp/site timeout 60 python3 $D/p_kernels.py 32) \
    > $R/kernels_old_$round.md 2>&1
done
tail -n 3 $R/kernels_*.md
tar czf $OUT/r.tgz -C $OUT r
run2() {  # tree label: two ranks at 32^3 zones, 10 cycles
  (cd $1 && PYTHONPATH=$1:/tmp/site timeout 120 mpiexec -n 2 python3 -m hydro.run \
     cases/sedov3d.yaml --output /tmp/out_$2 --set mesh.nx=32 --set mesh.refine=0 \
     --set time_step.max_steps=10 --set output.every=null) > $R/mpi2_$2.txt 2>&1
  tail -n 4 $R/mpi2_$2.txt
}
run2 $PWD new1; run2 /tmp/oldtree old; run2 $PWD new2
tar czf $OUT/r.tgz -C $OUT r
timeout 200 python3 scripts/weak_scaling.py --ranks 1 2 4 --zones-per-rank 16384 --cycles 10 \
  --output /tmp/ws > $R/weak_scaling.txt 2>&1; tail -n 6 $R/weak_scaling.txt
tar czf $OUT/r.tgz -C $OUT r
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 python3 scripts/sanitizer_smoke.py \
  --hydro-only > $R/memcheck_hydro.txt 2>&1; echo "memcheck rc $?" >> $R/memcheck_hydro.txt
tail -n 2 $R/memcheck_hydro.txt
timeout 60 python3 scripts/bench_hydro.py --backends gpu --zones 32 --cycles 10 \
  --output $R/bench > $R/bench.txt 2>&1; tail -n 4 $R/bench.txt
tar czf $OUT/r.tgz -C $OUT r
