#!/usr/bin/env bash
# Graph suites on the GPU machine, beside the peers (ECL-CC, gapbs) on the same inputs.
# Usage, from the repository root on that machine:
#     bench/run_graph.sh OUTDIR
# Environment:
#     GRAPH_DATA=DIR   the real graphs (default shared/data, else data/ beside this checkout):
#                      luxembourg_osm.mtx, wave.graph.xz, web-NotreDame.txt.xz,
#                      soc-Epinions1_lcc_undirected.txt.xz (decompressed into $WORK)
#     PEERS=DIR        a copy of ../shared/peers (default shared/peers, else peers/)
#     SKIP_PEERS=1     skip peers.sh (about 3-4 minutes: builds, input generation, runs)
#     SUITES=bfs       only the BFS suite, and of the peers only gapbs BFS (16 cores) on the
#                      grid and the real graphs it reads (about 3 minutes in all)
#     SKIP_TESTS=1     skip the GPU test cases of the graph module
#     REPEATS=N        timed runs per row (default 5)
#     SMALL_FRONTIERS=list (default 512,4096), CC_SAMPLES=list (default auto,0,2),
#     BFS_GROUPS=list (default: the device's)   variants to compare
#     STEP_TIMEOUT=S   seconds allowed to each suite (default 600)
#     SCALE=22 GRID_SIDE=2048 PATH_VERTICES=1048576   the generated graphs (smaller for a quick
#                      check elsewhere)
# Writes OUTDIR/bfs.csv, rooting.csv, paper-graphs.csv (+ .log each), peers/peers.txt, and
# OUTDIR/graph_table.md: our numbers beside the peers'. Total on one H100 with 16 cores: about
# 7 minutes with the peers, 3 without.
# Inputs: the grid is the same graph on both sides (ids r*side+c, 4 neighbours: peers.sh writes
# it with tools/gen_grid.py, we generate it with generate::grid2d). Kronecker scale 22 uses the
# Graph500 parameters (edge factor 16, a=0.57, b=c=0.19) on both sides, but gapbs's generator and
# ours draw different random graphs: same statistics, not the same edges.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
root=$PWD
data=${GRAPH_DATA:-$([[ -d shared/data ]] && echo shared/data || echo data)}
peers=${PEERS:-$([[ -d shared/peers ]] && echo shared/peers || echo peers)}
work=${WORK:-/tmp/treefix-graph}
repeats=${REPEATS:-5}
limit=${STEP_TIMEOUT:-600}
mkdir -p "$work"
start=$(date +%s)
stamp() { echo "[run_graph +$(( $(date +%s) - start ))s] $*"; }

if command -v nvidia-smi > /dev/null; then  # register NVIDIA's OpenCL driver on the GPU machine
  echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
if [[ -d .deps/root/usr ]]; then  # Debian packages the GPU image lacks (not committed)
  export CMAKE_PREFIX_PATH=$PWD/.deps/root/usr
  export LD_LIBRARY_PATH=$PWD/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/device.txt" 2>&1 || true

stamp "building"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release > "$out/build.log" 2>&1 &&
  cmake --build build-gpu -j16 --target treefix-tests treefix-bench >> "$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"

suites=${SUITES:-bfs,rooting,paper}
bfs_only=$([[ $suites == bfs ]] && echo 1)
# The peers alone on the machine (their CPU timings use all 16 cores, ECL-CC the GPU).
if [[ -z ${SKIP_PEERS:-} && -n $bfs_only ]]; then
  stamp "gapbs BFS on the grid (build, input, runs)"
  make -C "$peers/gapbs" -j16 bfs > "$out/peers.log" 2>&1
  mkdir -p "$out/peers"
  python3 "$peers/tools/gen_grid.py" "${GRID_SIDE:-2048}" "$work/grid.mtx" >> "$out/peers.log" 2>&1
  echo "gapbs-bfs grid${GRID_SIDE:-2048}.mtx: $(OMP_NUM_THREADS=16 timeout 300 "$peers/gapbs/bfs" \
    -f "$work/grid.mtx" -s -n 8 2>&1 | grep -E 'Average Time')" | tee "$out/peers/peers.txt"
