"""rootfix / leaffix and treefix.Tree against NumPy references."""
import math
import threading
import time
import tracemalloc

import numpy as np
import pytest

import treefix
from conftest import (data_file, depths, leaffix_reference, rootfix_reference, random_tree,
                      shapes)

DTYPES = [np.int32, np.int64, np.float32, np.float64]
U = {np.float32: np.finfo(np.float32).eps / 2, np.float64: np.finfo(np.float64).eps / 2}


def weights_for(n, dtype, rng):
    if np.issubdtype(dtype, np.integer):
        # Large values, so that integer sums wrap as they do on the device.
        info = np.iinfo(dtype)
        return rng.integers(info.min // 4, info.max // 4, size=n, dtype=dtype)
    # Small integers: every sum is exact in any order, so float results compare exactly.
    return rng.integers(-50, 50, size=n).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rootfix_and_leaffix_match_numpy_on_every_shape(rt, dtype):
    rng = np.random.default_rng(1)
    for name, parent in shapes(rng).items():
        w = weights_for(len(parent), dtype, rng)
        tree = treefix.Tree(parent, runtime=rt)
        for exclusive in (False, True):
            ops = ["sum", "min", "max"] + (["xor"] if np.issubdtype(dtype, np.integer) else [])
            for op in ops:
                got = tree.rootfix(w, op=op, exclusive=exclusive)
                assert got.dtype == dtype
                np.testing.assert_array_equal(
                    got, rootfix_reference(parent, w, op, exclusive), err_msg=(name, op))
                got = tree.leaffix(w, op=op, exclusive=exclusive)
                np.testing.assert_array_equal(
                    got, leaffix_reference(parent, w, op, exclusive), err_msg=(name, op))


@pytest.mark.parametrize("algorithm", ["euler", "levels", "bfs", "sequential"])
def test_every_algorithm_gives_the_same_sums(rt, algorithm):
    rng = np.random.default_rng(2)
    parent = random_tree(2003, rng, roots=3)
    w = rng.integers(-1000, 1000, size=len(parent))
    for fix, reference in ((treefix.rootfix, rootfix_reference),
                           (treefix.leaffix, leaffix_reference)):
        got = fix(parent, w, algorithm=algorithm, runtime=rt)
        np.testing.assert_array_equal(got, reference(parent, w))


def exact_sums(parent, w):
    """Each vertex's rootfix and leaffix rounded once from the exact sums (math.fsum), and the
    sums of |w| over the same terms: the oracle of the accurate default."""
    n = len(parent)
    w = [float(x) for x in w]
    children = [[] for _ in range(n)]
    for v, p in enumerate(parent):
        if p >= 0:
            children[p].append(v)
    root_terms, leaf_terms = [None] * n, [None] * n
    order = [v for v in range(n) if parent[v] < 0]
    for v in order:                       # top-down: each vertex's ancestors' weights
        root_terms[v] = (root_terms[parent[v]] if parent[v] >= 0 else []) + [w[v]]
        order.extend(children[v])
    for v in reversed(order):             # bottom-up: each subtree's weights
        leaf_terms[v] = [w[v]] + [x for c in children[v] for x in leaf_terms[c]]
    exact = lambda terms: np.array([math.fsum(t) for t in terms])
    magnitude = lambda terms: np.array([math.fsum(abs(x) for x in t) for t in terms])
    return exact(root_terms), magnitude(root_terms), exact(leaf_terms), magnitude(leaf_terms)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_real_float_sums_are_within_the_stated_bound(rt, dtype):
    # The accurate default: every result within 8·u·S of the exact sum, S the sum of |w| over the
    # terms it combines; the Euler tour's is the exact sum rounded once, so a leaf's leaffix and
    # a root's rootfix are their own weights.
    rng = np.random.default_rng(3)
    parent = random_tree(2000, rng, roots=3)
    w = (rng.standard_normal(len(parent)) * 10.0 ** rng.integers(-8, 9, len(parent))).astype(dtype)
    tree = treefix.Tree(parent, runtime=rt)
    root_exact, root_s, leaf_exact, leaf_s = exact_sums(parent, w)
    for algorithm in ("auto", "euler", "levels", "bfs", "sequential"):
        root = tree.rootfix(w, algorithm=algorithm).astype(np.float64)
        leaf = tree.leaffix(w, algorithm=algorithm).astype(np.float64)
        assert np.all(np.abs(root - root_exact) <= 8 * U[dtype] * root_s)
        assert np.all(np.abs(leaf - leaf_exact) <= 8 * U[dtype] * leaf_s)
        is_leaf = tree.subtree_sizes() == 1
        assert np.array_equal(leaf[is_leaf], w[is_leaf].astype(np.float64))
        assert np.array_equal(root[parent < 0], w[parent < 0].astype(np.float64))
    if dtype == np.float64:  # correctly rounded: fsum rounds the same exact sum
        assert np.array_equal(tree.rootfix(w, algorithm="euler"), root_exact)
        assert np.array_equal(tree.leaffix(w, algorithm="euler"), leaf_exact)


def test_float_results_are_the_same_bits_on_every_call(rt):
    rng = np.random.default_rng(8)
    parent = random_tree(20000, rng, roots=5)
    w = rng.random(len(parent), dtype=np.float32)
    tree = treefix.Tree(parent, runtime=rt)
    first_root, first_leaf = tree.rootfix(w), tree.leaffix(w)
    for _ in range(20):
        assert np.array_equal(tree.rootfix(w).view(np.uint32), first_root.view(np.uint32))
        assert np.array_equal(tree.leaffix(w).view(np.uint32), first_leaf.view(np.uint32))


def test_default_weights_are_int64_ones(rt):
    parent = random_tree(500, np.random.default_rng(4))
    got = treefix.rootfix(parent, runtime=rt)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, depths(parent) + 1)
    sizes = treefix.leaffix(parent, runtime=rt)
    np.testing.assert_array_equal(sizes, leaffix_reference(parent, np.ones(500, np.int64)))


