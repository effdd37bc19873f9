#!/usr/bin/env bash
# GPU run 11 (lead, issue 13): why the device similarity call takes 10-40 ms after the new reader
# (5.7 before): pageable transfers, passive OpenMP threads, fewer threads.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
export TREEFIX_DEVICE=nvidia
{ nvidia-smi --query-gpu=name,driver_version --format=csv; date -u; } > $R/device.txt 2>&1
fp() { local name=$1; shift; env "$@" timeout 100 build-gpu/apps/treefix-bench forest-pipeline --trees 100000 --repeats 5 --dir /tmp/treefix-pipeline --csv $R/$name.csv > $R/$name.log 2>&1; echo "== $name"; grep -A3 "^  pipeline" $R/$name.log | cut -c1-200; }
fp default A=1
fp pageable TREEFIX_TRANSFERS=pageable
fp passive OMP_WAIT_POLICY=passive
fp default2 A=1
tar czf $OUT/run11.tgz -C $R .
