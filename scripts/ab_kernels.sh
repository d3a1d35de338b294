#!/usr/bin/env bash
# Before/after timing of a change in ONE device call (instances differ by up to 1.7x in small
# cells, so a pair measured on two machines says little): the same benchmark cells run with the
# code of a git ref and with the working tree, then scripts/ab_table.py writes the pairs side by
# side.
#
#   Here (the device copy of the tree has no .git):
#       bash scripts/ab_kernels.sh prepare [REF]      # REF's linalg/ kernels/ scripts/ -> ab_base/
#   On the device (carry=["ab_base"]: it is git-ignored):
#       bash scripts/ab_kernels.sh run --ops trsm,potrf --sizes 16,32 --batches 10240,100000
#       bash scripts/ab_kernels.sh run --script bench_blas.py --quick --ops trsv
#   -> $OUT/ab_base/bench_cholesky.csv, $OUT/ab_new/..., $OUT/ab_base.log, ab_new.log, ab_kernels.md
#
# `prepare` archives the whole importable tree the benchmark needs (linalg, kernels, scripts) of
# REF (default HEAD), so a change that also changes the Python launchers (kernel signatures) is
# timed against REF's launchers with REF's kernels. `run` runs the base side as
# `python3 ab_base/scripts/NAME ...` (the script puts its parent's parent, ab_base/, first on
# sys.path, so it imports ab_base/linalg) with LINALG_KERNEL_DIR=$PWD/ab_base/kernels, and the new
# side as `python3 scripts/NAME ...` from the tree with LINALG_KERNEL_DIR=$PWD/kernels (set on both
# sides: an editable install's linalg._kernels mapping or a stray LINALG_KERNEL_DIR would otherwise
# pick the kernels).
# NAME is bench_cholesky.py unless the first argument after `run` is `--script NAME` (e.g.
# bench_blas.py: its bench_blas.csv is paired; ab_table.py reads bench_cholesky.py and
# bench_blas.py CSVs, both written as <NAME without .py>.csv under --output). Every other argument
# goes to both sides unchanged (--output is set here; bench_cholesky.py's --dtypes defaults to
# both): an option that only the new script knows (e.g. bench_cholesky.py --fresh) makes the base
# side fail with a usage error in ab_base.log -- use options REF's script knows too.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    prepare)
        ref="${2:-HEAD}"
        rm -rf ab_base && mkdir ab_base
        git archive "$ref" linalg kernels scripts | tar -x -C ab_base
        echo "ab_base/ holds linalg/ kernels/ scripts/ of $(git rev-parse --short "$ref");" \
             "carry it: carry=[\"ab_base\"]"
        ;;
    run)
        shift
        script=bench_cholesky.py
        if [ "${1:-}" = --script ]; then
            [ -n "${2:-}" ] || { echo "--script needs a script name (e.g. bench_blas.py)" >&2; exit 2; }
            script="$2"; shift 2
        fi
        [ -d ab_base/linalg ] && [ -d ab_base/kernels ] && [ -d ab_base/scripts ] \
            || { echo "ab_base/{linalg,kernels,scripts} missing: run 'prepare' here and carry it" >&2; exit 2; }
        for f in "scripts/$script" "ab_base/scripts/$script"; do
            [ -f "$f" ] || { echo "$f missing" >&2; exit 2; }
        done
        csv="${script%.py}.csv"
        out="${OUT:-out/ab_kernels}"; mkdir -p "$out"
        for side in base new; do
            root="$PWD"; [ "$side" = base ] && root="$PWD/ab_base"
            PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" LINALG_KERNEL_DIR="$root/kernels" \
                python3 "$root/scripts/$script" "$@" --output "$out/ab_$side" \
                > "$out/ab_$side.log" 2>&1 \
                || echo "$side: $script failed, see ab_$side.log"
        done
        for side in base new; do
            [ -f "$out/ab_$side/$csv" ] \
                || { echo "no ab_$side/$csv: see ab_$side.log" >&2; exit 1; }
        done
        python3 scripts/ab_table.py "$out/ab_base/$csv" "$out/ab_new/$csv" | tee "$out/ab_kernels.md"
        ;;
    *)
        echo "usage: bash scripts/ab_kernels.sh prepare [REF] | run [--script NAME] [options of NAME]" >&2
        exit 2
        ;;
esac
