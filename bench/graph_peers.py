#!/usr/bin/env python3
"""treefix's graph functions against scipy.sparse.csgraph, side by side in one process, on the
same SciPy matrices, as a SciPy user calls them: one-shot calls on the matrix and calls on a kept
treefix.Graph, each checked against SciPy's answer.

  kronecker-S       Graph500 R-MAT (A, B, C = 0.57, 0.19, 0.19, edge factor 16, ids permuted),
                    symmetric csr in canonical form, with int32 and with int64 index arrays:
                    Graph(A) (directed=False: symmetric, nothing to sort), Graph of its upper
                    triangle (directed=False: symmetrised on the device), one-shot and kept
                    breadth_first_order and connected_components, minimum_spanning_tree (a random
                    weight per edge, stored both ways)
  kronecker-S-dir   the R-MAT arcs one way (a directed graph): strong components
  road              a road network (luxembourg_osm.mtx): BFS, components, minimum spanning tree
                    (random lengths)
  web               a directed web graph (web-NotreDame.txt.xz): strong components
  kronecker-27      --kron27 FILE.csr (`treefix generate kronecker --scale 27 --distributed`):
                    past 2^31 arcs, int64 indptr and indices; one-shot BFS and components only
                    (SciPy cannot take int64 indices before 1.11, and is not timed here)

Rows give the median and minimum of the timed runs (treefix after warm-up runs; SciPy once or
more, --peer-repeats), the speedup, the bytes the call reads over the host link (index arrays;
values where the call needs them) and the rate they imply, and whether the answer equals SciPy's
(equal labels, the same partition, valid BFS trees with SciPy's levels, forests of the same
weight and edges). CSV with the device, driver, date and commit on every row.

Usage: PYTHONPATH=build/python python3 bench/graph_peers.py --csv OUT.csv
       [--kron 21,22] [--data ../shared/data] [--kron27 FILE.csr] [--repeats 5] [--warmup 2]
       [--peer-repeats 1] [--skip-peers] [--device SPEC]
"""
import argparse
import lzma
import os
import sys

import numpy as np
import scipy
import scipy.io
import scipy.sparse as sp
from scipy.sparse import csgraph

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402
from python_peers import rmat_arcs, timed  # noqa: E402

# SciPy 1.11 took int64 index arrays in csgraph's traversals (gh-18716); before, its rows for
# int64 matrices run on an int32 copy.
SCIPY_TAKES_INT64 = tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (1, 11)

COLUMNS = ["device", "driver", "date", "commit", "scipy", "case", "n", "arcs", "index_bits",
           "call", "implementation", "median_ms", "min_ms", "runs", "link_bytes", "link_gb_s",
           "speedup_of_treefix", "status"]


# --- graphs --------------------------------------------------------------------------------------

def as_csr(n, src, dst, data=None):
    """A canonical csr (sorted rows, repeats summed) of the arcs."""
    values = np.ones(len(src), np.int8) if data is None else data
    graph = sp.coo_matrix((values, (src, dst)), shape=(n, n)).tocsr()
    graph.sum_duplicates()
    return graph


def with_int64_indices(graph):
    wide = graph.copy()
    wide.indices = wide.indices.astype(np.int64)
    wide.indptr = wide.indptr.astype(np.int64)
    return wide


def read_raw_csr(path):
    """treefix's raw CSR binary as a SciPy csr with int64 indptr and indices (values: a view of
    ones, never read by BFS or components)."""
    header = np.fromfile(path, np.int64, 8)
    n, m = int(header[2]), int(header[3])
    offsets = np.fromfile(path, np.int64, n + 1, offset=64)
    columns = np.memmap(path, np.int32, "r", offset=64 + 8 * (n + 1), shape=(m,))
    graph = sp.csr_matrix((n, n), dtype=np.int8)
    graph.indptr, graph.indices = offsets, np.asarray(columns, np.int64)
    graph.data = np.broadcast_to(np.int8(1), (m,))
    return graph


