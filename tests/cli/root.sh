#!/usr/bin/env bash
# Acceptance of `treefix root` and `treefix rst`: good outputs, and bad inputs exit non-zero with a
# message and leave no output file.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# A forest: the tree 0-1, 1-2, 1-3 and the tree 4-5; vertex 6 isolated (--vertices 7).
cat > forest.txt <<'END'
# a small forest
1 0
2 1
3 1   # trailing comment
5 4
END
"$treefix" root --edges forest.txt --vertices 7 --output rooted.txt
printf '7\n-1\n0\n1\n1\n-1\n4\n-1\n' > expected.txt
cmp rooted.txt expected.txt || fail "root: wrong default rooting"

"$treefix" root --edges forest.txt --root 3 --root 5 > rooted3.txt
printf '6\n1\n3\n1\n-1\n5\n-1\n' > expected3.txt
cmp rooted3.txt expected3.txt || fail "root --root 3 --root 5: wrong rooting"
"$treefix" root --edges forest.txt --list-rank wyllie --root 3 --root 5 | cmp - expected3.txt \
  || fail "root --list-rank wyllie differs"

# Bad forests: the message names file and line, and no output file appears.
printf '0 1\n1 2\n2 0\n' > cycle.txt
expect_error "cycle.txt:[0-9]*: edge .* closes a cycle" "$treefix" root --edges cycle.txt -o bad.txt
[ ! -e bad.txt ] || fail "partial output after a cycle"
printf '0 1\n\n1 0\n' > dup.txt
expect_error "dup.txt:3: edge 1 (1 0) repeats edge 0" "$treefix" root --edges dup.txt -o bad.txt
printf '0 1\n2 2\n' > loop.txt
expect_error "loop.txt:2: edge 1 (2 2) is a self loop" "$treefix" root --edges loop.txt
printf '0 1\n1 9\n' > range.txt
expect_error "range.txt:2: vertex id 9 is out of range" "$treefix" root --edges range.txt --vertices 5
printf '0 1\n1 x\n' > junk.txt
expect_error "junk.txt:2: expected a vertex id" "$treefix" root --edges junk.txt
printf '0 1\n1\n' > half.txt
expect_error "half.txt:2: an edge line needs two vertex ids" "$treefix" root --edges half.txt
expect_error "same tree" "$treefix" root --edges forest.txt --root 0 --root 2
expect_error "is not a vertex" "$treefix" root --edges forest.txt --root 99
expect_error "cannot open" "$treefix" root --edges missing.txt
[ ! -e bad.txt ] || fail "partial output file left behind"

# rst: a 4-cycle with a chord, plus the edge 5-6 and isolated 4; every parent edge must be a graph
# edge, and the roots are 2 (given) and 4, 5.
printf '0 1\n1 2\n2 3\n3 0\n0 2\n5 6\n4 4\n' > graph.txt
"$treefix" rst --graph graph.txt --root 2 -o rst.txt
[ "$(head -1 rst.txt)" = 7 ] || fail "rst: wrong vertex count"
mapfile -t parent < <(tail -n +2 rst.txt)
[ "${parent[2]}" = -1 ] && [ "${parent[4]}" = -1 ] && [ "${parent[5]}" = -1 ] || fail "rst: wrong roots"
[ "${parent[6]}" = 5 ] || fail "rst: 6 must hang below 5"
for v in 0 1 3; do
  p="${parent[$v]}"
  grep -Eq "^($v $p|$p $v)\$" graph.txt || fail "rst: parent edge $v-$p is not a graph edge"
done
for method in euler bfs pr path-reversal; do
  "$treefix" rst --graph graph.txt --method $method > rst_default.txt
  [ "$(sed -n 2p rst_default.txt)" = -1 ] || fail "rst --method $method: vertex 0 must be the default root"
  [ "$(sed -n 7p rst_default.txt)" = -1 ] || fail "rst --method $method: 5 must be a root"
  [ "$(sed -n 8p rst_default.txt)" = 5 ] || fail "rst --method $method: 6 must hang below 5"
done
for method in bfs pr; do
  "$treefix" rst --graph graph.txt --method $method --root 2 > rst_root.txt
  [ "$(sed -n 4p rst_root.txt)" = -1 ] || fail "rst --method $method --root 2: 2 must be a root"
done
expect_error "graph.txt" "$treefix" rst --graph graph.txt --format mtx
expect_error "not a vertex" "$treefix" rst --graph graph.txt --root 7
expect_error "method" "$treefix" rst --graph graph.txt --method dfs
echo "root/rst CLI: all checks passed"
