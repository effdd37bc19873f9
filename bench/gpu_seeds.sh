#!/usr/bin/env bash
# The seeds' experiments (docs/seeds.md) in one call on the GPU machine, sized for about six
# minutes on an H100 with 16 host cores (each experiment is capped by `timeout`). From the
# repository root:
#
#   bench/gpu_seeds.sh OUTDIR
#
# Uses build-gpu/ when bench/run_gpu.sh built it (SKIP_TESTS=1 bench/run_gpu.sh OUT /dev/null
# builds without running anything); otherwise builds it the same way. Writes into OUTDIR one CSV
# and one log per experiment, the plots and summary.md of bench/plot.py, graph_table.md of
# bench/graph_table.py, and results.tgz (everything, for a tool that brings back few files).
#   SEEDS_DATA=DIR  the real graphs (default: shared/data, ../shared/data or data/, the first
#                   that exists): luxembourg_osm.mtx, wave.graph.xz, web-NotreDame.txt.xz,
#                   soc-Epinions1_lcc_undirected.txt.xz; .xz files are decompressed into /tmp
#   ONLY="a b"      run only these experiments (names below), e.g. ONLY="paper accuracy"
#   SEEDS_QUICK=1   every experiment at toy sizes (a minute on PoCL): checks the script and the
#                   build before spending device time; TREEFIX_DEVICE is then left as it is
# Each experiment runs under `timeout` so that one slow part cannot take the whole budget.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ -w /etc/OpenCL/vendors ]]; then echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; fi
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks (see run_gpu.sh)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
start=$(date +%s)
bench=./build-gpu/apps/treefix-bench
if [[ ! -x $bench ]]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > "$out/build.log" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target treefix treefix-bench >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
if [[ -z ${SEEDS_QUICK:-} ]]; then
  export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
  max_log=24 terms=10000 trees=100 grid=2048 scale=20 path=1048576 bodies=100000 points=200000
  tree_counts=1024,2048,3072,4096,5120,6144,7168,8192,9216,10240 copies_list="1024 4096 16384 65536"
  shape_copies=3072 threads_list="1 2 4 8 16"
else
  max_log=10 terms=300 trees=2 grid=64 scale=10 path=4096 bodies=2000 points=2000
  tree_counts=64,128 copies_list="64 256" shape_copies=16 threads_list="1 2"
fi
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
{ git rev-parse --short HEAD 2> /dev/null; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null; } > "$out/device.txt"

data=${SEEDS_DATA:-}
if [[ -z $data ]]; then
  for d in shared/data ../shared/data data; do [[ -d $d ]] && { data=$d; break; }; done
fi
work=/tmp/treefix-seeds-data
mkdir -p "$work"
graphs=()
for f in luxembourg_osm.mtx wave.graph.xz web-NotreDame.txt.xz soc-Epinions1_lcc_undirected.txt.xz; do
  [[ -n $data && -e $data/$f ]] || { echo "missing ${data:-DATA}/$f: skipped" | tee -a "$out/run.log"; continue; }
  plain=$work/${f%.xz}
  if [[ $f == *.xz ]]; then [[ -s $plain ]] || xz -dc "$data/$f" > "$plain"; else cp "$data/$f" "$plain"; fi
  graphs+=("$plain")
done

wanted() { [[ -z ${ONLY:-} || " $ONLY " == *" $1 "* ]]; }
# run NAME SECONDS treefix-bench-arguments...: OUT/NAME.csv and OUT/NAME.log
run() {
  local name=$1 limit=$2
  shift 2
  wanted "${name%%-*}" || return 0
  echo "== [$(($(date +%s) - start)) s] $name: treefix-bench $*" | tee -a "$out/run.log"
  timeout "$limit" "$bench" "$@" --csv "$out/$name.csv" > "$out/$name.log" 2> "$out/$name.err"
  local rc=$?
  [[ $rc == 0 ]] || echo "   $name: exit $rc (124: over its $limit s)" | tee -a "$out/run.log"
}

