#!/usr/bin/env bash
# Every experiment of the five seed documents (docs/seeds.md) in one call on the GPU machine, at
# the seeds' own sizes where one GPU allows, sized for about six minutes on one H200 with 16 host
# cores and never more than nine (each experiment runs under `timeout`, and none starts once the
# call has used SEEDS_BUDGET_S seconds, 540 by default). From the repository root:
#
#   bench/gpu_seeds.sh OUTDIR
#
# Uses build-gpu/ when bench/run_gpu.sh built it (SKIP_TESTS=1 bench/run_gpu.sh OUT /dev/null
# builds without running anything); otherwise builds it the same way. Writes into OUTDIR one CSV
# and one log per experiment, the plots and summary.md of bench/plot.py, graph_table.md of
# bench/graph_table.py, run.log (each experiment's command and start), device.txt (commit, date,
# card, driver) and results.tgz (everything, for a tool that brings back few files).
#   SEEDS_DATA=DIR  the real graphs (default: shared/data, ../shared/data or data/, the first
#                   that exists): luxembourg_osm.mtx, wave.graph.xz, web-NotreDame.txt.xz,
#                   soc-Epinions1_lcc_undirected.txt.xz; .xz files are decompressed into /tmp
#   ONLY="a b"      run only the experiments whose names start so, e.g. ONLY="paper accuracy"
#   SEEDS_QUICK=1   every experiment at toy sizes (about two minutes on PoCL): checks the script
#                   and the build before spending device time; TREEFIX_DEVICE is then left as it is
#   SEEDS_BUDGET_S  seconds after which no experiment starts (default 540)
set -uo pipefail
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
out=${1:?output directory}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [[ -w /etc/OpenCL/vendors ]]; then echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; fi
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks (see run_gpu.sh)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
start=$(date +%s)
budget=${SEEDS_BUDGET_S:-540}
bench=./build-gpu/apps/treefix-bench
if [[ ! -x $bench ]]; then
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF > "$out/build.log" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target treefix treefix-bench >> "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
if [[ -z ${SEEDS_QUICK:-} ]]; then
  export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
  # Defour & Marin: stars and caterpillars 2^15 .. 2^24 (section IV-A), Table I's ten trees,
  # Fig. 10's 100 trees of 10^4 vertices. Sahu & Donur: five timed runs (section IV). Thesis:
  # 3,072 copies (section 4.2.2), 1,024 .. 10,240 trees (Fig. 5.3). Goldfarb et al.: 10^6 bodies,
  # 2*10^5 points (section 6.1.2).
  min_log=15 max_log=24 table1=table1 terms=10000 trees=100 our_trees=10 grid=2048 scale=20
  edge_factor=48 path=1048576 rst_repeats=5 bodies=1000000 points=200000 sweep_bodies=100000
  sweep_points=100000 tree_counts=1024,2048,3072,4096,5120,6144,7168,8192,9216,10240
  copies_list="1024 4096 16384 65536" shape_copies=3072 threads_list="1 2 4 8 16"
  displaced=0.01,0.03,0.1,0.3
else
  min_log=6 max_log=10 table1=table1:af_shell9 terms=300 trees=2 our_trees=2 grid=64 scale=10
  edge_factor=16 path=4096 rst_repeats=2 bodies=3000 points=3000 sweep_bodies=2000
  sweep_points=2000 tree_counts=64,128 copies_list="64 256" shape_copies=16 threads_list="1 2"
  displaced=0.1,0.5
fi
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
{ checkout_commit; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null; } > "$out/device.txt"

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

wanted() {
  [[ -z ${ONLY:-} ]] && return 0
  local w
  for w in $ONLY; do [[ $1 == "$w"* ]] && return 0; done
  return 1
}
# run NAME SECONDS treefix-bench-arguments...: OUT/NAME.csv, OUT/NAME.log, OUT/NAME.err. SECONDS
# is cut to what is left of the budget; nothing starts past it.
run() {
  local name=$1 limit=$2
  shift 2
  wanted "$name" || return 0
  local used=$(($(date +%s) - start))
  if ((used + 10 > budget)); then
    echo "== [$used s] $name: not started (the budget of $budget s is spent)" | tee -a "$out/run.log"
    return 0
  fi
  ((limit > budget - used)) && limit=$((budget - used))
  echo "== [$used s] $name: treefix-bench $*" | tee -a "$out/run.log"
  timeout "$limit" "$bench" "$@" --csv "$out/$name.csv" > "$out/$name.log" 2> "$out/$name.err"
  local rc=$?
  [[ $rc == 0 ]] || echo "   $name: exit $rc (124: over its $limit s)" | tee -a "$out/run.log"
}

# --- Defour & Marin --------------------------------------------------------------------------
# Figs. 5, 7: the seed's three methods (sequential, its parallel BFS `bfs`, the vectorial `euler`
# and `euler-three`, its three kernels) and our `levels` (build_ms apart) on stars, both
# caterpillars (path: the seed's, every vertex one child; caterpillar: ours, a spine of n/2 with
# n/2 leaves) and random trees; Fig. 6 histograms of the largest trees.
run paper-shapes 160 paper --min-log $min_log --max-log $max_log --type float --fix rootfix \
  --shapes star,caterpillar,path,random --algorithms sequential,bfs,levels,euler,euler-three \
  --repeats 3 --budget-s 1.5 --max-run-s 2 --level-histogram "$out/levels-shapes.csv"
