#!/usr/bin/env bash
# Graph input on the GPU machine (bench/results/h100-2026-11-25-graph-input): the Kronecker-21 edge list
# (about 950 MB) read as text, as SciPy .npz (stored and zlib) and as the raw CSR binary,
# each by `treefix bfs --stats`, whose phases time the reading ("read: ...") apart from the device.
# Usage, from the repository root, after a build in build-gpu/ (bench/run_gpu.sh's; built here with
# -DTREEFIX_BUILD_TESTS=OFF when missing):
#   bench/run_graph_input.sh OUTDIR        (about 2 minutes on the GPU machine's 16 cores)
# Writes OUTDIR/graph-input.csv (one row per run: format, file size, wall time of the process,
# the read phases summed, every phase), OUTDIR/convert.csv (the conversions' phases) and
# OUTDIR/run.log, whose last lines are the medians against the targets (text <= 2 s, binary
# <= 0.3 s).
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
bin=${BIN:-build-gpu/apps}
data=${DATA:-/tmp/treefix-graph-input}
scale=${SCALE:-21}
mkdir -p "$data"
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks, unpacked here
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [[ ! -x $bin/treefix ]]; then
  [[ -e /etc/OpenCL/vendors/nvidia.icd ]] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > "$out/build.log" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target treefix >> "$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
fi
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
nproc; lscpu | grep -m1 "Model name"; date -u
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
device=${gpu%%,*} driver=${gpu##*, } when=$(date -u +"%Y-%m-%d %H:%M UTC")
[[ -n $gpu ]] || device=$TREEFIX_DEVICE driver=unknown
host="$(nproc) cores"

# The input: Kronecker scale 21, edge factor 16, as an edge list of every arc (~950 MB).
/usr/bin/time -f "generate: %e s" "$bin/treefix" generate kronecker --scale "$scale" --format edges \
  -o "$data/k.txt"
ls -l "$data/k.txt"

# Phases of a --stats run as CSV fields: the read phases summed, each read phase, the rest.
phases_csv() {  # phases_csv STATS_FILE PREFIX -> "read_ms,phase=ms;phase=ms,..."
  python3 - "$1" "$2" <<'PY'
import sys
read, parts = 0.0, []
for line in open(sys.argv[1]):
    if not line.startswith(sys.argv[2] + ":"):
        continue
    words = line.split(":", 1)[1].split()
    if len(words) < 2 or words[-1] != "ms":
        continue
    name, ms = " ".join(words[:-2]), float(words[-2])
    if name == "total":
        continue
    if name.startswith("read"):
        read += ms
    parts.append("%s=%.1f" % (name, ms))
print("%.1f,%s" % (read, ";".join(parts)))
PY
}

# Conversions (each read of k.txt is also a text-read measurement).
echo "device,driver,date,host,input,output,wall_ms,read_ms,phases" > "$out/convert.csv"
convert() {  # convert IN OUT [options]
  local t0 t1 in=$1 to=$2
  shift 2
  t0=$(date +%s%N)
  "$bin/treefix" convert --graph "$data/$in" --output "$data/$to" "$@" --stats 2> "$data/stats.txt" ||
    { cat "$data/stats.txt"; return; }
  t1=$(date +%s%N)
  echo "\"$device\",\"$driver\",$when,$host,$in,$to $*,$(((t1 - t0) / 1000000)),$(phases_csv "$data/stats.txt" "treefix convert")" >> "$out/convert.csv"
}
convert k.txt k.csr
convert k.txt k.npz
convert k.csr kz.npz --compress
convert k.csr k.mtx
convert k.csr k.graph
ls -l "$data"

# Reading by `treefix bfs --stats`, three runs each after one that warms the page cache and the
# program cache; the process's wall time too.
csv=$out/graph-input.csv
echo "device,driver,date,host,format,file,bytes,run,wall_ms,read_ms,phases" > "$csv"
for file in k.txt k.mtx k.graph k.npz kz.npz k.csr; do
  format=${file#*.}
  [[ $format == txt ]] && format=edges
  [[ $file == kz.npz ]] && format=npz-zlib
  for run in warmup 1 2 3; do
    t0=$(date +%s%N)
    "$bin/treefix" bfs --graph "$data/$file" --source 1 --stats --output "$data/depth.txt" \
      2> "$data/stats.txt" || { cat "$data/stats.txt"; continue; }
    t1=$(date +%s%N)
    fields=$(phases_csv "$data/stats.txt" "treefix bfs")
    echo "\"$device\",\"$driver\",$when,$host,$format,$file,$(stat -c %s "$data/$file"),$run,$(((t1 - t0) / 1000000)),${fields%%,*},${fields#*,}" >> "$csv"
  done
done

# The summary: median read time per format against the targets (bench/results/h100-2026-11-25-graph-input).
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["run"] != "warmup"]
target = {"edges": 2000, "npz": 300, "csr": 300}
print("%-9s %12s %10s %10s %8s" % ("format", "bytes", "read ms", "wall ms", "target"))
for fmt in dict.fromkeys(r["format"] for r in rows):
    rs = [r for r in rows if r["format"] == fmt]
    read = statistics.median(float(r["read_ms"]) for r in rs)
    wall = statistics.median(float(r["wall_ms"]) for r in rs)
    t = target.get(fmt)
    print("%-9s %12s %10.1f %10.1f %8s" % (fmt, rs[0]["bytes"], read, wall,
                                          ("<= %d %s" % (t, "ok" if read <= t else "MISSED")) if t else ""))
PY
rm -f "$data/depth.txt" "$data/stats.txt"
