# Sourced by the GPU scripts that time or test the Python module, from the repository root, after
# bench/lib/gpu_env.sh and with $python set: `build_python_module LOG` builds the module for
# $python in build-gpu-python/ (the build's output to LOG; on failure its tail, and status 1), then
# points imports at it and the kernel cache at build-gpu/kernel-cache (shared with the other
# scripts, unless TREEFIX_CACHE_DIR names another).
build_python_module() {
  local log=$1 pybind11_dir
  pybind11_dir=$("$python" -m pybind11 --cmakedir) || { echo "no pybind11 for $python"; return 1; }
  { cmake -S . -B build-gpu-python -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON \
      -DTREEFIX_BUILD_APPS=OFF -DTREEFIX_BUILD_TESTS=OFF -DPython3_EXECUTABLE="$python" \
      -Dpybind11_DIR="$pybind11_dir" &&
    cmake --build build-gpu-python -j"$(nproc)" --target treefix-python; } > "$log" 2>&1 ||
    { tail -40 "$log"; return 1; }
  export TREEFIX_CACHE_DIR=${TREEFIX_CACHE_DIR:-$PWD/build-gpu/kernel-cache}
  mkdir -p "$TREEFIX_CACHE_DIR"
  export PYTHONPATH=$PWD/build-gpu-python/python${PYTHONPATH:+:$PYTHONPATH}
}
