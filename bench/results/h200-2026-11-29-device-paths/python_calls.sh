#!/usr/bin/env bash
# Python calls against SciPy (graphs) and the tree construction and surgery phases, one process each.
set -u
source bench/lib/gpu_env.sh
pyb=$(python3 -m pybind11 --cmakedir)
{ cmake -S . -B build-gpu-python -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON -DTREEFIX_BUILD_APPS=OFF \
    -DTREEFIX_BUILD_TESTS=OFF -DPython3_EXECUTABLE=$(command -v python3) -Dpybind11_DIR="$pyb" &&
  cmake --build build-gpu-python -j16 --target treefix-python; } > "$OUT/python-build.log" 2>&1 || { tail -20 "$OUT/python-build.log"; exit 1; }
echo "built at $SECONDS s"
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache PYTHONPATH=$PWD/build-gpu-python/python
mkdir -p "$TREEFIX_CACHE_DIR"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
timeout 250 python3 bench/graph_peers.py --csv "$OUT/graph_peers.csv" --kron 21 --repeats 3 --warmup 1 \
  --data shared/data > "$OUT/graph_peers.log" 2>&1
echo "graph peers rc=$? at $SECONDS s"
timeout 90 python3 bench/phylo_surgery_phases.py --csv "$OUT/phylo_surgery_phases.csv" --repeats 3 \
  > "$OUT/phylo_surgery_phases.log" 2>&1
echo "surgery phases rc=$? at $SECONDS s"
timeout 60 python3 bench/phylo_peers.py --csv "$OUT/phylo_construct.csv" --suites construct --peers none \
  --repeats 3 > "$OUT/phylo_construct.log" 2>&1
echo "construct rc=$? at $SECONDS s"
