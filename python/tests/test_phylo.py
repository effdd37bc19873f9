"""treefix.Tree's phylogenetic queries against the Python phylogenetics libraries on small trees:
DendroPy, ete3, Bio.Phylo and scikit-bio (each test skips when its peer is not installed). Orders
and topologies compare exactly; sums of branch lengths within 1e-12 relative (ours are the exact
sums rounded once; the peers add in floating point)."""
import io
import math

import numpy as np
import pytest

import treefix

RTOL = 1e-12


def random_phylogeny(rt, n_tips, seed):
    """A random binary tree with a name on every vertex and random branch lengths, as a peer
    reads it: its Newick text, and the treefix.Tree read back from that text."""
    rng = np.random.default_rng(seed)
    parents = treefix.generate("binary", 2 * n_tips - 1, seed=seed)
    lengths = rng.exponential(1.0, len(parents)) * 10.0 ** rng.integers(-3, 2, len(parents))
    lengths[parents < 0] = 0.0
    names = ["n%d" % v for v in range(len(parents))]
    text = treefix.Tree(parents, lengths=lengths, names=names, runtime=rt).write_newick()
    return text, treefix.Tree.from_newick_string(text, runtime=rt)


@pytest.fixture(scope="module")
def phylogeny(rt):
    return random_phylogeny(rt, 40, 7)


def canonical(tree):
    """Every vertex as (the names of the tips below it, its subtree's size) -> (its name, its
    length): the same for two trees exactly when they have one rooted topology, names and
    lengths (the size tells the vertices of a chain of unary ones apart)."""
    parents = tree.parents
    names = tree.names
    lengths = tree.lengths if tree.lengths is not None else np.zeros(tree.n)
    below = [set() for _ in range(tree.n)]
    size = tree.subtree_sizes()
    for v in tree.postorder():
        if not below[v]:
            below[v].add(names[v])
        if parents[v] >= 0:
            below[parents[v]] |= below[v]
    return {(frozenset(below[v]), size[v]): (names[v], float(lengths[v])) for v in range(tree.n)}


def assert_same_tree(ours, theirs_newick, rt, root_length=True):
    theirs = treefix.Tree.from_newick_string(theirs_newick, runtime=rt)
    a, b = canonical(ours), canonical(theirs)
    assert a.keys() == b.keys()
    roots = {key for key in a if key[1] == ours.n}
    for clade in a:
        assert a[clade][0] == b[clade][0], clade
        if clade in roots and not root_length:
            continue
        assert math.isclose(a[clade][1], b[clade][1], rel_tol=RTOL, abs_tol=1e-300), clade


# --- DendroPy ------------------------------------------------------------------------------------

def dendropy_tree(text):
    """Tips as taxa (what DendroPy prunes by), internal names as labels."""
    dendropy = pytest.importorskip("dendropy")
    return dendropy.Tree.get(data=text, schema="newick", preserve_underscores=True)


def label(node):
    return node.taxon.label if node.taxon is not None else (node.label or "")


def dendropy_write(tree):
    return tree.as_string(schema="newick", suppress_rooting=True)


def test_orders_match_dendropy(phylogeny):
    text, tree = phylogeny
    theirs = dendropy_tree(text)
    names = np.array(tree.names)
    assert list(names[tree.preorder()]) == [label(nd) for nd in theirs.preorder_node_iter()]
    assert list(names[tree.postorder()]) == [label(nd) for nd in theirs.postorder_node_iter()]
    assert list(names[tree.levelorder()]) == [label(nd) for nd in theirs.levelorder_node_iter()]
    assert sorted(names[tree.tips()]) == sorted(label(nd) for nd in theirs.leaf_node_iter())


def test_children_tips_and_intervals_describe_the_parent_array(phylogeny):
    _, tree = phylogeny
    parents = tree.parents
    offsets, ids = tree.children()
    for v in range(tree.n):
        assert list(ids[offsets[v]:offsets[v + 1]]) == list(np.flatnonzero(parents == v))
    assert list(tree.tips()) == [v for v in range(tree.n) if offsets[v] == offsets[v + 1]]
    begin, end = tree.preorder_intervals()
    order = tree.preorder()
    for v in range(tree.n):
        subtree = set(order[begin[v]:end[v]])
        assert subtree == {u for u in range(tree.n) if v in ancestors(parents, u)}


def ancestors(parents, u):
    path = set()
    while u >= 0:
        path.add(u)
        u = parents[u]
    return path


