#!/usr/bin/env python3
"""The treefix Python module against what a Python user would call instead, per call, in one
process, on the same data, side by side (medians after warm-up calls):

  treefix   rootfix and leaffix on a kept 2^24 tree (star, random, caterpillar), NumPy weights in
            and NumPy results out (upload and download included; a fresh result array, and an
            out= array), against CuPy pointer jumping (rootfix) and bench/cupy_treefix.py's Euler
            tour (both), CuPy's transfers counted like ours (cp.asarray in, cp.asnumpy out)
  graph     BFS and connected components of Kronecker graphs (Graph500 R-MAT, edge factor 16,
            undirected) on a kept treefix.Graph, against scipy.sparse.csgraph
  knn       KDTree build and query (k = 8, the points themselves) on 10^6 uniform 3-D float64
            points, against scipy.spatial.cKDTree (workers=-1); every KDTree query against
            cKDTree: bench/kdtree_peers.py
  link      host-to-device and device-to-host bandwidth of 128 MiB copies through CuPy (pageable
            and page-locked host memory): the floor under a NumPy-in, NumPy-out call

Every result is checked against the peer's (exactly, or as a valid BFS/partition). Prints a table
and writes CSV with the device, driver, date and commit on every row.

Usage: PYTHONPATH=build/python python3 bench/python_peers.py --csv OUT.csv
       [--suites treefix,graph,knn,link] [--log-n 24] [--kron 21,22] [--points 1000000]
       [--repeats 10] [--warmup 3] [--device SPEC]
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402

COLUMNS = ["device", "driver", "date", "commit", "suite", "case", "n", "arcs", "implementation",
           "median_ms", "min_ms", "runs", "speedup_of_treefix", "status"]


def timed(call, repeats, warmup, sync=None):
    """Wall milliseconds of call() per run: the median and the minimum after warm-up runs."""
    times = []
    result = None
    for run in range(warmup + repeats):
        start = time.perf_counter()
        result = call()
        if sync:
            sync()
        elapsed = (time.perf_counter() - start) * 1e3
        if run >= warmup:
            times.append(elapsed)
    return statistics.median(times), min(times), result


# --- trees ---------------------------------------------------------------------------------------

def tree_shapes(n, rng):
    star = np.zeros(n, np.int32)
    star[0] = -1
    # Random recursive tree, vertex ids shuffled (the layout a file gives, not the pre-order).
    attach = (rng.random(n) * np.arange(n)).astype(np.int64)
    perm = rng.permutation(n).astype(np.int64)
    random = np.empty(n, np.int32)
    random[perm] = np.where(np.arange(n) > 0, perm[attach], -1)
    # Caterpillar: a path of n/2 vertices, a leaf on each.
    half = n // 2
    caterpillar = np.empty(n, np.int32)
    caterpillar[:half] = np.arange(-1, half - 1)
    caterpillar[half:] = np.arange(0, n - half) % half
    return {"star": star, "random": random, "caterpillar": caterpillar}


def cupy_pointer_jumping(cp, parent, weights):
    """rootfix as a CuPy user writes it: add the ancestor's partial sum, jump, until all roots."""
    result = weights.copy()
    up = parent.copy()
    while True:
        live = up >= 0
        if not bool(live.any()):
            return result
        safe = cp.maximum(up, 0)
        result = cp.where(live, result + result[safe], result)
        up = cp.where(live, up[safe], -1)


def tour_positions(tree):
    """Open and close positions of the Euler tour (as cupy_treefix.py takes them), from the
    tree's pre-order, depths and subtree sizes."""
    order = tree.preorder()
    rank = np.empty(tree.n, np.int64)
    rank[order] = np.arange(tree.n)
    open_pos = 2 * rank - tree.depths()
    close_pos = open_pos + 2 * tree.subtree_sizes().astype(np.int64) - 1
    return open_pos.astype(np.int32), close_pos.astype(np.int32)


