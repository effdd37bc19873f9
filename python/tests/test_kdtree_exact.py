"""treefix.KDTree against cKDTree and a brute-force reference in cKDTree's arithmetic: every query,
with every p, k, r, distance_upper_bound and periodic box, on random, clustered, duplicated,
offset (5e6) and lattice points in 1 to 8 dimensions, compared exactly: distances to the last
bit (p = 1, 2, inf) and indices, ties by the smaller index (cKDTree's indices where distances are
not tied)."""
import itertools

import numpy as np
import pytest
from scipy.spatial import cKDTree

import treefix
from kdtree_reference import ball, knn, point_sets

INF = np.inf


def untied(d, width):
    """Where a rank's distance differs from its neighbours' in the row (and from the next
    candidate's, unknown beyond the last rank: the last rank counts as tied)."""
    same = np.zeros(d.shape, bool)
    same[:, 1:] |= d[:, 1:] == d[:, :-1]
    same[:, :-1] |= d[:, :-1] == d[:, 1:]
    if d.shape[1] == width:
        same[:, -1] = True
    return ~same & np.isfinite(d)


def check_knn(tree, ref, data, queries, k, p, upper=INF, boxsize=None):
    d, i = tree.query(queries, k=k, p=p, distance_upper_bound=upper)
    want_d, want_i = knn(data, queries, k, p, upper, boxsize)
    np.testing.assert_array_equal(i.reshape(want_i.shape), want_i)
    np.testing.assert_array_equal(d.reshape(want_d.shape), want_d)
    ref_d, ref_i = ref.query(queries, k=k, p=p, distance_upper_bound=upper)
    ref_d, ref_i = ref_d.reshape(want_d.shape), ref_i.reshape(want_i.shape)
    np.testing.assert_array_equal(ref_d, want_d)  # the same bits as cKDTree
    mask = untied(want_d, k)
    np.testing.assert_array_equal(ref_i[mask], want_i[mask])


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8])
def test_knn_equals_reference_and_ckdtree(rt, m):
    n = 300
    for name, data in point_sets(n, m, seed=m).items():
        rng = np.random.default_rng(m)
        queries = np.concatenate([data[:10], data.min(0) + (data.max(0) - data.min(0) + 1) *
                                  rng.random((20, m))])
        tree = treefix.KDTree(data, leafsize=4, runtime=rt)
        ref = cKDTree(data)
        for p, k in itertools.product([1, 2, INF], [1, 7, 40]):
            upper = INF if k != 7 else float(np.median(ref.query(queries, 3, p=p)[0][:, -1]))
            check_knn(tree, ref, data, queries, k, p, upper)


def test_knn_every_dimension_and_k_beyond_n(rt):
    for m in range(1, 9):
        data = np.random.default_rng(m).standard_normal((57, m))
        tree = treefix.KDTree(data, leafsize=3, runtime=rt)
        ref = cKDTree(data)
        check_knn(tree, ref, data, data[::5] + 0.01, 60, 2)  # 57 found, 3 padded (inf, n)
        check_knn(tree, ref, data, data[::7], 1, 2)


def test_periodic_knn_and_balls(rt):
    rng = np.random.default_rng(3)
    for m, boxsize in [(2, 1.0), (3, [1.0, 0.0, 2.5]), (4, [0.5, 0.5, 0.5, 0.5])]:
        box = np.broadcast_to(np.asarray(boxsize, float), (m,))
        data = rng.random((400, m)) * np.where(box > 0, box, 3.0)
        queries = rng.uniform(-2, 4, (40, m))  # outside the box too: wrapped
        tree = treefix.KDTree(data, leafsize=2, boxsize=boxsize, runtime=rt)
        ref = cKDTree(data, boxsize=boxsize)
        for p in [1, 2, INF]:
            for k in [1, 6, 20]:
                check_knn(tree, ref, data, queries, k, p, boxsize=box)
            for r in [0.05, 0.3]:
                got = tree.query_ball_point(queries, r, p=p)
                want = ball(data, queries, r, p, box)
                assert [list(x) for x in got] == want
                assert [sorted(x) for x in ref.query_ball_point(queries, r, p=p)] == want