def test_mrca_and_distances_match_dendropy(phylogeny):
    text, tree = phylogeny
    theirs = dendropy_tree(text)
    rng = np.random.default_rng(3)
    tip_names = [tree.names[v] for v in tree.tips()]
    by_label = {label(nd): nd for nd in theirs}
    for size in (2, 3, 7):
        chosen = list(rng.choice(tip_names, size, replace=False))
        common = by_label[chosen[0]]
        for name in chosen[1:]:  # DendroPy's mrca wants taxa; walk up to the shared ancestor
            other = set(id(a) for a in by_label[name].ancestor_iter(inclusive=True))
            while id(common) not in other:
                common = common.parent_node
        assert tree.names[tree.mrca(chosen)] == label(common)
    pdm_tips = [nd for nd in theirs.leaf_node_iter()]
    ours = tree.cophenetic([label(nd) for nd in pdm_tips])
    for i, a in enumerate(pdm_tips):
        for j, b in enumerate(pdm_tips):
            expected = patristic(a, b)
            assert math.isclose(ours[i, j], expected, rel_tol=RTOL), (label(a), label(b))
    u = rng.choice(tree.n, 200)
    v = rng.choice(tree.n, 200)
    nodes = list(theirs.preorder_node_iter())  # our ids are the pre-order of the text
    expected = [patristic(nodes[a], nodes[b]) for a, b in zip(u, v)]
    np.testing.assert_allclose(tree.distance(u, v), expected, rtol=RTOL)


def patristic(a, b):
    """The path length between two DendroPy nodes, through their lowest common ancestor."""
    up = {}
    length = 0.0
    for node in a.ancestor_iter(inclusive=True):
        up[id(node)] = length
        length += node.edge.length or 0.0
    length = 0.0
    for node in b.ancestor_iter(inclusive=True):
        if id(node) in up:
            return up[id(node)] + length
        length += node.edge.length or 0.0
    raise AssertionError("no common ancestor")


def test_prune_matches_dendropy(phylogeny, rt):
    text, tree = phylogeny
    rng = np.random.default_rng(4)
    tip_names = [tree.names[v] for v in tree.tips()]
    for size in (1, 2, 5, 20, len(tip_names)):
        keep = list(rng.choice(tip_names, size, replace=False))
        theirs = dendropy_tree(text)
        theirs.retain_taxa_with_labels(keep)
        ours = tree.prune(keep)
        assert sorted(ours.names[v] for v in ours.tips()) == sorted(keep)
        assert_same_tree(ours, dendropy_write(theirs), rt)


def test_reroot_matches_dendropy(phylogeny, rt):
    text, tree = phylogeny
    rng = np.random.default_rng(5)
    # (at a tip, DendroPy also drops the tip's only child and its branch; we keep both)
    internal = np.setdiff1d(np.arange(tree.n), tree.tips())
    for vertex in list(rng.choice(internal, 5, replace=False)) + [0]:
        theirs = dendropy_tree(text)
        node = next(nd for nd in theirs if label(nd) == tree.names[vertex])
        theirs.reroot_at_node(node, update_bipartitions=False, suppress_unifurcations=True)
        assert_same_tree(tree.reroot(int(vertex)), dendropy_write(theirs), rt)
    for vertex in rng.choice(np.flatnonzero(tree.parents >= 0), 4, replace=False):
        length = tree.lengths[vertex]
        for distance in (None, 0.25 * length):
            theirs = dendropy_tree(text)
            node = next(nd for nd in theirs if label(nd) == tree.names[vertex])
            below = length / 2 if distance is None else distance
            theirs.reroot_at_edge(node.edge, length1=length - below, length2=below,
                                  update_bipartitions=False, suppress_unifurcations=True)
            ours = tree.reroot(tree.names[vertex], edge=True, distance=distance)
            new_root = ours.names[0]  # unnamed, as DendroPy's new root
            assert new_root == ""
            assert_same_tree(ours, dendropy_write(theirs), rt)


def test_ladderize_matches_dendropy(phylogeny, rt):
    text, tree = phylogeny
    for ascending in (True, False):
        theirs = dendropy_tree(text)
        theirs.ladderize(ascending=ascending)
        ours = tree.ladderize(ascending)
        assert [ours.names[v] for v in ours.preorder()] == \
               [label(nd) for nd in theirs.preorder_node_iter()]
        assert_same_tree(ours, dendropy_write(theirs), rt)


# --- ete3 and Bio.Phylo ------------------------------------------------------------------------

