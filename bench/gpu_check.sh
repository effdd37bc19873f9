#!/usr/bin/env bash
# The whole test suite on the GPU machine, in one call: builds the library, the programs, the unit
# tests and the Python module (build-gpu/, one tree), then runs the doctest suite and the Python
# suite (SciPy's own csgraph and cKDTree tests included) on the GPU. From the repository root:
#   bench/gpu_check.sh OUTDIR          (PYTHON=/path/to/python3 for another interpreter)
# Writes OUTDIR/device.txt, build.log, tests-gpu.log, python-tests-gpu.log, steps.txt and
# results-check.tgz with all of them.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
source bench/lib/gpu_env.sh
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
start=$SECONDS
step() { echo "[$((SECONDS - start)) s] $*" | tee -a "$out/steps.txt"; }
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  clinfo -l 2>&1
  "$python" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)'
  echo "commit $(checkout_commit)"
  date -u; } > "$out/device.txt" 2>&1
pybind11_dir=$("$python" -m pybind11 --cmakedir 2>/dev/null)
{ cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=ON \
    -DPython3_EXECUTABLE="$python" ${pybind11_dir:+-Dpybind11_DIR="$pybind11_dir"} &&
  cmake --build build-gpu -j"$(nproc)"; } > "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
step "built: $(tail -1 "$out/build.log")"
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
(cd build-gpu && timeout "${UNIT_TIMEOUT:-360}" ./tests/treefix-tests --duration=true) > "$out/tests-gpu.log" 2>&1
step "unit rc=$?: $(grep -E '^\[doctest\] (test cases|assertions)' "$out/tests-gpu.log" | tr '\n' ' ')"
PYTHONPATH=$PWD/build-gpu/python PYTHONDONTWRITEBYTECODE=1 timeout "${PYTHON_TIMEOUT:-240}" \
  "$python" -m pytest -q -p no:cacheprovider -rxXfs python/tests > "$out/python-tests-gpu.log" 2>&1
step "python rc=$?: $(tail -1 "$out/python-tests-gpu.log")"
tar -C "$out" -czf /tmp/results-check.tgz . && mv /tmp/results-check.tgz "$out/results-check.tgz"
