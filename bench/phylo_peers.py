#!/usr/bin/env python3
"""treefix.Tree's phylogenetic queries against DendroPy, ete3, Bio.Phylo and scikit-bio, in one
process, on the same trees (medians after warm-up calls; NumPy in and out):

  construct  Tree(parents) of 2^log-n vertices: star, path, caterpillar, random, random with
             shuffled ids, binary (int32 parents; the random tree also from int64)
  newick     reading a random binary tree of --tips tips with names and branch lengths (written
             by treefix: Tree(...).write_newick), treefix against every peer
  queries    on the 2^log-n random tree (random lengths) and on the Newick tree: --pairs random LCA
             and distance queries, the cophenetic matrix of --cophenetic tips, reroot at a vertex
             and on an outgroup's branch, prune to half the tips; each with its index kept (built
             by a first call, timed apart as "index"). Peers on the Newick tree only.
  unifrac    unweighted and weighted UniFrac, --samples samples over a random binary tree of
             --unifrac-tips tips, all pairs; scikit-bio's beta_diversity on the first
             --skbio-samples samples, its time per pair scaled to all pairs ("extrapolated")

Peers are optional: a peer that is not installed gets a row "skipped: not installed". A peer's
query that would take too long whole is timed on a sample (of pairs, of prunes) and scaled to
the whole job; such rows say "extrapolated from N" in the note column. Peers' node lookups
(name -> node dictionaries) are built once and not timed. Results are checked against the peers
where both answer (same lca names, distances within 1e-12 relative, same tip sets, UniFrac within
1e-12 relative): the status column says "ok" or what differs.

--peers-only times the peers alone at the sizes given (treefix still answers, untimed, to check
them), for a CPU machine or a run of its own: --merge OUT.csv A.csv B.csv ... joins such CSVs
with a treefix run's, each peer row's speedup_of_treefix from the treefix row of the same case.

Usage: PYTHONPATH=build/python python3 bench/phylo_peers.py --csv OUT.csv
       [--suites construct,newick,queries,unifrac] [--log-n 24] [--tips 1000000]
       [--pairs 10000000] [--cophenetic 4096] [--unifrac-tips 100000] [--samples 1000]
       [--skbio-samples 40] [--peers dendropy,ete3,biopython,skbio] [--peer-pairs 200]
       [--repeats 5] [--warmup 1] [--workdir DIR] [--peers-only] [--device SPEC]
       python3 bench/phylo_peers.py --merge OUT.csv IN.csv...
"""
import csv
import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402
from peer_common import timed  # noqa: E402

COLUMNS = ["device", "driver", "date", "commit", "suite", "case", "n", "implementation",
           "median_ms", "min_ms", "runs", "speedup_of_treefix", "status", "note"]
PEERS = ["dendropy", "ete3", "biopython", "skbio"]



def once(call):
    start = time.perf_counter()
    result = call()
    return (time.perf_counter() - start) * 1e3, result


# --- the peers, one interface ----------------------------------------------------------------------

class Peer:
    """What the bench asks of a peer; None where it has no such query."""
    name = ""

    def load(self, path):
        raise NotImplementedError

    def index(self, tree):  # name -> node, built once, not timed
        raise NotImplementedError

    lca = distance = reroot = outgroup = prune = cophenetic = None


class DendroPy(Peer):
    name = "dendropy"

    def __init__(self):
        import dendropy
        self.dendropy = dendropy

    def load(self, path):
        return self.dendropy.Tree.get(path=path, schema="newick", preserve_underscores=True,
                                      rooting="force-rooted")

    def index(self, tree):
        return {(nd.taxon.label if nd.taxon else nd.label): nd for nd in tree}

    def lca(self, tree, nodes, a, b):  # its MRCA is by taxa (DendroPy #99)
        return tree.mrca(taxa=[nodes[a].taxon, nodes[b].taxon])

    def reroot(self, tree, nodes, a):
        tree.reroot_at_node(nodes[a], update_bipartitions=False, suppress_unifurcations=True)

    def outgroup(self, tree, nodes, a):
        edge = nodes[a].edge
        tree.reroot_at_edge(edge, length1=edge.length / 2, length2=edge.length / 2,
                            update_bipartitions=False, suppress_unifurcations=True)

    def prune(self, tree, nodes, keep):
        tree.retain_taxa_with_labels(keep)