def test_orders_mrca_distance_and_outgroup_match_ete3(phylogeny, rt):
    ete3 = pytest.importorskip("ete3")
    text, tree = phylogeny
    theirs = ete3.Tree(text, format=1)
    names = np.array(tree.names)
    for order, ours in (("preorder", tree.preorder()), ("postorder", tree.postorder()),
                        ("levelorder", tree.levelorder())):
        assert list(names[ours]) == [nd.name for nd in theirs.traverse(order)]
    tips = [tree.names[v] for v in tree.tips()]
    rng = np.random.default_rng(6)
    for _ in range(5):
        a, b, c = map(str, rng.choice(tips, 3, replace=False))
        assert tree.names[tree.mrca([a, b, c])] == theirs.get_common_ancestor(a, b, c).name
        assert math.isclose(tree.distance(a, b), theirs.get_distance(a, b), rel_tol=RTOL)
    outgroup = tips[3]
    theirs.set_outgroup(theirs & outgroup)  # the new root in the middle of the branch
    ours = tree.reroot(outgroup, edge=True)
    # ete3 drops the root's own length and names no new root
    assert_same_tree(ours, theirs.write(format=1, dist_formatter="%0.17g"), rt,
                     root_length=False)


def test_orders_mrca_and_distance_match_biopython(phylogeny):
    Phylo = pytest.importorskip("Bio.Phylo")
    text, tree = phylogeny
    theirs = Phylo.read(io.StringIO(text), "newick")
    names = np.array(tree.names)
    for order, ours in (("preorder", tree.preorder()), ("postorder", tree.postorder()),
                        ("level", tree.levelorder())):
        assert list(names[ours]) == [c.name for c in theirs.find_clades(order=order)]
    tips = [tree.names[v] for v in tree.tips()]
    rng = np.random.default_rng(8)
    for _ in range(5):
        a, b = map(str, rng.choice(tips, 2, replace=False))
        assert tree.names[tree.lca(a, b)] == theirs.common_ancestor(a, b).name
        assert math.isclose(tree.distance(a, b), theirs.distance(a, b), rel_tol=RTOL)


# --- scikit-bio: UniFrac -------------------------------------------------------------------------

@pytest.mark.parametrize("metric, normalized", [("unweighted_unifrac", False),
                                                ("weighted_unifrac", False),
                                                ("weighted_unifrac", True)])
def test_unifrac_matches_scikit_bio(phylogeny, metric, normalized):
    skbio = pytest.importorskip("skbio")
    from skbio.diversity import beta_diversity
    text, tree = phylogeny
    theirs = skbio.TreeNode.read(io.StringIO(text))
    rng = np.random.default_rng(9)
    tips = [tree.names[v] for v in tree.tips()]
    columns = list(rng.permutation(tips)[:30])
    counts = rng.integers(0, 6, (13, len(columns))) * (rng.random((13, len(columns))) < 0.4)
    counts[4] = 0  # an empty sample
    kwargs = {"normalized": normalized} if metric == "weighted_unifrac" else {}
    expected = beta_diversity(metric, counts, ids=[str(i) for i in range(len(counts))],
                              otu_ids=columns, tree=theirs, validate=False, **kwargs)
    ours = tree.unifrac(counts, columns, weighted=metric == "weighted_unifrac",
                        normalized=normalized)
    np.testing.assert_allclose(ours, expected.condensed_form(), rtol=RTOL, atol=1e-300)
    square = tree.unifrac(counts, columns, weighted=metric == "weighted_unifrac",
                          normalized=normalized, square=True)
    np.testing.assert_allclose(square, expected.data, rtol=RTOL, atol=1e-300)
    again = tree.unifrac(counts, columns, weighted=metric == "weighted_unifrac",
                         normalized=normalized)
    assert ours.tobytes() == again.tobytes()  # the same bits on every run


# --- the library's own promises ------------------------------------------------------------------

def test_write_newick_round_trips_names_and_lengths_exactly(rt):
    names = ["root", "it's", "a b", "(x)", "", "semi;colon"]
    lengths = np.array([0.0, 0.1, 1e-300, 3.0000000000000004, 2.5e10, 7.0 / 3.0])
    tree = treefix.Tree([-1, 0, 0, 1, 1, 0], lengths=lengths, names=names, runtime=rt)
    back = treefix.Tree.from_newick_string(tree.write_newick(), runtime=rt)
    order = tree.preorder()
    assert back.names == tuple(names[v] for v in order)
    assert back.lengths.tobytes() == lengths[order].tobytes()
    dendropy = pytest.importorskip("dendropy")
    theirs = dendropy.Tree.get(data=tree.write_newick(), schema="newick",
                               preserve_underscores=True)
    assert tuple(label(nd) for nd in theirs.preorder_node_iter()) == back.names


def test_write_newick_to_a_file(rt, tmp_path):
    tree = treefix.Tree([-1, 0, 0], lengths=[0, 1.5, 2], names=["r", "a", "b"], runtime=rt)
    assert tree.write_newick(tmp_path / "t.nwk") is None
    assert (tmp_path / "t.nwk").read_text() == "(a:1.5,b:2)r;\n"
    assert treefix.Tree([-1, 0, 0], runtime=rt).write_newick() == "(,);\n"


