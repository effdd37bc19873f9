#!/usr/bin/env bash
# Two GPUs' host: the whole `generate kronecker --scale 26 --distributed` command on 2 ranks, the
# final tree and the session's starting tree (f452aa0, in .gpu-base) built side by side.
set -u
R=$OUT/r; mkdir -p $R; T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a $R/steps.txt; (cd $R && tar czf $OUT/0-x2.tgz .); }
source bench/lib/mpi_env.sh
{ nvidia-smi -L; date -u; nproc; lscpu | grep -E "Model name|Thread|Core|Socket"; free -g; } > $R/device.txt 2>&1
build() { (cmake -S $1 -B $1/build-mpi -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF && cmake --build $1/build-mpi -j16 --target treefix) > $R/build-$2.log 2>&1; }
build . final & build .gpu-base base & wait
el "built: $(tail -1 $R/build-final.log) / $(tail -1 $R/build-base.log)"
C=$(nproc)
gen() { local T=$1 name=$2 S=$(date +%s.%N); timeout 100 mpirun --allow-run-as-root --oversubscribe --bind-to none -x OMP_NUM_THREADS=$((C / 2)) -np 2 $T generate kronecker --scale 26 --distributed -o /tmp/k26-$name.csr > $R/gen-$name.log 2>&1; local rc=$?; el "$name rc=$rc, wall $(awk "BEGIN {print $(date +%s.%N) - $S}") s: $(grep -m1 kronecker $R/gen-$name.log)"; }
gen $PWD/build-mpi/apps/treefix final
gen $PWD/.gpu-base/build-mpi/apps/treefix base
cmp /tmp/k26-final.csr /tmp/k26-base.csr && el "files equal" || el "files differ"
