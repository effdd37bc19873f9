#!/usr/bin/env bash
# Acceptance test of the graph commands over several ranks (docs/distributed.md): mpiexec -n 1, 2
# and 3 on the one CPU device, results equal to the single-device commands; the Graph500 suite
# of treefix-bench on 1, 2 and 3 ranks. $1 = treefix program, $2 = scratch dir. Skipped (passes)
# in a build without the distributed layer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${TREEFIX_DATA:-}"  # the real graphs, when there (docs/reference/data.md)
# The MPI launcher: $MPIEXEC (CTest passes the one CMake found), else mpiexec from PATH.
mpiexec="${MPIEXEC:-mpiexec}"
check_forest="$here/check_forest.py"
python=/usr/bin/python3
source "$here/lib/acceptance.sh"

# --- a graph with a star, a path, self loops, an isolated vertex and two components: split 32 + 9
# vertices over 2 or 3 ranks below ---
{
  echo "# star around 0, a path 33-40, self loops, isolated 32"
  for v in $(seq 1 31); do echo "0 $v"; done
  for v in $(seq 33 39); do echo "$v $((v + 1))"; done
  echo "5 5"
  echo "40 40"
  echo "31 33"
} > awkward.txt
# The single-device components command (every build): labels are the smallest vertex of each
# component; vertex 32 is isolated, 0..31 and 33..40 are joined by 31 - 33.
"$treefix" components --graph awkward.txt -o awkward_labels.txt > awkward_count.txt
grep -qx "2 components" awkward_count.txt || fail "components count: $(cat awkward_count.txt)"
[ "$(sort -n awkward_labels.txt | uniq -c | awk '{print $1":"$2}' | tr '\n' ' ')" = "40:0 1:32 " ] ||
  fail "component labels of awkward.txt"
printf '0 1\n2 1\n' > directed.txt
"$treefix" components --graph directed.txt --directed 2> /dev/null > directed_labels.txt
printf '0\n0\n0\n' | diff - directed_labels.txt || fail "a directed graph's components are undirected"

probe=$("$treefix" generate kronecker --scale 4 --distributed -o probe.csr 2>&1 || true)
if ! command -v "$mpiexec" > /dev/null || [[ $probe == *lacks* ]]; then
  echo "SKIP: no MPI ($mpiexec) or a build without the distributed layer"
  exit 0
fi
# CI runs as root; the ranks share 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none  # containers forbid cross-process reads
# Under tests/sanitize.sh, the ranks are checked for memory errors but not for leaks: Open MPI
# unloads its plugins at MPI_Finalize, leaving allocations LeakSanitizer can attribute to no
# library (so no suppression matches them). The single-process runs above and below keep it.
mpi() {
  local ranks="$1"
  shift
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    "$mpiexec" -n "$ranks" "$treefix" "$@"
}
bench=$(dirname "$treefix")/treefix-bench
mpi_bench() {  # the same for treefix-bench
  local ranks="$1"
  shift
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    mpirun --oversubscribe -np "$ranks" "$bench" "$@"
}

# --- the generator: the same graph (bytes and hash) for 1, 2 and 3 ranks and on one device ---
for np in 1 2 3; do
  mpi $np generate kronecker --scale 9 --distributed -o "k$np.csr" 2> "gen$np.txt"
  grep -o "hash [0-9a-f]*" "gen$np.txt" > "hash$np.txt"
done
cmp k1.csr k2.csr || fail "Kronecker graph differs between 1 and 2 ranks"
cmp k1.csr k3.csr || fail "Kronecker graph differs between 1 and 3 ranks"
diff hash1.txt hash3.txt || fail "hash differs between 1 and 3 ranks"
"$treefix" generate kronecker --scale 9 --format csr -o k0.csr
cmp k0.csr k1.csr || fail "generate kronecker on one device differs from --distributed"
"$treefix" bfs --graph kronecker:9 --source 3 -o ref_depth.txt
"$treefix" bfs --graph k0.csr --source 3 -o depth.txt
diff -q ref_depth.txt depth.txt > /dev/null || fail "--graph kronecker:9 is not generate kronecker's graph"
[ ! -e k1.csr.partial ] || fail "the distributed writer left k1.csr.partial"
mpi 2 bfs --graph kronecker:9 --stats -o /dev/null 2> kstats.txt
grep -q "$(cat hash1.txt)" kstats.txt || fail "--graph kronecker:9 is not the generated graph"
grep -q "level 1: .*exchange" kstats.txt || fail "--stats prints every level's exchange"
grep -q "rank 1: .*generate" kstats.txt || fail "--stats prints every rank's phases"

