#!/usr/bin/env bash
# GPU run 4 (lead, issue 11): the fused kernel's permutation variants; the CLI with and without
# the OpenCL teardown at exit (.npy in and out, 2^24).
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
( cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; } ) &
( cmake -S . -B build-td -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF -DCMAKE_CXX_FLAGS=-DTREEFIX_TEAR_DOWN_AT_EXIT > $R/build-td.log 2>&1 && cmake --build build-td -j16 --target treefix >> $R/build-td.log 2>&1 || { tail -30 $R/build-td.log; exit 1; } ) &
wait
ls build-gpu/apps/treefix build-td/apps/treefix || exit 1
export TREEFIX_DEVICE=nvidia
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/device.txt; date -u | tee -a $R/device.txt
timeout 150 build-gpu/apps/treefix-bench pipeline --min-log 24 --max-log 24 \
  --shapes random-shuffled,random,star,caterpillar --tables kernels --repeats 7 --warmup 2 \
  --dir /tmp/pipe --csv $R/pipeline.csv > $R/kernels.log 2>&1; tail -40 $R/kernels.log
D=/tmp/d; mkdir -p $D
declare -A make=([random-shuffled]="random --shuffle" [star]="star" [caterpillar]="caterpillar")
for shape in random-shuffled star caterpillar; do
  build-gpu/apps/treefix generate ${make[$shape]} -n 16777216 -o $D/$shape.npy
done
python3 -c "import numpy as np; np.save('$D/w.npy', (np.arange(1<<24)%3-1).astype(np.float32))"
echo "binary,shape,algorithm,run,wall_ms,stats" > $R/cli.csv
for b in build-gpu build-td; do build-gpu/apps/treefix rootfix --tree $D/star.npy --weights $D/w.npy --output $D/o.npy >/dev/null; done
for shape in random-shuffled star caterpillar; do
  for i in 0 1 2 3 4 5; do
    for b in build-gpu build-td; do
      for a in auto euler; do
        t0=$(date +%s%N); $b/apps/treefix rootfix --tree $D/$shape.npy --weights $D/w.npy --algorithm $a --output $D/o.npy --stats 2> $D/s.txt; t1=$(date +%s%N)
        echo "$b,$shape,$a,$i,$(((t1-t0)/1000000)),\"$(tr '\n' ';' < $D/s.txt)\"" >> $R/cli.csv
      done
    done
  done
  for i in 0 1 2; do
    t0=$(date +%s%N); build-gpu/apps/treefix rootfix --tree $D/$shape.npy --weights $D/w.npy --algorithm sequential --output $D/o.npy --stats 2> $D/s.txt; t1=$(date +%s%N)
    echo "build-gpu,$shape,sequential,$i,$(((t1-t0)/1000000)),\"$(tr '\n' ';' < $D/s.txt)\"" >> $R/cli.csv
  done
done
python3 - $R/cli.csv <<'PY'
import csv, sys, statistics as st
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["run"] != "0"]
keys = sorted({(r["binary"], r["shape"], r["algorithm"]) for r in rows})
for k in keys:
    w = [int(r["wall_ms"]) for r in rows if (r["binary"], r["shape"], r["algorithm"]) == k]
    print(k, "median", st.median(w), "min", min(w), "n", len(w))
PY
tar czf $OUT/run4.tgz -C $R .
