#!/usr/bin/env bash
# Two GPUs: the largest Kronecker graph two GPUs hold and one refuses, generated in place by the
# edge stream, Graph500 BFS with 64 validated roots; host and GPU memory sampled every 5 s.
set -u
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $R/steps.txt; (cd $R && tar czf $OUT/0-x2.tgz .); }
source bench/lib/mpi_env.sh
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; lscpu | grep -E "Model name|Thread|Core|Socket"; grep -o -m1 "avx512dq\|avx2" /proc/cpuinfo | sort -u; git rev-parse HEAD 2>/dev/null; free -g; df -h /tmp | tail -1; } > $R/device.txt 2>&1
(cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF && cmake --build build-mpi -j$(nproc) --target treefix) > $R/build.log 2>&1
el "built: $(tail -1 $R/build.log)"
(while true; do echo "$(( $(date +%s) - T0 )) s: host used $(free -m | awk '/Mem:/{print $3}') MiB; GPUs used $(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | tr '\n' ' ')MiB"; sleep 5; done) > $R/memory.txt 2>&1 &
export TREEFIX_CACHE_DIR=$PWD/build-mpi/kernel-cache; mkdir -p $TREEFIX_CACHE_DIR
T=$PWD/build-mpi/apps/treefix
C=$(nproc)
mpi() { local n=$1 limit=$2; shift 2; OMP_NUM_THREADS=$((C / n)) timeout $limit mpirun --allow-run-as-root --oversubscribe --bind-to none -np $n $T "$@"; }
# one H200 (35,789 MiB buffers) refuses 29 and two hold it; one H100 (20,270 MiB) refuses 28
S=29; nvidia-smi -L | grep -q H100 && S=28
LEFT=$(( 585 - ($(date +%s) - T0) ))
mpi 2 $LEFT bfs --graph kronecker:$S --roots 64 --check --stats > $R/bfs-2-s$S.log 2>&1
el "bfs 2 s$S rc=$?: $(grep graph500 $R/bfs-2-s$S.log)"
