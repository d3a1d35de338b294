#!/usr/bin/env bash
# Session 2026-11-26g call 11: racecheck of trsv_warp's VEC instantiations.
set -u
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 python3 out/device/p_racecheck_trsv.py > $R/racecheck.txt 2>&1; echo "rc=$?" >> $R/racecheck.txt
tail -4 $R/racecheck.txt
