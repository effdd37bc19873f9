"""BFS, connected components and rooted spanning trees against scipy.sparse.csgraph."""
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph

import treefix
from conftest import data_file


def random_graph(n, density, rng, symmetric=False):
    g = sp.random(n, n, density=density, format="csr", random_state=rng,
                  data_rvs=lambda k: np.ones(k))
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


def levels_from(order, predecessors, source, n):
    """Depths of a BFS tree given by predecessors (-9999 at the source and unreached)."""
    depth = np.full(n, -1)
    depth[source] = 0
    for v in order[1:]:
        depth[v] = depth[predecessors[v]] + 1
    return depth


def check_bfs(graph, source, directed, order, predecessors):
    n = graph.shape[0]
    ref_order, ref_pred = csgraph.breadth_first_order(graph, source, directed=directed)
    assert order.dtype == np.int32 and predecessors.dtype == np.int32
    assert order[0] == source and sorted(order) == sorted(ref_order)
    assert (predecessors == -9999).sum() == (ref_pred == -9999).sum()
    assert predecessors[source] == -9999
    ours = levels_from(order, predecessors, source, n)
    np.testing.assert_array_equal(ours, levels_from(ref_order, ref_pred, source, n))
    assert (np.diff(ours[order]) >= 0).all()  # levels in order
    arcs = graph if directed else (graph + graph.T)
    arcs = arcs.tolil()
    for v in order[1:]:
        assert v in arcs.rows[predecessors[v]]  # each predecessor is an in-neighbour


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


@pytest.mark.parametrize("directed", [True, False])
def test_connected_components_match_scipy(rt, directed):
    rng = np.random.default_rng(12)
    for name, graph in graphs(rng).items():
        count, labels = treefix.connected_components(graph, directed=directed, runtime=rt)
        ref_count, ref_labels = csgraph.connected_components(graph, directed=directed,
                                                             connection="weak")
        assert count == ref_count, name
        assert labels.dtype == np.int32
        if len(labels):  # numbered by smallest vertex: the first vertex of each label in order
            firsts = np.unique(labels, return_index=True)[1]
            assert (np.diff(firsts) > 0).all() and labels[firsts].tolist() == list(range(count))
        # Same partition as SciPy's.
        pairs = set(zip(labels.tolist(), ref_labels.tolist()))
        assert len(pairs) == count, name
        kept = treefix.Graph(graph, directed=directed, runtime=rt)
        assert kept.connected_components(return_labels=False) == count


def test_strong_components_are_refused(rt):
    graph = random_graph(20, 0.1, np.random.default_rng(13))
    with pytest.raises(ValueError, match="strongly connected"):
        treefix.connected_components(graph, directed=True, connection="strong", runtime=rt)


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
    rng = np.random.default_rng(14)
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


def test_inputs_sparse_arrays_dense_and_kept_graphs(rt):
    graph = random_graph(50, 0.05, np.random.default_rng(15))
    expected = csgraph.connected_components(graph)[0]
    for form in (graph.tocoo(), graph.tocsc(), sp.csr_array(graph), graph.toarray()):
        assert treefix.connected_components(form, runtime=rt)[0] == expected
    kept = treefix.Graph(graph, directed=False, runtime=rt)
    assert kept.n == 50 and not kept.directed
    assert treefix.connected_components(kept)[0] == expected


def test_bad_graphs_raise_value_error(rt):
    with pytest.raises(ValueError, match="square"):
        treefix.Graph(sp.csr_matrix((3, 4)), runtime=rt)
    graph = sp.csr_matrix(np.eye(4))
    with pytest.raises(ValueError, match="i_start = 4 is not a vertex"):
        treefix.breadth_first_order(graph, 4, runtime=rt)
    with pytest.raises(ValueError, match="root = -1"):
        treefix.rooted_spanning_tree(graph, root=-1, runtime=rt)
    with pytest.raises(ValueError, match="spanning-tree method"):
        treefix.rooted_spanning_tree(graph, method="dfs", runtime=rt)
    with pytest.raises(TypeError):
        treefix.Graph(np.array([["a"]]), runtime=rt)


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
