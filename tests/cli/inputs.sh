#!/usr/bin/env bash
# Inputs as they come: gzip, xz and zstd files (by their bytes, whatever their names), standard
# input as "-", Newick under .tre/.tree/.treefile, decimal text weights as double, knn's points
# querying themselves.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# xz through Python's lzma: the xz program may be missing where the tests run.
xzc() { python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.compress(open(sys.argv[1], "rb").read()))' "$1"; }

cp "$data/sample.tree" tree.txt
cp "$data/sample.weights" weights.txt
"$treefix" rootfix --tree tree.txt --weights weights.txt > want.txt

# Compressed trees and weights, with or without a telling name.
gzip -c tree.txt > tree.txt.gz
xzc weights.txt > weights.xz
gzip -c tree.txt > disguised.txt
"$treefix" rootfix --tree tree.txt.gz --weights weights.xz | cmp - want.txt || fail "gzip/xz input"
"$treefix" rootfix --tree disguised.txt --weights weights.txt | cmp - want.txt \
  || fail "gzip recognised by its bytes"
if command -v zstd > /dev/null; then
  zstd -q -c tree.txt > tree.zst
  "$treefix" rootfix --tree tree.zst --weights weights.txt | cmp - want.txt || fail "zstd input"
fi
# A damaged or truncated compressed file: a clear message, nothing written.
head -c 20 tree.txt.gz > cut.gz
expect_error_text "cut.gz: damaged gzip data" "$treefix" rootfix --tree cut.gz -o out.txt
xzc tree.txt | head -c 30 > cut.xz
expect_error_text "cut.xz: damaged xz data" "$treefix" rootfix --tree cut.xz -o out.txt

# Graphs, points and forests compressed too; the format by the name under the compression.
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n' > g.mtx
xzc g.mtx > g.mtx.xz
"$treefix" bfs --graph g.mtx > bfs_want.txt
"$treefix" bfs --graph g.mtx.xz | cmp - bfs_want.txt || fail "bfs on g.mtx.xz"
"$treefix" info g.mtx.xz | grep -q "components  1" || fail "info on g.mtx.xz"

# Standard input.
"$treefix" rootfix --tree - --weights weights.txt < tree.txt | cmp - want.txt || fail "--tree -"
gzip -c weights.txt | "$treefix" rootfix --tree tree.txt --weights - | cmp - want.txt \
  || fail "--weights - (gzip)"
"$treefix" bfs --graph - --format mtx < g.mtx | cmp - bfs_want.txt || fail "bfs --graph -"

# Newick under .tre, .tree, .treefile when the text says so; a parent array under .tree stays one.
printf '((A:1,B:2)C:3,D:4)E;\n' > t.nwk
"$treefix" rootfix --tree t.nwk > nwk_want.txt
for ext in tre tree treefile; do
  cp t.nwk "t.$ext"
  "$treefix" rootfix --tree "t.$ext" | cmp - nwk_want.txt || fail "Newick as .$ext"
done
"$treefix" rootfix --tree - < t.nwk | cmp - nwk_want.txt || fail "Newick on standard input"
"$treefix" rootfix --tree "$data/sample.tree" > /dev/null || fail "a parent array named .tree"

# Decimal text weights default to double; integers stay int64.
printf '0.5\n0.25\n1e-1\n0.5\n1\n2\n3\n4\n5\n6\n' > decimal.txt
"$treefix" rootfix --tree tree.txt --weights decimal.txt | head -3 | tr '\n' ' ' \
  | grep -q "^0.5 0.75 0.6 $" || fail "decimal weights: $("$treefix" rootfix --tree tree.txt --weights decimal.txt | head -3)"
"$treefix" rootfix --help | grep -q "double for text weights" || fail "--help on the default type"
"$treefix" rootfix --help | grep -q -- "--type.*=int64" && fail "--help still shows =int64"

# knn without --queries: the points themselves.
printf '3 2\n0 0\n1 0\n5 5\n' > points.txt
"$treefix" knn --points points.txt -k 1 | cut -d' ' -f1 | tr '\n' ' ' | grep -q "^0 1 2 $" \
  || fail "knn without --queries"
xzc points.txt > points.txt.xz
"$treefix" knn --points points.txt.xz -k 1 --exclude-self | cut -d' ' -f1 | tr '\n' ' ' \
  | grep -q "^1 0 1 $" || fail "knn --exclude-self on .xz points"
echo "inputs: all checks passed"
