#!/usr/bin/env bash
# Session 2026-11-26j call 4: the whole GPU suite on main (139d50b: the review mend 04bc827 included).
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $R/gpu.txt 2>&1
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'cuda runtime', cupy.cuda.runtime.runtimeGetVersion(), 'torch', torch.__version__)" >> $R/gpu.txt 2>&1
git log --oneline -1 >> $R/gpu.txt 2>&1
timeout 560 python3 -m pytest -m gpu -q -p no:cacheprovider -n 14 tests > $R/tests.txt 2>&1; echo "rc=$?" >> $R/tests.txt
cd $OUT && tar czf r.tgz r && rm -rf r
