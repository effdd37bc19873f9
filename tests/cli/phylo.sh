#!/usr/bin/env bash
# Acceptance of the phylogenetic commands: `treefix lca` (ancestors and distances of pairs),
# `treefix unifrac`, `treefix convert --prune/--reroot/--outgroup/--ladderize`, and
# `treefix generate binary` with lengths and names: outputs against values worked out by hand
# (and by DendroPy, ete3 and scikit-bio), bad inputs refused with the file and line, no output
# left behind.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# root 0, C 1, A 2, B 3, H 4, D 5, G 6, E 7, F 8
printf '((A:1,B:2)C:0.5,(D:3,(E:1,F:1)G:2)H:4)root:0.25;\n' > t.nwk
printf 'A B\nA F\n# a comment\nE F\n3 8\n' > pairs.txt
"$treefix" lca --tree t.nwk --pairs pairs.txt -o out.txt
[ "$(cat out.txt)" = "$(printf '1\n0\n6\n0')" ] || fail "lca: $(cat out.txt)"
"$treefix" lca --tree t.nwk --pairs pairs.txt --names | cmp - <(printf 'C\nroot\nG\nroot\n') ||
  fail "lca --names"
"$treefix" lca --tree t.nwk --pairs pairs.txt --distance | cmp - <(printf '3\n8.5\n2\n9.5\n') ||
  fail "lca --distance"
"$treefix" lca --tree t.nwk --pairs pairs.txt -o out.npy
python3 "$src/tests/cli/lib/npy_text.py" out.npy | cmp - <(printf 'array <i4 (4,)\n1\n0\n6\n0\n') ||
  fail "lca .npy output"

# convert: prune to A, E, F (DendroPy's retain_taxa), reroot at G and on D's branch (ete3's
# set_outgroup, with the old root's own length kept, as DendroPy does), ladderize
printf 'E\nF\nA\n' > keep.txt
"$treefix" convert --tree t.nwk --prune keep.txt -o pruned.nwk
[ "$(cat pruned.nwk)" = "(A:1.5,(E:1,F:1)G:6)root:0.25;" ] || fail "prune: $(cat pruned.nwk)"
"$treefix" convert --tree t.nwk --reroot G -o rerooted.nwk
[ "$(cat rerooted.nwk)" = "(E:1,F:1,((A:1,B:2)C:4.5,D:3)H:2)G:0.25;" ] ||
  fail "reroot: $(cat rerooted.nwk)"
"$treefix" convert --tree t.nwk --outgroup D --ladderize -o outgroup.nwk
[ "$(cat outgroup.nwk)" = "(D:1.5,((E:1,F:1)G:2,(A:1,B:2)C:4.5)H:1.5):0.25;" ] ||
  fail "outgroup: $(cat outgroup.nwk)"
"$treefix" convert --tree t.nwk --prune keep.txt --names names.txt --weights-out w.txt -o p.txt
[ "$(paste -d, names.txt w.txt | tr '\n' ' ')" = "root,0.25 A,1.5 G,6 E,1 F,1 " ] ||
  fail "prune: names and lengths $(paste -d, names.txt w.txt | tr '\n' ' ')"

# unifrac against scikit-bio's beta_diversity on the same table
printf 'id\tA\tB\tD\tE\tF\ns1\t1\t0\t3\t0\t2\ns2\t0\t2\t1\t1\t0\ns3\t0\t0\t0\t0\t0\n' > counts.tsv
"$treefix" unifrac --tree t.nwk --counts counts.tsv -o u.tsv
[ "$(sed -n 2p u.tsv)" = "$(printf 's1\t0\t0.3389830508474576\t1')" ] || fail "unweighted: $(cat u.tsv)"
"$treefix" unifrac --tree t.nwk --counts counts.tsv --weighted | sed -n 3p |
  cmp - <(printf 's2\t4.166666666666667\t0\t5\n') || fail "weighted"
"$treefix" unifrac --tree t.nwk --counts counts.tsv --weighted --normalized | sed -n 2p |
  cmp - <(printf 's1\t0\t0.3676470588235295\t1\n') || fail "weighted normalized"

# a generated phylogeny with names and lengths reads back whole
"$treefix" generate binary -n 21 --seed 4 --lengths --names -o g.nwk
[ "$(grep -o 't[0-9]*' g.nwk | wc -l)" = 11 ] || fail "generate binary: 11 named tips"
"$treefix" convert --tree g.nwk -o g2.nwk && cmp g.nwk g2.nwk || fail "generate: round trip"

# bad input: file and line, or the option, named; nothing written
printf 'A B\nA Z\n' > bad_pairs.txt
expect_error_text "bad_pairs.txt:2: 'Z' is neither a name of the tree nor a vertex id below 9" \
  "$treefix" lca --tree t.nwk --pairs bad_pairs.txt -o out.txt
printf 'A B\nA\n' > odd_pairs.txt
expect_error_text "3 vertices: pairs need an even number" \
  "$treefix" lca --tree t.nwk --pairs odd_pairs.txt -o out.txt
expect_error_text "--reroot: 'Q' is neither a name" "$treefix" convert --tree t.nwk --reroot Q -o out.txt
expect_error_text "is a root: it has no branch" "$treefix" convert --tree t.nwk --outgroup root -o out.txt
expect_error_text "choose one" "$treefix" convert --tree t.nwk --reroot A --outgroup B -o out.txt
printf 'id\tA\tB\ns1\t1\t-2\n' > negative.tsv
expect_error_text "negative.tsv:2: count '-2' is not a non-negative integer" \
  "$treefix" unifrac --tree t.nwk --counts negative.tsv -o out.txt
printf 'id\tA\tB\ns1\t1\ns2\t1\t2\t3\n' > ragged.tsv
expect_error_text "holds its name and 2 counts" "$treefix" unifrac --tree t.nwk --counts ragged.tsv -o out.txt
expect_error_text "--normalized goes with --weighted" \
  "$treefix" unifrac --tree t.nwk --counts counts.tsv --normalized -o out.txt
expect_error_text "--weights goes with --distance" \
  "$treefix" lca --tree t.nwk --pairs pairs.txt --weights w.txt -o out.txt
echo "phylo: all passed"
