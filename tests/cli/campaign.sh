#!/usr/bin/env bash
# Hostile-input findings, each fixed: a METIS file whose last, isolated vertex is the empty line
# after the last newline is read; a skew-symmetric Matrix Market file with a diagonal entry is
# refused; a double sum of -0 weights is -0, on every algorithm.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

printf '3 1\n2\n1\n' > joined.graph
"$treefix" info joined.graph --json | grep -q '"vertices": 3, "arcs": 2' || fail "METIS last empty line"
"$treefix" bfs --graph joined.graph | tr '\n' ' ' | grep -q "^0 1 -1 $" || fail "METIS bfs"

printf '%%%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 3 2\n' > skew.mtx
expect_error_text "skew.mtx:4: entry 2 (3, 3) is on the diagonal" "$treefix" bfs --graph skew.mtx -o out.txt

# -0: every vertex's terms are all -0, so every sum is -0; with a +0 or a nonzero term, +0.
printf '4\n-1 0 1 0\n' > tree.txt
printf -- '-0.0\n-0.0\n-0.0\n-0.0\n' > negzero.txt
for algorithm in auto euler levels sequential; do
  for fix in rootfix leaffix; do
    got=$("$treefix" $fix --tree tree.txt --weights negzero.txt --algorithm $algorithm | tr '\n' ' ')
    [ "$got" = "-0 -0 -0 -0 " ] || fail "$fix --algorithm $algorithm of -0 weights: $got"
  done
done
printf -- '-0.0\n0.0\n-0.0\n-0.0\n' > mixed.txt
got=$("$treefix" rootfix --tree tree.txt --weights mixed.txt --algorithm euler | tr '\n' ' ')
[ "$got" = "-0 0 0 -0 " ] || fail "rootfix of mixed zeros: $got"
got=$("$treefix" leaffix --tree tree.txt --weights mixed.txt --exclusive | tr '\n' ' ')
[ "$got" = "0 -0 0 0 " ] || fail "leaffix --exclusive of mixed zeros: $got"
echo "campaign: all checks passed"
