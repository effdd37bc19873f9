#!/usr/bin/env bash
# The pipeline measurements (bench/results/h100-2026-11-25-pipeline), on the GPU machine, after a build in
# build-gpu/ (bench/run_gpu.sh's, or -DTREEFIX_BUILD_TESTS=OFF). Usage, from the repository root:
#   bench/run_pipeline.sh OUTDIR [LOG2_N]     (BUDGET=seconds: stop starting work after that)
# Writes at most 8 files (what the device tool brings back):
#   cli.csv         `treefix rootfix --type float` process start to exit (wall clock), text and
#                   .npy in and out, star / caterpillar / random-shuffled, every algorithm, with the
#                   --stats phases of each run
#   pipeline-kernels.csv, pipeline-host-call.csv, pipeline-transfers.csv   treefix-bench pipeline
#                   at full size: the fused kernel per layout, the host-vector call, pageable
#                   against pinned transfers
#   pipeline-npy.csv, pipeline-text.csv   treefix-bench pipeline: every phase, in-process
#   run.log         everything printed
set -uo pipefail
out=${1:?output directory}
lg=${2:-24}
n=$((1 << lg))
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
started=$(date +%s)
budget=${BUDGET:-600}
left() { echo $((budget - ($(date +%s) - started))); }  # seconds of the budget still unspent
bin=${BIN:-build-gpu/apps}
data=${DATA:-/tmp/treefix-pipeline-data}
mkdir -p "$data"
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
nproc; date -u

# Inputs: generated once, text and .npy (convert), kept in the page cache like a user's files.
declare -A make=([random-shuffled]="random --shuffle" [star]="star" [caterpillar]="caterpillar")
for shape in random-shuffled star caterpillar; do
  /usr/bin/time -f "generate $shape: %e s" "$bin/treefix" generate ${make[$shape]} -n $n -o "$data/$shape.tree"
  /usr/bin/time -f "convert $shape: %e s" "$bin/treefix" convert --tree "$data/$shape.tree" --output "$data/$shape.npy"
done

# The device side at full size first (kernels per layout, the host-vector call, transfers): short.
timeout $(($(left) - 10)) "$bin/treefix-bench" pipeline --min-log $lg --max-log $lg \
  --shapes random-shuffled,random,star,caterpillar --tables kernels,host-call,transfers \
  --repeats 3 --warmup 1 --dir "$data/pipe" --csv "$out/pipeline.csv"

# One run: wall time of the process, and its --stats phases, as one CSV row.
csv=$out/cli.csv
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
device=${gpu%%,*} driver=${gpu##*, } when=$(date -u +"%Y-%m-%d %H:%M UTC")
[[ -n $gpu ]] || device=$TREEFIX_DEVICE driver=unknown
echo "device,driver,date,shape,n,format,algorithm,run,wall_ms,read_ms,device_setup_ms,upload_ms,validate_ms,prepare_ms,compute_ms,download_ms,write_ms" > "$csv"
run() {  # run SHAPE FORMAT ALGORITHM RUN
  (($(left) > 15)) || return 0
  local shape=$1 format=$2 algorithm=$3 i=$4 ext=tree out_ext=txt
  [[ $format == npy ]] && ext=npy out_ext=npy
  local t0 t1
  t0=$(date +%s%N)
  "$bin/treefix" rootfix --tree "$data/$shape.$ext" --type float --algorithm "$algorithm" \
    --output "$data/out.$out_ext" --stats 2> "$data/stats.txt" || { cat "$data/stats.txt"; return; }
  t1=$(date +%s%N)
  python3 - "$data/stats.txt" "\"$device\",\"$driver\",$when,$shape,$n,$format,$algorithm,$i,$(((t1 - t0) / 1000))" >> "$csv" <<'PY'
import sys
phases = {}
for line in open(sys.argv[1]):
    parts = line.split(":", 1)[1].split()
    phases[" ".join(parts[:-2])] = float(parts[-2])
wall_us = int(sys.argv[2].rsplit(",", 1)[1])
row = sys.argv[2].rsplit(",", 1)[0] + ",%.1f" % (wall_us / 1000)
for p in ["read", "device setup", "upload", "validate", "prepare", "compute", "download", "write"]:
    row += ",%.3f" % phases.get(p, 0.0)
print(row)
PY
}
# Every program each algorithm needs, built once into the disk cache before anything is timed.
printf '3\n-1 0 0\n' > "$data/tiny.tree"
for algorithm in auto euler levels; do
  "$bin/treefix" rootfix --tree "$data/tiny.tree" --type float --algorithm $algorithm > /dev/null
done
for shape in random-shuffled star caterpillar; do
  for format in npy text; do
    run $shape $format auto warmup  # page cache, NVIDIA's compute cache, our program cache
    algorithms="auto euler levels"
    [[ $shape == caterpillar ]] && algorithms="auto euler"  # levels: n/2 levels, seconds
    for algorithm in $algorithms; do
      for i in 1 2; do run $shape $format $algorithm $i; done
    done
    if [[ $format == npy ]]; then
      for i in 1 2; do run $shape $format sequential $i; done
    fi
  done
done
cat "$csv"

# In-process: the same path per phase (one Runtime: no device setup in these rows).
timeout $(($(left) - 5)) "$bin/treefix-bench" pipeline --min-log $((lg < 20 ? lg : 20)) \
  --max-log $lg --log-step 2 --formats npy --algorithms auto,euler,levels,sequential \
  --tables pipeline --repeats 2 --warmup 1 --dir "$data/pipe" --csv "$out/pipeline-npy.csv"
timeout $(($(left) - 2)) "$bin/treefix-bench" pipeline --min-log $lg --max-log $lg \
  --formats text --algorithms auto,euler,levels --tables pipeline --repeats 2 --warmup 1 \
  --dir "$data/pipe" --csv "$out/pipeline-text.csv"
date -u
