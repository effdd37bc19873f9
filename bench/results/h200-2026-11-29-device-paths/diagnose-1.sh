#!/usr/bin/env bash
# A diagnosis run (see README.md): the commit it ran at is in the output file name
set -u
source bench/lib/gpu_env.sh
exec > >(tee "$OUT/diag.txt") 2>&1
py=/usr/bin/python3; command -v $py >/dev/null || py=python3
pyb=$(python3 -m pybind11 --cmakedir)
cmake -S . -B build-diag -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON -DTREEFIX_BUILD_TESTS=OFF -Dpybind11_DIR="$pyb" -DPython3_EXECUTABLE=$(command -v python3) > $OUT/build.log 2>&1
cmake --build build-diag -j16 --target treefix treefix-bench treefix-python >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built at $SECONDS s"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export TREEFIX_CACHE_DIR=$PWD/build-diag/kernel-cache PYTHONPATH=$PWD/build-diag/python
T=build-diag/apps
for i in 1 2; do $T/treefix bfs --graph shared/data/luxembourg_osm.mtx -o /tmp/d.npy --stats; done 2>&1 | grep -v "^treefix bfs: read"
for i in 1 2; do $T/treefix components --strong --graph shared/data/web-NotreDame.txt.xz -o /tmp/c.npy --stats; done 2>&1 | grep -E "strong|components:"
TAG=base timeout 120 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py road
TAG=noint DIAG_NO_INTERRUPT=1 timeout 100 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py road
TAG=nogrid TREEFIX_BFS_GRID_BARRIER=off timeout 100 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py road 2>&1 | grep bfs
echo "road done at $SECONDS s"
TAG=base timeout 150 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py kron
echo "kron done at $SECONDS s"
timeout 60 $T/treefix generate kronecker --scale 22 -o /tmp/k22.csr 2>&1 | tail -1
$T/treefix bfs --graph /tmp/k22.csr -o /tmp/d.npy --stats 2>&1 | grep -E "bfs:"
timeout 60 $T/treefix-bench graph500 --graph /tmp/k22.csr --roots 64 --csv $OUT/g500.csv 2>&1 | tail -3
TREEFIX_BFS_GRID_BARRIER=off timeout 60 $T/treefix-bench graph500 --graph /tmp/k22.csr --roots 64 --csv $OUT/g500-nogrid.csv 2>&1 | tail -2
echo "k22 done at $SECONDS s"
timeout 150 python3 bench/phylo_surgery_phases.py --csv $OUT/phases.csv --repeats 3
echo "all done at $SECONDS s"
