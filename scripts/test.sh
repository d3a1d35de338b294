#!/usr/bin/env bash
# The README's test command: install the package with its test extras, then run every test.
# GPU tests (marked `gpu`) are skipped on machines without CUDA; run scripts/gpu_check.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check ".[test]"
python3 -m pytest -q "$@"
