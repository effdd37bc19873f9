# Sourced by the multi-GPU scripts (bench/gpu_mpi*.sh), from the repository root: the device of
# every rank ($DEVICE for all of them, else each rank the GPU of its local rank, with NVIDIA's
# OpenCL driver made visible unless $NO_ICD is set), the Debian packages the GPU image lacks when
# unpacked in .deps/root, and Open MPI run as root in a container.
if [[ -n ${DEVICE:-} ]]; then
  export TREEFIX_DEVICE=$DEVICE
else
  [[ -n ${NO_ICD:-} ]] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  unset TREEFIX_DEVICE  # each rank takes the GPU of its local rank
fi
if [[ -d .deps/root/usr ]]; then
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers forbid cross-process reads
