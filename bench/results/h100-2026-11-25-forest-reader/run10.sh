#!/usr/bin/env bash
# GPU run 10 (lead): issue 13 forest pipeline on final main, then every unit test case on the H100.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
s=$(date +%s)
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release > $R/build.log 2>&1 && cmake --build build-gpu -j16 >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - s )) s"
export TREEFIX_DEVICE=nvidia
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv; date -u; } > $R/device.txt 2>&1
timeout 100 build-gpu/apps/treefix-bench forest-pipeline --trees 100000 --repeats 5 --dir /tmp/treefix-pipeline --csv $R/forest-pipeline.csv > $R/forest-pipeline.log 2>&1
grep -A4 "^  pipeline\|comparison" $R/forest-pipeline.log | cut -c1-220
left=$(( 585 - ($(date +%s) - s) ))
echo "tests get $left s"
cd build-gpu/tests && timeout $left ./treefix-tests --duration=true > $R/tests-gpu.log 2>&1; echo "tests rc=$?"; tail -5 $R/tests-gpu.log
cd ../.. && tar czf $OUT/run10.tgz -C $R .