# --- checks --------------------------------------------------------------------------------------

def depths(pred, source):
    """Depth of every vertex of a BFS tree (pointer jumping in NumPy; -1 unreached)."""
    n = len(pred)
    parent = np.where(pred >= 0, pred, np.arange(n)).astype(np.int64)  # roots point to themselves
    depth = (pred >= 0).astype(np.int64)
    while True:
        grand = parent[parent]
        depth = depth + depth[parent] * (parent != grand)
        if np.array_equal(grand, parent):
            break
        parent = grand
    reached = pred >= 0
    reached[source] = True
    return np.where(reached, depth, -1)


def same_bfs(ours, theirs, source):
    (order, pred), (ref_order, ref_pred) = ours, theirs
    return (len(order) == len(ref_order) and order[0] == source and
            np.array_equal(depths(pred, source), depths(ref_pred, source)))


def same_partition(labels, ref):
    pairs = np.unique(labels.astype(np.int64) << 32 | ref.astype(np.int64))
    return len(pairs) == len(np.unique(labels)) == len(np.unique(ref))


def same_forest(tree, ref):
    a, b = (tree + tree.T).tocsr(), (ref + ref.T).tocsr()
    a.sort_indices()
    b.sort_indices()
    return (np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices) and
            np.array_equal(a.data, b.data))


def link_bytes(graph, values=False):
    arrays = [graph.indices, graph.indptr] + ([graph.data] if values else [])
    return sum(a.nbytes for a in arrays)


# --- the runs ------------------------------------------------------------------------------------