@pytest.mark.parametrize("m", [1, 2, 3, 5, 8])
def test_balls_equal_reference_and_ckdtree(rt, m):
    for name, data in point_sets(250, m, seed=10 + m).items():
        tree = treefix.KDTree(data, leafsize=5, runtime=rt)
        ref = cKDTree(data)
        queries = np.concatenate([data[:15], data[-5:] + 1e-3])
        scale = data.max() - data.min() + 1.0
        radii = np.linspace(0, 0.3 * scale, len(queries))
        for p in [1, 2, INF]:
            for r in [0.0, 0.1 * scale, radii]:
                want = ball(data, queries, r, p)
                got = tree.query_ball_point(queries, r, p=p)
                assert got.dtype == object and got.shape == (len(queries),)
                assert [list(x) for x in got] == want
                assert [sorted(x) for x in ref.query_ball_point(queries, r, p=p)] == want
                lengths = tree.query_ball_point(queries, r, p=p, return_length=True)
                assert lengths.dtype == np.intp
                np.testing.assert_array_equal(lengths, [len(x) for x in want])


@pytest.mark.parametrize("m", [1, 3, 8])
def test_pairs_trees_counts_and_matrices_equal_ckdtree(rt, m):
    rng = np.random.default_rng(20 + m)
    for name, data in point_sets(200, m, seed=20 + m).items():
        other = data[::-1][:150] + 1e-4 * rng.standard_normal((150, m))
        scale = data.max() - data.min() + 1.0
        t1, t2 = treefix.KDTree(data, runtime=rt), treefix.KDTree(other, runtime=rt)
        r1, r2 = cKDTree(data), cKDTree(other)
        r = 0.15 * scale
        for p in [1, 2, INF]:
            assert t1.query_pairs(r, p=p) == r1.query_pairs(r, p=p)
            pairs = t1.query_pairs(r, p=p, output_type="ndarray")
            assert pairs.dtype == np.intp and pairs.shape[1] == 2
            assert [tuple(x) for x in pairs] == sorted(r1.query_pairs(r, p=p))
            got = t1.query_ball_tree(t2, r, p=p)
            assert got == [sorted(x) for x in r1.query_ball_tree(r2, r, p=p)]
            radii = np.array([0, r / 4, r / 2, r, 2 * r])
            for cumulative in [True, False]:
                np.testing.assert_array_equal(
                    t1.count_neighbors(t2, radii, p=p, cumulative=cumulative),
                    r1.count_neighbors(r2, radii, p=p, cumulative=cumulative))
            assert t1.count_neighbors(t2, r, p=p) == r1.count_neighbors(r2, r, p=p)
            got = t1.sparse_distance_matrix(t2, r, p=p, output_type="dict")
            want = r1.sparse_distance_matrix(r2, r, p=p, output_type="dict")
            assert got == want  # keys and distances, bit for bit
            assert all(type(v) is float for v in got.values())


def test_weighted_counts(rt):
    rng = np.random.default_rng(5)
    a, b = rng.random((120, 3)), rng.random((90, 3))
    wa, wb = rng.integers(0, 4, 120).astype(float), rng.integers(0, 4, 90).astype(float)
    ta, tb, ra, rb = (treefix.KDTree(a, runtime=rt), treefix.KDTree(b, runtime=rt), cKDTree(a),
                      cKDTree(b))
    radii = [0.05, 0.1, 0.1, 0.3, 0.25]
    for weights in [(wa, wb), (wa, None), (None, wb)]:
        got = ta.count_neighbors(tb, radii, weights=weights)
        assert got.dtype == np.float64
        # integer weights: sums exact whatever the order
        np.testing.assert_array_equal(got, ra.count_neighbors(rb, radii, weights=weights))
    np.testing.assert_array_equal(ta.count_neighbors(ta, [0.1, 0.2], weights=wa),
                                  ra.count_neighbors(ra, [0.1, 0.2], weights=wa))
    np.testing.assert_array_equal(
        ta.count_neighbors(tb, [0.1, 0.2, 0.2, 0.4], cumulative=False),
        ra.count_neighbors(rb, [0.1, 0.2, 0.2, 0.4], cumulative=False))
    real = rng.random(120), rng.random(90)
    np.testing.assert_allclose(ta.count_neighbors(tb, 0.2, weights=real),
                               ra.count_neighbors(rb, 0.2, weights=real), rtol=1e-12)
    assert isinstance(ta.count_neighbors(tb, 0.2), int)


