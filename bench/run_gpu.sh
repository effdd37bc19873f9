#!/usr/bin/env bash
# Build, check and benchmark on the GPU machine in one go (see bench/README.md).
# Usage, from the repository root on that machine:  bench/run_gpu.sh OUTDIR [SUITE_COMMANDS_FILE]
# Registers NVIDIA's OpenCL driver, builds in build-gpu/, runs the test suite on the GPU, then each
# line of the commands file (default bench/gpu_suites.txt) as `treefix-bench <line>`, writing
# OUTDIR/<first word>.csv and logs.
set -uo pipefail
out=${1:?output directory}
suites=${2:-bench/gpu_suites.txt}
mkdir -p "$out"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
clinfo -l 2>&1 | tee "$out/clinfo.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee -a "$out/clinfo.txt"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=ON > "$out/build.log" 2>&1 &&
  cmake --build build-gpu -j16 >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
if [[ -z ${SKIP_TESTS:-} ]]; then
  timeout 300 ./build-gpu/tests/treefix-tests > "$out/tests-gpu.log" 2>&1
  echo "tests on GPU: exit $?"; tail -4 "$out/tests-gpu.log"
fi
while read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  name=${line%% *}
  if [[ $line =~ --fix\ ([a-z,]+) ]]; then name=$name-${BASH_REMATCH[1]//,/-}; fi
  echo "== treefix-bench $line"
  ./build-gpu/apps/treefix-bench $line --csv "$out/$name.csv" 2>&1 | tee "$out/$name.log"
done < "$suites"
# the device tool brings back at most 8 files: pack everything into one archive as well
tar -C "$out" -czf /tmp/results.tgz . && mv /tmp/results.tgz "$out/results.tgz"
