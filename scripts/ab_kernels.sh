#!/usr/bin/env bash
# Before/after timing of a kernel change in ONE device call (instances differ by up to 1.7x in
# small cells, so a pair measured on two machines says little): the same bench_cholesky.py cells
# run with the kernels of a git ref and with the working tree's kernels/, then
# scripts/ab_table.py writes the pairs side by side.
#
#   Here (the device copy of the tree has no .git):
#       bash scripts/ab_kernels.sh prepare [REF]      # REF's kernels/ -> ab_base/ (default HEAD)
#   On the device (carry=["ab_base"]: it is git-ignored):
#       bash scripts/ab_kernels.sh run --ops trsm,potrf --sizes 16,32 --batches 10240,100000
#   -> $OUT/ab_base/bench_cholesky.csv, $OUT/ab_new/..., $OUT/ab_kernels.md
# Any bench_cholesky.py option may follow `run` (--dtypes defaults to both).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    prepare)
        ref="${2:-HEAD}"
        rm -rf ab_base && mkdir ab_base
        git archive "$ref" kernels | tar -x -C ab_base --strip-components=1
        echo "ab_base/ holds the kernels of $(git rev-parse --short "$ref"); carry it: carry=[\"ab_base\"]"
        ;;
    run)
        shift
        [ -d ab_base ] || { echo "ab_base/ missing: run 'prepare' here and carry it" >&2; exit 2; }
        out="${OUT:-out/ab_kernels}"; mkdir -p "$out"
        export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
        for side in base new; do
            dir="$PWD/kernels"; [ "$side" = base ] && dir="$PWD/ab_base"
            LINALG_KERNEL_DIR="$dir" python3 scripts/bench_cholesky.py "$@" \
                --output "$out/ab_$side" > "$out/ab_$side.log" 2>&1 \
                || echo "$side: bench_cholesky.py failed, see ab_$side.log"
        done
        python3 scripts/ab_table.py "$out/ab_base/bench_cholesky.csv" \
            "$out/ab_new/bench_cholesky.csv" | tee "$out/ab_kernels.md"
        ;;
    *)
        echo "usage: bash scripts/ab_kernels.sh prepare [REF] | run [bench_cholesky.py options]" >&2
        exit 2
        ;;
esac