def test_general_p_and_eps(rt):
    rng = np.random.default_rng(7)
    data, queries = rng.random((300, 3)), rng.random((30, 3))
    tree, ref = treefix.KDTree(data, runtime=rt), cKDTree(data)
    for p in [1.5, 3.0]:
        d, i = tree.query(queries, k=5, p=p)
        ref_d, ref_i = ref.query(queries, k=5, p=p)
        np.testing.assert_allclose(d, ref_d, rtol=1e-13)  # the device's pow
        np.testing.assert_array_equal(i, ref_i)
        got = tree.query_ball_point(queries, 0.2, p=p)
        assert [list(x) for x in got] == [sorted(x) for x in ref.query_ball_point(queries, 0.2,
                                                                                 p=p)]
    exact_d, _ = tree.query(queries, k=6)
    for eps in [0.1, 1.0]:
        d, _ = tree.query(queries, k=6, eps=eps)
        assert (d <= exact_d * (1 + eps)).all() and (d >= exact_d).all()
        # pairs with eps: within r (1 + eps), cKDTree's test for the pairs it checks
        pairs = tree.query_pairs(0.1, eps=eps)
        assert tree.query_pairs(0.1) <= pairs <= tree.query_pairs(0.1 * (1 + eps))
        balls = tree.query_ball_point(queries, 0.1, eps=eps)
        assert [list(x) for x in balls] == [list(x) for x in tree.query_ball_point(queries, 0.1)]


def test_metre_coordinates_are_exact(rt):
    # UTM-like coordinates: float32 would round them to half a metre.
    a = treefix.KDTree([[5e6], [5e6 + 0.7]], runtime=rt)
    d, i = a.query([5e6 + 0.3])
    assert (d, i) == cKDTree([[5e6], [5e6 + 0.7]]).query([5e6 + 0.3]) and i == 0
    rng = np.random.default_rng(8)
    data = np.c_[5e6 + 1000 * rng.random(5000), 6e5 + 1000 * rng.random(5000)]
    queries = np.c_[5e6 + 1000 * rng.random(300), 6e5 + 1000 * rng.random(300)]
    d, i = treefix.KDTree(data, runtime=rt).query(queries, k=4)
    ref_d, ref_i = cKDTree(data).query(queries, k=4)
    np.testing.assert_array_equal(i, ref_i)
    np.testing.assert_array_equal(d, ref_d)
    tiny = 1e4 + 1e-3 * rng.standard_normal((3000, 3))
    d, i = treefix.KDTree(tiny, runtime=rt).query(tiny[:200], k=8)
    ref_d, ref_i = cKDTree(tiny).query(tiny[:200], k=8)
    np.testing.assert_array_equal(d, ref_d)
    np.testing.assert_array_equal(i, ref_i)


def test_far_coordinates(rt):
    # 3e19 squared overflows float32, not float64: computed as cKDTree computes them.
    rng = np.random.default_rng(9)
    data = 3e19 * rng.standard_normal((500, 3))
    tree, ref = treefix.KDTree(data, runtime=rt), cKDTree(data)
    d, i = tree.query(data[:50] * 0.999, k=3)
    ref_d, ref_i = ref.query(data[:50] * 0.999, k=3)
    np.testing.assert_array_equal(d, ref_d)
    np.testing.assert_array_equal(i, ref_i)
    assert tree.query_pairs(3e19) == ref.query_pairs(3e19)
    with pytest.raises(ValueError, match="overflow"):
        treefix.KDTree([[0.0], [1e200]], runtime=rt)