def bench_trees(treefix, rt, cp, args, add):
    import cupy_treefix
    n = 1 << args.log_n
    rng = np.random.default_rng(1)
    weights = rng.integers(0, 2, n).astype(np.float32)  # sums stay exact in float32
    out = np.empty(n, np.float32)
    for shape, parent in tree_shapes(n, rng).items():
        tree = treefix.Tree(parent, runtime=rt)
        for fix in ("rootfix", "leaffix"):
            call = getattr(tree, fix)
            ms, low, ours = timed(lambda: call(weights), args.repeats, args.warmup)
            case = shape + " " + fix
            add("treefix", case, n, 0, "treefix (new result array)", ms, low, None, "ok")
            ms_out, low, _ = timed(lambda: call(weights, out=out), args.repeats, args.warmup)
            add("treefix", case, n, 0, "treefix (out= array)", ms_out, low, None, "ok")
            if cp is None:
                continue
            open_pos, close_pos = tour_positions(tree)
            device_open, device_close = cp.asarray(open_pos), cp.asarray(close_pos)
            sync = cp.cuda.Device().synchronize

            def euler():
                w = cp.asarray(weights)
                return cp.asnumpy(cupy_treefix.treefix_euler(cp, device_open, device_close, w, fix))

            peer_ms, low, theirs = timed(euler, args.repeats, args.warmup, sync)
            status = "ok" if np.array_equal(theirs, ours) else "differs"
            add("treefix", case, n, 0, "cupy euler tour (kept tour)", peer_ms, low,
                peer_ms / ms, status)
            if fix == "rootfix":
                device_parent = cp.asarray(parent)

                def jumping():
                    return cp.asnumpy(cupy_pointer_jumping(cp, device_parent, cp.asarray(weights)))

                peer_ms, low, theirs = timed(jumping, args.repeats, args.warmup, sync)
                status = "ok" if np.array_equal(theirs, ours) else "differs"
                add("treefix", case, n, 0, "cupy pointer jumping (kept parents)", peer_ms, low,
                    peer_ms / ms, status)
        del tree


# --- graphs --------------------------------------------------------------------------------------

def rmat_arcs(scale, rng, edge_factor=16):
    """Graph500's R-MAT arcs (A, B, C = 0.57, 0.19, 0.19), ids permuted, self loops dropped."""
    n, m = 1 << scale, edge_factor << scale
    src = np.zeros(m, np.int64)
    dst = np.zeros(m, np.int64)
    ab, c_norm, a_norm = 0.57 + 0.19, 0.19 / (1 - 0.76), 0.57 / 0.76
    for bit in range(scale):
        src_bit = rng.random(m) > ab
        dst_bit = rng.random(m) > np.where(src_bit, c_norm, a_norm)
        src |= src_bit.astype(np.int64) << bit
        dst |= dst_bit.astype(np.int64) << bit
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    keep = src != dst
    return n, src[keep], dst[keep]


def kronecker(scale, rng, edge_factor=16):
    """Graph500's generator: the R-MAT arcs, undirected (a symmetric csr without repeats)."""
    import scipy.sparse as sp
    n, src, dst = rmat_arcs(scale, rng, edge_factor)
    graph = sp.coo_matrix((np.ones(len(src), np.int8), (src, dst)), shape=(n, n))
    graph = (graph + graph.T).tocsr()
    graph.sum_duplicates()
    return graph


def bench_graphs(treefix, rt, args, add):
    from scipy.sparse import csgraph
    for scale in args.kron:
        graph = kronecker(scale, np.random.default_rng(scale))
        n, arcs = graph.shape[0], graph.nnz
        case = "kronecker-%d" % scale
        source = int(np.argmax(np.diff(graph.indptr)))
        kept = treefix.Graph(graph, directed=False, runtime=rt)
        ms, low, (order, pred) = timed(lambda: kept.breadth_first_order(source),
                                       args.repeats, args.warmup)
        add("graph", case + " bfs", n, arcs, "treefix Graph.breadth_first_order", ms, low, None,
            "ok")
        # directed=True on the symmetric matrix: the same search, without SciPy converting the
        # graph on every call (its faster way).
        peer_ms, low, (ref_order, ref_pred) = timed(
            lambda: csgraph.breadth_first_order(graph, source, directed=True), 3, 1)
        status = "ok" if len(order) == len(ref_order) and \
            set(order.tolist()) == set(ref_order.tolist()) else "differs"
        add("graph", case + " bfs", n, arcs, "scipy breadth_first_order (directed=True)",
            peer_ms, low, peer_ms / ms, status)
        ms, low, (count, labels) = timed(kept.connected_components, args.repeats, args.warmup)
        add("graph", case + " components", n, arcs, "treefix Graph.connected_components", ms,
            low, None, "ok")
        peer_ms, low, (ref_count, ref_labels) = timed(
            lambda: csgraph.connected_components(graph, directed=False), 3, 1)
        status = "ok" if count == ref_count and np.array_equal(labels, ref_labels) else "differs"
        add("graph", case + " components", n, arcs, "scipy connected_components", peer_ms, low,
            peer_ms / ms, status)
        del kept, graph


# --- points --------------------------------------------------------------------------------------

