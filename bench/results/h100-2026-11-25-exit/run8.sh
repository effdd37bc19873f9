#!/usr/bin/env bash
# GPU run 8 (lead, issue 11): the weights take the result and outputs start writeback early (new)
# against the commit before (old = .gpu-final/old), .npy in and out at 2^24.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
( cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 --target treefix >> $R/build.log 2>&1 || tail -30 $R/build.log ) &
( cmake -S .gpu-final/old -B build-old -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build-old.log 2>&1 && cmake --build build-old -j16 --target treefix >> $R/build-old.log 2>&1 || tail -30 $R/build-old.log ) &
wait
ls build-gpu/apps/treefix build-old/apps/treefix || exit 1
export TREEFIX_DEVICE=nvidia
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv; date -u; } > $R/device.txt 2>&1
D=/tmp/d; mkdir -p $D
declare -A make=([random-shuffled]="random --shuffle" [star]="star" [caterpillar]="caterpillar")
for shape in random-shuffled star caterpillar; do
  build-gpu/apps/treefix generate ${make[$shape]} -n 16777216 -o $D/$shape.npy
done
python3 -c "import numpy as np; np.save('$D/w.npy', (np.arange(1<<24)%3-1).astype(np.float32))"
echo "binary,shape,algorithm,run,wall_ms,stats" > $R/cli.csv
for b in build-gpu build-old; do $b/apps/treefix rootfix --tree $D/star.npy --weights $D/w.npy --output $D/o.npy >/dev/null; done
for shape in random-shuffled star caterpillar; do
  for i in 0 1 2 3 4 5 6 7; do
    for b in build-gpu build-old; do
      for a in auto; do
        t0=$(date +%s%N); $b/apps/treefix rootfix --tree $D/$shape.npy --weights $D/w.npy --algorithm $a --output $D/o.npy --stats 2> $D/s.txt; t1=$(date +%s%N)
        echo "$b,$shape,$a,$i,$(((t1-t0)/1000000)),\"$(tr '\n' ';' < $D/s.txt)\"" >> $R/cli.csv
      done
    done
  done
done
python3 - $R/cli.csv <<'PY'
import csv, sys, statistics as st, re, collections
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['run']!='0']
g=collections.defaultdict(list)
for r in rows: g[(r['binary'],r['shape'],r['algorithm'])].append(r)
for k,rs in sorted(g.items()):
    ph=collections.defaultdict(list)
    for r in rs:
        for m in re.finditer(r'rootfix: (\w[\w ]*?)\s+([\d.]+) ms', r['stats']): ph[m.group(1)].append(float(m.group(2)))
    wall=st.median(int(r['wall_ms']) for r in rs)
    print(k, 'wall', wall, 'min', min(int(r['wall_ms']) for r in rs), 'outside', round(wall-st.median(ph['total'])), ' '.join(f"{p}={st.median(v):.1f}" for p,v in ph.items()))
PY
tar czf $OUT/run8.tgz -C $R .