def test_shapes_types_and_attributes(rt):
    data = np.array([[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1],
                     [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]])
    tree = treefix.KDTree(data, runtime=rt)
    d, i = tree.query([0, 0, 0.1])
    assert type(d) is float and type(i) is int and (d, i) == (0.1, 0)
    d, i = tree.query(np.zeros((2, 4, 3)), k=[1, 3])
    assert d.shape == i.shape == (2, 4, 2) and d.dtype == np.float64 and i.dtype == np.intp
    d, i = tree.query([0, 0, 0], k=11)
    assert (i[8:] == 8).all() and np.isinf(d[8:]).all()
    assert tree.query_ball_point((1, 1, 1), 1) == [3, 5, 6, 7]
    assert isinstance(tree.query_ball_point((1, 1, 1), 1, return_length=True), np.integer)
    assert tree.n == 8 and tree.m == 3 and tree.leafsize == 16 and tree.size >= 1
    np.testing.assert_array_equal(tree.mins, [0, 0, 0])
    np.testing.assert_array_equal(tree.maxes, [1, 1, 1])
    assert tree.data.dtype == np.float64 and not tree.data.flags.writeable
    np.testing.assert_array_equal(np.sort(tree.indices), np.arange(8))
    assert tree.boxsize is None
    points = np.random.default_rng(1).random((50, 2))
    assert treefix.KDTree(points, runtime=rt).data.base is points  # C-ordered float64: no copy


def test_empty_and_single_point_trees(rt):
    empty = treefix.KDTree(np.zeros((0, 3)), runtime=rt)
    d, i = empty.query(np.ones((2, 3)), k=2)
    assert np.isinf(d).all() and (i == 0).all()
    assert empty.query_ball_point(np.ones(3), 1.0) == []
    assert empty.query_pairs(1.0) == set()
    assert empty.count_neighbors(empty, [0, 1]).tolist() == [0, 0]
    assert empty.sparse_distance_matrix(empty, 1.0).shape == (0, 0)
    one = treefix.KDTree([[0.5, 0.5]], runtime=rt)
    assert one.query([0, 0], k=3)[1].tolist() == [0, 1, 1]
    assert one.query_ball_tree(treefix.KDTree(np.zeros((0, 2)), runtime=rt), 1.0) == [[]]


def test_equal_points_are_one_leaf(rt):
    data = np.ones((1024, 3))
    data[512:] = 2
    tree = treefix.KDTree(data, leafsize=1, runtime=rt)
    assert tree.size == 3
    np.testing.assert_array_equal(np.sort(tree.tree.lesser.indices), np.arange(512))
    np.testing.assert_array_equal(np.sort(tree.tree.greater.indices), np.arange(512, 1024))
    d, i = tree.query([[1, 1, 1.1]], k=3)
    np.testing.assert_array_equal(i, [[0, 1, 2]])  # ties: the smallest indices


def test_node_view_and_weights(rt):
    points = np.random.default_rng(2).standard_normal((300, 3))
    tree = treefix.KDTree(points, leafsize=4, runtime=rt)
    nodes, seen = [tree.tree], 0
    while nodes:
        node = nodes.pop()
        seen += 1
        if node.split_dim == -1:
            assert node.lesser is None and node.children <= 4
        else:
            nodes += [node.lesser, node.greater]
            assert node.children == node.lesser.children + node.greater.children
            lo = node.lesser.data_points[:, node.split_dim]
            hi = node.greater.data_points[:, node.split_dim]
            assert lo.max() < hi.min()
    assert seen == tree.size
    np.testing.assert_array_equal(tree.data[tree.tree.indices], tree.tree.data_points)
    weights = tree._build_weights(np.ones(300))
    assert weights.shape == (tree.size,) and weights[0] == 300


def test_pickle_rebuilds_on_the_device(rt):
    import pickle
    points = np.random.default_rng(4).random((200, 3))
    tree = treefix.KDTree(points, leafsize=5, boxsize=1.0, runtime=rt)
    loaded = pickle.loads(pickle.dumps(tree))
    assert loaded.leafsize == 5 and loaded.boxsize.tolist() == [1.0, 1.0, 1.0]
    np.testing.assert_array_equal(loaded.data, points)
    np.testing.assert_array_equal(loaded.query(points, k=4)[1], tree.query(points, k=4)[1])


def test_workers(rt, monkeypatch):
    points = np.random.default_rng(6).random((500, 2))
    tree = treefix.KDTree(points, runtime=rt)
    one = tree.query_ball_point(points, 0.05)
    for workers in [2, -1, None]:
        assert [list(x) for x in tree.query_ball_point(points, 0.05, workers=workers)] == \
            [list(x) for x in one]
    with pytest.raises(ValueError, match="workers"):
        tree.query(points, workers=0)
    import os
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    with pytest.raises(NotImplementedError, match="Cannot determine"):
        tree.query(points, workers=-1)