def bench_knn(treefix, rt, args, add):
    from scipy.spatial import cKDTree
    n = args.points
    points = np.random.default_rng(3).random((n, 3))

    def ours():
        tree = treefix.KDTree(points, runtime=rt)
        return tree.query(points, k=8)

    ms, low, (d, i) = timed(ours, args.repeats, args.warmup)
    add("knn", "uniform-3d k=8", n, 0, "treefix KDTree build + query", ms, low, None, "ok")
    kept = treefix.KDTree(points, runtime=rt)
    q_ms, q_low, _ = timed(lambda: kept.query(points, k=8), args.repeats, args.warmup)
    add("knn", "uniform-3d k=8", n, 0, "treefix KDTree.query (kept tree)", q_ms, q_low, None,
        "ok")

    def theirs():
        tree = cKDTree(points)
        return tree.query(points, k=8, workers=-1)

    peer_ms, low, (ref_d, ref_i) = timed(theirs, 3, 1)
    # float64 in both: the same distances; indices too where distances are not tied
    same = np.array_equal(d, ref_d) and (i == ref_i).mean() > 0.9999
    add("knn", "uniform-3d k=8", n, 0, "scipy cKDTree build + query (workers=-1)", peer_ms, low,
        peer_ms / ms, "ok" if same else "differs")


# --- the host link -------------------------------------------------------------------------------

def bench_link(cp, args, add):
    import cupyx
    size = 128 << 20
    pageable = np.ones(size, np.uint8)
    pinned = cupyx.empty_pinned(size, np.uint8)
    pinned[:] = 1
    device = cp.empty(size, np.uint8)
    sync = cp.cuda.Device().synchronize
    for name, host in (("pageable", pageable), ("page-locked", pinned)):
        ms, low, _ = timed(lambda: device.set(host), args.repeats, args.warmup, sync)
        add("link", "128 MiB", size, 0, "host to device, %s (%.1f GB/s)" % (name, size / low / 1e6),
            ms, low, None, "ok")
        ms, low, _ = timed(lambda: device.get(out=host), args.repeats, args.warmup, sync)
        add("link", "128 MiB", size, 0, "device to host, %s (%.1f GB/s)" % (name, size / low / 1e6),
            ms, low, None, "ok")


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--suites", default="treefix,graph,knn,link")
    arguments.add_argument("--log-n", type=int, default=24)
    arguments.add_argument("--kron", default="21,22")
    arguments.add_argument("--points", type=int, default=1000000)
    arguments.add_argument("--repeats", type=int, default=10)
    arguments.add_argument("--warmup", type=int, default=3)
    arguments.add_argument("--device", default=None)
    args = arguments.parse_args()
    args.kron = [int(s) for s in args.kron.split(",") if s]
    suites = set(args.suites.split(","))

    import treefix
    rt = treefix.Runtime(args.device)
    try:
        os.environ.setdefault("CUPY_ACCELERATORS", "cub")
        import cupy as cp
        cp.cuda.Device().synchronize()
    except Exception as e:  # noqa: BLE001 - no CUDA here: the CuPy columns are left out
        print("# CuPy unavailable (%s): its rows are skipped" % e.__class__.__name__)
        cp = None
    info = rt.device
    header = {"device": info["name"], "driver": info["platform"] + " " + info["driver"],
              "date": peer_common.utc_date(), "commit": peer_common.checkout_commit()}
    print("# device: %s | driver: %s | date: %s | commit: %s"
          % (header["device"], header["driver"], header["date"], header["commit"]))
    print("%-8s %-24s %10s %-44s %10s %10s %8s  %s"
          % ("suite", "case", "n", "implementation", "median ms", "min ms", "treefix x", "status"))
    rows = []

    def add(suite, case, n, arcs, implementation, median, low, speedup, status):
        rows.append(dict(header, suite=suite, case=case, n=n, arcs=arcs,
                         implementation=implementation, median_ms="%.3f" % median,
                         min_ms="%.3f" % low, runs=args.repeats,
                         speedup_of_treefix="" if speedup is None else "%.1f" % speedup,
                         status=status))
        print("%-8s %-24s %10d %-44s %10.3f %10.3f %8s  %s"
              % (suite, case, n, implementation, median, low,
                 "" if speedup is None else "%.1fx" % speedup, status), flush=True)
        peer_common.write_csv(args.csv, COLUMNS, rows)  # as we go: a crash keeps what ran

    if "link" in suites and cp is not None:
        bench_link(cp, args, add)
    if "treefix" in suites:
        bench_trees(treefix, rt, cp, args, add)
    if "graph" in suites:
        bench_graphs(treefix, rt, args, add)
    if "knn" in suites:
        bench_knn(treefix, rt, args, add)


if __name__ == "__main__":
    main()
