"""Barnes-Hut against a direct sum; KDTree on a real scan and beyond the device's memory (the
kd-tree's own tests: test_kdtree_exact.py and test_scipy_kdtree.py)."""
import numpy as np
import pytest
from scipy.spatial import cKDTree

import treefix
from conftest import data_file


def test_dragon_scan(rt):
    points = np.loadtxt(data_file("stanford_dragon_scan.xyz"))[::4]
    tree = treefix.KDTree(points, runtime=rt)
    d, i = tree.query(points[:500], k=8)
    np.testing.assert_array_equal(i[:, 0], np.arange(500))  # each point is its own nearest
    ref_d, ref_i = cKDTree(points).query(points[:500], k=8)
    np.testing.assert_array_equal(d, ref_d)
    np.testing.assert_array_equal(i, ref_i)


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
    # checked on every host core: the first non-finite coordinate in row order is named
    many = rng.standard_normal((300007, 3))
    many[[123457, 200000], [2, 0]] = [np.nan, np.inf]
    with pytest.raises(ValueError, match=r"positions: element \[123457, 2\] is not a finite"):
        treefix.accelerations(many, np.ones(len(many)), runtime=rt)


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
    # k = 64 neighbours of one-dimensional queries: an index array (8 bytes a value) one past the
    # device's largest buffer (PoCL's are 2-8 GiB: at most 128 MiB of queries; skipped where
    # buffers are larger).
    largest = rt.device["max_alloc_bytes"]
    queries = largest // (64 * 8) + 1
    if queries > (1 << 24) + 1:
        pytest.skip("the device's largest buffer is too large to exceed cheaply")
    tree = treefix.KDTree(np.arange(100, dtype=np.float64)[:, None], runtime=rt)
    with pytest.raises(MemoryError, match="MiB|bytes"):
        tree.query(np.zeros((queries, 1)), k=64)
    assert treefix.Tree([-1, 0], runtime=rt).rootfix().tolist() == [1, 2]  # still usable