class Ete3(Peer):
    name = "ete3"

    def __init__(self):
        import ete3
        self.ete3 = ete3

    def load(self, path):
        return self.ete3.Tree(path, format=1)

    def index(self, tree):
        return {nd.name: nd for nd in tree.traverse()}

    def lca(self, tree, nodes, a, b):
        return tree.get_common_ancestor(nodes[a], nodes[b])

    def distance(self, tree, nodes, a, b):
        return tree.get_distance(nodes[a], nodes[b])

    def outgroup(self, tree, nodes, a):
        tree.set_outgroup(nodes[a])

    def prune(self, tree, nodes, keep):
        tree.prune([nodes[k] for k in keep], preserve_branch_length=True)


class BioPhylo(Peer):
    name = "biopython"

    def __init__(self):
        from Bio import Phylo
        self.phylo = Phylo

    def load(self, path):
        return self.phylo.read(path, "newick")

    def index(self, tree):
        return {c.name: c for c in tree.find_clades()}

    def lca(self, tree, nodes, a, b):
        return tree.common_ancestor(nodes[a], nodes[b])

    def distance(self, tree, nodes, a, b):
        return tree.distance(nodes[a], nodes[b])

    def outgroup(self, tree, nodes, a):
        tree.root_with_outgroup(nodes[a])


class SkBio(Peer):
    name = "skbio"

    def __init__(self):
        import skbio
        self.skbio = skbio

    def load(self, path):
        return self.skbio.TreeNode.read(path, format="newick")

    def index(self, tree):
        return {nd.name: nd for nd in tree.traverse(include_self=True)}

    def lca(self, tree, nodes, a, b):
        return tree.lowest_common_ancestor([nodes[a], nodes[b]])

    def distance(self, tree, nodes, a, b):
        return nodes[a].distance(nodes[b])

    def cophenetic(self, tree, nodes, names):
        return tree.tip_tip_distances(endpoints=list(names)).data

    def reroot(self, tree, nodes, a):
        return tree.root_at(nodes[a])

    def prune(self, tree, nodes, keep):
        return tree.shear(keep)


def available_peers(wanted, add_skip):
    peers = []
    for name, make in (("dendropy", DendroPy), ("ete3", Ete3), ("biopython", BioPhylo),
                       ("skbio", SkBio)):
        if name not in wanted:
            continue
        try:
            peers.append(make())
        except ImportError:
            add_skip(name)
    return peers


def node_name(node):
    """The name of a peer's node (DendroPy keeps tips as taxa)."""
    taxon = getattr(node, "taxon", None)
    if taxon is not None:
        return taxon.label
    for attribute in ("label", "name"):
        value = getattr(node, attribute, None)
        if value is not None:
            return value
    return ""


# --- trees -------------------------------------------------------------------------------------------

def phylogeny_file(treefix, rt, tips, workdir, seed=1):
    """A random binary tree of `tips` tips, every vertex named, random lengths, as Newick (written
    once into workdir and kept there)."""
    path = os.path.join(workdir, "binary-%d-tips.nwk" % tips)
    if not os.path.exists(path):
        parents = treefix.generate("binary", 2 * tips - 1, seed=seed)
        lengths = np.random.default_rng(seed).exponential(1.0, len(parents))
        lengths[parents < 0] = 0.0
        names = ["n%d" % v for v in range(len(parents))]
        treefix.Tree(parents, lengths=lengths, names=names, runtime=rt).write_newick(path)
    return path


def random_pairs(rng, pool, count):
    """`count` pairs of vertices drawn from `pool` (an int32 array)."""
    return (pool[rng.integers(0, len(pool), count)], pool[rng.integers(0, len(pool), count)])


# --- suites ------------------------------------------------------------------------------------------

def bench_construct(treefix, rt, args, add):
    n = 1 << args.log_n
    shapes = ["star", "path", "caterpillar", "random", "random-shuffled", "binary"]
    for shape in shapes:
        parents = treefix.generate(shape, n - 1 if shape == "binary" else n, seed=1)
        ms, low, tree = timed(lambda: treefix.Tree(parents, runtime=rt), args.repeats, args.warmup)
        add("construct", shape + " Tree(int32 parents)", len(parents), "treefix", ms, low, None,
            "ok" if tree.n == len(parents) else "wrong size", "")
        if shape == "random-shuffled":
            wide = parents.astype(np.int64)
            ms, low, _ = timed(lambda: treefix.Tree(wide, runtime=rt), args.repeats, args.warmup)
            add("construct", shape + " Tree(int64 parents)", len(parents), "treefix", ms, low,
                None, "ok", "")
        del tree


