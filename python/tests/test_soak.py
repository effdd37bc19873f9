"""A soak: 10,000 calls mixing every public function on inputs of 1 to 10^5 elements, each result
compared with a reference (NumPy, SciPy, a pure-Python one, or for n-body and similarity the
call's own first answer), computed once, with the
resident memory sampled every 500 calls: after the warm-up it stays flat. About 10-20 s on PoCL
with two cores."""
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph
from scipy.spatial import cKDTree

import treefix
from conftest import REPO, leaffix_reference, random_tree, rootfix_reference

CALLS = 10_000
SAMPLE_EVERY = 500
WARM_UP = 2_000  # calls before the resident memory is taken as the baseline


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def preorder_reference(parent):
    """Depth-first pre-order: roots in increasing id, children in increasing id."""
    children = [[] for _ in parent]
    for v, p in enumerate(parent):
        if p >= 0:
            children[p].append(v)
    order, stack = [], [v for v in range(len(parent)) if parent[v] < 0][::-1]
    while stack:
        v = stack.pop()
        order.append(v)
        stack.extend(children[v][::-1])
    return np.array(order)


def random_graph(n, rng):
    edges = max(1, 2 * n)
    rows, cols = rng.integers(0, n, size=edges), rng.integers(0, n, size=edges)
    return sp.csr_matrix((np.ones(edges), (rows, cols)), shape=(n, n))


def test_ten_thousand_mixed_calls_stay_flat_and_right(rt):
    rng = np.random.default_rng(11)
    sizes = [1, 2, 7, 100, 1000, 10_000, 100_000]
    # Objects of every size, built once; each call's expected answer made once by a reference.
    trees = []
    for n in sizes:
        parent = random_tree(n, rng, roots=1 + n // 5000)
        w = rng.integers(-50, 50, size=n).astype(np.float64)
        tree = treefix.Tree(parent, runtime=rt)
        trees.append((parent, w, tree, rootfix_reference(parent, w), leaffix_reference(parent, w),
                      rootfix_reference(parent, w, "max"),
                      leaffix_reference(parent, np.ones(n, np.int32)), preorder_reference(parent)))
    graphs = []
    for n in sizes[:-1]:
        g = random_graph(n, rng)
        order, pred = csgraph.breadth_first_order(g, 0, directed=True)
        count, labels = csgraph.connected_components(g, directed=False)
        graphs.append((g, treefix.Graph(g, directed=True, runtime=rt), order, count, labels))
    clouds = []
    for n in (8, 100, 1000, 10_000):
        points = rng.random((n, 3)).astype(np.float32)
        queries = rng.random((16, 3)).astype(np.float32)
        d, i = cKDTree(points).query(queries, k=min(4, n))
        counts = cKDTree(points).query_ball_point(queries, 0.1, return_length=True)
        clouds.append((treefix.KDTree(points, runtime=rt), queries, d, i, counts))
    bodies = np.c_[np.ones(64), rng.random((64, 3)), np.zeros((64, 3))].astype(np.float32)
    first_nbody = treefix.nbody(bodies, 2, 1e-3, eps=0.05, runtime=rt)
    cars = REPO / "tests" / "data" / "ruleml"
    first_similarity = treefix.similarity(str(cars / "car_a.xml"), str(cars), runtime=rt)

    def check_tree(i, k):
        parent, w, tree, root, leaf, root_max, sizes, preorder = trees[k]
        kind = i % 7
        if kind == 0:
            np.testing.assert_array_equal(tree.rootfix(w), root)
        elif kind == 1:
            np.testing.assert_array_equal(tree.leaffix(w), leaf)
        elif kind == 2:
            np.testing.assert_array_equal(tree.rootfix(w, op="max"), root_max)
        elif kind == 3:
            np.testing.assert_array_equal(treefix.rootfix(parent, w, runtime=rt), root)
        elif kind == 4:
            np.testing.assert_array_equal(tree.subtree_sizes(), sizes)
        elif kind == 5:
            np.testing.assert_array_equal(tree.preorder(), preorder)
        else:
            np.testing.assert_array_equal(pickle.loads(pickle.dumps(tree)).rootfix(w), root)

    def check_graph(i, k):
        g, kept, order, count, labels = graphs[k]
        kind = i % 3
        if kind == 0:
            np.testing.assert_array_equal(np.sort(kept.breadth_first_order(0)[0]), np.sort(order))
        elif kind == 1:
            got_count, got = treefix.connected_components(g, directed=False, runtime=rt)
            assert got_count == count
        else:
            parents = kept.rooted_spanning_tree(0)
            assert (parents == -1).sum() == count

    def check_points(i, k):
        tree, queries, d, idx, counts = clouds[k]
        if i % 2:
            got_d, got_i = tree.query(queries, k=min(4, len(idx[0]) if idx.ndim > 1 else 1))
            np.testing.assert_allclose(got_d, d, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(tree.query_ball_point(queries, 0.1, return_length=True), counts)

    rss = {}
    for i in range(CALLS):
        kind = i % 10
        # Sizes: every size of its kind in turn (the largest, 10^5, one call in seven).
        if kind < 6:
            check_tree(i // 10 * 6 + kind, (i // 10) % len(trees))
        elif kind == 6:
            check_graph(i // 10, (i // 10) % len(graphs))
        elif kind == 7:
            check_points(i // 10, (i // 10) % len(clouds))
        elif kind == 8:
            if i % 200 == 8:
                np.testing.assert_array_equal(treefix.nbody(bodies, 2, 1e-3, eps=0.05, runtime=rt),
                                              first_nbody)
            elif i % 200 == 108:
                np.testing.assert_array_equal(
                    treefix.similarity(str(cars / "car_a.xml"), str(cars), runtime=rt),
                    first_similarity)
            else:
                np.testing.assert_array_equal(treefix.Tree([-1, 0, 0, 1], runtime=rt).depths(),
                                              [0, 1, 1, 2])
        else:  # the error paths leak nothing either
            with pytest.raises(ValueError):
                treefix.Tree([-1, 9], runtime=rt)
        if (i + 1) % SAMPLE_EVERY == 0:
            rss[i + 1] = resident_bytes()
    baseline = rss[WARM_UP]
    grown = {calls: (b - baseline) >> 10 for calls, b in rss.items() if calls > WARM_UP}
    assert max(grown.values()) < 4 << 10, grown  # KiB: under 4 MiB over 8,000 calls
