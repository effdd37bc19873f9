#!/usr/bin/env bash
# Acceptance test of `treefix bfs` and `treefix generate`: $1 = treefix program, $2 = scratch dir.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# --- bfs on a real Matrix Market file: depths and a parent tree ---
"$treefix" bfs --graph "$data/directed_real.mtx" --source 0 --output depth.txt --parents parent.txt --check
printf '0\n1\n1\n2\n3\n-1\n-1\n' | diff - depth.txt || fail "depths of directed_real.mtx"
head -1 parent.txt | grep -qx 7 || fail "parent file must start with n"
[ "$(sed -n 2p parent.txt)" = "-1" ] || fail "the source's parent is -1"
[ "$(sed -n 7p parent.txt)" = "-1" ] || fail "unreachable vertex 5 has parent -1"

# Petersen graph: diameter 2, depths to stdout
"$treefix" bfs --graph "$data/petersen.mtx" --source 0 > petersen.txt
[ "$(sort -n petersen.txt | uniq -c | awk '{print $1":"$2}' | tr '\n' ' ')" = "1:0 3:1 6:2 " ] \
  || fail "Petersen depth histogram"

# METIS file with an isolated vertex
"$treefix" bfs --graph "$data/two_triangles.graph" --source 5 --output t.txt --check --stats 2> stats.txt
printf '3\n3\n2\n1\n1\n0\n-1\n' | diff - t.txt || fail "depths of two_triangles.graph"
grep -q "levels" stats.txt || fail "--stats prints levels"

# --- generate: trees and graphs, then BFS of a generated graph ---
"$treefix" generate star -n 5 -o star.txt
printf '5\n-1\n0\n0\n0\n0\n' | diff - star.txt || fail "star tree"
"$treefix" generate kary -n 7 --k 3 -o kary.txt
printf '7\n-1\n0\n0\n0\n1\n1\n1\n' | diff - kary.txt || fail "3-ary tree"
for shape in path caterpillar random forest; do
  trees=() && [ "$shape" != forest ] || trees=(--trees 3)  # --trees is forest's option only
  "$treefix" generate "$shape" -n 1000 "${trees[@]}" --shuffle -o "$shape.txt"
  [ "$(head -1 "$shape.txt")" = 1000 ] || fail "$shape: vertex count"
  [ "$(wc -l < "$shape.txt")" = 1001 ] || fail "$shape: line count"
done
"$treefix" generate grid --rows 30 --cols 40 -o grid.mtx
"$treefix" bfs --graph grid.mtx --source 0 --check > grid_depth.txt
[ "$(sort -n grid_depth.txt | tail -1)" = 68 ] || fail "30x40 grid eccentricity of a corner"
"$treefix" generate kronecker --scale 10 --edge-factor 8 --format edges -o kron.txt
"$treefix" bfs --graph kron.txt --source 1 --check --top-down --output kron_td.txt
"$treefix" bfs --graph kron.txt --source 1 --check --stats --output kron_do.txt 2> kron_stats.txt
grep -q "bottom-up levels" kron_stats.txt || fail "--stats reports bottom-up levels"
diff kron_td.txt kron_do.txt || fail "direction-optimising BFS changes depths"
"$treefix" generate bfs-tree --rows 3 --cols 3 -o span.txt
printf '9\n-1\n0\n1\n0\n1\n2\n3\n4\n5\n' | diff - span.txt || fail "BFS spanning tree of a 3x3 grid"
"$treefix" generate bfs-tree --graph "$data/petersen.mtx" --source 2 -o pspan.txt
[ "$(head -1 pspan.txt)" = 10 ] || fail "spanning tree of petersen.mtx"

# --- bad input: non-zero exit, a message with file:line, no partial output ---
printf '%%%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n1 9\n' > bad.mtx
expect_error "bad.mtx:4: column index 9 outside 1..3" "$treefix" bfs --graph bad.mtx --output bad_out.txt
[ ! -e bad_out.txt ] || fail "no output file after an error"
printf '0 1\n1 banana\n' > bad.txt
expect_error "bad.txt:2:" "$treefix" bfs --graph bad.txt
printf '3 5\n2\n1 3\n2\n' > bad.graph
expect_error "header says 5 edges" "$treefix" bfs --graph bad.graph
expect_error "is not a vertex" "$treefix" bfs --graph "$data/petersen.mtx" --source 10
expect_error "cannot open" "$treefix" bfs --graph missing.mtx
head -c 3000 /dev/urandom > garbage.mtx
expect_error "error" "$treefix" bfs --graph garbage.mtx
expect_error "unknown shape" "$treefix" generate hexagon -n 5
expect_error "needs --scale" "$treefix" generate kronecker
expect_error "bfs-tree needs" "$treefix" generate bfs-tree
echo "cli bfs: ok"
