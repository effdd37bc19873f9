#!/usr/bin/env bash
# Tree(parents), Tree(parents, lengths=), reroot and prune of a 2^24-vertex tree through the
# Python module on the GPU machine (bench/phylo_surgery_phases.py), after the module's tree and
# phylogeny tests on the GPU. From the repository root on that machine:
#   bench/gpu_phylo_surgery.sh OUTDIR      (PYTHON=/path/to/python3; LOG_N=24; REPEATS=5)
# Builds in build-gpu-python/ as bench/gpu_python.sh does (sharing build-gpu/'s kernel cache).
# Writes OUTDIR/python-build.log, phylo-tests-gpu.log, phylo_surgery_phases.csv and .log.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
[[ -w /etc/OpenCL/vendors ]] && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
pybind11_dir=$("$python" -m pybind11 --cmakedir) || { echo "no pybind11 for $python"; exit 1; }
{ cmake -S . -B build-gpu-python -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON \
    -DTREEFIX_BUILD_APPS=OFF -DTREEFIX_BUILD_TESTS=OFF -DPython3_EXECUTABLE="$python" -Dpybind11_DIR="$pybind11_dir" &&
  cmake --build build-gpu-python -j"$(nproc)" --target treefix-python; } > "$out/python-build.log" 2>&1 ||
  { tail -40 "$out/python-build.log"; exit 1; }
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
export PYTHONPATH=$PWD/build-gpu-python/python${PYTHONPATH:+:$PYTHONPATH}
timeout 180 "$python" -m pytest -q -p no:cacheprovider python/tests/test_trees.py \
  python/tests/test_phylo.py python/tests/test_phylo_edited.py > "$out/phylo-tests-gpu.log" 2>&1
echo "tree and phylogeny tests on GPU: exit $?"; tail -3 "$out/phylo-tests-gpu.log"
timeout 300 "$python" bench/phylo_surgery_phases.py --csv "$out/phylo_surgery_phases.csv" \
  --log-n "${LOG_N:-24}" --repeats "${REPEATS:-5}" 2>&1 | tee "$out/phylo_surgery_phases.log"