def bench_newick(treefix, rt, peers, args, add):
    path = phylogeny_file(treefix, rt, args.tips, args.workdir)
    size_mb = os.path.getsize(path) / 1e6
    case = "read %d-tip Newick (%.0f MB)" % (args.tips, size_mb)
    ours = None
    if not args.peers_only:
        ms, low, tree = timed(lambda: treefix.Tree.from_newick(path, runtime=rt), args.repeats,
                              args.warmup)
        ours = ms
        add("newick", case, tree.n, "treefix", ms, low, None, "ok", "")
        nodes = tree.n
        del tree
    else:
        nodes = 2 * args.tips - 1
    for peer in peers:
        ms, theirs = once(lambda: peer.load(path))
        count = len(peer.index(theirs))
        add("newick", case, nodes, peer.name, ms, ms, None if ours is None else ms / ours,
            "ok" if count == nodes else "%d nodes" % count, "one run")
        del theirs


def bench_queries_random(treefix, rt, args, add):
    """The kept 2^log-n random tree (shuffled ids, random lengths): treefix only."""
    n = 1 << args.log_n
    rng = np.random.default_rng(3)
    parents = treefix.generate("random-shuffled", n, seed=1)
    lengths = rng.exponential(1.0, n)
    tree = treefix.Tree(parents, lengths=lengths, runtime=rt)
    run_queries(treefix, tree, None, args, add, "random 2^%d" % args.log_n, rng,
                np.arange(n, dtype=np.int32))


