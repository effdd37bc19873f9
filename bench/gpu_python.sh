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
[[ -w /etc/OpenCL/vendors ]] && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/python-gpu.txt"
"$python" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)' | tee -a "$out/python-gpu.txt"
pybind11_dir=$("$python" -m pybind11 --cmakedir) || { echo "no pybind11 for $python"; exit 1; }
{ cmake -S . -B build-gpu-python -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON \
    -DTREEFIX_BUILD_APPS=OFF -DTREEFIX_BUILD_TESTS=OFF -DPython3_EXECUTABLE="$python" -Dpybind11_DIR="$pybind11_dir" &&
  cmake --build build-gpu-python -j"$(nproc)" --target treefix-python; } > "$out/python-build.log" 2>&1 ||
  { tail -40 "$out/python-build.log"; exit 1; }
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
export PYTHONPATH=$PWD/build-gpu-python/python${PYTHONPATH:+:$PYTHONPATH}
timeout 300 "$python" -m pytest -q -p no:cacheprovider python/tests > "$out/python-tests-gpu.log" 2>&1
echo "python tests on GPU: exit $?"; tail -3 "$out/python-tests-gpu.log"
timeout 900 "$python" bench/python_peers.py --csv "$out/python_peers.csv" ${PEERS_ARGS:-} 2>&1 |
  tee "$out/python_peers.log"
tar -C "$out" -czf /tmp/results-python.tgz . && mv /tmp/results-python.tgz "$out/results-python.tgz"