# Defour & Marin: the seed's caterpillar (path: every vertex one child) beside ours (a spine of
# n/2 with n/2 leaves), with star and random; level histograms of the largest trees (Fig. 6).
run paper-shapes 150 paper --min-log $((max_log - 9)) --max-log $max_log --type float \
  --fix rootfix --shapes star,caterpillar,path,random --algorithms sequential,cpu-euler,levels,euler \
  --repeats 5 --budget-s 3 --max-run-s 2 --level-histogram "$out/levels-shapes.csv"
# Table I on the real graphs (both branching factors) and their Fig. 6 histograms; Fig. 4a's pair
# is the deepest and the shallowest of them (bench/README.md, "seeds").
if ((${#graphs[@]})); then
  shapes=$(printf 'graph:%s,' "${graphs[@]}")
  run paper-graphs 60 paper --type float --fix rootfix --shapes "${shapes%,}" \
    --algorithms sequential,cpu-euler,cpu-levels,levels,euler --repeats 5 \
    --level-histogram "$out/levels-graphs.csv"
fi
# Fig. 10 with the seed's placement (every vertex of 100 random 10^4-vertex trees), beside ours;
# the suite's default algorithms, which cover the fast (the paper's) and the accurate precision.
run accuracy-every 90 accuracy --terms $terms --trees $trees --min-cond-log 1 --max-cond-log 10 \
  --type float --settings rootfix:random-every,leaffix:random-every
run accuracy-ours 60 accuracy --terms $terms --trees $trees --min-cond-log 1 --max-cond-log 10 \
  --type float

# Sahu & Donur, Figs. 1 and 2: every method on high-diameter real and synthetic graphs, auto
# (which method it chose), and PR-RST with 1, 2 and 3 jump levels per launch.
graph_args=()
for g in "${graphs[@]}"; do graph_args+=(--graph "$g"); done
run rooting 120 rooting --parts rst --grid-side $grid --scale $scale --path $path "${graph_args[@]}" \
  --pr-levels 1,2,3 --repeats 3

# The thesis: the similarity grid (1,024 to 10,240 trees) with its run-time speedup
# (construction + device against one CPU thread); traversals of every 5- and 6-node shape (with
# their heights), over tree sizes and over forest sizes (copies), the four orders each.
run forest-grid 40 forest --trees $tree_counts --repeats 5
run forest-shapes 60 forest-traversal --copies $shape_copies --sizes 10 --all-shapes 5,6 \
  --random-trees 0 --repeats 3
run forest-sizes 40 forest-traversal --copies $shape_copies --sizes 5,6,10,20,50,100,200,500 \
  --random-trees 0 --repeats 5
for copies in $copies_list; do
  run forest-copies-$copies 20 forest-traversal --copies $copies --sizes 6 --random-trees 0 --repeats 5
done

# Goldfarb, Jo & Kulkarni: 7-D points and a clustered 2-D set (Geocity's stand-in), with the
# per-warp work expansion (Table 2: mean and standard deviation) in every ropes row.
run ropes-7d 60 ropes --apps correlate,knn-kd,knn-vp --points $((points / 2)) --dims 7 --repeats 3 \
  --cpu-repeats 1
run ropes-clustered2d 60 ropes --apps correlate,knn-kd,knn-vp --points $points --dims 2 \
  --clusters 100 --repeats 3 --cpu-repeats 1
# Figs. 10/11: the CPU baseline on 1 thread and a thread sweep.
for threads in $threads_list; do
  run ropes-threads-$threads 60 ropes --bodies $bodies --points $((points / 2)) --threads $threads \
    --repeats 3 --cpu-repeats 1
done

echo "== [$(($(date +%s) - start)) s] plots" | tee -a "$out/run.log"
python3 bench/plot.py "$out" > "$out/plot.log" 2>&1 || tail -5 "$out/plot.log"
python3 bench/graph_table.py "$out" > "$out/graph_table.md" 2> "$out/graph_table.err" || true
tar -C "$out" -czf /tmp/seeds-results.tgz --exclude results.tgz . && mv /tmp/seeds-results.tgz "$out/results.tgz"
echo "== [$(($(date +%s) - start)) s] done: $out" | tee -a "$out/run.log"
