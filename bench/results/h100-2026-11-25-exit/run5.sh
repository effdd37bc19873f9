#!/usr/bin/env bash
# GPU run 5 (lead, issues 11/14): fixed costs of a device command (process, platforms, context,
# teardown), fresh against reused buffers, Kronecker BFS wall against kernels.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu
R=$OUT/r; mkdir -p $R
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > $R/build.log 2>&1 && cmake --build build-gpu -j16 >> $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
export TREEFIX_DEVICE=nvidia
B=build-gpu/apps
{ nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv; date -u; ls /etc/OpenCL/vendors; cat /etc/OpenCL/vendors/*; } > $R/device.txt 2>&1
cat $R/device.txt
printf '3\n-1 0 0\n' > /tmp/tiny.tree
t() { local s=$(date +%s%N); "$@" > /dev/null 2>/tmp/err.txt; local e=$(date +%s%N); echo $(((e - s) / 1000000)); }
{
for i in 0 1 2 3 4 5; do
  echo "help,$i,$(t $B/treefix --help)"
  echo "devices,$i,$(t $B/treefix devices)"
  echo "tiny-rootfix,$i,$(t $B/treefix rootfix --tree /tmp/tiny.tree --algorithm euler)"
  echo "tiny-rootfix-pocl-hidden,$i,$(OCL_ICD_VENDORS=/etc/OpenCL/vendors/nvidia.icd t $B/treefix rootfix --tree /tmp/tiny.tree --algorithm euler)"
  echo "tiny-rootfix-sequential,$i,$(t $B/treefix rootfix --tree /tmp/tiny.tree --algorithm sequential)"
done
} > $R/fixed.csv
python3 - $R/fixed.csv <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, i, ms = line.strip().split(",")
    if i != "0": d[k].append(int(ms))
for k, v in d.items(): print(k, "median", st.median(v), "all", v)
PY
$B/treefix rootfix --tree /tmp/tiny.tree --algorithm euler --stats 2>&1 | tail -10
timeout 120 $B/treefix-bench pipeline --min-log 24 --max-log 24 --shapes star --tables transfers --repeats 5 --warmup 1 --dir /tmp/pipe --csv $R/pipeline.csv > $R/transfers.log 2>&1; cat $R/transfers.log
timeout 200 $B/treefix-bench bfs --scale 22 --edge-factor 16 --grid-side 2048 --skip-trees --repeats 9 --small-frontiers 512,4096,512,4096 --csv $R/bfs.csv > $R/bfs.log 2>&1; grep -v "^  done\|^reading\|^generating" $R/bfs.log | head -30
tar czf $OUT/run5.tgz -C $R .
