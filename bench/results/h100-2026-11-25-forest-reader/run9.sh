#!/usr/bin/env bash
# GPU run 9 (lead): issue 13 forest pipeline, the new reader (this tree) against the commit before
# its merge (.gpu-final/old), alternating on one machine (build-gpu has the tests for run 10).
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R/forest
( cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release > $R/build.log 2>&1 && cmake --build build-gpu -j12 >> $R/build.log 2>&1 || tail -30 $R/build.log ) &
( cmake -S .gpu-final/old -B build-old -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build-old.log 2>&1 && cmake --build build-old -j6 --target treefix-bench >> $R/build-old.log 2>&1 || tail -30 $R/build-old.log ) &
wait
ls build-gpu/apps/treefix-bench build-old/apps/treefix-bench build-gpu/tests/treefix-tests || exit 1
export TREEFIX_DEVICE=nvidia
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv; date -u; } > $R/device.txt 2>&1
for round in 1 2; do
  for b in build-gpu build-old; do
    timeout 120 $b/apps/treefix-bench forest-pipeline --trees 100000 --repeats 5 --dir /tmp/treefix-pipeline --csv $R/forest/$b-$round.csv > $R/forest/$b-$round.log 2>&1
    echo "== $b round $round"; grep -A4 "^  pipeline\|comparison" $R/forest/$b-$round.log | cut -c1-220
  done
done
tar czf $OUT/run9.tgz -C $R .
