"""Graphs against scipy.sparse.csgraph: BFS orders and trees, weak and strong components, minimum
spanning trees and rooted spanning trees, for every input SciPy takes (csr, csc, coo, csr_array,
lil, dense arrays, np.matrix, masked arrays, lists) and index width (int32, int64), on random,
disconnected, directed and real graphs; SciPy's input rules, defaults, types and errors."""
import pickle

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph

import treefix
from conftest import data_file

# np.matrix is one of the inputs SciPy takes, deprecated or not
pytestmark = pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")


def random_graph(n, density, rng, symmetric=False, weights=None):
    """A random matrix; weights: None (ones) or a function of the count giving values."""
    values = weights if weights is not None else (lambda k: np.ones(k))
    g = sp.random(n, n, density=density, format="csr", random_state=rng, data_rvs=values)
    return (g + g.T).tocsr() if symmetric else g


def graphs(rng):
    return {
        "empty": sp.csr_matrix((0, 0)),
        "one": sp.csr_matrix((1, 1)),
        "isolated": sp.csr_matrix((7, 7)),
        "path": sp.diags([np.ones(96), np.ones(96)], [1, -1], shape=(97, 97), format="csr"),
        "sparse": random_graph(500, 0.002, rng),  # many components
        "dense": random_graph(211, 0.05, rng),
        "symmetric": random_graph(300, 0.01, rng, symmetric=True),
    }


def forms(graph):
    """The same matrix in every form SciPy's csgraph functions take, by name."""
    csr = sp.csr_matrix(graph)
    wide = csr.copy()
    wide.indices = wide.indices.astype(np.int64)
    wide.indptr = wide.indptr.astype(np.int64)
    coo64 = csr.tocoo()
    coo64.row = coo64.row.astype(np.int64)
    coo64.col = coo64.col.astype(np.int64)
    dense = csr.toarray()
    return {
        "csr": csr, "csr int64": wide, "csc": csr.tocsc(), "coo": csr.tocoo(),
        "coo int64": coo64, "csr_array": sp.csr_array(csr), "lil": csr.tolil(),
        "dense": dense, "matrix": np.matrix(dense), "masked": np.ma.masked_equal(dense, 0),
        "list": dense.tolist(),
    }


def levels_from(order, predecessors, source, n):
    """Depths of a BFS tree given by predecessors (-9999 at the source and unreached): pointer
    jumping in NumPy, -1 for the unreached."""
    parent = np.where(predecessors >= 0, predecessors, np.arange(n)).astype(np.int64)
    depth = (predecessors >= 0).astype(np.int64)
    while True:
        grand = parent[parent]
        depth = depth + depth[parent]
        if np.array_equal(grand, parent):
            break
        parent = grand
    reached = predecessors >= 0
    if n:
        reached[source] = True
    return np.where(reached, depth, -1)


def check_bfs(graph, source, directed, order, predecessors):
    n = graph.shape[0]
    ref_order, ref_pred = csgraph.breadth_first_order(graph, source, directed=directed)
    assert order.dtype == np.int32 and predecessors.dtype == np.int32
    assert order[0] == source and np.array_equal(np.sort(order), np.sort(ref_order))
    assert (predecessors == -9999).sum() == (ref_pred == -9999).sum()
    assert predecessors[source] == -9999
    ours = levels_from(order, predecessors, source, n)
    np.testing.assert_array_equal(ours, levels_from(ref_order, ref_pred, source, n))
    assert (np.diff(ours[order]) >= 0).all()  # levels in order
    arcs = pattern(graph)
    arcs = (arcs if directed else arcs + arcs.T).tocsr()
    child = order[1:]
    if len(child):  # each predecessor is an in-neighbour
        assert (np.asarray(arcs[predecessors[child], child]).ravel() > 0).all()


def pattern(graph):
    """The stored entries as ones (explicit zeros too: they are edges)."""
    ones = sp.csr_matrix(graph, dtype=np.float64, copy=True)
    ones.data[:] = 1
    return ones


