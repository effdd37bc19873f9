"""Shared fixtures and NumPy references for the treefix module's tests."""
import os
import pathlib

import numpy as np
import pytest

import treefix

REPO = pathlib.Path(__file__).resolve().parents[2]
# The real data sets: the folder $TREEFIX_DATA names (docs/reference/data.md), if any.
DATA = pathlib.Path(os.environ["TREEFIX_DATA"]) if os.environ.get("TREEFIX_DATA") else None


def data_file(name):
    """The real data set `name`; the test is skipped, saying why, when it is not there."""
    if DATA is None:
        pytest.skip("%s: set TREEFIX_DATA to the folder of the real data sets "
                    "(docs/reference/data.md)" % name)
    path = DATA / name
    if not path.exists():
        pytest.skip("%s: not in TREEFIX_DATA=%s (docs/reference/data.md)" % (name, DATA))
    return path


@pytest.fixture(scope="session")
def rt():
    """One runtime for the whole suite (PoCL compiles each kernel once per process)."""
    return treefix.Runtime(os.environ.get("TREEFIX_DEVICE"))


# --- trees ---------------------------------------------------------------------------------------

def random_tree(n, rng, roots=1):
    """A random forest: vertex i (in a shuffled numbering) hangs under an earlier one."""
    parent = np.full(n, -1, dtype=np.int64)
    for v in range(roots, n):
        parent[v] = rng.integers(0, v)
    perm = rng.permutation(n)
    shuffled = np.full(n, -1, dtype=np.int64)
    shuffled[perm] = np.where(parent >= 0, perm[np.maximum(parent, 0)], -1)
    return shuffled


def shapes(rng):
    """Awkward sizes and degenerate shapes, by name."""
    return {
        "empty": np.zeros(0, dtype=np.int64),
        "one": np.array([-1]),
        "two": np.array([1, -1]),
        "path": np.arange(-1, 300),
        "star": np.r_[-1, np.zeros(996, dtype=np.int64)],
        "caterpillar": np.r_[-1, np.arange(0, 200), np.arange(0, 200)],
        "random": random_tree(997, rng),
        "forest": random_tree(1009, rng, roots=17),
        "isolated": np.full(13, -1),
    }


def depths(parent):
    """Depth of every vertex by pointer jumping (roots 0)."""
    parent = np.asarray(parent, dtype=np.int64)
    depth = (parent >= 0).astype(np.int64)
    up = parent.copy()
    while (up >= 0).any():
        live = up >= 0
        depth[live] += depth[up[live]]
        up[live] = up[up[live]]
    return depth


OPS = {
    "sum": (np.add, 0),
    "xor": (np.bitwise_xor, 0),
    "min": (np.minimum, None),
    "max": (np.maximum, None),
}


def identity(op, dtype):
    if op in ("sum", "xor"):
        return dtype.type(0)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return info.max if op == "min" else info.min
    return dtype.type(np.inf if op == "min" else -np.inf)


def rootfix_reference(parent, w, op="sum", exclusive=False):
    """Level by level from the roots, in w's dtype (integers wrap as the device's do)."""
    parent = np.asarray(parent, dtype=np.int64)
    ufunc = OPS[op][0]
    depth = depths(parent)
    r = w.copy()
    for d in range(1, int(depth.max(initial=0)) + 1):
        at = np.nonzero(depth == d)[0]
        r[at] = ufunc(r[parent[at]], w[at])
    if exclusive:
        out = np.full_like(w, identity(op, w.dtype))
        has = parent >= 0
        out[has] = r[parent[has]]
        return out
    return r


def leaffix_reference(parent, w, op="sum", exclusive=False):
    """Level by level from the deepest, children folded into their parents."""
    parent = np.asarray(parent, dtype=np.int64)
    ufunc = OPS[op][0]
    depth = depths(parent)
    below = np.full_like(w, identity(op, w.dtype))  # the children's results folded
    r = w.copy()
    for d in range(int(depth.max(initial=0)), 0, -1):
        at = np.nonzero(depth == d)[0]
        r[at] = ufunc(w[at], below[at])
        ufunc.at(below, parent[at], r[at])
    roots = depth == 0
    r[roots] = ufunc(w[roots], below[roots])
    return below if exclusive else r