def test_batches_are_row_by_row(rt):
    rng = np.random.default_rng(5)
    parent = random_tree(301, rng)
    w = rng.standard_normal((4, 301))
    tree = treefix.Tree(parent, runtime=rt)
    got = tree.leaffix(w)
    assert got.shape == (4, 301)
    for row in range(4):
        np.testing.assert_array_equal(got[row], tree.leaffix(w[row]))
    assert tree.rootfix(np.zeros((0, 301))).shape == (0, 301)


def test_other_inputs_are_converted(rt):
    parent = [-1, 0, 0, 1]
    expected = np.array([1, 3, 4, 7])
    assert treefix.rootfix(parent, [1, 2, 3, 4], runtime=rt).tolist() == expected.tolist()
    strided = np.arange(8.0)[::2] + 1                       # not contiguous
    np.testing.assert_array_equal(treefix.rootfix(parent, strided, runtime=rt), [1, 4, 6, 11])
    small = np.array([1, 2, 3, 4], dtype=np.int16)          # taken as int64
    assert treefix.rootfix(parent, small, runtime=rt).dtype == np.int64
    swapped = np.array([1, 2, 3, 4], dtype=">f8")          # big-endian
    np.testing.assert_array_equal(treefix.rootfix(parent, swapped, runtime=rt), expected)
    assert treefix.rootfix(np.array(parent, np.int32), [1, 2, 3, 4], runtime=rt).tolist() == \
        expected.tolist()


def test_contiguous_inputs_and_out_arrays_are_not_copied(rt):
    n = 1 << 20
    parent = np.arange(-1, n - 1, dtype=np.int32)
    tree = treefix.Tree(parent, runtime=rt)
    w = np.ones(n)
    out = np.empty(n)
    tree.rootfix(w, out=out)  # warm: programs built, workspace allocated
    tracemalloc.start()
    result = tree.rootfix(w, out=out)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result is out
    assert peak < n * 8 // 8, peak  # neither the weights nor the result were copied
    np.testing.assert_array_equal(out, np.arange(1, n + 1))