# same_bfs GRAPH SOURCE NP...: depths equal to the single-device BFS, parents checked
same_bfs() {
  local graph="$1" source="$2"
  shift 2
  "$treefix" bfs --graph "$graph" --source "$source" -o ref_depth.txt
  for np in "$@"; do
    mpi "$np" bfs --graph "$graph" --source "$source" --check -o depth.txt --parents parents.txt
    diff -q ref_depth.txt depth.txt > /dev/null || fail "$graph: depths from $source differ on $np ranks"
  done
}
# same_components GRAPH NP...: labels equal to the single-device components ($cc_options: the
# graph's options, e.g. --directed)
cc_options=()
same_components() {
  local graph="$1"
  shift
  "$treefix" components --graph "$graph" "${cc_options[@]}" -o ref_labels.txt > ref_count.txt
  for np in "$@"; do
    mpi "$np" components --graph "$graph" "${cc_options[@]}" -o labels.txt > count.txt
    diff -q ref_labels.txt labels.txt > /dev/null || fail "$graph: components differ on $np ranks"
    diff ref_count.txt count.txt || fail "$graph: component count differs on $np ranks"
  done
}
# same_forest GRAPH NP...: rst --method bfs with the single-device roots, a valid spanning forest
same_forest() {
  local graph="$1"
  shift
  "$treefix" convert --graph "$graph" --output forest_edges.txt
  "$treefix" rst --graph "$graph" --method bfs -o ref_forest.txt
  for np in "$@"; do
    mpi "$np" rst --graph "$graph" --method bfs -o forest.txt
    $python "$check_forest" forest_edges.txt forest.txt ref_forest.txt ||
      fail "$graph: BFS forest on $np ranks"
  done
}

same_bfs k1.csr 7 1 2 3
same_components k1.csr 2 3
same_forest k1.csr 3

# the awkward graphs: 41 vertices split 32 + 9 (+ an empty third rank); all arcs on rank 0 in
# rank0_only.txt; two vertices only in tiny.txt
same_bfs awkward.txt 0 2 3
same_bfs awkward.txt 40 3
same_components awkward.txt 2 3
same_forest awkward.txt 2 3
{
  for v in $(seq 0 30); do echo "$v $((v + 1))"; done
  echo "40 40"  # vertex 40: n = 41, rank 1's vertices isolated
} > rank0_only.txt
same_bfs rank0_only.txt 3 2 3
same_components rank0_only.txt 3
printf '0 1\n' > tiny.txt  # 2 vertices: ranks 1 and 2 hold nothing
same_bfs tiny.txt 1 3
same_components tiny.txt 3
"$treefix" generate grid --rows 23 --cols 17 -o grid.mtx
same_bfs grid.mtx 100 2 3
same_components grid.mtx 3
same_forest grid.mtx 2

# a directed graph: 70 vertices, two arcs out of each
for v in $(seq 0 69); do echo "$v $(((v + 1) % 70))"; echo "$v $(((v * 7 + 3) % 70))"; done > directed70.txt

# --- zig-zags: two paths through 96 vertices whose consecutive vertices alternate between the
# ranks (3 ranks own 32 each): one label exchange joins them, on any number of ranks ---
for k in $(seq 0 93); do
  echo "$(((k % 3) * 32 + k / 3)) $((((k + 2) % 3) * 32 + (k + 2) / 3))"
done > zigzag.txt
same_components zigzag.txt 2 3
same_forest zigzag.txt 3
mpi 3 components --graph zigzag.txt --stats -o labels.txt 2> zstats.txt > /dev/null
grep -q "^components: 2 components, 1 label exchange, " zstats.txt ||
  fail "zigzag.txt: $(cat zstats.txt)"
# the same arcs one way only: the components of the undirected graph, each arc on one rank
cc_options=(--directed)
same_components zigzag.txt 2
same_components directed70.txt 3
cc_options=()
# Kronecker, generated by the ranks, against the single-device command on its .csr
"$treefix" generate kronecker --scale 16 --distributed -o k16.csr 2> /dev/null
"$treefix" components --graph k16.csr -o ref_labels.txt > ref_count.txt
for np in 2 3; do
  mpi "$np" components --graph kronecker:16 -o labels.txt > count.txt
  diff -q ref_labels.txt labels.txt > /dev/null || fail "kronecker:16: components differ on $np ranks"
  diff ref_count.txt count.txt || fail "kronecker:16: component count differs on $np ranks"
done

# --- the real graphs: a road network and a mesh ---
if [ -f "$data/luxembourg_osm.mtx" ]; then
  same_bfs "$data/luxembourg_osm.mtx" 0 2
  same_components "$data/luxembourg_osm.mtx" 3
else  # the excerpt that ships (tests/data/graphs/SOURCE.md)
  echo "TREEFIX_DATA has no luxembourg_osm.mtx: its 6,000-vertex excerpt instead"
  same_bfs "$here/../data/graphs/luxembourg_excerpt.mtx" 0 2
  same_components "$here/../data/graphs/luxembourg_excerpt.mtx" 3
fi
if [ -f "$data/wave.graph.xz" ]; then
  command -v xz > /dev/null || fail "xz is needed to unpack wave.graph.xz"
  xz -dc "$data/wave.graph.xz" > wave.graph
  same_bfs wave.graph 5 3
  same_components wave.graph 2