def test_lca_and_distance_take_arrays_scalars_and_names(rt):
    tree = treefix.Tree.from_newick_string("((A:1,B:2)C:0.5,(D:3,(E:1,F:1)G:2)H:4)root;",
                                           runtime=rt)
    assert tree.lca("A", "B") == 1 and isinstance(tree.lca(2, 3), int)
    got = tree.lca(np.array([[2, 3], [5, 7]]), 8)
    assert got.shape == (2, 2) and got.dtype == np.int32
    assert got.tolist() == [[0, 0], [4, 6]]
    assert tree.distance("A", "F") == 8.5 and tree.distance(4, 4) == 0.0
    assert tree.distance([2, 3], [3, 2], weights=np.ones(9)).tolist() == [2.0, 2.0]
    assert tree.mrca(["E", "F", "D"]) == 4 and tree.mrca([7]) == 7
    assert tree.mrca(np.array(["E", "F"])) == 6  # NumPy arrays of names too
    assert tree.lca(np.arange(9, dtype=np.int64), np.zeros(9, np.int64)).tolist() == [0] * 9
    at_tip = tree.reroot("A")  # a tip as the root: one child, its branch kept
    assert at_tip.names[0] == "A" and at_tip.children()[0][1] == 1
    assert at_tip.names[1] == "C" and at_tip.lengths[1] == 1.0
    forest = treefix.Tree([-1, 0, -1, 2], runtime=rt)
    assert forest.lca(1, 3) == -1 and forest.distance(1, 3) == math.inf
    assert forest.distance(1, 0) == 1.0  # edge counts without lengths
    assert forest.root_distances().tolist() == [0.0, 1.0, 0.0, 1.0]
    np.testing.assert_array_equal(tree.heights(), [7.0, 2.0, 0, 0, 3.0, 0, 1.0, 0, 0])


def test_bad_input_names_what_and_where(rt):
    tree = treefix.Tree.from_newick_string("((A:1,B:2)C:0.5,D:3)root;", runtime=rt)
    with pytest.raises(ValueError, match="pair 1: vertex 9 is not a vertex"):
        tree.lca([0, 9], [1, 2])
    with pytest.raises(ValueError, match="no vertex is named 'Z'"):
        tree.mrca(["A", "Z"])
    with pytest.raises(ValueError, match="element 1 .* is not a vertex"):
        tree.distance([0, 2**40], [1, 1])
    with pytest.raises(ValueError, match="shapes differ"):
        tree.lca([0, 1, 2], [1, 2])
    with pytest.raises(ValueError, match="weights of shape"):
        tree.distance(0, 1, weights=[1.0, 2.0])
    with pytest.raises(ValueError, match="not finite"):
        tree.distance(0, 1, weights=[1.0, np.nan, 1, 1, 1])
    # lengths are checked on the device (or every host core): the first bad vertex is named
    many = treefix.generate("random", 300007, seed=2)
    bad = np.ones(len(many))
    bad[[123457, 200000, 299999]] = [np.nan, np.inf, -np.inf]
    with pytest.raises(ValueError, match="the length of vertex 123457 is not finite"):
        treefix.Tree(many, lengths=bad, runtime=rt)
    with pytest.raises(ValueError, match="is a root"):
        tree.reroot(0, edge=True)
    with pytest.raises(ValueError, match="no vertex to keep"):
        tree.prune([])
    with pytest.raises(ValueError, match="negative count"):
        tree.unifrac([[1, -1, 0], [0, 1, 1]])
    with pytest.raises(ValueError, match="not a whole number"):
        tree.unifrac([[1, 0.5, 0], [0, 1, 1]])
    with pytest.raises(ValueError, match="for 3 tips"):
        tree.unifrac([[1, 0], [0, 1]])
    with pytest.raises(ValueError, match="the tree has no names"):
        treefix.Tree([-1, 0], runtime=rt).lca("A", 0)
    with pytest.raises(ValueError, match="odd number"):
        treefix.generate("binary", 8)
    with pytest.raises(ValueError, match="unknown shape"):
        treefix.generate("hexagon", 8)
    with pytest.raises(ValueError, match="lengths of shape"):
        treefix.Tree([-1, 0], lengths=[1.0], runtime=rt)
    with pytest.raises(ValueError, match="2 names for a tree of 3"):
        treefix.Tree([-1, 0, 0], names=["a", "b"], runtime=rt)


def test_generate_gives_the_library_shapes():
    assert treefix.generate("star", 4).tolist() == [-1, 0, 0, 0]
    assert treefix.generate("path", 3).tolist() == [-1, 0, 1]
    binary = treefix.generate("binary", 9, seed=3)
    assert (binary == -1).sum() == 1 and np.bincount(binary[binary >= 0]).max() == 2
    assert treefix.generate("random", 50, seed=2).tolist() == \
        treefix.generate("random", 50, seed=2).tolist()
