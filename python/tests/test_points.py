"""KDTree against brute force in float32 and scipy.spatial.cKDTree; Barnes-Hut against a direct
sum."""
import numpy as np
import pytest
from scipy.spatial import cKDTree

import treefix
from conftest import data_file


def squared_distances(data, queries):
    """|q - p|^2 in float32, coordinates summed in index order (the library's formula)."""
    data = data.astype(np.float32)
    queries = queries.astype(np.float32)
    total = np.zeros((len(queries), len(data)), np.float32)
    for k in range(data.shape[1]):
        diff = queries[:, None, k] - data[None, :, k]
        total = total + diff * diff
    return total


@pytest.mark.parametrize("dim", [2, 3])
def test_knn_equals_brute_force_in_float32(rt, dim):
    rng = np.random.default_rng(21)
    data = rng.standard_normal((1009, dim)).astype(np.float32)
    queries = rng.standard_normal((101, dim))
    tree = treefix.KDTree(data, runtime=rt)
    assert tree.n == 1009 and tree.m == dim
    d2 = squared_distances(data, queries)
    # Nearest first, ties by the smaller index: a stable sort of the distances.
    expected = np.argsort(d2, axis=1, kind="stable")[:, :8]
    d, i = tree.query(queries, k=8)
    assert d.shape == i.shape == (101, 8) and i.dtype == np.int32 and d.dtype == np.float32
    np.testing.assert_array_equal(i, expected)
    np.testing.assert_array_equal(d, np.sqrt(np.take_along_axis(d2, expected, axis=1)))
    d1, i1 = tree.query(queries)
    assert d1.shape == i1.shape == (101,)
    np.testing.assert_array_equal(i1, expected[:, 0])
    # The tree's own points as queries (kept on the device: no upload) and a part of them.
    own = np.argsort(squared_distances(data, data), axis=1, kind="stable")[:, :8]
    np.testing.assert_array_equal(tree.query(data, k=8)[1], own)
    np.testing.assert_array_equal(tree.query(data[:-1], k=8)[1], own[:-1])


def test_knn_agrees_with_ckdtree(rt):
    rng = np.random.default_rng(22)
    data = rng.uniform(0, 100, (20000, 3))
    queries = rng.uniform(0, 100, (2000, 3))
    d, i = treefix.KDTree(data, runtime=rt).query(queries, k=8)
    ref_d, ref_i = cKDTree(data).query(queries, k=8)
    np.testing.assert_allclose(d, ref_d, rtol=1e-5, atol=1e-4)
    assert (i == ref_i).mean() > 0.999  # only near-ties can differ (float32 against float64)
    single_d, single_i = treefix.KDTree(data, runtime=rt).query(queries[0], k=8)
    assert single_d.shape == (8,)
    np.testing.assert_array_equal(single_i, i[0])


def test_ball_counts_equal_brute_force_and_ckdtree(rt):
    rng = np.random.default_rng(23)
    data = rng.uniform(0, 10, (3001, 3)).astype(np.float32)
    queries = rng.uniform(0, 10, (307, 3)).astype(np.float32)
    tree = treefix.KDTree(data, leaf_size=4, runtime=rt)
    for r in (0.0, 0.5, 1.7, 30.0):
        counts = tree.query_ball_point(queries, r)
        r2 = np.float32(r) * np.float32(r)
        np.testing.assert_array_equal(counts, (squared_distances(data, queries) <= r2).sum(1))
        ref = cKDTree(data).query_ball_point(queries, r, return_length=True)
        assert np.abs(counts - ref).max() <= 1
    # The data points themselves (kept on the device) and a part of them.
    for r in (0.0, 0.8):
        expected = (squared_distances(data, data) <= np.float32(r) * np.float32(r)).sum(1)
        np.testing.assert_array_equal(tree.query_ball_point(data, r), expected)
        np.testing.assert_array_equal(tree.query_ball_point(data[1:], r), expected[1:])


def test_bad_points_raise(rt):
    with pytest.raises(ValueError, match="at least one point"):
        treefix.KDTree(np.zeros((0, 3)), runtime=rt)
    with pytest.raises(ValueError, match="2-D"):
        treefix.KDTree(np.zeros(5), runtime=rt)
    with pytest.raises(ValueError, match="17 coordinates"):
        treefix.KDTree(np.zeros((4, 17)), runtime=rt)
    with pytest.raises(ValueError, match="finite"):
        treefix.KDTree(np.array([[0.0, np.nan]]), runtime=rt)
    tree = treefix.KDTree(np.zeros((10, 2)), runtime=rt)
    with pytest.raises(ValueError, match="k = 11"):
        tree.query(np.zeros((1, 2)), k=11)
    with pytest.raises(ValueError, match="coordinates"):
        tree.query(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="return_length"):
        tree.query_ball_point(np.zeros((1, 2)), 1.0, return_length=False)
    d, i = tree.query(np.zeros((0, 2)), k=2)
    assert d.shape == (0, 2)


