#!/bin/bash
# Call 6: where mass_pcg's iteration goes (p_pcg.py at 32^3 and 48^3 zones).
source scripts/device_preamble.sh
D=reports/gpu_20261129b/device
timeout 200 python3 $D/p_pcg.py 32 48 > $R/pcg.md 2> $R/pcg.err; cat $R/pcg.md; tail -n 3 $R/pcg.err
tar czf $OUT/r.tgz -C $OUT r
