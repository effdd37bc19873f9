#!/usr/bin/env bash
# GPU run 12 (lead, issue 11): the command's upload phase (25-60 ms for 128 MiB, 4 ms in the
# transfers table): pinned (default) against pageable transfers and passive OpenMP threads.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 --target treefix >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
export TREEFIX_DEVICE=nvidia
{ nvidia-smi --query-gpu=name,driver_version --format=csv; date -u; } > $R/device.txt 2>&1
D=/tmp/d; mkdir -p $D; B=build-gpu/apps/treefix
$B generate random --shuffle -n 16777216 -o $D/t.npy
python3 -c "import numpy as np; np.save('$D/w.npy', (np.arange(1<<24)%3-1).astype(np.float32))"
$B rootfix --tree $D/t.npy --weights $D/w.npy --output $D/o.npy
echo "variant,run,wall_ms,stats" > $R/cli.csv
for i in 0 1 2 3 4 5 6 7; do
  for v in default pageable passive; do
    case $v in default) e="A=1";; pageable) e="TREEFIX_TRANSFERS=pageable";; passive) e="OMP_WAIT_POLICY=passive";; esac
    t0=$(date +%s%N); env $e $B rootfix --tree $D/t.npy --weights $D/w.npy --output $D/o.npy --stats 2> $D/s.txt; t1=$(date +%s%N)
    echo "$v,$i,$(((t1-t0)/1000000)),\"$(tr '\n' ';' < $D/s.txt)\"" >> $R/cli.csv
  done
done
python3 - $R/cli.csv <<'PY'
import csv, sys, statistics as st, re, collections
rows=[r for r in csv.DictReader(open(sys.argv[1])) if r['run']!='0']
g=collections.defaultdict(list)
for r in rows: g[r['variant']].append(r)
for k,rs in g.items():
    ph=collections.defaultdict(list)
    for r in rs:
        for m in re.finditer(r'rootfix: (\w[\w ]*?)\s+([\d.]+) ms', r['stats']): ph[m.group(1)].append(float(m.group(2)))
    wall=st.median(int(r['wall_ms']) for r in rs)
    print(k, 'wall', wall, 'min', min(int(r['wall_ms']) for r in rs), 'outside', round(wall-st.median(ph['total'])), ' '.join(f"{p}={st.median(v):.1f}" for p,v in ph.items()))
PY
tar czf $OUT/run12.tgz -C $R .