def test_dragon_scan(rt):
    points = np.loadtxt(data_file("stanford_dragon_scan.xyz"), dtype=np.float32)[::4]
    tree = treefix.KDTree(points, runtime=rt)
    d, i = tree.query(points[:500], k=8)
    np.testing.assert_array_equal(i[:, 0], np.arange(500))  # each point is its own nearest
    ref_d, _ = cKDTree(points).query(points[:500], k=8)
    np.testing.assert_allclose(d, ref_d, rtol=1e-4, atol=1e-6)


def direct_accelerations(positions, masses, eps):
    x = positions.astype(np.float64)
    diff = x[None, :, :] - x[:, None, :]
    r2 = (diff ** 2).sum(-1) + eps * eps
    np.fill_diagonal(r2, np.inf)
    return (masses[None, :, None] * diff / r2[..., None] ** 1.5).sum(1)


def test_accelerations_against_a_direct_sum(rt):
    rng = np.random.default_rng(24)
    positions = rng.standard_normal((700, 3))
    masses = rng.uniform(0.5, 1.5, 700) / 700
    exact = direct_accelerations(positions, masses, 0.01)
    scale = np.linalg.norm(exact, axis=1)
    direct = treefix.accelerations(positions, masses, theta=0.0, runtime=rt)
    assert direct.shape == (700, 3) and direct.dtype == np.float32
    assert (np.linalg.norm(direct - exact, axis=1) <= 1e-4 * scale + 1e-6).all()
    tree = treefix.accelerations(positions, masses, theta=0.5, runtime=rt)
    relative = np.linalg.norm(tree - exact, axis=1) / scale
    assert np.median(relative) < 1e-2 and relative.max() < 0.1
    assert treefix.accelerations(np.zeros((0, 3)), np.zeros(0), runtime=rt).shape == (0, 3)
    with pytest.raises(ValueError):
        treefix.accelerations(positions, -masses, runtime=rt)
    with pytest.raises(ValueError, match="masses"):
        treefix.accelerations(positions, masses[:5], runtime=rt)


def test_nbody_leapfrog_step(rt):
    rng = np.random.default_rng(25)
    n, dt = 300, 0.001
    bodies = np.empty((n, 7))
    bodies[:, 0] = 1.0 / n
    bodies[:, 1:4] = rng.standard_normal((n, 3))
    bodies[:, 4:7] = 0.1 * rng.standard_normal((n, 3))
    np.testing.assert_array_equal(treefix.nbody(bodies, 0, dt, runtime=rt),
                                  bodies.astype(np.float32))
    after = treefix.nbody(bodies, 1, dt, theta=0.0, runtime=rt)
    # Kick, drift, kick with the direct sum, in float64.
    x, v, m = bodies[:, 1:4], bodies[:, 4:7], bodies[:, 0]
    v_half = v + 0.5 * dt * direct_accelerations(x, m, 0.01)
    x_new = x + dt * v_half
    v_new = v_half + 0.5 * dt * direct_accelerations(x_new, m, 0.01)
    np.testing.assert_allclose(after[:, 1:4], x_new, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(after[:, 4:7], v_new, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(after[:, 0], bodies[:, 0].astype(np.float32))
    with pytest.raises(ValueError, match="7"):
        treefix.nbody(bodies[:, :6], 1, dt, runtime=rt)


def test_results_beyond_the_device_raise_memory_error(rt):
    # k = 64 neighbours of one-dimensional queries: an index array one past the device's largest
    # buffer (PoCL's are 2-8 GiB: at most 128 MiB of queries; skipped where buffers are larger).
    largest = rt.device["max_alloc_bytes"]
    queries = largest // (64 * 4) + 1
    if queries > (1 << 25) + 1:
        pytest.skip("the device's largest buffer is too large to exceed cheaply")
    tree = treefix.KDTree(np.arange(100, dtype=np.float32)[:, None], runtime=rt)
    with pytest.raises(MemoryError, match="MiB|bytes"):
        tree.query(np.zeros((queries, 1), np.float32), k=64)
    assert treefix.Tree([-1, 0], runtime=rt).rootfix().tolist() == [1, 2]  # still usable