elif [[ -z ${SKIP_PEERS:-} ]]; then
  stamp "peers (builds, input generation, runs: 3-4 minutes)"
  OUT="$out/peers" PEERS_WORK="$work/peers" bash "$peers/peers.sh" > "$out/peers.log" 2>&1
  cat "$out/peers/peers.txt"
fi

if [[ -z ${SKIP_TESTS:-} ]]; then
  stamp "GPU tests of the graph module"
  timeout "$limit" ./build-gpu/tests/treefix-tests -tc="$([[ -n $bfs_only ]] && echo '*bfs*' || echo 'connectivity*,rooting*,*bfs*')" \
    > "$out/tests-gpu.log" 2>&1
  echo "graph tests on GPU: exit $?"; tail -3 "$out/tests-gpu.log"
fi

stamp "real graphs"
graphs=()
for f in luxembourg_osm.mtx wave.graph.xz web-NotreDame.txt.xz soc-Epinions1_lcc_undirected.txt.xz; do
  [[ -e $data/$f ]] || { echo "missing $data/$f: skipped"; continue; }
  plain=$work/${f%.xz}
  if [[ $f == *.xz ]]; then [[ -s $plain ]] || xz -dc "$data/$f" > "$plain"; else cp "$data/$f" "$plain"; fi
  graphs+=("$plain")
done
# gapbs (16 cores) on the real graphs it can read (.mtx, METIS .graph), for "faster than the CPU"
if [[ -z ${SKIP_PEERS:-} && -x $peers/gapbs/bfs ]]; then
  stamp "gapbs on the real graphs"
  for g in "${graphs[@]}"; do
    [[ $g == *.mtx || $g == *.graph ]] || continue
    echo "gapbs-bfs $(basename "$g"): $(timeout 120 "$peers/gapbs/bfs" -f "$g" -s -n 16 2>&1 | grep -E 'Average Time')"
    [[ -n $bfs_only ]] ||
      echo "gapbs-cc $(basename "$g"): $(timeout 120 "$peers/gapbs/cc" -f "$g" -s -n 16 2>&1 | grep -E 'Average Time')"
  done | tee "$out/peers-real.txt"
fi
graph_args=(); shape_list=""
for g in "${graphs[@]}"; do graph_args+=(--graph "$g"); shape_list+="${shape_list:+,}graph:$g"; done

bench="timeout $limit ./build-gpu/apps/treefix-bench"
stamp "bfs suite"
$bench bfs --scale ${SCALE:-22} --edge-factor 16 --grid-side ${GRID_SIDE:-2048} --skip-trees --repeats "$repeats" \
  "${graph_args[@]}" --small-frontiers "${SMALL_FRONTIERS:-512,4096}" \
  ${BFS_GROUPS:+--groups $BFS_GROUPS} --csv "$out/bfs.csv" > "$out/bfs.log" 2>&1
tail -n +1 "$out/bfs.log" | grep -v "^  done\|^reading\|^generating"
if [[ -n $bfs_only ]]; then stamp "done"; exit 0; fi
stamp "rooting suite (connectivity, rooted spanning trees)"
$bench rooting --parts cc,rst --scale ${SCALE:-22} --edge-factor 16 --grid-side ${GRID_SIDE:-2048} --strip-width 64 \
  --path ${PATH_VERTICES:-1048576} --repeats "$repeats" --cc-samples "${CC_SAMPLES:-auto,0,2}" "${graph_args[@]}" \
  --csv "$out/rooting.csv" > "$out/rooting.log" 2>&1
cut -c1-150 "$out/rooting.log"
if [[ -n $shape_list ]]; then
  stamp "paper suite on the BFS spanning trees of the real graphs"
  $bench paper --shapes "$shape_list" --algorithms sequential,cpu-euler,levels,euler \
    --fix rootfix --repeats "$repeats" --warmup 1 --csv "$out/paper-graphs.csv" \
    > "$out/paper-graphs.log" 2>&1
  tail -n 12 "$out/paper-graphs.log"
fi

python3 bench/graph_table.py "$out" > "$out/graph_table.md" && cat "$out/graph_table.md"
stamp "done"
tar -C "$out" -czf "$work/graph-results.tgz" . && mv "$work/graph-results.tgz" "$out/graph-results.tgz"
