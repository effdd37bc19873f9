"""10,000 calls on one runtime: resident memory stops growing (nothing leaks per call, not even
on the error path)."""
import numpy as np
import pytest

import treefix


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def test_ten_thousand_calls_leak_nothing(rt):
    parent = np.array([-1, 0, 0, 1, 1, 2, 5, 5], dtype=np.int32)
    weights = np.arange(8, dtype=np.float64)
    kept = treefix.Tree(parent, runtime=rt)
    out = np.empty(8)

    def call(i):
        kind = i % 10
        if kind < 6:
            kept.rootfix(weights, out=out)
        elif kind < 8:
            kept.leaffix(weights)
        elif kind == 8:
            treefix.rootfix(parent, weights, runtime=rt)
        else:
            with pytest.raises(ValueError):
                treefix.Tree([-1, 9], runtime=rt)

    rss = {}
    for i in range(10_000):
        call(i)
        if i + 1 in (5_000, 10_000):
            rss[i + 1] = resident_bytes()
    np.testing.assert_array_equal(kept.rootfix(weights), [0, 1, 2, 4, 5, 7, 13, 14])
    assert rss[10_000] - rss[5_000] < 1 << 20, rss
