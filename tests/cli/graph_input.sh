#!/usr/bin/env bash
# Acceptance of graph input: `treefix convert --graph` between every format, SciPy's .npz files,
# --stats read phases, and capacity refusals that come at once with the numbers and leave no
# output. $1 = treefix program, $2 = scratch dir.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
# fast COMMAND...: the command must fail within 5 seconds (no hang, no allocation of the claim)
fast() {
  local start=$SECONDS
  expect_error "$@"
  (( SECONDS - start <= 5 )) || fail "took $((SECONDS - start)) s: ${*:2}"
}

# --- convert: every format to every other, the graph unchanged (compared as .mtx) ---
"$treefix" generate kronecker --scale 9 --edge-factor 8 -o k.mtx
"$treefix" convert --graph k.mtx --output ref.mtx
for out in k.npz k.csr k.graph; do
  "$treefix" convert --graph k.mtx --output "$out"
  "$treefix" convert --graph "$out" --output "back.mtx"
  cmp back.mtx ref.mtx || fail "k.mtx -> $out -> .mtx changed the graph"
done
# an edge list says n only by its largest id: a grid, whose last vertex has edges
"$treefix" generate grid --rows 20 --cols 30 -o grid.mtx
"$treefix" convert --graph grid.mtx --output grid.txt
"$treefix" convert --graph grid.txt --output grid_back.mtx
"$treefix" convert --graph grid.mtx --output grid_ref.mtx
cmp grid_back.mtx grid_ref.mtx || fail "grid.mtx -> edge list -> .mtx changed the graph"
"$treefix" convert --graph k.mtx --output kz.npz --compress
[ "$(stat -c %s kz.npz)" -lt "$(stat -c %s k.npz)" ] || fail "--compress does not compress"
"$treefix" convert --graph kz.npz --output back.mtx && cmp back.mtx ref.mtx || fail "compressed .npz"
"$treefix" convert --graph k.mtx --output k.bin --output-format csr
"$treefix" convert --graph k.bin --format csr --output back.mtx && cmp back.mtx ref.mtx \
  || fail "--output-format / --format csr"

# SciPy's own files, and bfs on every format gives the same depths
"$treefix" convert --graph "$data/npz/petersen_compressed.npz" --output p.mtx
"$treefix" convert --graph "$data/petersen.mtx" --output pref.mtx
cmp p.mtx pref.mtx || fail "SciPy's compressed .npz of the Petersen graph"
"$treefix" bfs --graph k.mtx --source 3 --output d.mtx.txt
for g in k.npz kz.npz k.csr k.graph; do
  "$treefix" bfs --graph "$g" --source 3 --check --output "d.$g.txt"
  cmp "d.$g.txt" d.mtx.txt || fail "bfs depths differ on $g"
done

# root takes a forest in any graph format: the same parents as from its edge list
printf '# a forest\n1 0\n2 1\n3 1\n5 4\n' > forest.txt
"$treefix" root --edges forest.txt --vertices 7 -o rooted.txt
"$treefix" convert --graph forest.txt --output forest.mtx
"$treefix" convert --graph forest.txt --directed --output forest.npz   # one arc per edge
for f in forest.mtx forest.npz; do
  "$treefix" root --edges $f --vertices 7 -o rooted_$f.txt
  cmp rooted.txt rooted_$f.txt || fail "root --edges $f differs from the edge list"
done
printf '0 1\n1 2\n2 0\n' > cycle.txt
"$treefix" convert --graph cycle.txt --output cycle.csr
expect_error "cycle.csr: edge .* closes a cycle" "$treefix" root --edges cycle.csr
expect_error "forest.mtx has 6 vertices" "$treefix" root --edges forest.mtx --vertices 3

# --stats: the reading phases of a graph command
"$treefix" bfs --graph k.npz --stats --output depth_stats.txt 2> stats.txt
grep -q "treefix bfs: read: members" stats.txt || { cat stats.txt >&2; fail "bfs --stats read phase"; }
"$treefix" rst --graph grid.txt --stats --output rst_stats.txt 2> stats.txt
grep -q "treefix rst: read: parse" stats.txt || { cat stats.txt >&2; fail "rst --stats read phase"; }
"$treefix" convert --graph grid.txt --output k2.csr --stats 2> stats.txt
grep -q "treefix convert: read: csr" stats.txt || fail "convert --stats"

# --- capacity: claims of 2*10^9 vertices are refused at once, nothing written ---
# They need about 46 GB of host memory: some machines have it (the GPU machine's 128 GiB does,
# and the commands then run), so there the host's data segment is capped at 8 GiB for this part:
# the library counts the rlimit in what is available (docs/reference/limits.md). Only there: AddressSanitizer
# reserves its shadow memory in the data segment and cannot start under the cap.
available_kib=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
if (( available_kib > 40 * 1024 * 1024 )) && [ -z "${ASAN_OPTIONS:-}" ]; then
  ulimit -d $((8 * 1024 * 1024))
fi
printf '0 1\n1 2\n' > e.txt
fast "2000000000 vertices" "$treefix" root --edges e.txt --vertices 2000000000 -o r.txt
fast "expected an integer from 0 to" "$treefix" root --edges e.txt --vertices -1 -o r.txt
printf '0 1\n7 2000000000\n' > id.txt
for cmd in bfs rst; do
  fast "a graph of 2000000001 vertices" "$treefix" $cmd --graph id.txt -o r.txt
done
fast "a forest of 2000000001 vertices" "$treefix" root --edges id.txt -o r.txt
printf '%%%%MatrixMarket matrix coordinate pattern general\n2000000000 2000000000 1\n1 2\n' > h.mtx
for cmd in bfs rst; do fast "a graph of 2000000000 vertices" "$treefix" $cmd --graph h.mtx -o r.txt; done
printf '2000000000 1\n2\n1\n' > t.graph
for cmd in bfs rst; do
  fast "t.graph:1: the header promises 2000000000 vertices" "$treefix" $cmd --graph t.graph -o r.txt
done
"$treefix" convert --graph k.mtx --output k.csr
head -c 1000 k.csr > cut.csr
fast "(truncated)" "$treefix" bfs --graph cut.csr -o r.txt
[ ! -e r.txt ] || fail "an output file after a refusal"
echo "graph input: all passed"
