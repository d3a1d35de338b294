#!/bin/bash
# Call 8 (H100): where gebrd_blocked starts (gebrd_cols against panels + GEMMs while gebrd_cols
# still fits) and its panel width (nb 8 / 16 / 24 / 32).
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C $OUT r; }
nvidia-smi --query-gpu=name --format=csv,noheader > $R/gpu.txt
timeout 200 python3 scripts/probe_gebrd_blocked.py crossover > $R/crossover.txt 2>&1
pack
timeout 150 python3 scripts/probe_gebrd_blocked.py nb > $R/nb.txt 2>&1
pack
cat $R/crossover.txt $R/nb.txt
