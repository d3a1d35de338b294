#!/usr/bin/env bash
# Session 2026-11-26g call 4: one-vector POTRS grid, every candidate printed (lanes x cap 0 / 96
# x vec), more sizes.
set -u
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
R=$OUT/r; mkdir -p $R
timeout 280 python3 scripts/probe_trsv_vec.py --potrs-grid --caps 0,96 --sizes 12,16,20,24,40,48,56,64,96,128,192,256 --output $R > $R/potrs_grid.txt 2>&1; echo "rc=$?" >> $R/potrs_grid.txt
cat $R/potrs_grid.txt
tar czf $OUT/t53.tgz -C $OUT r
