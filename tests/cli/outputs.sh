#!/usr/bin/env bash
# Every output honours its name: .npy (and .npz for knn) from every command that writes numbers,
# Newick from convert, name<TAB>value TSV for a named tree's treefix; a name the command cannot
# write is refused before any work, naming the formats it can.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
npy() { python3 "$data/../cli/lib/npy_text.py" "$@"; }

# bfs: depths and parents as .npy (int32), the same numbers as the text.
printf '0 1\n1 2\n2 3\n0 4\n' > path.txt
"$treefix" bfs --graph path.txt -o depth.npy --parents parents.npy
"$treefix" bfs --graph path.txt -o depth.txt --parents parents.txt
[ "$(npy depth.npy | tail -n +2 | tr '\n' ' ')" = "$(tr '\n' ' ' < depth.txt)" ] \
  || fail "bfs depth.npy differs from the text: $(npy depth.npy)"
npy depth.npy | head -1 | grep -q "<i4 (5,)" || fail "bfs depth.npy: $(npy depth.npy | head -1)"
[ "$(npy parents.npy | tail -n +2 | tr '\n' ' ')" = "$(tail -n +2 parents.txt | tr '\n' ' ')" ] \
  || fail "bfs parents.npy differs from the text"

# rst and root: the parent array as .npy.
"$treefix" rst --graph path.txt -o rst.npy
npy rst.npy | head -1 | grep -q "<i4 (5,)" || fail "rst .npy: $(npy rst.npy)"
"$treefix" root --edges path.txt -o root.npy
npy root.npy | tail -n +2 | tr '\n' ' ' | grep -q "^-1 0 1 2 0 $" || fail "root .npy: $(npy root.npy)"

# correlate: counts (int64).
printf '4 2\n0 0\n1 0\n0 1\n5 5\n' > points.txt
"$treefix" correlate --points points.txt --radius 1 -o counts.npy
[ "$(npy counts.npy | tail -n +2 | tr '\n' ' ')" = "3 2 2 1 " ] || fail "correlate: $(npy counts.npy)"

# knn: .npz with indices and distances (m, k); .npy of the indices alone; the points query
# themselves without --queries, and --exclude-self leaves each out of its own list.
"$treefix" knn --points points.txt -k 2 -o knn.npz
npy knn.npz > knn.txt
grep -q "indices <i4 (4, 2)" knn.txt || fail "knn .npz indices: $(cat knn.txt)"
grep -q "distances <f4 (4, 2)" knn.txt || fail "knn .npz distances: $(cat knn.txt)"
sed -n 2p knn.txt | grep -q "^0 [12]$" || fail "knn: point 0's nearest is itself: $(cat knn.txt)"
"$treefix" knn --points points.txt -k 1 --exclude-self -o self.npy
npy self.npy | sed -n 2,4p | tr '\n' ' ' | grep -q "^[12] 0 0 $" || fail "knn --exclude-self: $(npy self.npy)"
[ "$(npy self.npy | sed -n 5p)" = "1" ] || [ "$(npy self.npy | sed -n 5p)" = "2" ] \
  || fail "knn --exclude-self: point 3's nearest other point: $(npy self.npy)"
"$treefix" knn --points points.txt -k 1 --exclude-self | head -1 | grep -q "^[12] 1$" \
  || fail "knn text --exclude-self"

# nbody: accelerations (n, 3) float32, the state (n, 7), snapshots as NAME.stepN.npy.
printf '2 7\n1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' > bodies.txt
"$treefix" nbody --bodies bodies.txt --accelerations -o acc.npy
npy acc.npy | head -1 | grep -q "<f4 (2, 3)" || fail "nbody accelerations .npy: $(npy acc.npy)"
"$treefix" nbody --bodies bodies.txt --steps 2 --output-every 1 -o state.npy
for f in state.npy state.step1.npy state.step2.npy; do
  npy "$f" | head -1 | grep -q "(2, 7)" || fail "nbody $f: $(npy "$f" | head -1)"
done

# convert: Newick out, names and branch lengths kept (read back: the same lengths).
printf '((A:1.5,B:2)C:0.25,D:3,\x27E F\x27:-0.5)root;\n' > t.nwk
"$treefix" convert --tree t.nwk -o back.nwk
grep -q "'E F':-0.5" back.nwk || fail "convert .nwk: a quoted name: $(cat back.nwk)"
"$treefix" convert --tree back.nwk -o p1.txt --weights-out w1.txt --names n1.txt
"$treefix" convert --tree t.nwk -o p0.txt --weights-out w0.txt --names n0.txt
cmp p0.txt p1.txt && cmp w0.txt w1.txt && cmp n0.txt n1.txt || fail "convert .nwk does not read back"

# generate writes Newick too: the same tree shape (its ids renumbered in pre-order).
"$treefix" generate kary -n 40 --k 3 -o kary.nwk
"$treefix" generate kary -n 40 --k 3 -o kary.txt
"$treefix" info kary.nwk | tail -n +2 > info_nwk.txt
"$treefix" info kary.txt | tail -n +2 > info_txt.txt
cmp info_nwk.txt info_txt.txt || fail "generate .nwk: another tree: $(cat info_nwk.txt)"

# rootfix on a named tree: name<TAB>value.
"$treefix" rootfix --tree t.nwk -o sums.tsv
printf 'root\t0\nC\t0.25\nA\t1.75\nB\t2.25\nD\t3\nE F\t-0.5\n' > want.tsv
cmp sums.tsv want.tsv || fail "rootfix .tsv: $(cat sums.tsv)"
expect_error_text "need a tree with names" "$treefix" rootfix --tree "$data/sample.tree" -o out.tsv

# Names a command cannot write: refused before any work, naming what it writes.
expect_error_text "out.nwk: is written as text (any other name) or .npy, not Newick" \
  "$treefix" bfs --graph path.txt -o out.nwk
expect_error_text "is written as text (any other name) or .npy, not JSON" \
  "$treefix" rst --graph path.txt -o out.json
expect_error_text "a graph is written as" "$treefix" convert --graph path.txt -o out.nwk
expect_error_text "not JSON" "$treefix" convert --tree t.nwk -o out.json
expect_error_text "uncompressed" "$treefix" rootfix --tree t.nwk -o out.txt.gz
expect_error_text "not NumPy .npz" "$treefix" correlate --points points.txt --radius 1 -o c.npz
[ ! -e out.nwk ] && [ ! -e out.json ] || fail "a refused output was created"
echo "outputs: all checks passed"
