#!/usr/bin/env bash
# Acceptance test of the graph commands' SciPy-like answers: strong components, minimum spanning
# forests (treefix mst), outputs written as their names ask (.npy, .mtx), edge lists directed
# unless --undirected, against scipy.sparse.csgraph where Python has SciPy.
# $1 = treefix program, $2 = scratch dir.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
python=/usr/bin/python3

# --- strong components: two 3-cycles joined one way, an isolated vertex ---
printf '0 1\n1 2\n2 0\n2 3\n3 4\n4 5\n5 3\n' > g.txt
"$treefix" components --graph g.txt --strong -o scc.txt > count.txt
printf '0\n0\n0\n3\n3\n3\n' | diff - scc.txt || fail "strong components of g.txt"
grep -qx "2 strongly connected components" count.txt || fail "strong count: $(cat count.txt)"
"$treefix" components --graph g.txt -o cc.txt > count.txt
grep -qx "1 components" count.txt || fail "weak components: $(cat count.txt)"
"$treefix" components --graph g.txt --undirected --strong -o und.txt > /dev/null
printf '0\n0\n0\n0\n0\n0\n' | diff - und.txt || fail "--undirected: both ways, one component"

# --- outputs by name: .npy, and unknown formats refused before any work ---
"$treefix" components --graph g.txt --strong -o scc.npy > /dev/null
$python -c 'import numpy as np, sys; a = np.load("scc.npy"); assert a.dtype == np.int32 and a.tolist() == [0, 0, 0, 3, 3, 3], a' ||
  fail "components -o .npy"
expect_error_text "is written as text (any other name) or .npy, not JSON (.json)" \
  "$treefix" components --graph g.txt -o out.json
expect_error_text "or Matrix Market (.mtx), not NumPy .npy" "$treefix" mst --graph g.txt -o out.npy

# --- edge lists are directed by default (u v is u -> v), as SciPy's matrices ---
printf '0 1\n2 1\n' > d.txt
"$treefix" bfs --graph d.txt --source 0 -o depth.txt
printf '0\n1\n-1\n' | diff - depth.txt || fail "bfs on a directed edge list"
"$treefix" bfs --graph d.txt --undirected --source 0 -o depth.txt
printf '0\n1\n2\n' | diff - depth.txt || fail "bfs --undirected"
"$treefix" bfs --help | grep -q "the default, as entry (u, v) of a SciPy matrix" ||
  fail "bfs --help states the edge-list default"

# --- minimum spanning forest of SciPy's example (weights in a Matrix Market file) ---
printf '%%%%MatrixMarket matrix coordinate integer general\n4 4 5\n1 2 8\n1 4 3\n2 3 2\n2 4 5\n3 4 6\n' > x.mtx
"$treefix" mst --graph x.mtx -o tree.txt > weight.txt
printf '0 3 3\n1 2 2\n1 3 5\n' | diff - tree.txt || fail "mst of SciPy's example"
grep -qx "total weight 10, 1 trees" weight.txt || fail "mst total: $(cat weight.txt)"
"$treefix" mst --graph x.mtx -o tree.mtx > /dev/null
# a random weighted graph of three components, against SciPy
$python - <<'PY'
import numpy as np, scipy.io, scipy.sparse as sp
rng = np.random.default_rng(5)
a = sp.random(300, 300, density=0.01, random_state=rng, format="coo")
a.data = rng.permutation(a.nnz) + 0.5
scipy.io.mmwrite("r.mtx", a)
PY
"$treefix" mst --graph r.mtx -o r_tree.mtx > /dev/null
$python - <<'PY' || fail "mst of r.mtx differs from SciPy's"
import numpy as np, scipy.io, scipy.sparse as sp
from scipy.sparse import csgraph
a = scipy.io.mmread("r.mtx").tocsr()
ours = scipy.io.mmread("r_tree.mtx").tocsr()
ref = csgraph.minimum_spanning_tree(a)
ref = (ref + ref.T).tocsr()
assert abs(ours - ref).sum() == 0 and ours.nnz == ref.nnz
PY
# graph formats without values: every edge weighs 1
"$treefix" mst --graph "$data/petersen.mtx" -o p.txt > weight.txt
[ "$(wc -l < p.txt)" = 9 ] || fail "petersen: 9 forest edges"
grep -qx "total weight 9, 1 trees" weight.txt || fail "petersen total: $(cat weight.txt)"
"$treefix" mst --graph "$data/two_triangles.graph" -o t.txt > weight.txt
grep -qx "total weight 5, 2 trees" weight.txt || fail "two_triangles: $(cat weight.txt)"