class Bench:
    def __init__(self, treefix, rt, args, header):
        self.treefix, self.rt, self.args, self.header = treefix, rt, args, header
        self.rows = []

    def add(self, case, graph, call, implementation, timing, speedup, status, nbytes=0):
        median, low = timing[0], timing[1]
        bits = 64 if graph.indices.dtype == np.int64 else 32
        rate = "%.1f" % (nbytes / low / 1e6) if nbytes else ""
        self.rows.append(dict(self.header, case=case, n=graph.shape[0], arcs=graph.nnz,
                              index_bits=bits, call=call, implementation=implementation,
                              median_ms="%.3f" % median, min_ms="%.3f" % low,
                              runs=self.args.repeats, link_bytes=nbytes, link_gb_s=rate,
                              speedup_of_treefix="" if speedup is None else "%.1f" % speedup,
                              status=status))
        print("%-22s %-26s %-40s %10.2f %10.2f %8s %6s  %s"
              % (case, call, implementation, median, low,
                 "" if speedup is None else "%.1fx" % speedup, rate, status), flush=True)
        peer_common.write_csv(self.args.csv, COLUMNS, self.rows)

    def ours(self, call):
        return timed(call, self.args.repeats, self.args.warmup)

    def peer(self, call):
        if self.args.skip_peers:
            return None
        try:
            return timed(call, self.args.peer_repeats, 0)
        except (ValueError, TypeError, MemoryError) as e:  # SciPy before 1.11: int64 indices
            print("# scipy: %s: %s" % (e.__class__.__name__, e))
            return None

    def alone(self, case, graph, call, ours, check, nbytes=0, label=None):
        """A treefix row without a SciPy counterpart (check: of the result)."""
        mine = self.ours(ours)
        self.add(case, graph, call, "treefix " + (label or call), mine, None,
                 "ok" if check(mine[2]) else "bad", nbytes)

    def pair(self, case, graph, call, ours, theirs, same, nbytes=0, label=None):
        """One treefix row and one SciPy row (with the check and the speedup)."""
        mine = self.ours(ours)
        self.add(case, graph, call, "treefix " + (label or call), mine, None, "ok", nbytes)
        peer = self.peer(theirs)
        if peer is None:
            self.add(case, graph, call, "scipy " + call, (float("nan"),) * 2, None, "not run")
            return
        status = "ok" if same(mine[2], peer[2]) else "differs"
        self.add(case, graph, call, "scipy " + call, peer, peer[0] / mine[0], status)

    def traversals(self, case, graph, peer_graph):
        """peer_graph: the matrix SciPy is given (an int32 copy where SciPy takes no int64)."""
        t, rt = self.treefix, self.rt
        source = int(np.argmax(np.diff(graph.indptr)))
        nbytes = link_bytes(graph)
        self.alone(case, graph, "Graph(A, directed=False)",
                   lambda: t.Graph(graph, directed=False, runtime=rt),
                   lambda kept: kept.arcs == graph.nnz - graph.diagonal().astype(bool).sum(), nbytes)
        self.alone(case, graph, "Graph(A)", lambda: t.Graph(graph, runtime=rt),
                   lambda kept: kept.directed, nbytes)
        self.pair(case, graph, "breadth_first_order(A, s)",
                  lambda: t.breadth_first_order(graph, source, runtime=rt),
                  lambda: csgraph.breadth_first_order(peer_graph, source),
                  lambda a, b: same_bfs(a, b, source), nbytes)
        self.pair(case, graph, "connected_components(A)",
                  lambda: t.connected_components(graph, runtime=rt),
                  lambda: csgraph.connected_components(peer_graph),
                  lambda a, b: a[0] == b[0] and np.array_equal(a[1], b[1]), nbytes)
        kept = t.Graph(graph, directed=False, runtime=rt)
        self.pair(case, graph, "Graph.breadth_first_order", lambda: kept.breadth_first_order(source),
                  lambda: csgraph.breadth_first_order(peer_graph, source),
                  lambda a, b: same_bfs(a, b, source))
        self.pair(case, graph, "Graph.connected_components", kept.connected_components,
                  lambda: csgraph.connected_components(peer_graph),
                  lambda a, b: a[0] == b[0] and np.array_equal(a[1], b[1]))
        del kept

    def strong(self, case, graph):
        t, rt = self.treefix, self.rt
        nbytes = link_bytes(graph)
        ref = lambda: csgraph.connected_components(graph, connection="strong")  # noqa: E731
        check = lambda a, b: a[0] == b[0] and same_partition(a[1], b[1])  # noqa: E731
        self.pair(case, graph, "connected_components(A, connection='strong')",
                  lambda: t.connected_components(graph, connection="strong", runtime=rt), ref,
                  check, nbytes, label="strong components")
        kept = t.Graph(graph, runtime=rt)
        self.pair(case, graph, "Graph.connected_components('strong')",
                  lambda: kept.connected_components(connection="strong"), ref, check)
        del kept

    def spanning(self, case, graph):
        t, rt = self.treefix, self.rt
        ref = lambda: csgraph.minimum_spanning_tree(graph)  # noqa: E731
        self.pair(case, graph, "minimum_spanning_tree(A)",
                  lambda: t.minimum_spanning_tree(graph, runtime=rt), ref, same_forest,
                  link_bytes(graph, values=True))
        kept = t.Graph(graph, runtime=rt)
        self.pair(case, graph, "Graph.minimum_spanning_tree", kept.minimum_spanning_tree, ref,
                  same_forest)
        del kept


def kronecker_rows(bench, scale):
    rng = np.random.default_rng(scale)
    n, src, dst = rmat_arcs(scale, rng)
    directed = as_csr(n, src, dst)
    bench.strong("kronecker-%d-dir" % scale, directed)
    symmetric = as_csr(n, np.concatenate([src, dst]), np.concatenate([dst, src]))
    del directed, src, dst
    bench.traversals("kronecker-%d" % scale, symmetric, symmetric)
    wide = with_int64_indices(symmetric)
    bench.traversals("kronecker-%d" % scale, wide, wide if SCIPY_TAKES_INT64 else symmetric)
    del wide
    upper = sp.triu(symmetric, 1).tocsr()
    bench.alone("kronecker-%d-upper" % scale, upper, "Graph(A, directed=False)",
                lambda: bench.treefix.Graph(upper, directed=False, runtime=bench.rt),
                lambda kept: kept.arcs == symmetric.nnz, link_bytes(upper),
                label="Graph (symmetrised on the device)")
    # a random weight per edge, stored both ways (distinct: one forest)
    upper.data = rng.permutation(upper.nnz).astype(np.float64) + 1
    weighted = (upper + upper.T).tocsr()
    bench.spanning("kronecker-%d" % scale, weighted)


