#!/usr/bin/env bash
# The Python module on the GPU machine: build it, run its test suite on the GPU, then time it
# against CuPy and SciPy (bench/python_peers.py). From the repository root on that machine:
#   bench/gpu_python.sh OUTDIR            (PYTHON=/path/to/python3 to choose the interpreter)
# The interpreter (default: the first python3 on PATH) must have numpy, scipy, pytest, pybind11
# and, for the CuPy rows, cupy. Builds in build-gpu-python/ (its own tree, beside run_gpu.sh's
# build-gpu/, whose kernel cache it shares). Writes OUTDIR/python-build.log,
# python-tests-gpu.log, python_peers.csv and .log, and results-python.tgz with all of them.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
source bench/lib/gpu_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/python-gpu.txt"
"$python" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)' | tee -a "$out/python-gpu.txt"
source bench/lib/python_module.sh
build_python_module "$out/python-build.log" || exit 1
timeout 300 "$python" -m pytest -q -p no:cacheprovider python/tests > "$out/python-tests-gpu.log" 2>&1
echo "python tests on GPU: exit $?"; tail -3 "$out/python-tests-gpu.log"
timeout 900 "$python" bench/python_peers.py --csv "$out/python_peers.csv" ${PEERS_ARGS:-} 2>&1 |
  tee "$out/python_peers.log"
tar -C "$out" -czf /tmp/results-python.tgz . && mv /tmp/results-python.tgz "$out/results-python.tgz"
