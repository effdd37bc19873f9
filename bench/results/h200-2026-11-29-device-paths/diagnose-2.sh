#!/usr/bin/env bash
# A diagnosis run (see README.md): the commit it ran at is in the output file name
# OLD_KERNELS: a folder holding union_find.clh, connectivity.cl and mst.cl as of 7dc2a07 (git show)
set -u
source bench/lib/gpu_env.sh
exec > >(tee "$OUT/diag2.txt") 2>&1
pyb=$(python3 -m pybind11 --cmakedir)
cmake -S . -B build-diag -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_PYTHON=ON -DTREEFIX_BUILD_TESTS=OFF -Dpybind11_DIR="$pyb" -DPython3_EXECUTABLE=$(command -v python3) > $OUT/build.log 2>&1
cmake --build build-diag -j16 --target treefix treefix-bench treefix-python >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built at $SECONDS s"
# the A/B tree: the kernels before uf_hook's int2
mkdir -p /tmp/ab && tar --exclude=./build-diag --exclude=./shared --exclude=./.git -cf - . | tar -xf - -C /tmp/ab
cp $OLD_KERNELS/union_find.clh /tmp/ab/kernels/primitives/; cp $OLD_KERNELS/connectivity.cl $OLD_KERNELS/mst.cl /tmp/ab/kernels/graph/
(cd /tmp/ab && cmake -S . -B build-ab -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build build-ab -j16 --target treefix-bench > $OUT/build-ab.log 2>&1) &
abpid=$!
export TREEFIX_CACHE_DIR=$PWD/build-diag/kernel-cache PYTHONPATH=$PWD/build-diag/python
T=build-diag/apps
TAG=fix timeout 100 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py road 2>&1 | grep -v Warn
TAG=fix timeout 150 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py kron 2>&1 | grep -v Warn
TAG=fix timeout 100 python3 bench/results/h200-2026-11-29-device-paths/diagnose.py scc 2>&1 | grep -v Warn
echo "python done at $SECONDS s"
timeout 60 $T/treefix generate kronecker --scale 22 --format csr -o /tmp/k22.csr 2>&1 | tail -1
for i in 1 2; do $T/treefix bfs --graph /tmp/k22.csr -o /tmp/d.npy --stats 2>&1 | grep -E "bfs:"; done
timeout 60 $T/treefix-bench graph500 --graph /tmp/k22.csr --roots 64 --csv $OUT/g500-a.csv 2>&1 | tail -2
timeout 60 $T/treefix-bench graph500 --graph /tmp/k22.csr --roots 64 --csv $OUT/g500-b.csv 2>&1 | tail -1
TREEFIX_BFS_GRID_BARRIER=off timeout 60 $T/treefix-bench graph500 --graph /tmp/k22.csr --roots 64 --csv $OUT/g500-nogrid.csv 2>&1 | tail -1
echo "k22 done at $SECONDS s"
wait $abpid; echo "ab built at $SECONDS s"
for i in 1 2; do
  echo "== int2 $i"; TREEFIX_CACHE_DIR=/tmp/kc-new timeout 90 $T/treefix-bench rooting --parts cc --scale 24 --repeats 7 2>&1 | grep -iE "kron|grid|strip|graph " | head -12
  echo "== old $i"; TREEFIX_CACHE_DIR=/tmp/kc-old timeout 90 /tmp/ab/build-ab/apps/treefix-bench rooting --parts cc --scale 24 --repeats 7 2>&1 | grep -iE "kron|grid|strip|graph " | head -12
done
echo "all done at $SECONDS s"
