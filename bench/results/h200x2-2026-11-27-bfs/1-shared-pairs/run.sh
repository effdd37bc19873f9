#!/usr/bin/env bash
# Two GPUs: Kronecker-26 BFS on 1 and 2 ranks, top-down pairs through the shared block against MPI; components on 1 and 2.
set -u
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $R/steps.txt; (cd $R && tar czf $OUT/0-x2.tgz .); }
source bench/lib/mpi_env.sh
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; nproc; } > $R/device.txt 2>&1
(cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF && cmake --build build-mpi -j$(nproc) --target treefix) > $R/build.log 2>&1
el "built: $(tail -1 $R/build.log)"
export TREEFIX_CACHE_DIR=$PWD/build-mpi/kernel-cache; mkdir -p $TREEFIX_CACHE_DIR
T=$PWD/build-mpi/apps/treefix
mpi() { local n=$1; shift; OMP_NUM_THREADS=$((16 / n)) timeout 200 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $n $T "$@"; }
mpi 2 bfs --graph kronecker:12 --roots 2 --check > $R/warm.log 2>&1; mpi 1 bfs --graph kronecker:12 --roots 2 --check >> $R/warm.log 2>&1
mpi 2 generate kronecker --scale 26 --distributed -o /tmp/k26.csr > $R/gen.log 2>&1
el "generated rc=$?"
mpi 2 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-2-shared.log 2>&1
el "bfs 2 shared rc=$?: $(grep graph500 $R/bfs-2-shared.log)"
TREEFIX_MPI_SHARED=off mpi 2 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-2-mpi.log 2>&1
el "bfs 2 mpi rc=$?: $(grep graph500 $R/bfs-2-mpi.log)"
mpi 1 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-1.log 2>&1
el "bfs 1 rc=$?: $(grep graph500 $R/bfs-1.log)"
for n in 1 2; do
  mpi $n components --graph /tmp/k26.csr --stats -o /tmp/labels-$n.txt > $R/cc-$n.log 2>&1
  el "cc $n rc=$?: $(grep -i 'components' $R/cc-$n.log | tail -3 | tr '\n' ' ')"
done
cmp -s /tmp/labels-1.txt /tmp/labels-2.txt; el "labels 1 vs 2 equal: rc=$?"
