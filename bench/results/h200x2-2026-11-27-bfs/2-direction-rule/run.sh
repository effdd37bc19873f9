#!/usr/bin/env bash
# Two GPUs: Kronecker-26 BFS on 2 ranks under three direction rules (pairs against bitmaps), and on 1.
set -u
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $R/steps.txt; (cd $R && tar czf $OUT/0-x2.tgz .); }
source bench/lib/mpi_env.sh
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } > $R/device.txt 2>&1
(cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF && cmake --build build-mpi -j$(nproc) --target treefix) > $R/build.log 2>&1
el "built: $(tail -1 $R/build.log)"
export TREEFIX_CACHE_DIR=$PWD/build-mpi/kernel-cache; mkdir -p $TREEFIX_CACHE_DIR
T=$PWD/build-mpi/apps/treefix
C=$(nproc)
mpi() { local n=$1; shift; OMP_NUM_THREADS=$((C / n)) timeout 200 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $n $T "$@"; }
mpi 2 bfs --graph kronecker:12 --roots 2 --check > $R/warm.log 2>&1; mpi 1 bfs --graph kronecker:12 --roots 2 --check >> $R/warm.log 2>&1
mpi 2 generate kronecker --scale 26 --distributed -o /tmp/k26.csr > $R/gen.log 2>&1
el "generated rc=$?"
for sw in 4 0 16 1; do
  TREEFIX_BFS_EXCHANGE_SWITCH=$sw mpi 2 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-2-switch$sw.log 2>&1
  el "bfs 2 switch $sw rc=$?: $(grep graph500 $R/bfs-2-switch$sw.log)"
done
mpi 1 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-1.log 2>&1
el "bfs 1 rc=$?: $(grep graph500 $R/bfs-1.log)"
