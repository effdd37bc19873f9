"""Brute-force references for treefix.KDTree in cKDTree's arithmetic, and the point sets the
kd-tree tests use.

Distances are computed with cKDTree's operations in cKDTree's order (p = 2 without a box: four
running sums over coordinates k, k+4, ..., added in order, then the rest; otherwise coordinate
by coordinate; periodic differences wrapped as cKDTree's BoxDist1D), so for p = 1, 2 and infinity
they are the bits cKDTree and treefix compute. Neighbours are ordered by (distance, index).
"""
import numpy as np


def powered_distances(data, queries, p, boxsize=None):
    """distance ** p (p = 1 and inf: the distance) of every query to every point, (q, n)."""
    data = np.asarray(data, np.float64)
    queries = np.asarray(queries, np.float64)
    diff = data[None, :, :] - queries[:, None, :]
    if boxsize is not None:
        full = np.broadcast_to(np.asarray(boxsize, np.float64), data.shape[1:])
        half = 0.5 * full
        diff = np.where(diff < -half, full + diff, np.where(diff > half, diff - full, diff))
    a = np.abs(diff)
    m = data.shape[1]
    if p == 2 and boxsize is None:
        acc = np.zeros((4,) + a.shape[:2])
        k = 0
        while k + 4 <= m:
            for t in range(4):
                acc[t] = acc[t] + a[..., k + t] * a[..., k + t]
            k += 4
        s = acc[0] + acc[1] + acc[2] + acc[3]
        for j in range(k, m):
            s = s + a[..., j] * a[..., j]
        return s
    s = np.zeros(a.shape[:2])
    for j in range(m):
        if p == 2:
            s = s + a[..., j] * a[..., j]
        elif p == 1:
            s = s + a[..., j]
        elif np.isinf(p):
            s = np.fmax(s, a[..., j])
        else:
            s = s + a[..., j] ** p
    return s


def root(s, p):
    if p == 2:
        return np.sqrt(s)
    if p == 1 or np.isinf(p):
        return s
    return s ** (1.0 / p)


def to_power(r, p):
    """cKDTree's bound to the power p."""
    if p == 2:
        return r * r
    if np.isinf(p) or np.isinf(r):
        return r
    return r ** p


def wrap(queries, boxsize):
    """cKDTree's wrap_position of queries into the periodic box."""
    queries = np.asarray(queries, np.float64).copy()
    full = np.broadcast_to(np.asarray(boxsize, np.float64), queries.shape[1:])
    for k in range(queries.shape[1]):
        if full[k] > 0:
            x = queries[:, k]
            x1 = x - np.floor(x / full[k]) * full[k]
            x1 = np.where(x1 >= full[k], x1 - full[k], x1)
            x1 = np.where(x1 < 0, x1 + full[k], x1)
            queries[:, k] = x1
    return queries


def knn(data, queries, k, p=2, upper=np.inf, boxsize=None):
    """(d, i) of shape (q, k): nearest first, ties by the smaller index, n and inf padding."""
    if boxsize is not None:
        queries = wrap(queries, boxsize)
    s = powered_distances(data, queries, p, boxsize)
    n = len(data)
    bound = to_power(upper, p)
    d = np.full((len(queries), k), np.inf)
    i = np.full((len(queries), k), n, dtype=np.intp)
    for q in range(len(queries)):
        taken = np.nonzero(s[q] < bound)[0]
        order = taken[np.lexsort((taken, s[q, taken]))][:k]
        d[q, :len(order)] = root(s[q, order], p)
        i[q, :len(order)] = order
    return d, i


def ball(data, queries, r, p=2, boxsize=None):
    """The sorted indices of the points within r (<=) of each query."""
    if boxsize is not None:
        queries = wrap(queries, boxsize)
    s = powered_distances(data, queries, p, boxsize)
    r = np.broadcast_to(np.asarray(r, np.float64), (len(queries),))
    return [list(np.nonzero(s[q] <= to_power(r[q], p))[0]) for q in range(len(queries))]


# --- point sets ----------------------------------------------------------------------------------

def point_sets(n, m, seed):
    """Awkward point sets of n points in m coordinates, by name."""
    rng = np.random.default_rng(seed)
    sets = {
        "uniform": rng.random((n, m)),
        "clustered": np.concatenate([c + 1e-3 * rng.standard_normal((n // 4 + 1, m))
                                     for c in rng.random((4, m))])[:n],
        "duplicated": rng.random((max(1, n // 8), m))[rng.integers(0, max(1, n // 8), n)],
        "offset": 5e6 + 1000 * rng.random((n, m)),
        "lattice": rng.integers(0, 4, (n, m)).astype(np.float64),
    }
    return sets
