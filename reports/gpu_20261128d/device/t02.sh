#!/bin/bash
# Session 2026-11-28d, call 2: tri_block stages only the n x n places (and keeps the balanced
# bands of call 1); tri_tile back as it was. memcheck / racecheck on tri_block, its GPU tests,
# then device/p_ragged.py at n = 33-64 on the previous tri_block (LINALG_KERNEL_DIR) and on this
# one, twice in turn (drift), float64 and float32.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
D=reports/gpu_20261128d/device
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
date +%T > $R/stamps.txt
for tool in memcheck racecheck; do
  timeout 100 /usr/local/cuda/bin/compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name kns=tri_block python3 $D/small_tri.py > $R/$tool.txt 2>&1
  echo "rc $?" >> $R/$tool.txt; date +%T >> $R/stamps.txt
done
tar czf $OUT/r.tgz -C $OUT r
rm -rf /tmp/oldk && cp -r kernels /tmp/oldk && cp $D/old/tri_block.cu /tmp/oldk/
for turn in 1 2; do
  for tree in old new; do
    if [ $tree = old ]; then export LINALG_KERNEL_DIR=/tmp/oldk; else unset LINALG_KERNEL_DIR; fi
    timeout 90 python3 $D/p_ragged.py --sizes 33,36,40,44,48,52,57,63,64 --batches 1000,10240 > $R/b64_${tree}$turn.md 2>&1
    echo "rc $?" >> $R/b64_${tree}$turn.md
    timeout 60 python3 $D/p_ragged.py --dtype float32 --sizes 36,40,48,57,64 --batches 1000,10240 --trmm LNl,UNl,LNr --lauum L > $R/b32_${tree}$turn.md 2>&1
    echo "rc $?" >> $R/b32_${tree}$turn.md; date +%T >> $R/stamps.txt
  done
  tar czf $OUT/r.tgz -C $OUT r
done
unset LINALG_KERNEL_DIR
timeout 200 python3 -m pytest -q -p no:cacheprovider -m gpu -n 14 tests/linalg/test_gpu_triangular.py tests/linalg/test_gpu_cholesky.py tests/linalg/test_gpu_keep.py -k "trmm or lauum or block or potri" > $R/tests.txt 2>&1
echo "rc $?" >> $R/tests.txt; date +%T >> $R/stamps.txt
tar czf $OUT/r.tgz -C $OUT r
cat $R/gpu.txt $R/stamps.txt; tail -n 3 $R/tests.txt; grep FAILED $R/tests.txt | head; tail -n 3 $R/memcheck.txt $R/racecheck.txt
python3 - $R <<'PY'
import re, sys, statistics
from pathlib import Path
r = Path(sys.argv[1])
for dt in ("64", "32"):
    runs = {}
    for f in sorted(r.glob(f"b{dt}_*.md")):
        tree = f.stem.split("_")[1][:3]
        for line in f.read_text().splitlines():
            if line.startswith("|"):
                c = line.split("|")
                key = tuple(x.strip() for x in c[1:5])
                ms = dict((k.strip(), float(v)) for k, v in re.findall(r"([a-z. ]+?) ([0-9.]+)", c[5]))
                runs.setdefault(key, {}).setdefault(tree, []).append(ms)
    for key, t in runs.items():
        if "old" not in t or "new" not in t:
            continue
        o = [m["committed"] for m in t["old"]]; n = [m["committed"] for m in t["new"]]
        mm = statistics.median([m["cupy.matmul"] for m in t["old"] + t["new"]])
        print("|", " | ".join(key), "| old", "/".join(f"{v:.4f}" for v in o), "| new",
              "/".join(f"{v:.4f}" for v in n), f"| {min(o) / min(n):.2f}x | matmul {mm:.4f} | new/matmul {mm / min(n):.2f}x |")
PY