def test_large_results_reuse_freed_memory_and_are_fully_written(rt):
    # Results of 4 MiB or more come from blocks freed by earlier results of the same size; a reused
    # block still holds the old values, so every element must be overwritten.
    n = (1 << 19) + 3  # 4 MiB of float64 and a bit: a reused size, not a multiple of 2 MiB
    rng = np.random.default_rng(11)
    parent = (rng.random(n) * np.arange(n)).astype(np.int64)  # a random recursive tree
    parent[0] = -1
    tree = treefix.Tree(parent, runtime=rt)
    treefix.release_cached_results()
    first_weights = rng.integers(-50, 50, size=n).astype(np.float64)
    first = tree.leaffix(first_weights)
    address = first.__array_interface__["data"][0]
    assert first.flags.c_contiguous and first.flags.writeable and first.flags.owndata is False
    del first
    assert treefix.cached_result_bytes() >= n * 8
    second_weights = rng.integers(-50, 50, size=n).astype(np.float64)
    second = tree.rootfix(second_weights)
    assert second.__array_interface__["data"][0] == address  # the freed block, reused
    np.testing.assert_array_equal(second, rootfix_reference(parent, second_weights))
    second[:] = 7  # an ordinary writeable array
    batch = tree.rootfix(np.stack([second_weights, first_weights]))  # another size: a new block
    np.testing.assert_array_equal(batch[1], rootfix_reference(parent, first_weights))
    del second, batch
    assert treefix.cached_result_bytes() <= 1 << 30
    treefix.release_cached_results()
    assert treefix.cached_result_bytes() == 0


def test_host_threads_do_not_change_results(rt):
    n = 200003
    rng = np.random.default_rng(5)
    parent = (rng.random(n) * np.arange(n)).astype(np.int64)
    parent[0] = -1
    w = rng.standard_normal(n)
    results = []
    for threads in (1, 3, 0):
        treefix.set_host_threads(threads)
        assert treefix.host_threads() == (threads or treefix.host_threads())
        results.append(treefix.leaffix(parent, w, algorithm="sequential", runtime=rt))
    assert treefix.host_threads() >= 1
    for r in results[1:]:
        assert r.tobytes() == results[0].tobytes()
    with pytest.raises(ValueError, match="at most"):
        treefix.set_host_threads(1 << 20)


def test_out_must_fit(rt):
    tree = treefix.Tree([-1, 0], runtime=rt)
    for out in (np.empty(3), np.empty(2, np.float32), np.empty(4)[::2]):
        with pytest.raises(ValueError, match="out"):
            tree.rootfix(np.ones(2), out=out)


def test_depths_sizes_preorder(rt):
    rng = np.random.default_rng(6)
    for name, parent in shapes(rng).items():
        tree = treefix.Tree(parent, runtime=rt)
        assert tree.n == len(parent)
        np.testing.assert_array_equal(tree.parents, parent)
        np.testing.assert_array_equal(tree.depths(), depths(parent), err_msg=name)
        np.testing.assert_array_equal(
            tree.subtree_sizes(), leaffix_reference(parent, np.ones(len(parent), np.int64)))
        order = tree.preorder()
        assert sorted(order.tolist()) == list(range(len(parent)))
        # Pre-order: every subtree is the contiguous run after its root.
        rank = np.empty(len(parent), np.int64)
        rank[order] = np.arange(len(parent))
        sizes = tree.subtree_sizes()
        has = np.asarray(parent) >= 0
        p = np.asarray(parent)[has]
        assert (rank[has] > rank[p]).all()
        assert (rank[has] + sizes[has] <= rank[p] + sizes[p]).all()


def test_bad_trees_and_arguments_raise_value_error(rt):
    with pytest.raises(ValueError, match="vertex 1 has parent 5, but there are 3 vertices"):
        treefix.Tree([-1, 5, 0], runtime=rt)
    with pytest.raises(ValueError, match="cycle"):
        treefix.Tree([1, 2, 0, -1], runtime=rt)
    with pytest.raises(ValueError, match="parent -7"):
        treefix.Tree(np.array([-1, -7], np.int64), runtime=rt)
    with pytest.raises(ValueError, match="outside the 32-bit"):
        treefix.Tree(np.array([-1, 2**40], np.int64), runtime=rt)
    with pytest.raises(ValueError, match="1-D"):
        treefix.Tree([[-1]], runtime=rt)
    with pytest.raises(TypeError):
        treefix.Tree([-1.0, 0.0], runtime=rt)
    tree = treefix.Tree([-1, 0, 0], runtime=rt)
    with pytest.raises(ValueError, match="weights of shape"):
        tree.rootfix(np.ones(4))
    with pytest.raises(ValueError, match="xor needs an integer type"):
        tree.rootfix(np.ones(3), op="xor")
    with pytest.raises(ValueError, match="unknown operator"):
        tree.rootfix(np.ones(3), op="mean")
    with pytest.raises(ValueError, match="unknown algorithm"):
        tree.rootfix(np.ones(3), algorithm="fast")
    with pytest.raises(ValueError, match="inverse"):
        tree.leaffix(np.ones(3), op="max", algorithm="euler")
    with pytest.raises(TypeError):
        tree.rootfix(np.ones(3, complex))
    with pytest.raises(TypeError):
        tree.rootfix(np.ones(3, np.uint64))