def sparse_equal(a, b):
    """Equal as sparse matrices: the same stored entries and values (no dense copy)."""
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    a.sort_indices()
    b.sort_indices()
    return (a.shape == b.shape and np.array_equal(a.indptr, b.indptr) and
            np.array_equal(a.indices, b.indices) and np.array_equal(a.data, b.data))


def same_edges(tree, ref):
    """The same undirected edges with the same weights (either orientation)."""
    return sparse_equal(tree + tree.T, ref + ref.T)


def same_partition(labels, ref_labels):
    pairs = set(zip(labels.tolist(), ref_labels.tolist()))
    return len(pairs) == len(set(labels.tolist())) == len(set(ref_labels.tolist()))


@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_order_matches_scipy(rt, directed):
    rng = np.random.default_rng(11)
    for name, graph in graphs(rng).items():
        n = graph.shape[0]
        kept = treefix.Graph(graph, directed=directed, runtime=rt)
        for source in sorted({0, n // 2, n - 1}) if n else []:
            order, pred = treefix.breadth_first_order(graph, source, directed=directed,
                                                      runtime=rt)
            check_bfs(graph, source, directed, order, pred)
            order2, pred2 = kept.breadth_first_order(source)
            check_bfs(graph, source, directed, order2, pred2)
            only = kept.breadth_first_order(source, return_predecessors=False)
            assert sorted(only) == sorted(order)


def test_every_input_form_and_index_width_gives_scipys_answers(rt):
    rng = np.random.default_rng(12)
    graph = random_graph(120, 0.02, rng, weights=lambda k: rng.permutation(k) + 1.0)
    ref_weak = csgraph.connected_components(graph, directed=False)
    ref_strong = csgraph.connected_components(graph, connection="strong")
    ref_tree = csgraph.minimum_spanning_tree(graph).toarray()
    for name, form in forms(graph).items():
        count, labels = treefix.connected_components(form, connection="weak", runtime=rt)
        assert count == ref_weak[0], name
        np.testing.assert_array_equal(labels, ref_weak[1], err_msg=name)
        count, labels = treefix.connected_components(form, connection="strong", runtime=rt)
        assert count == ref_strong[0] and same_partition(labels, ref_strong[1]), name
        for directed in (True, False):
            order, pred = treefix.breadth_first_order(form, 3, directed=directed, runtime=rt)
            check_bfs(graph, 3, directed, order, pred)
        tree = treefix.minimum_spanning_tree(form, runtime=rt)
        assert isinstance(tree, sp.csr_matrix) and tree.dtype == np.float64, name
        np.testing.assert_array_equal(tree.toarray(), ref_tree, err_msg=name)


@pytest.mark.parametrize("directed", [True, False])
def test_connected_components_match_scipy(rt, directed):
    rng = np.random.default_rng(13)
    for name, graph in graphs(rng).items():
        count, labels = treefix.connected_components(graph, directed=directed, runtime=rt)
        ref_count, ref_labels = csgraph.connected_components(graph, directed=directed,
                                                             connection="weak")
        assert count == ref_count, name
        assert labels.dtype == np.int32
        np.testing.assert_array_equal(labels, ref_labels)  # SciPy's numbering too
        kept = treefix.Graph(graph, directed=directed, runtime=rt)
        assert kept.connected_components(return_labels=False) == count
        assert treefix.connected_components(graph, directed, return_labels=False) == count


def test_strong_components_match_scipy_as_partitions(rt):
    rng = np.random.default_rng(14)
    cases = dict(graphs(rng))
    cases["cycles"] = sp.csr_matrix(
        (np.ones(6), ([0, 1, 2, 3, 4, 5], [1, 2, 0, 4, 5, 3])), shape=(7, 7))
    cases["ticket1876"] = sp.csr_matrix(np.array([[0, 1, 1, 0], [1, 0, 0, 1],
                                                  [0, 0, 0, 1], [0, 0, 1, 0]]))
    cases["random 2000"] = random_graph(2000, 0.0012, rng)
    for name, graph in cases.items():
        ref_count, ref_labels = csgraph.connected_components(graph, connection="strong")
        count, labels = treefix.connected_components(graph, connection="strong", runtime=rt)
        assert count == ref_count, name
        assert labels.dtype == np.int32 and same_partition(labels, ref_labels), name
        if len(labels):  # numbered by smallest vertex
            firsts = np.unique(labels, return_index=True)[1]
            assert (np.diff(firsts) > 0).all() and labels[firsts].tolist() == list(range(count))
        kept = treefix.Graph(graph, runtime=rt)
        count2, labels2 = kept.connected_components(connection="strong")
        assert count2 == count and (labels2 == labels).all()
        # directed=False: the keyword is not looked at, as in SciPy
        weak = csgraph.connected_components(graph, directed=False)[0]
        assert treefix.connected_components(graph, directed=False, connection="strong",
                                            runtime=rt)[0] == weak


def test_scipys_issue_example_strong_and_dense_rules(rt):
    g = [[0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1, 0]]
    assert treefix.connected_components(np.array(g), connection="strong", runtime=rt)[0] == 2
    # inf, NaN and 0 (within 1e-8) are not edges in dense input; masked entries are absent
    inf = np.inf
    assert treefix.connected_components(np.array([[0, inf, 1], [inf, 0, inf], [1, inf, 0]]),
                                        runtime=rt)[0] == 2
    assert treefix.connected_components(np.array([[0, np.nan], [1e-9, 0]]), runtime=rt)[0] == 2
    assert treefix.connected_components(np.array([[0, 1e-7], [0, 0]]), runtime=rt)[0] == 1
    masked = np.ma.masked_array([[0, 5], [7, 0]], mask=[[False, True], [True, True]])
    assert treefix.connected_components(masked, runtime=rt)[0] == 2  # only (0, 0), a loop
    unmasked_zero = np.ma.masked_array([[0, 0], [0, 0]], mask=[[True, False], [True, True]])
    assert treefix.connected_components(unmasked_zero, runtime=rt)[0] == 1  # an edge of 0
    # explicit zeros of sparse input are edges, as SciPy keeps them
    z = sp.csr_matrix((np.array([0.0]), np.array([1]), np.array([0, 1, 1])), shape=(2, 2))
    assert z.nnz == 1 and csgraph.connected_components(z)[0] == 1
    assert treefix.connected_components(z, runtime=rt)[0] == 1


def check_tree(tree, graph, source, directed, pred):
    """Our BFS tree: its entries are our predecessors' arcs, with SciPy's weights for them."""
    assert isinstance(tree, sp.csr_matrix) and tree.dtype == np.float64
    assert tree.shape == graph.shape
    expected = csgraph.reconstruct_path(graph, pred, directed=directed)
    np.testing.assert_array_equal(tree.toarray(), expected.toarray())
    assert tree.nnz == (pred >= 0).sum()


@pytest.mark.parametrize("directed", [True, False])
def test_breadth_first_tree_is_a_bfs_tree_with_scipys_weights(rt, directed):
    rng = np.random.default_rng(15)
    cases = dict(graphs(rng))
    cases["weighted"] = random_graph(300, 0.01, rng, weights=lambda k: rng.integers(-3, 4, k))
    for name, graph in cases.items():
        n = graph.shape[0]
        for source in sorted({0, n - 1}) if n else []:
            tree = treefix.breadth_first_tree(graph, source, directed, runtime=rt)
            order, pred = treefix.breadth_first_order(graph, source, directed, runtime=rt)
            check_bfs(graph, source, directed, order, pred)
            check_tree(tree, graph, source, directed, pred)
            kept = treefix.Graph(graph, directed=directed, runtime=rt)
            check_tree(kept.breadth_first_tree(source), graph, source, directed, pred)
    # SciPy's own example
    x = sp.csr_matrix([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]])
    expected = [[0, 8, 0, 3], [0, 0, 2, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    got = treefix.breadth_first_tree(x, 0, directed=False, runtime=rt).toarray()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_minimum_spanning_trees_equal_scipys(rt, dtype):
    rng = np.random.default_rng(16)
    for n, density in ((0, 0), (1, 0), (50, 0.1), (400, 0.004), (300, 0.05)):
        values = rng.permutation(max(1, int(n * n * density) + n)) - 40  # distinct, negatives
        graph = random_graph(n, density, rng, weights=lambda k: values[:k].astype(dtype))
        graph = sp.csr_matrix(graph, dtype=dtype)
        ref = csgraph.minimum_spanning_tree(graph)
        tree = treefix.minimum_spanning_tree(graph, runtime=rt)
        assert tree.dtype == np.float64 and isinstance(tree, sp.csr_matrix)
        np.testing.assert_array_equal(tree.toarray(), ref.toarray())  # distinct: equal edges
        kept = treefix.Graph(graph, runtime=rt)
        for _ in range(2):  # the second call reuses the edge order kept on the device
            np.testing.assert_array_equal(kept.minimum_spanning_tree().toarray(), ref.toarray())
    # Ties, stored both ways: a forest of the same weight (SciPy 1.10 breaks ties by an
    # unstable sort; the exact order treefix follows is tested against Kruskal in C++).
    ties = random_graph(200, 0.03, rng, symmetric=True, weights=lambda k: rng.integers(1, 4, k))
    ties = sp.csr_matrix(ties, dtype=dtype)
    tree, ref = treefix.minimum_spanning_tree(ties, runtime=rt), csgraph.minimum_spanning_tree(ties)
    assert tree.sum() == ref.sum() and tree.nnz == ref.nnz


def test_minimum_spanning_tree_weights_and_shapes(rt):
    rng = np.random.default_rng(17)
    for trial in range(5):  # ties in upper-triangle storage: equal total weight
        g = sp.triu(random_graph(150, 0.04, rng, weights=lambda k: rng.integers(0, 3, k)), 1)
        tree = treefix.minimum_spanning_tree(g, runtime=rt)
        ref = csgraph.minimum_spanning_tree(g)
        assert tree.sum() == ref.sum() and tree.nnz == ref.nnz
    # a stored zero joins two vertices but is not listed, as SciPy's
    z = sp.csr_matrix((np.array([0.0, 1.0]), np.array([1, 2]), np.array([0, 1, 2, 2])),
                      shape=(3, 3))
    np.testing.assert_array_equal(treefix.minimum_spanning_tree(z, runtime=rt).toarray(),
                                  csgraph.minimum_spanning_tree(z).toarray())
    # overwrite is accepted; the input is left as it was
    x = sp.csr_matrix([[0, 8, 0, 3], [0, 0, 2, 5], [0, 0, 0, 6], [0, 0, 0, 0]])
    before = x.toarray().copy()
    got = treefix.minimum_spanning_tree(x, overwrite=True, runtime=rt)
    np.testing.assert_array_equal(got.toarray(), [[0, 0, 0, 3], [0, 0, 2, 5], [0, 0, 0, 0],
                                                  [0, 0, 0, 0]])
    np.testing.assert_array_equal(x.toarray(), before)
    with pytest.raises(TypeError):
        treefix.minimum_spanning_tree(sp.csr_matrix(np.eye(3) * 1j), runtime=rt)


def check_spanning_tree(graph, parents, root):
    n = graph.shape[0]
    undirected = (graph + graph.T).tolil()
    count, labels = csgraph.connected_components(graph, directed=False)
    assert parents.dtype == np.int32 and (parents == -1).sum() == count
    if n:
        assert parents[root] == -1
    for v in np.nonzero(parents >= 0)[0]:
        assert parents[v] in undirected.rows[v]
    treefix.Tree(parents)  # a forest: no cycle


@pytest.mark.parametrize("method", ["auto", "euler", "bfs", "pr"])
def test_rooted_spanning_trees_are_spanning_forests(rt, method):
    rng = np.random.default_rng(18)
    for name, graph in graphs(rng).items():
        n = graph.shape[0]
        root = n // 3
        if n == 0:
            with pytest.raises(ValueError):
                treefix.rooted_spanning_tree(graph, root=0, method=method, runtime=rt)
            continue
        parents = treefix.rooted_spanning_tree(graph, root=root, method=method, runtime=rt)
        check_spanning_tree(graph, parents, root)
        kept = treefix.Graph(graph, runtime=rt)
        check_spanning_tree(graph, kept.rooted_spanning_tree(root, method), root)


def test_a_kept_graph_honours_directed_and_pickles(rt):
    rng = np.random.default_rng(19)
    graph = random_graph(300, 0.006, rng, weights=lambda k: rng.permutation(k) + 1.0)
    kept = treefix.Graph(graph, runtime=rt)
    assert kept.directed and kept.n == 300
    for directed in (True, False):
        order, pred = treefix.breadth_first_order(kept, 0, directed=directed)
        check_bfs(graph, 0, directed, order, pred)
    assert (treefix.connected_components(kept, directed=True, connection="strong")[0] ==
            csgraph.connected_components(graph, connection="strong")[0])
    # A Graph made undirected holds every edge both ways: directed=True follows them both ways.
    both = treefix.Graph(graph, directed=False, runtime=rt)
    order, pred = treefix.breadth_first_order(both, 0, directed=True)
    check_bfs(graph, 0, False, order, pred)
    for g in (kept, both):
        again = pickle.loads(pickle.dumps(g))
        assert (again.n, again.arcs, again.directed) == (g.n, g.arcs, g.directed)
        np.testing.assert_array_equal(again.connected_components()[1],
                                      g.connected_components()[1])
        np.testing.assert_array_equal(again.minimum_spanning_tree().toarray(),
                                      csgraph.minimum_spanning_tree(graph).toarray())
    for form in ("coo", "csc", "dense", "masked"):
        again = pickle.loads(pickle.dumps(treefix.Graph(forms(graph)[form], runtime=rt)))
        assert again.connected_components()[0] == csgraph.connected_components(graph)[0]


def test_bad_graphs_raise_scipys_errors(rt):
    with pytest.raises(ValueError, match="square"):
        treefix.Graph(sp.csr_matrix((3, 4)), runtime=rt)
    with pytest.raises(ValueError, match="square"):
        treefix.connected_components(np.zeros((2, 3)), runtime=rt)
    with pytest.raises(ValueError, match="2-D"):
        treefix.connected_components(np.zeros(3), runtime=rt)
    graph = sp.csr_matrix(np.eye(4))
    with pytest.raises(ValueError, match="i_start = 4 is not a vertex"):
        treefix.breadth_first_order(graph, 4, runtime=rt)
    with pytest.raises(ValueError, match="i_start = -1 is not a vertex"):
        treefix.breadth_first_tree(graph, -1, runtime=rt)
    with pytest.raises(ValueError, match="connection"):
        treefix.connected_components(graph, connection="medium", runtime=rt)
    with pytest.raises(ValueError, match="root = -1"):
        treefix.rooted_spanning_tree(graph, root=-1, runtime=rt)
    with pytest.raises(ValueError, match="spanning-tree method"):
        treefix.rooted_spanning_tree(graph, method="dfs", runtime=rt)
    with pytest.raises(TypeError):
        treefix.Graph(np.array([["a"]]), runtime=rt)
    bad = sp.csr_matrix((np.ones(2), np.array([0, 5]), np.array([0, 1, 2])), shape=(2, 2),
                        copy=False)
    bad.indices[1] = 5  # SciPy checks at construction only
    with pytest.raises(ValueError, match="entry 1 has column index 5, outside 0..1"):
        treefix.connected_components(bad, runtime=rt)


def test_real_graphs_shipped_with_the_repository(rt):
    import pathlib
    folder = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "graphs"
    rng = np.random.default_rng(20)
    for name in ("luxembourg_excerpt.mtx", "notredame_excerpt.mtx", "epinions_excerpt.mtx"):
        graph = scipy.io.mmread(str(folder / name)).tocsr()
        kept = treefix.Graph(graph, runtime=rt)
        count, labels = kept.connected_components()
        ref_count, ref_labels = csgraph.connected_components(graph)
        assert count == ref_count
        np.testing.assert_array_equal(labels, ref_labels)
        order, pred = kept.breadth_first_order(0)
        check_bfs(graph, 0, True, order, pred)
        # a direction per edge, at random: strong components of a directed graph
        upper = sp.triu(graph, 1).tocoo()
        flip = rng.random(upper.nnz) < 0.5
        directed = sp.csr_matrix((np.ones(upper.nnz), (np.where(flip, upper.col, upper.row),
                                                       np.where(flip, upper.row, upper.col))),
                                 shape=graph.shape)
        ref_count, ref_labels = csgraph.connected_components(directed, connection="strong")
        count, labels = treefix.connected_components(directed, connection="strong", runtime=rt)
        assert count == ref_count and same_partition(labels, ref_labels)
        weighted = graph.copy()
        weighted.data = rng.permutation(weighted.nnz) + 1.0
        weighted = weighted.maximum(weighted.T).tocsr()  # symmetric, distinct per edge
        assert same_edges(treefix.minimum_spanning_tree(weighted, runtime=rt),
                          csgraph.minimum_spanning_tree(weighted))


def test_road_network(rt):
    graph = scipy.io.mmread(str(data_file("luxembourg_osm.mtx"))).tocsr()
    kept = treefix.Graph(graph, directed=False, runtime=rt)
    order, pred = kept.breadth_first_order(0)
    check_bfs_levels = levels_from(order, pred, 0, graph.shape[0])
    ref_order, ref_pred = csgraph.breadth_first_order(graph, 0, directed=False)
    np.testing.assert_array_equal(check_bfs_levels, levels_from(ref_order, ref_pred, 0,
                                                                graph.shape[0]))
    count, labels = kept.connected_components()
    ref_count, ref_labels = csgraph.connected_components(graph, directed=False)
    assert count == ref_count
    np.testing.assert_array_equal(labels, ref_labels)
    parents = kept.rooted_spanning_tree(0)
    assert (parents == -1).sum() == count
    # the minimum spanning tree of the roads, with lengths drawn at random per road
    rng = np.random.default_rng(21)
    upper = sp.triu(graph, 1).tocsr()
    upper.data = rng.permutation(upper.nnz) + 1.0
    roads = (upper + upper.T).tocsr()
    assert same_edges(treefix.minimum_spanning_tree(roads, runtime=rt),
                      csgraph.minimum_spanning_tree(roads))
    assert sparse_equal(treefix.minimum_spanning_tree(upper, runtime=rt),
                        csgraph.minimum_spanning_tree(upper))


def test_web_graph_strong_components(rt):
    import lzma
    path = data_file("web-NotreDame.txt.xz")
    with lzma.open(path, "rt") as text:
        pairs = np.loadtxt(text, dtype=np.int64, comments="#")
    n = int(pairs.max()) + 1
    web = sp.csr_matrix((np.ones(len(pairs), np.int8), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    ref_count, ref_labels = csgraph.connected_components(web, connection="strong")
    count, labels = treefix.connected_components(web, connection="strong", runtime=rt)
    assert count == ref_count and same_partition(labels, ref_labels)


def test_large_results_reuse_memory_and_are_fully_written(rt):
    # 2^20 + 5 vertices: every result is over 4 MiB, so a second call takes the first's freed
    # block, which still holds the old values.
    n = (1 << 20) + 5
    rng = np.random.default_rng(2)
    # two paths joined by random chords: long BFS levels, one component
    rows = np.concatenate([np.arange(n - 1), rng.integers(0, n, 3000)])
    cols = np.concatenate([np.arange(1, n), rng.integers(0, n, 3000)])
    a = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))
    graph = treefix.Graph(a, directed=False, runtime=rt)
    treefix.release_cached_results()
    for source in (0, n // 2, n - 1):
        order, pred = graph.breadth_first_order(source)
        ref_order, ref_pred = csgraph.breadth_first_order(a, source, directed=False)
        assert order[0] == source
        np.testing.assert_array_equal(np.sort(order), np.sort(ref_order))  # the same vertices
        assert (pred >= 0).sum() == (ref_pred >= 0).sum()
        assert pred[source] == -9999
        # every predecessor is a neighbour
        reached = np.flatnonzero(pred >= 0)
        assert np.all(np.asarray(a[reached, pred[reached]] + a[pred[reached], reached]).ravel() > 0)
        count, labels = graph.connected_components()
        ref_count, ref_labels = csgraph.connected_components(a, directed=False)
        assert count == ref_count
        np.testing.assert_array_equal(labels, ref_labels)
        del order, pred, labels
    assert treefix.cached_result_bytes() > 0
    treefix.release_cached_results()
