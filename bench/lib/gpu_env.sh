# Sourced by the GPU scripts (bench/gpu_*.sh), from the repository root: makes NVIDIA's OpenCL
# driver visible and the default device where the machine has one, and points CMake and the
# loader at the Debian packages the GPU image lacks when they were unpacked in .deps/root.
if [[ -e /etc/OpenCL/vendors ]] && command -v nvidia-smi > /dev/null; then
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
fi
if [[ -d .deps/root/usr ]]; then
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