def test_no_such_device_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="no OpenCL device matches"):
        treefix.Runtime("no-such-device-anywhere")


def test_devices_and_runtime(rt):
    listed = treefix.devices()
    assert listed and all("spec" in d and "name" in d for d in listed)
    assert rt.device["name"] in [d["name"] for d in listed]
    same = treefix.Runtime(listed[0]["spec"])
    assert same.device["spec"] == listed[0]["spec"]
    assert treefix.default_runtime() is treefix.default_runtime()


def test_newick_names_and_lengths(rt, tmp_path):
    path = tmp_path / "t.nwk"
    path.write_text("((A:1,B:2)C:0.5,'D d':3)root;\n")
    tree = treefix.Tree.from_newick(path, runtime=rt)  # any os.PathLike
    assert tree.names == ("root", "C", "A", "B", "D d")
    np.testing.assert_array_equal(tree.lengths, [0, 0.5, 1, 2, 3])
    np.testing.assert_array_equal(tree.rootfix(tree.lengths), [0, 0.5, 1.5, 2.5, 3])
    np.testing.assert_array_equal(tree.subtree_sizes(), [5, 3, 1, 1, 1])
    assert treefix.Tree([-1, 0], runtime=rt).names is None
    bad = tmp_path / "bad.nwk"
    bad.write_text("((A:1,B:2)C:0.5,D:3;\n")
    with pytest.raises(ValueError, match="byte"):
        treefix.Tree.from_newick(str(bad), runtime=rt)
    with pytest.raises(ValueError):
        treefix.Tree.from_newick(str(tmp_path / "missing.nwk"), runtime=rt)


def test_bird_phylogeny_root_to_tip_distances(rt):
    tree = treefix.Tree.from_newick(str(data_file("birds_gumbs2022.nwk")), runtime=rt)
    parent = tree.parents
    assert tree.n == len(tree.names) == len(tree.lengths)
    root_exact, root_s, leaf_exact, _ = exact_sums(parent, tree.lengths)
    distances = tree.rootfix(tree.lengths)
    assert np.all(np.abs(distances - root_exact) <= 8 * U[np.float64] * root_s)
    # a tip's leaffix is its own branch length, exactly
    tips = tree.subtree_sizes() == 1
    np.testing.assert_array_equal(tree.leaffix(tree.lengths)[tips], tree.lengths[tips])
    leaves = tree.subtree_sizes() == 1
    assert all(tree.names[v] for v in np.nonzero(leaves)[0])  # every tip is named


def test_threads_share_one_runtime(rt):
    rng = np.random.default_rng(7)
    trees = [random_tree(n, rng, roots=2) for n in (50, 400, 1000, 3)]
    weights = [rng.integers(0, 100, size=len(p)) for p in trees]
    expected = [rootfix_reference(p, w) for p, w in zip(trees, weights)]
    shared = [treefix.Tree(p, runtime=rt) for p in trees]
    failures = []

    def work(seed):
        for call in range(30):
            i = (seed + call) % len(trees)
            got = shared[i].rootfix(weights[i]) if call % 2 else \
                treefix.rootfix(trees[i], weights[i], runtime=rt)
            if not np.array_equal(got, expected[i]):
                failures.append((seed, call))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_the_gil_is_released_during_device_work(rt):
    # While a batch runs on the device, this thread keeps running Python: the longest pause it
    # sees is far shorter than the call (with the GIL held it would last the whole call).
    parent = random_tree(4096, np.random.default_rng(8))
    tree = treefix.Tree(parent, runtime=rt)
    weights = np.ones((300, 4096))
    tree.rootfix(weights[:2])
    started, done = threading.Event(), threading.Event()
    span = []

    def work():
        started.set()
        begin = time.perf_counter()
        tree.rootfix(weights)
        span.append(time.perf_counter() - begin)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    last, longest = time.perf_counter(), 0.0
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    if span[0] < 0.05:
        pytest.skip("the batch took too little time to tell (%.3f s)" % span[0])
    assert longest < 0.5 * span[0], (longest, span[0])
