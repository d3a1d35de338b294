#!/usr/bin/env bash
# Everything the GPU machine checks, in one call (the device tool's budget favours few, full calls):
#   1. GPU tests (pytest -m gpu), 2. compute-sanitizer memcheck on a small run of every kernel,
#   3. linalg benchmarks (ours vs vendor, same run), 4. hydro benchmark, 5. (not by default) the
#   long Laghos verification runs on the GPU backend (part `laghos`, scripts/laghos_runs.py).
# Results go to $OUT (or ./out/gpu_check when OUT is unset): gpu_check.tar.gz with every log,
# table and CSV (the device tool returns at most 8 files), plus summary.txt to read at a glance.
# On the workplace's device:  run(command="bash scripts/gpu_check.sh", carry=[".whl"])
# where .whl holds pytest and its dependencies as wheels (the device image has no pytest), and
# pytest-xdist + execnet to run the tests on several workers (GPU_CHECK_WORKERS, default 8).
#   GPU_CHECK_PARTS="tests sanitizer bench hydro"  selects parts;  GPU_CHECK_QUICK=1 shortens benchmarks;
#   GPU_CHECK_TIMEOUT_<part>=seconds caps a part (the device tool stops a call after 600 s, so a
#   call of several parts must fit them all); GPU_CHECK_BENCH_EACH=seconds caps each linalg bench script.
#   On an H100 the tests took ~480 s in one process and 243 s on 4 xdist workers (1809 tests;
#   2296 tests: 326 s, 2026-11-23; 2891 tests: 224 s on 14 workers, 2026-11-25), the sanitizer
#   ~10-150 s, the benchmarks ~190 s: tests and sanitizer fit one call, the benchmarks another.
#   Part `checks` runs the tests and the sanitizer side by side (2026-11-26, H200, 13 workers:
#   both done in ~215 s, the time of the tests alone). When the suite outgrows
#   one call, its two halves are parts of their own: tests-cholesky (test_gpu_cholesky.py, about
#   half of it) and tests-other (the rest). 3711 tests took 529 s on an H200 with 15 workers
#   (2026-11-27, beside memcheck): run the halves in two calls from now on.
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL="${OUT:-out/gpu_check}"; mkdir -p "$FINAL"
OUT="$(mktemp -d)/gpu_check"; mkdir -p "$OUT"
PARTS="${GPU_CHECK_PARTS:-tests sanitizer bench hydro}"
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
if [ -d .whl ] && ! python3 -c "import pytest" 2>/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl \
        && export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
QUICK=${GPU_CHECK_QUICK:+--quick}
# The GPU tests on GPU_CHECK_WORKERS (default 8) pytest-xdist workers when .whl carries it (one
# GPU, 16 host cores: the suite is mostly NVRTC compiles and host-side checks); 1: one process.
XDIST=""
if [ "${GPU_CHECK_WORKERS:-8}" != 1 ] && python3 -c "import xdist" 2>/dev/null; then
    XDIST="-n ${GPU_CHECK_WORKERS:-8}"
fi
status=0
{
    date -u +"date: %Y-%m-%dT%H:%M:%SZ"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    python3 -c "import cupy, numpy, sys; print('python', sys.version.split()[0], 'cupy', cupy.__version__, 'numpy', numpy.__version__, 'CUDA runtime', cupy.cuda.runtime.runtimeGetVersion())"
    python3 -c "import torch; print('torch', torch.__version__)" 2>/dev/null
} | tee "$OUT/environment.txt"
limit() { local var="GPU_CHECK_TIMEOUT_$1"; echo "${!var:-$2}"; }
gpu_tests() {
    timeout "$(limit tests 570)" python3 -m pytest -m gpu -q -p no:cacheprovider $XDIST "$@"
}
sanitize() {
    timeout "$(limit sanitizer 300)" compute-sanitizer --tool memcheck --error-exitcode 9 \
        python3 scripts/sanitizer_smoke.py
}
for part in $PARTS; do
    echo "=== $part ($(date -u +%T)) ==="
    case $part in
        tests) gpu_tests tests 2>&1 | tee "$OUT/gpu_tests.txt" || status=1 ;;
        tests-cholesky) gpu_tests tests/linalg/test_gpu_cholesky.py 2>&1 \
                            | tee "$OUT/gpu_tests_cholesky.txt" || status=1 ;;
        tests-other) gpu_tests tests --ignore=tests/linalg/test_gpu_cholesky.py 2>&1 \
                         | tee "$OUT/gpu_tests_other.txt" || status=1 ;;
        sanitizer) sanitize 2>&1 | tail -25 | tee "$OUT/sanitizer.txt" || status=1 ;;
        checks)     # tests and sanitizer side by side: the sanitizer is one slow host process
            ( sanitize > "$OUT/sanitizer_full.txt" 2>&1 ) &
            san=$!
            gpu_tests tests > "$OUT/gpu_tests.txt" 2>&1 || status=1
            wait $san || status=1
            tail -3 "$OUT/gpu_tests.txt"
            tail -25 "$OUT/sanitizer_full.txt" > "$OUT/sanitizer.txt"; rm -f "$OUT/sanitizer_full.txt"
            tail -3 "$OUT/sanitizer.txt" ;;
        bench) timeout "$(limit bench 540)" python3 scripts/bench_linalg.py $QUICK ${GPU_CHECK_BENCH_EACH:+--timeout $GPU_CHECK_BENCH_EACH} --output "$OUT" 2>&1 | tee "$OUT/bench_log.txt" | tail -80 || status=1 ;;
        hydro) timeout "$(limit hydro 400)" python3 scripts/bench_hydro.py $QUICK --output "$OUT" 2>&1 | tail -40 || status=1 ;;
        laghos) timeout "$(limit laghos 500)" python3 scripts/laghos_runs.py --runs ${GPU_CHECK_LAGHOS_RUNS:-2 4 6 7} \
                    --backend gpu --jobs 4 --output "$OUT/laghos_runs.md" 2>&1 | tail -20 | tee "$OUT/laghos_runs.txt" || status=1 ;;
        *) echo "unknown part '$part' (expected tests, tests-cholesky, tests-other, sanitizer, checks, bench, hydro, laghos)"; status=2 ;;
    esac
done
tar czf "$FINAL/gpu_check.tar.gz" -C "$(dirname "$OUT")" gpu_check
{
    cat "$OUT/environment.txt"
    for f in gpu_tests.txt gpu_tests_cholesky.txt gpu_tests_other.txt sanitizer.txt; do [ -f "$OUT/$f" ] && { echo "--- $f"; tail -15 "$OUT/$f"; }; done
    [ -f "$OUT/bench_log.txt" ] && grep -h "section failed\|stopped after" "$OUT/bench_log.txt"
    for f in "$OUT"/*.md; do [ -f "$f" ] && { echo "--- $(basename "$f")"; cat "$f"; }; done
} > "$FINAL/summary.txt"
echo "gpu_check: exit status $status; results in $FINAL"
exit $status
