# Sourced after scripts/device_preamble.sh: MPI for the hydro driver's ranks. The device image's
# mpi4py and mpiexec when it has both; else the mpich (and, where mpi4py is missing, mpi4py)
# wheels that .whl/mpi/ carries, unpacked under /tmp/mpi. Writes what it used to $R/mpi.txt.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
{ echo "image: mpiexec $(command -v mpiexec)"
  python3 -c "import mpi4py, mpi4py.MPI as M; print('mpi4py', mpi4py.__version__, mpi4py.__file__); print(M.Get_library_version())"
} > $R/mpi.txt 2>&1
if ! command -v mpiexec > /dev/null || ! python3 -c "import mpi4py.MPI" 2> /dev/null; then
  mkdir -p /tmp/mpi && unzip -q -o .whl/mpi/mpich-*.whl -d /tmp/mpi
  chmod +x /tmp/mpi/mpich-*.data/data/bin/*
  export PATH=$(echo /tmp/mpi/mpich-*.data/data/bin):$PATH
  export LD_LIBRARY_PATH=$(echo /tmp/mpi/mpich-*.data/data/lib)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if ! python3 -c "import mpi4py.MPI" 2> /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/mpi/mpi4py-*.whl
  fi
  { echo "using the carried mpich: $(command -v mpiexec)"
    python3 -c "import mpi4py, mpi4py.MPI as M; print('mpi4py', mpi4py.__version__, mpi4py.__file__); print(M.Get_library_version())"
  } >> $R/mpi.txt 2>&1
fi
cat $R/mpi.txt | head -n 8