fi

# --- a directed graph over 3 ranks: the check looks parents' arcs up on the parents' ranks ---
"$treefix" bfs --graph directed70.txt --directed --source 5 -o ref_depth.txt
for np in 2 3; do
  mpi $np bfs --graph directed70.txt --directed --source 5 --check -o depth.txt
  diff -q ref_depth.txt depth.txt > /dev/null || fail "directed70.txt: depths differ on $np ranks"
done

# --- Graph500 runs (treefix-bench graph500): validated searches, TEPS as bench_bfs reports them,
# the same harness on one device and on several ranks ---
[ -x "$bench" ] || fail "treefix-bench is not built beside treefix"
column() { head -1 "$2" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
for np in 1 2 3; do
  mpi_bench "$np" graph500 --scale 10 --roots 4 --check --csv "g500_$np.csv" > "g500_$np.txt" ||
    fail "graph500 on $np ranks: $(tail -3 "g500_$np.txt")"
  grep -q "^# device: " "g500_$np.txt" || fail "graph500 prints the device line once: $np ranks"
  [ "$(grep -c '^# device: ' "g500_$np.txt")" = 1 ] || fail "graph500: one header, from rank 0"
  hmean=$(column hmean_GTEPS "g500_$np.csv")
  check=$(column check_ms "g500_$np.csv")
  [[ -n $hmean && -n $check ]] || fail "graph500 CSV lacks hmean_GTEPS or check_ms"
  awk -F, -v h="$hmean" -v c="$check" -v np="$np" 'NR == 2 {
      if (!($h > 0) || $c == "-") { print "graph500 on " np " ranks: " $0; exit 1 } }' \
    "g500_$np.csv" || fail "graph500 row on $np ranks"
  [ "$(grep -c ",kronecker-10,$np,direction-optimising," "g500_$np.csv")" = 4 ] ||
    fail "graph500: one CSV row per search on $np ranks"
done
mpi_bench 2 graph500 --scale 9 --roots 2 --directions direction-optimising,top-down \
  --levels > g500levels.txt 2> g500levels.err
grep -q "top-down" g500levels.txt || fail "graph500 --directions: $(cat g500levels.txt)"
grep -q "^  level 1: .*exchange .* bytes" g500levels.err ||
  fail "graph500 --levels prints every level: $(head -3 g500levels.err)"
# The frontier bitmaps and top-down pairs through MPI's collectives (ranks on several hosts)
# instead of the host's shared blocks, and levels chosen by the single-device rule alone (more
# top-down levels): the same depths.
"$treefix" bfs --graph kronecker:11 --source 1 -o ref_depth.txt  # one device, no launcher
for np in 2 3; do
  TREEFIX_MPI_SHARED=off mpi $np bfs --graph kronecker:11 --source 1 --check -o depth.txt
  diff -q ref_depth.txt depth.txt > /dev/null || fail "depths differ on $np ranks without the shared block"
  TREEFIX_BFS_EXCHANGE_SWITCH=0 mpi $np bfs --graph kronecker:11 --source 1 --check -o depth.txt
  diff -q ref_depth.txt depth.txt > /dev/null ||
    fail "depths differ on $np ranks with the single-device direction rule"
done
expect_error "TREEFIX_MPI_SHARED='maybe': expected on or off" \
  env TREEFIX_MPI_SHARED=maybe "$mpiexec" -n 2 "$treefix" bfs --graph kronecker:8 -o out.txt

# --- bad input: every rank stops with the same message, non-zero exit, no output ---
expect_error "cannot open" mpi 2 bfs --graph missing.csr -o out.txt
head -c 100 k1.csr > truncated.csr
expect_error "header promises" mpi 3 bfs --graph truncated.csr -o out.txt
printf '0 1\n1 2\n2 x\n3 4\n' > bad.txt
expect_error "bad.txt:3:" mpi 2 components --graph bad.txt -o out.txt
expect_error "is not a vertex" mpi 2 bfs --graph tiny.txt --source 9 -o out.txt
expect_error "give --method bfs" mpi 2 rst --graph tiny.txt -o out.txt
# a graph beyond the devices: refused with the numbers before generating it
expect_error "kronecker:29 .*needs .* MiB of device memory" mpi 2 bfs --graph kronecker:29 -o out.txt
expect_error "FILE.csr" mpi 2 generate kronecker --scale 4 --distributed -o out.txt
# a graph beyond the host (two ranks hold about 150 GB of rows at scale 30): refused before
# generating, no file written (where the host has that much memory, the case is left out)
if (( $(awk '/MemAvailable/ {print $2}' /proc/meminfo) < 140 * 1024 * 1024 )); then
  expect_error "generating kronecker:30 on 2 ranks of this host needs .* MiB of host memory" \
    mpi 2 generate kronecker --scale 30 --distributed -o big.csr
  [ ! -e big.csr ] || fail "a refused generator left big.csr"
fi
echo "distributed: all checks passed"
