# Sourced by the one-off device scripts under reports/*/device/ (run on the workplace's device
# from the repository root, carry=[".whl"]): installs the pytest wheels that .whl/ carries into
# /tmp/site (the device image has no pytest), sets PYTHONPATH to this tree and /tmp/site, makes
# the result folder R=$OUT/r and writes the GPU's name and driver to $R/gpu.txt. The scripts tar
# $R into $OUT/r.tgz after each step (the device returns at most 8 files, and what a stopped call
# wrote is kept). scripts/gpu_check.sh does the same for the full checks.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD:/tmp/site
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