# Table I / Figs. 4a, 5: trees of the size and depth of its ten trees (the matrices are not at
# hand); Fig. 6 histograms.
run paper-table1 90 paper --type float --fix rootfix --shapes $table1 \
  --algorithms sequential,bfs,levels,euler,euler-three --repeats 3 --budget-s 1.5 --max-run-s 4 \
  --level-histogram "$out/levels-table1.csv"
# Table I's method on the real graphs we hold: BFS trees from vertex 0 (both branching factors).
if ((${#graphs[@]})); then
  shapes=$(printf 'graph:%s,' "${graphs[@]}")
  run paper-graphs 60 paper --type float --fix rootfix --shapes "${shapes%,}" \
    --algorithms sequential,cpu-euler,cpu-levels,bfs,levels,euler,euler-three --repeats 5 \
    --level-histogram "$out/levels-graphs.csv"
fi

# --- Sahu & Donur ------------------------------------------------------------------------------
# Figs. 1, 2: every method on high-diameter real and synthetic graphs and Kronecker-20 (K20's
# density: edge factor 48), auto, PR-RST with m = 1, 2, 3 and 5 (the seed's) jumps per launch,
# five timed runs; the downstream study: each method's tree fed to rootfix levels and euler.
graph_args=()
for g in "${graphs[@]}"; do graph_args+=(--graph "$g"); done
run rooting 150 rooting --parts rst --grid-side $grid --scale $scale --edge-factor $edge_factor \
  --path $path "${graph_args[@]}" --pr-levels 1,2,3,5 --repeats $rst_repeats --downstream

# --- Defour & Marin, Fig. 10 --------------------------------------------------------------------
# The seed's placement: 100 random trees of 10^4 vertices per condition number, every vertex.
run accuracy-every 90 accuracy --terms $terms --trees $trees --min-cond-log 1 --max-cond-log 10 \
  --type float --settings rootfix:random-every,leaffix:random-every

# --- Goldfarb, Jo & Kulkarni ---------------------------------------------------------------------
# Table 1 and 2 at the seed's sizes: Barnes-Hut on 10^6 Plummer and Random bodies (with the
# partly sorted sweep the automatic variant's sortedness test is drawn from); PC, kNN, NN and VP
# on 2*10^5 points in 7-D (Covtype, Mnist and Random are 7-D) and in 100 clusters in 2-D
# (Geocity's stand-in).
run ropes-bodies 90 ropes --apps nbody --bodies $bodies --body-sets plummer,random \
  --displaced $displaced --repeats 3 --cpu-repeats 1
run ropes-7d 90 ropes --apps correlate,knn-kd,nn,nn-vp --bodies 0 --points $points --dims 7 \
  --repeats 3 --cpu-repeats 1
run ropes-clustered2d 45 ropes --apps correlate,knn-kd,nn,nn-vp --bodies 0 --points $points \
  --dims 2 --clusters 100 --repeats 3 --cpu-repeats 1

# --- The thesis ------------------------------------------------------------------------------------
# Figs. 5.3-5.8: the similarity grid with the thesis' alphabets (3 node, 3 arc labels; height
# <= 4, <= 3 children) and its run-time speedup. Figs. 4.6-4.14: general trees (pre, post, bfs)
# and binary trees (and in-order) of 5, 6 and 10 nodes, 3,072 copies, every shape of 5 and 6
# nodes, visits reading the labels; over tree sizes and forest sizes.
run forest-grid 40 forest --trees $tree_counts --repeats 5 --node-labels 3 --root-labels 3 \
  --arc-labels 3
run forest-shapes 60 forest-traversal --copies $shape_copies --sizes 10 --general-sizes 10 \
  --all-shapes 5,6 --general-shapes 5,6 --random-trees 0 --repeats 3 --visit labels
run forest-sizes 40 forest-traversal --copies $shape_copies --sizes 5,6,10,20,50,100,200,500 \
  --general-sizes 5,6,10,20,50,100,200,500 --random-trees 0 --repeats 5 --visit labels
for copies in $copies_list; do
  run forest-copies-$copies 20 forest-traversal --copies $copies --sizes 6 --general-sizes 6 \
    --random-trees 0 --repeats 5 --visit labels
done

# --- Goldfarb, Jo & Kulkarni, Figs. 10/11: the CPU on 1 ... 16 threads ----------------------------
for threads in $threads_list; do
  run ropes-threads-$threads 45 ropes --apps nbody,correlate,knn-kd,nn,nn-vp \
    --bodies $sweep_bodies --points $sweep_points --threads $threads --repeats 3 --cpu-repeats 1
done

# --- Defour & Marin, Fig. 10 with our placement (the whole sum on one vertex) ---------------------
run accuracy-ours 30 accuracy --terms $terms --trees $our_trees --min-cond-log 1 --max-cond-log 10 \
  --type float

echo "== [$(($(date +%s) - start)) s] plots" | tee -a "$out/run.log"
python3 bench/plot.py "$out" > "$out/plot.log" 2>&1 || tail -5 "$out/plot.log"
python3 bench/graph_table.py "$out" > "$out/graph_table.md" 2> "$out/graph_table.err" || true
tar -C "$out" -czf /tmp/seeds-results.tgz --exclude results.tgz . && mv /tmp/seeds-results.tgz "$out/results.tgz"
echo "== [$(($(date +%s) - start)) s] done: $out" | tee -a "$out/run.log"
