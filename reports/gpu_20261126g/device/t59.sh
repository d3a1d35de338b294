#!/usr/bin/env bash
# Session 2026-11-26g call 10: GEMV-N / TRSV at medium batch counts (scratch probe).
set -u
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
timeout 400 python3 out/device/p_gemv_medium.py > $R/medium.txt 2>&1; echo "rc=$?" >> $R/medium.txt
cat $R/medium.txt
