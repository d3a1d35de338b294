#!/bin/bash
# Session 2026-11-28d, call 1: tri_block's bands balanced for a lower M, tri_tile's warps skip the
# fragments beyond n: memcheck / racecheck on a small run, the TRMM / LAUUM / SYRK GPU tests,
# then device/p_ragged.py on the previous kernels (LINALG_KERNEL_DIR, device/old/) and on these.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128d/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion(), 'torch', torch.__version__)" >> $R/gpu.txt
sanitize() {
  timeout 120 /usr/local/cuda/bin/compute-sanitizer --tool $1 --error-exitcode 9 --kernel-name kns=tri_ python3 $D/small_tri.py > $R/$1.txt 2>&1
  echo "rc $?" >> $R/$1.txt; date +%T >> $R/stamps.txt
  tar czf $OUT/r.tgz -C $OUT r
}
date +%T > $R/stamps.txt
sanitize memcheck
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/tri_block.cu $D/old/trmm.cu /tmp/oldk/
for tree in old new; do
  if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
  timeout 150 python3 $D/p_ragged.py --sizes 36,40,48,57,63,72,81,100,112,129,150,200 > $R/ragged64_$tree.md 2>&1
  echo "rc $?" >> $R/ragged64_$tree.md; date +%T >> $R/stamps.txt
  tar czf $OUT/r.tgz -C $OUT r
done
unset LINALG_KERNEL_DIR
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg -k "trmm or lauum or tri_block or tile or syrk or potri or poti" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt; date +%T >> $R/stamps.txt
tar czf $OUT/r.tgz -C $OUT r
sanitize racecheck
for tree in old new; do
  if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
  timeout 80 python3 $D/p_ragged.py --dtype float32 --sizes 40,48,57,72,100,129,150 --trmm LNl,UNr --lauum L --syrk > $R/ragged32_$tree.md 2>&1
  echo "rc $?" >> $R/ragged32_$tree.md
  tar czf $OUT/r.tgz -C $OUT r
done
cat $R/gpu.txt $R/stamps.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt
python3 - $R <<'PY'
import re, sys
from pathlib import Path
r = Path(sys.argv[1])
for dt in ("64", "32"):
    old = {}
    for line in (r / f"ragged{dt}_old.md").read_text().splitlines():
        if line.startswith("|"):
            c = line.split("|")
            old[tuple(x.strip() for x in c[1:5])] = c[5]
    for line in (r / f"ragged{dt}_new.md").read_text().splitlines():
        if not line.startswith("|"):
            print(line); continue
        c = line.split("|")
        key = tuple(x.strip() for x in c[1:5])
        o = dict(re.findall(r"([a-z. ]+?) ([0-9.]+|nan)", old.get(key, "")))
        nw = dict(re.findall(r"([a-z. ]+?) ([0-9.]+|nan)", c[5]))
        parts = [f"{k.strip()} {o.get(k, '?')}->{v}" for k, v in nw.items() if k.strip() != "cupy.matmul"]
        print("|", " | ".join(key), "|", ", ".join(parts), "| matmul", nw.get(" cupy.matmul", nw.get("cupy.matmul")), "|", c[6].strip(), "|")
PY