def real_rows(bench, folder):
    road_path = os.path.join(folder, "luxembourg_osm.mtx")
    if os.path.exists(road_path):
        road = scipy.io.mmread(road_path).tocsr()
        bench.traversals("road", road, road)
        upper = sp.triu(road, 1).tocsr()
        upper.data = np.random.default_rng(7).permutation(upper.nnz).astype(np.float64) + 1
        bench.spanning("road", (upper + upper.T).tocsr())
    else:
        print("# no road network at %s: its rows are skipped" % road_path)
    web_path = os.path.join(folder, "web-NotreDame.txt.xz")
    if os.path.exists(web_path):
        with lzma.open(web_path, "rt") as text:
            pairs = np.loadtxt(text, dtype=np.int64, comments="#")
        n = int(pairs.max()) + 1
        bench.strong("web", as_csr(n, pairs[:, 0], pairs[:, 1]))
    else:
        print("# no web graph at %s: its rows are skipped" % web_path)


def kron27_rows(bench, path):
    t, rt = bench.treefix, bench.rt
    graph = read_raw_csr(path)
    print("# %s: %d vertices, %d arcs, int64 indptr and indices" % (path, graph.shape[0], graph.nnz))
    source = int(np.argmax(np.diff(graph.indptr)))
    nbytes = link_bytes(graph)
    timing = timed(lambda: t.breadth_first_order(graph, source, runtime=rt), 1, 1)
    order, pred = timing[2]
    bench.add("kronecker-27", graph, "breadth_first_order(A, s)", "treefix breadth_first_order",
              timing, None, "ok" if order[0] == source and (pred[order[1:]] >= 0).all() else "bad",
              nbytes)
    timing = timed(lambda: t.connected_components(graph, runtime=rt), 1, 1)
    count, labels = timing[2]
    bench.add("kronecker-27", graph, "connected_components(A)", "treefix connected_components",
              timing, None, "ok" if labels.max() + 1 == count else "bad", nbytes)


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--kron", default="21,22")
    here = os.path.dirname(os.path.abspath(__file__))
    arguments.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    arguments.add_argument("--kron27", default=None)
    arguments.add_argument("--repeats", type=int, default=5)
    arguments.add_argument("--warmup", type=int, default=2)
    arguments.add_argument("--peer-repeats", type=int, default=1)
    arguments.add_argument("--skip-peers", action="store_true")
    arguments.add_argument("--device", default=None)
    args = arguments.parse_args()
    import treefix
    rt = treefix.Runtime(args.device)
    info = rt.device
    header = {"device": info["name"], "driver": info["platform"] + " " + info["driver"],
              "date": peer_common.utc_date(), "commit": peer_common.checkout_commit(),
              "scipy": scipy.__version__}
    print("# device: %s | driver: %s | scipy %s | date: %s | commit: %s"
          % (header["device"], header["driver"], header["scipy"], header["date"],
             header["commit"]))
    print("%-22s %-26s %-40s %10s %10s %8s %6s  %s" % ("case", "call", "implementation",
                                                      "median ms", "min ms", "treefix", "GB/s",
                                                      "status"))
    bench = Bench(treefix, rt, args, header)
    for scale in [int(s) for s in args.kron.split(",") if s]:
        kronecker_rows(bench, scale)
    real_rows(bench, args.data)
    if args.kron27:
        kron27_rows(bench, args.kron27)


if __name__ == "__main__":
    main()
