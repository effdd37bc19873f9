"""Trees made on the device: Tree(parents, lengths=) sent there straight from NumPy and checked
there, and the results of reroot, prune and ladderize used as new trees without a round trip
through the host. Each is compared with the same tree built from host copies of its arrays, on
two runtimes: the suite's (on a CPU device the tree is validated on the host first) and one whose
`auto` runs on the device (TREEFIX_AUTO=device: the path a GPU takes)."""
import os
import pickle

import numpy as np
import pytest

import treefix
from conftest import rootfix_reference, shapes


@pytest.fixture(scope="module")
def device_first(rt):
    """A runtime on the suite's device that validates and tours every tree on the device."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TREEFIX_AUTO", "device")
        return treefix.Runtime(os.environ.get("TREEFIX_DEVICE"))


@pytest.fixture(params=["suite", "device-first"])
def runtime(request, rt, device_first):
    return rt if request.param == "suite" else device_first


def assert_same_queries(a, b, seed):
    """Two trees of one forest answer alike: orders, lca, distances, rootfix, Newick text."""
    assert a.n == b.n
    assert np.array_equal(a.parents, b.parents)
    assert np.array_equal(a.preorder(), b.preorder())
    assert np.array_equal(a.postorder(), b.postorder())
    if a.n == 0:
        return
    rng = np.random.default_rng(seed)
    u, v = rng.integers(0, a.n, 50).astype(np.int32), rng.integers(0, a.n, 50).astype(np.int32)
    assert np.array_equal(a.lca(u, v), b.lca(u, v))
    assert np.array_equal(a.distance(u, v), b.distance(u, v))
    w = rng.integers(-5, 5, a.n)
    assert np.array_equal(a.rootfix(w), b.rootfix(w))
    assert np.array_equal(a.rootfix(w, algorithm="euler"), rootfix_reference(b.parents, w))
    assert a.write_newick() == b.write_newick()


def rebuilt(tree, runtime):
    """The same tree built from host copies of its arrays."""
    return treefix.Tree(tree.parents, lengths=tree.lengths, names=tree.names, runtime=runtime)


def test_tree_from_a_numpy_int32_array_equals_the_host_built_one(runtime, rt):
    for name, parents in shapes(np.random.default_rng(5)).items():
        for given in (parents.astype(np.int32), parents.astype(np.int64),
                      np.repeat(parents.astype(np.int32), 2)[::2]):  # strided: copied first
            tree = treefix.Tree(given, runtime=runtime)
            assert np.array_equal(tree.parents, parents), name
            assert_same_queries(tree, treefix.Tree(parents, runtime=rt), 1)
    # the caller's array may change afterwards: the tree does not
    mine = np.arange(-1, 99, dtype=np.int32)
    tree = treefix.Tree(mine, runtime=runtime)
    mine[:] = -1
    assert np.array_equal(tree.parents, np.arange(-1, 99))
    for bad, message in (([-1, 2, 1], "cycle through vertex 1"),
                         ([-1, 0, 7], "vertex 2 has parent 7, but there are 3 vertices"),
                         ([0], "cycle through vertex 0")):
        with pytest.raises(ValueError, match=message):
            treefix.Tree(np.array(bad, dtype=np.int32), runtime=runtime)


def test_bad_lengths_are_named_at_the_first_bad_vertex(runtime):
    parents = treefix.generate("random", 5003, seed=3)
    for at in ([0], [4999, 5002], [1234, 17, 2000]):
        lengths = np.ones(len(parents))
        lengths[at] = [np.nan, np.inf, -np.inf][:len(at)]
        with pytest.raises(ValueError, match="the length of vertex %d is not finite" % min(at)):
            treefix.Tree(parents, lengths=lengths, runtime=runtime)
        with pytest.raises(ValueError, match="the length of vertex %d is not finite" % min(at)):
            treefix.Tree(parents, lengths=lengths.astype(np.float32), runtime=runtime)
    with pytest.raises(ValueError, match="lengths of shape"):
        treefix.Tree(parents, lengths=np.ones(3), runtime=runtime)
    given = np.linspace(0, 1, len(parents))
    tree = treefix.Tree(parents, lengths=list(given), runtime=runtime)
    assert np.array_equal(tree.lengths, given)
    given[:] = 7  # the caller's array may change afterwards
    assert tree.lengths[1] == 1 / 5002
    # a cycle named after the lengths are accepted, as before
    with pytest.raises(ValueError, match="cycle"):
        treefix.Tree(np.array([1, 0], np.int32), lengths=[1.0, 2.0], runtime=runtime)


def test_edits_chain_on_the_device_with_names_and_lengths(runtime):
    rng = np.random.default_rng(8)
    parents = treefix.generate("binary", 301, seed=4)
    lengths = rng.exponential(1.0, len(parents))
    names = ["v%d" % v for v in range(len(parents))]
    tree = treefix.Tree(parents, lengths=lengths, names=names, runtime=runtime)
    steps = [lambda t: t.reroot(t.n // 3, return_origin=True),
             lambda t: t.prune(t.tips()[::2], return_origin=True),
             lambda t: t.reroot(1, edge=True, return_origin=True),
             lambda t: t.ladderize(return_origin=True)]
    for step, edit in enumerate(steps):
        edited, origin = edit(tree)
        # names through the edit: each new vertex's is its origin's ('' for a new root)
        assert edited.names == tuple(tree.names[o] if o >= 0 else "" for o in origin)
        # the lengths made on the device, copied when asked for (twice: nothing kept goes stale)
        assert np.array_equal(edited.lengths, edited.lengths)
        assert_same_queries(edited, rebuilt(edited, runtime), step)
        again = pickle.loads(pickle.dumps(edited))
        assert again.names == edited.names and np.array_equal(again.lengths, edited.lengths)
        tree = edited


def test_edits_of_unlabelled_trees_forests_and_single_vertices(runtime):
    forest = treefix.generate("forest", 503, trees=5, seed=2)
    tree = treefix.Tree(forest, runtime=runtime)
    rerooted, origin = tree.reroot(100, return_origin=True)
    assert rerooted.names is None and rerooted.lengths is None
    assert len(origin) == rerooted.n and (origin >= 0).all()
    assert np.count_nonzero(rerooted.parents < 0) == 5
    assert_same_queries(rerooted, rebuilt(rerooted, runtime), 1)
    pruned = rerooted.prune(rerooted.tips()[:40])
    assert_same_queries(pruned, rebuilt(pruned, runtime), 2)
    assert_same_queries(pruned.ladderize(), rebuilt(pruned.ladderize(), runtime), 3)
    one = treefix.Tree(np.array([-1], np.int32), lengths=[0.5], names=["x"], runtime=runtime)
    for edited in (one.reroot(0), one.prune([0]), one.ladderize()):
        assert edited.n == 1 and edited.names == ("x",)
        assert np.array_equal(edited.parents, [-1]) and np.array_equal(edited.lengths, [0.5])
        assert edited.write_newick() == one.write_newick()
    pair = treefix.Tree(np.array([-1, 0], np.int32), runtime=runtime)
    flipped, origin = pair.reroot(1, return_origin=True)
    assert np.array_equal(flipped.parents, [-1, 0]) and np.array_equal(origin, [1, 0])
