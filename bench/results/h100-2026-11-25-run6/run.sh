#!/usr/bin/env bash
# GPU run 6 (lead): issue 13 forest pipeline, issue 14 graph input and BFS, after the helpers'
# merges. Build without tests (run 7 adds them).
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
export TREEFIX_DEVICE=nvidia
B=build-gpu/apps
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv; date -u; } > $R/device.txt 2>&1
mkdir -p $R/forest $R/graph-input $R/bfs
timeout 150 $B/treefix-bench forest-pipeline --trees 100000 --repeats 5 --dir /tmp/treefix-pipeline --csv $R/forest/forest-pipeline.csv > $R/forest/forest-pipeline.log 2>&1; tail -12 $R/forest/forest-pipeline.log
timeout 200 $B/treefix-bench bfs --scale 22 --edge-factor 16 --grid-side 2048 --skip-trees --repeats 9 --small-frontiers 512,4096,512,4096 --csv $R/bfs/bfs.csv > $R/bfs/bfs.log 2>&1; grep -v "^  done\|^reading\|^generating" $R/bfs/bfs.log | head -24
timeout 280 bench/run_graph_input.sh $R/graph-input > /dev/null 2>&1; tail -15 $R/graph-input/run.log
tar czf $OUT/run6.tgz -C $R .
