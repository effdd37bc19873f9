#!/usr/bin/env bash
# Two GPUs: Kronecker-26 BFS on 2 and 1 ranks (bottom-up long rows by work-groups), components
# on 1 and 2 at scales 26 and 27.
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
mpi 2 components --graph kronecker:12 -o /dev/null >> $R/warm.log 2>&1; mpi 1 components --graph kronecker:12 -o /dev/null >> $R/warm.log 2>&1
mpi 2 generate kronecker --scale 26 --distributed -o /tmp/k26.csr > $R/gen26.log 2>&1
el "generated 26 rc=$?"
mpi 2 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-2.log 2>&1
el "bfs 2 rc=$?: $(grep graph500 $R/bfs-2.log)"
mpi 1 bfs --graph /tmp/k26.csr --roots 64 --check --stats > $R/bfs-1.log 2>&1
el "bfs 1 rc=$?: $(grep graph500 $R/bfs-1.log)"
for s in 26 27; do
  if [[ $s == 27 ]]; then
    rm -f /tmp/k26.csr /tmp/labels-*
    [[ $(( $(date +%s) - T0 )) -lt 230 ]] || { el "no time left for scale 27"; break; }
    mpi 2 generate kronecker --scale 27 --distributed -o /tmp/k27.csr > $R/gen27.log 2>&1
    el "generated 27 rc=$?"
  fi
  for n in 1 2; do
    mpi $n components --graph /tmp/k$s.csr --stats -o /tmp/labels-$n.txt > $R/cc-$n-s$s.log 2>&1
    el "cc $n scale $s rc=$?: $(grep -E '^components:|components: components|  local' $R/cc-$n-s$s.log | tr '\n' ' ')"
  done
  cmp -s /tmp/labels-1.txt /tmp/labels-2.txt; el "scale $s labels 1 vs 2 equal: rc=$?"
done