def run_queries(treefix, tree, names, args, add, label, rng, pool, peers=(), peer_trees=None):
    """The queries on `tree`, pairs drawn from `pool` (every vertex, or the tips of a
    phylogeny: what the peers' MRCA takes)."""
    n = tree.n
    u, v = random_pairs(rng, pool, args.pairs)
    first, result = once(lambda: tree.lca(u[:2], v[:2]))  # builds the lca index
    add("queries", label + ": lca index (first call)", n, "treefix", first, first, None, "ok", "")
    first, _ = once(lambda: tree.distance(u[:2], v[:2]))  # and the exact path sums
    add("queries", label + ": path sums (first call)", n, "treefix", first, first, None, "ok", "")
    ms_lca, low, ancestors = timed(lambda: tree.lca(u, v), args.repeats, args.warmup)
    add("queries", label + ": lca of %d pairs" % args.pairs, n, "treefix", ms_lca, low, None,
        "ok", "NumPy int32 in, int32 out")
    ms_dist, low, distances = timed(lambda: tree.distance(u, v), args.repeats, args.warmup)
    add("queries", label + ": distance of %d pairs" % args.pairs, n, "treefix", ms_dist, low,
        None, "ok", "float64 out")
    tips = tree.tips()
    chosen = rng.choice(tips, min(args.cophenetic, len(tips)), replace=False).astype(np.int32)
    ms_coph, low, matrix = timed(lambda: tree.cophenetic(chosen), args.repeats, args.warmup)
    add("queries", label + ": cophenetic of %d tips" % len(chosen), n, "treefix", ms_coph, low,
        None, "ok", "")
    internal = int(tree.parents[int(tips[0])])
    ms_reroot, low, _ = timed(lambda: tree.reroot(internal), args.repeats, args.warmup)
    add("queries", label + ": reroot at a vertex", n, "treefix", ms_reroot, low, None, "ok",
        "a new Tree")
    outgroup = int(tips[1])
    ms_out, low, _ = timed(lambda: tree.reroot(outgroup, edge=True), args.repeats, args.warmup)
    add("queries", label + ": reroot on an outgroup's branch", n, "treefix", ms_out, low, None,
        "ok", "a new Tree")
    keep = rng.choice(tips, len(tips) // 2, replace=False).astype(np.int32)
    ms_prune, low, pruned = timed(lambda: tree.prune(keep), args.repeats, args.warmup)
    add("queries", label + ": prune to %d of %d tips" % (len(keep), len(tips)), n, "treefix",
        ms_prune, low, None, "ok" if len(pruned.tips()) == len(keep) else "wrong tips",
        "a new Tree")
    if not peers:
        return
    ours = {"lca": ms_lca / args.pairs, "distance": ms_dist / args.pairs,
            "cophenetic": ms_coph, "reroot": ms_reroot, "outgroup": ms_out, "prune": ms_prune}
    sample = min(args.peer_pairs, args.pairs)
    for peer in peers:
        theirs = peer_trees[peer.name]
        run_peer_queries(peer, theirs, tree, names, u[:sample], v[:sample], ancestors[:sample],
                         distances[:sample], chosen, matrix, internal, outgroup, keep, ours, args,
                         add, label)


def run_peer_queries(peer, path, tree, names, u, v, ancestors, distances, chosen, matrix,
                     internal, outgroup, keep, ours, args, add, label):
    n = tree.n
    theirs = peer.load(path)
    nodes = peer.index(theirs)
    note = "extrapolated from %d pairs" % len(u)
    if peer.lca:
        ms, got = once(lambda: [peer.lca(theirs, nodes, names[a], names[b]) for a, b in zip(u, v)])
        same = all(node_name(g) == names[a] for g, a in zip(got, ancestors))
        whole = ms * args.pairs / len(u)
        add("queries", label + ": lca of %d pairs" % args.pairs, n, peer.name, whole, whole,
            whole / (ours["lca"] * args.pairs), "ok" if same else "lca differs", note)
    if peer.distance:
        ms, got = once(lambda: [peer.distance(theirs, nodes, names[a], names[b])
                                for a, b in zip(u, v)])
        same = np.allclose(got, distances, rtol=1e-12, atol=0)
        whole = ms * args.pairs / len(u)
        add("queries", label + ": distance of %d pairs" % args.pairs, n, peer.name, whole, whole,
            whole / (ours["distance"] * args.pairs), "ok" if same else "distances differ", note)
    if peer.cophenetic:
        ms, got = once(lambda: peer.cophenetic(theirs, nodes, [names[t] for t in chosen]))
        same = np.allclose(got, matrix, rtol=1e-12, atol=0)
        add("queries", label + ": cophenetic of %d tips" % len(chosen), n, peer.name, ms, ms,
            ms / ours["cophenetic"], "ok" if same else "matrix differs", "one run")
    elif peer.distance:  # the matrix from pairs: the sample's time scaled to k(k-1)/2 pairs
        k = len(chosen)
        pairs = k * (k - 1) // 2
        ms, _ = once(lambda: [peer.distance(theirs, nodes, names[chosen[i]], names[chosen[i + 1]])
                              for i in range(min(len(u), k - 1))])
        ms_per_pair = ms / min(len(u), k - 1)
        whole = ms_per_pair * pairs
        add("queries", label + ": cophenetic of %d tips" % k, n, peer.name, whole, whole,
            whole / ours["cophenetic"], "ok", "pairwise distances, extrapolated from %d pairs"
            % min(len(u), k - 1))
    for query, run in (("reroot at a vertex", peer.reroot), ("reroot on an outgroup's branch",
                                                             peer.outgroup)):
        if run is None:
            continue
        vertex = internal if query.startswith("reroot at") else outgroup
        ms, _ = once(lambda: run(theirs, nodes, names[vertex]))
        key = "reroot" if query.startswith("reroot at") else "outgroup"
        add("queries", label + ": " + query, n, peer.name, ms, ms, ms / ours[key], "ok", "one run")
        theirs = peer.load(path)  # a fresh tree for the next edit (not timed)
        nodes = peer.index(theirs)
    if peer.prune:
        ms, _ = once(lambda: peer.prune(theirs, nodes, [names[t] for t in keep]))
        add("queries", label + ": prune to %d of %d tips" % (len(keep), len(tree.tips())), n,
            peer.name, ms, ms, ms / ours["prune"], "ok", "one run")
    del theirs


def bench_queries_newick(treefix, rt, peers, args, add):
    path = phylogeny_file(treefix, rt, args.tips, args.workdir)
    tree = treefix.Tree.from_newick(path, runtime=rt)
    names = tree.names
    rng = np.random.default_rng(4)
    run_queries(treefix, tree, names, args, add, "Newick %d tips, tip pairs" % args.tips, rng,
                tree.tips(), peers, {peer.name: path for peer in peers})


def bench_peer_queries_only(treefix, rt, peers, args, add):
    """--peers-only: the same samples of queries as a GPU run would set beside, on the peers
    alone (the lca answers they are checked against come from the library on the CPU here)."""
    path = phylogeny_file(treefix, rt, args.tips, args.workdir)
    tree = treefix.Tree.from_newick(path, runtime=rt)
    names = tree.names
    rng = np.random.default_rng(4)
    tips = tree.tips()
    u, v = random_pairs(rng, tips, args.peer_pairs)
    chosen = rng.choice(tips, min(args.cophenetic, len(tips)), replace=False).astype(np.int32)
    keep = rng.choice(tips, len(tips) // 2, replace=False).astype(np.int32)
    ancestors, distances = tree.lca(u, v), tree.distance(u, v)
    matrix = tree.cophenetic(chosen) if len(chosen) <= 4096 else None
    internal, outgroup = int(tree.parents[int(tips[0])]), int(tips[1])
    nan = {"lca": math.nan, "distance": math.nan, "cophenetic": math.nan, "reroot": math.nan,
           "outgroup": math.nan, "prune": math.nan}
    for peer in peers:
        run_peer_queries(peer, path, tree, names, u, v, ancestors, distances, chosen, matrix,
                         internal, outgroup, keep, nan, args, add,
                         "Newick %d tips, tip pairs" % args.tips)


def unifrac_inputs(treefix, rt, args):
    path = phylogeny_file(treefix, rt, args.unifrac_tips, args.workdir, seed=2)
    tree = treefix.Tree.from_newick(path, runtime=rt)
    rng = np.random.default_rng(5)
    tips = tree.tips()
    # each sample sees about 2% of the tips, with counts 1..20
    counts = rng.integers(1, 21, (args.samples, len(tips))) * \
        (rng.random((args.samples, len(tips))) < 0.02)
    return path, tree, tips, counts


def bench_unifrac(treefix, rt, peers, args, add):
    path, tree, tips, counts = unifrac_inputs(treefix, rt, args)
    names = [tree.names[t] for t in tips]
    pairs = args.samples * (args.samples - 1) // 2
    case = "%s, %d samples x %d tips (%d pairs)"
    skbio = next((p for p in peers if p.name == "skbio"), None)
    few = min(args.skbio_samples, args.samples)
    few_pairs = few * (few - 1) // 2
    ours = {}
    for weighted in (False, True):
        kind = "weighted" if weighted else "unweighted"
        if args.peers_only:  # the first samples' distances only, to check the peer
            ours[kind] = (math.nan, tree.unifrac(counts[:few], weighted=weighted))
            continue
        ms, low, d = timed(lambda: tree.unifrac(counts, weighted=weighted), args.repeats,
                           args.warmup)
        # the distances among the first `few` samples, from the first rows of the condensed form
        first = np.concatenate([d[i * args.samples - i * (i + 1) // 2:][:few - i - 1]
                                for i in range(few - 1)]) if few > 1 else np.zeros(0)
        ours[kind] = (ms, first)
        add("unifrac", case % (kind, args.samples, len(tips), pairs), tree.n, "treefix", ms,
            low, None, "ok", "condensed matrix out")
    if skbio is None:
        return
    from skbio.diversity import beta_diversity
    theirs = skbio.load(path)
    for weighted in (False, True):
        kind = "weighted" if weighted else "unweighted"
        metric = "weighted_unifrac" if weighted else "unweighted_unifrac"
        ms, dm = once(lambda: beta_diversity(metric, counts[:few], otu_ids=names, tree=theirs,
                                             validate=False))
        ours_ms, got = ours[kind]
        same = np.allclose(got, dm.condensed_form(), rtol=1e-12, atol=0)
        whole = ms * pairs / max(few_pairs, 1)
        add("unifrac", case % (kind, args.samples, len(tips), pairs), tree.n, "skbio", whole,
            whole, whole / ours_ms, "ok" if same else "distances differ",
            "beta_diversity on %d samples (%d pairs), extrapolated" % (few, few_pairs))


def merge(out, inputs):
    """The rows of several runs in one CSV; a peer row without a speedup gets the treefix row's
    of the same suite and case."""
    rows = []
    for path in inputs:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    ours = {(r["suite"], r["case"]): float(r["median_ms"]) for r in rows
            if r["implementation"] == "treefix" and r["median_ms"]}
    for r in rows:
        key = (r["suite"], r["case"])
        if r["implementation"] != "treefix" and not r["speedup_of_treefix"] and r["median_ms"] \
                and key in ours and ours[key] > 0:
            r["speedup_of_treefix"] = "%.1f" % (float(r["median_ms"]) / ours[key])
    peer_common.write_csv(out, COLUMNS, rows)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--merge":
        return merge(sys.argv[2], sys.argv[3:])
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--suites", default="construct,newick,queries,unifrac")
    arguments.add_argument("--log-n", type=int, default=24)
    arguments.add_argument("--tips", type=int, default=1000000)
    arguments.add_argument("--pairs", type=int, default=10000000)
    arguments.add_argument("--cophenetic", type=int, default=4096)
    arguments.add_argument("--unifrac-tips", type=int, default=100000)
    arguments.add_argument("--samples", type=int, default=1000)
    arguments.add_argument("--skbio-samples", type=int, default=40)
    arguments.add_argument("--peers", default=",".join(PEERS))
    arguments.add_argument("--peer-pairs", type=int, default=200)
    arguments.add_argument("--repeats", type=int, default=5)
    arguments.add_argument("--warmup", type=int, default=1)
    arguments.add_argument("--workdir", default=None)
    arguments.add_argument("--peers-only", action="store_true")
    arguments.add_argument("--device", default=None)
    args = arguments.parse_args()
    if args.repeats < 1 or args.warmup < 0:
        arguments.error("--repeats must be >= 1 and --warmup >= 0")
    suites = set(args.suites.split(","))
    wanted = set(p for p in args.peers.split(",") if p and p != "none")
    if args.workdir is None:
        args.workdir = tempfile.mkdtemp(prefix="phylo_peers-")
    os.makedirs(args.workdir, exist_ok=True)

    import treefix
    rt = treefix.Runtime(args.device)
    info = rt.device
    header = {"device": "CPU peers only" if args.peers_only else info["name"],
              "driver": "" if args.peers_only else info["platform"] + " " + info["driver"],
              "date": peer_common.utc_date(), "commit": peer_common.checkout_commit()}
    print("# device: %s | driver: %s | date: %s | commit: %s"
          % (header["device"], header["driver"], header["date"], header["commit"]))
    print("%-9s %-52s %9s %-10s %11s %11s %9s  %s" % ("suite", "case", "n", "impl", "median ms",
                                                     "min ms", "treefix x", "status / note"))
    rows = []

    def add(suite, case, n, implementation, median, low, speedup, status, note):
        rows.append(dict(header, suite=suite, case=case, n=n, implementation=implementation,
                         median_ms="%.3f" % median, min_ms="%.3f" % low, runs=args.repeats
                         if implementation == "treefix" else 1,
                         speedup_of_treefix="" if speedup is None or math.isnan(speedup)
                         else "%.1f" % speedup, status=status, note=note))
        print("%-9s %-52s %9d %-10s %11.3f %11.3f %9s  %s%s"
              % (suite, case[:52], n, implementation, median, low,
                 "" if speedup is None or math.isnan(speedup) else "%.1fx" % speedup, status,
                 " (" + note + ")" if note else ""), flush=True)
        peer_common.write_csv(args.csv, COLUMNS, rows)  # as we go: a crash keeps what ran

    def add_skip(name):
        rows.append(dict(header, suite="peers", case="installed", n=0, implementation=name,
                         median_ms="", min_ms="", runs=0, speedup_of_treefix="",
                         status="skipped: not installed", note=""))
        print("# %s: not installed, its rows are skipped" % name, flush=True)
        peer_common.write_csv(args.csv, COLUMNS, rows)

    peers = available_peers(wanted, add_skip)
    if "construct" in suites and not args.peers_only:
        bench_construct(treefix, rt, args, add)
    if "newick" in suites:
        bench_newick(treefix, rt, peers, args, add)
    if "queries" in suites:
        if args.peers_only:
            bench_peer_queries_only(treefix, rt, peers, args, add)
        else:
            bench_queries_random(treefix, rt, args, add)
            bench_queries_newick(treefix, rt, peers, args, add)
    if "unifrac" in suites:
        bench_unifrac(treefix, rt, peers, args, add)
    peer_common.write_csv(args.csv, COLUMNS, rows)


if __name__ == "__main__":
    main()