def test_bad_input_raises(rt):
    tree = treefix.KDTree(np.random.default_rng(0).random((20, 2)), runtime=rt)
    cases = [
        (ValueError, "shape \\(n, m\\)", lambda: treefix.KDTree(np.zeros(5), runtime=rt)),
        (ValueError, "must be finite", lambda: treefix.KDTree([[0.0, np.nan]], runtime=rt)),
        (ValueError, "must be finite", lambda: treefix.KDTree([[0.0, np.inf]], runtime=rt)),
        (TypeError, "complex", lambda: treefix.KDTree(np.ones((3, 2), complex), runtime=rt)),
        (ValueError, "leafsize", lambda: treefix.KDTree([[0.0]], leafsize=0, runtime=rt)),
        (ValueError, "17 coordinates", lambda: treefix.KDTree(np.zeros((3, 17)), runtime=rt)),
        (ValueError, "greater than the size",
         lambda: treefix.KDTree([[0.5], [1.0]], boxsize=1.0, runtime=rt)),
        (ValueError, "Negative input",
         lambda: treefix.KDTree([[-0.5], [0.5]], boxsize=1.0, runtime=rt)),
        (ValueError, "boxsize", lambda: treefix.KDTree([[0.5]], boxsize=-1.0, runtime=rt)),
        (ValueError, "vectors of length 2", lambda: tree.query(np.zeros((4, 3)))),
        (ValueError, "vectors of length 2", lambda: tree.query(1.0)),
        (ValueError, "must be finite", lambda: tree.query([np.nan, 0.0])),
        (ValueError, "must be finite", lambda: tree.query_ball_point([np.inf, 0.0], 1.0)),
        (ValueError, "k must be", lambda: tree.query([0, 0], k=0)),
        (ValueError, "k must be", lambda: tree.query([0, 0], k=[0, 1])),
        (ValueError, "k must be", lambda: tree.query([0, 0], k=None)),
        (ValueError, "k must be", lambda: tree.query([0, 0], k=1.5)),
        (ValueError, "p-norms", lambda: tree.query([0, 0], p=0.5)),
        (ValueError, "p-norms", lambda: tree.query_ball_point([0, 0], 1.0, p=0.9)),
        (ValueError, "eps", lambda: tree.query([0, 0], eps=-1)),
        (ValueError, "distance_upper_bound", lambda: tree.query([0, 0],
                                                                distance_upper_bound=-1)),
        (ValueError, "r must be", lambda: tree.query_ball_point([0, 0], -1.0)),
        (ValueError, "r must be", lambda: tree.query_ball_point([0, 0], np.nan)),
        (ValueError, "r must be", lambda: tree.query_pairs(-0.5)),
        (ValueError, "r must be", lambda: tree.count_neighbors(tree, [-1.0, 1.0])),
        (ValueError, "non-decreasing", lambda: tree.count_neighbors(tree, [1, 0], cumulative=False)),
        (ValueError, "different dimensionality",
         lambda: tree.query_ball_tree(treefix.KDTree(np.zeros((2, 3)), runtime=rt), 1.0)),
        (ValueError, "Two different trees",
         lambda: tree.count_neighbors(treefix.KDTree(np.zeros((2, 2)), runtime=rt), 1.0,
                                      weights=np.ones(20))),
        (ValueError, "Number of weights", lambda: tree.count_neighbors(tree, 1.0,
                                                                       weights=np.ones(3))),
        (ValueError, "Invalid output type", lambda: tree.query_pairs(1.0, output_type="list")),
        (ValueError, "Invalid output type",
         lambda: tree.sparse_distance_matrix(tree, 1.0, output_type="csr")),
        (ValueError, "overflow", lambda: tree.query_ball_point([0, 0], 1e10, p=100)),
    ]
    for error, message, call in cases:
        with pytest.raises(error, match=message):
            call()
    assert tree.query([0.5, 0.5], k=3)[1].shape == (3,)  # still usable
