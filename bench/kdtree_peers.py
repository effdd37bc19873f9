#!/usr/bin/env python3
"""treefix.KDTree against scipy.spatial.cKDTree, side by side in one process, on the same float64
points (medians after warm-up calls), every result checked against cKDTree's:

  knn     build + query(k=8) of the points themselves (cKDTree with workers=-1), and the query
          alone on a kept tree
  ball    query_ball_point(points, r) index lists, r giving about 16 neighbours a point, workers=-1
          for both; with return_length=True; and beside them Python slicing that many lists of those
          ints out of one list (a reference for the lists' cost, not a floor: it pays the
          interpreter's loop, which the module's C++ does not)
  pairs   query_pairs(r, output_type='ndarray') (cKDTree has no workers here)
  count   count_neighbors(self, [r/2, r, 2r])
  box     build + query(k=8) in a periodic box (boxsize=1; the uniform sets only)

Point sets: uniform 3-D in [0, 1) for each --sizes, and a real scan (--scan, default the Kinect
office scan of ../shared/data, .xyz or .xyz.xz; skipped when absent). Checks: kNN distances and
indices equal (indices compared where distances are not tied); ball lengths equal and the lists of
10^4 sampled queries equal; pairs equal as sorted arrays; counts equal. Prints a table and writes
CSV (--csv) as it goes, with the device, driver, date and commit on every row.

Usage: PYTHONPATH=build/python python3 bench/kdtree_peers.py --csv OUT.csv
       [--sizes 1000000,10000000] [--cases knn,ball,pairs,count,box] [--scan PATH|none]
       [--repeats 5] [--warmup 2] [--peer-repeats 3] [--peer-warmup 1] [--device SPEC]
"""
import argparse
import lzma
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peer_common  # noqa: E402
from peer_common import timed  # noqa: E402

COLUMNS = ["device", "driver", "date", "commit", "host_threads", "case", "points", "detail",
           "implementation", "median_ms", "min_ms", "runs", "speedup_of_treefix", "status"]
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SCAN = os.path.join(os.path.dirname(REPO), "shared", "data", "pcl_kinect_office1.xyz.xz")



def load_scan(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return np.loadtxt(f, dtype=np.float64)[:, :3]


def untied_equal(d, i, ref_d, ref_i):
    """Distances equal; indices equal wherever a distance is not tied within its row."""
    if not np.array_equal(d, ref_d):
        return False
    tied = np.zeros(d.shape, bool)
    tied[:, 1:] |= d[:, 1:] == d[:, :-1]
    tied[:, :-1] |= d[:, :-1] == d[:, 1:]
    tied[:, -1] = True  # the next candidate is unknown
    return np.array_equal(i[~tied], ref_i[~tied])


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--sizes", default="1000000,10000000")
    arguments.add_argument("--cases", default="knn,ball,pairs,count,box")
    arguments.add_argument("--scan", default=DEFAULT_SCAN)
    arguments.add_argument("--repeats", type=int, default=5)
    arguments.add_argument("--warmup", type=int, default=2)
    arguments.add_argument("--peer-repeats", type=int, default=3)
    arguments.add_argument("--peer-warmup", type=int, default=1)
    arguments.add_argument("--device", default=None)
    args = arguments.parse_args()
    cases = set(args.cases.split(","))

    import treefix
    from scipy.spatial import cKDTree
    rt = treefix.Runtime(args.device)
    info = rt.device
    commit = peer_common.checkout_commit()
    header = {"device": info["name"], "driver": info["platform"] + " " + info["driver"],
              "date": peer_common.utc_date(), "commit": commit,
              "host_threads": os.cpu_count()}
    print("# device: %s | driver: %s | date: %s | commit: %s | host threads: %s"
          % (header["device"], header["driver"], header["date"], commit, os.cpu_count()))
    print("%-6s %-10s %10s %-22s %-46s %10s %10s %8s  %s" % (
        "case", "points", "n", "detail", "implementation", "median ms", "min ms", "treefix x",
        "status"))
    rows = []

    def add(case, name, n, detail, implementation, median, low, runs, speedup, status):
        rows.append(dict(header, case=case, points="%s %d" % (name, n), detail=detail,
                         implementation=implementation, median_ms="%.3f" % median,
                         min_ms="%.3f" % low, runs=runs,
                         speedup_of_treefix="" if speedup is None else "%.1f" % speedup,
                         status=status))
        print("%-6s %-10s %10d %-22s %-46s %10.3f %10.3f %8s  %s" % (
            case, name, n, detail, implementation, median, low,
            "" if speedup is None else "%.1fx" % speedup, status), flush=True)
        peer_common.write_csv(args.csv, COLUMNS, rows)  # as we go: a crash keeps what ran

    def ours(call):
        return timed(call, args.repeats, args.warmup)

    def theirs(call):
        return timed(call, args.peer_repeats, args.peer_warmup)

    sets = [("uniform", np.random.default_rng(n).random((n, 3)))
            for n in (int(s) for s in args.sizes.split(",") if s)]
    if args.scan != "none" and os.path.exists(args.scan):
        sets.append(("scan", load_scan(args.scan)))
    elif args.scan != "none":
        print("# no scan at %s: skipped" % args.scan)

    for name, points in sets:
        n = len(points)
        kept, ref = treefix.KDTree(points, runtime=rt), cKDTree(points)
        # r for about 16 neighbours a point: the median distance of the 16th nearest.
        r = float(np.median(kept.query(points[:: max(1, n // 20000)], k=16)[0][:, -1]))
        if "knn" in cases:
            ms, low, (d, i) = ours(lambda: treefix.KDTree(points, runtime=rt).query(points, k=8))
            peer, peer_low, (ref_d, ref_i) = theirs(
                lambda: cKDTree(points).query(points, k=8, workers=-1))
            status = "equal" if untied_equal(d, i, ref_d, ref_i) else "DIFFERS"
            add("knn", name, n, "k=8", "treefix KDTree build + query", ms, low, args.repeats,
                None, status)
            add("knn", name, n, "k=8", "cKDTree build + query (workers=-1)", peer, peer_low,
                args.peer_repeats, peer / ms, status)
            del d, i
            ms, low, _ = ours(lambda: kept.query(points, k=8))
            peer, peer_low, _ = theirs(lambda: ref.query(points, k=8, workers=-1))
            add("knn", name, n, "k=8", "treefix KDTree.query (kept tree)", ms, low,
                args.repeats, None, status)
            add("knn", name, n, "k=8", "cKDTree.query (kept tree, workers=-1)", peer, peer_low,
                args.peer_repeats, peer / ms, status)
        if "ball" in cases:
            detail = "r=%.3g (16 a point)" % r
            ms, low, lengths = ours(lambda: kept.query_ball_point(points, r, return_length=True,
                                                                  workers=-1))
            peer, peer_low, ref_lengths = theirs(
                lambda: ref.query_ball_point(points, r, return_length=True, workers=-1))
            status = "equal" if np.array_equal(lengths, ref_lengths) else "DIFFERS"
            add("ball", name, n, detail, "treefix query_ball_point, lengths", ms, low,
                args.repeats, None, status)
            add("ball", name, n, detail, "cKDTree query_ball_point, lengths", peer, peer_low,
                args.peer_repeats, peer / ms, status)
            ms, low, lists = ours(lambda: kept.query_ball_point(points, r, workers=-1))
            peer, peer_low, ref_lists = theirs(lambda: ref.query_ball_point(points, r,
                                                                            workers=-1))
            sample = np.random.default_rng(0).choice(n, min(n, 10000), replace=False)
            same = all(list(lists[q]) == list(ref_lists[q]) for q in sample) and \
                np.array_equal([len(x) for x in lists[sample]], lengths[sample])
            status = "equal (lengths; 10^4 lists)" if same else "DIFFERS"
            total = int(lengths.sum())
            add("ball", name, n, detail, "treefix query_ball_point, lists", ms, low,
                args.repeats, None, status)
            add("ball", name, n, detail, "cKDTree query_ball_point, lists", peer, peer_low,
                args.peer_repeats, peer / ms, status)
            del lists, ref_lists
            # A reference for any answer in lists: Python slicing n lists of these `total` ints.
            flat = list(range(total))
            offsets = np.concatenate([[0], np.cumsum(lengths)]).tolist()

            def python_lists():
                result = np.empty(n, dtype=object)
                result[:] = [flat[a:b] for a, b in zip(offsets[:-1], offsets[1:])]
                return result
            ms_python, low_python, _ = theirs(python_lists)
            add("ball", name, n, detail,
                "python: %d lists sliced, %d ints (%.0f MB of int32)" % (n, total, total * 4e-6),
                ms_python, low_python, args.peer_repeats, None, "")
            del flat, offsets
        if "pairs" in cases:
            ms, low, pairs = ours(lambda: kept.query_pairs(r, output_type="ndarray"))
            peer, peer_low, ref_pairs = theirs(lambda: ref.query_pairs(r, output_type="ndarray"))
            ref_pairs = ref_pairs[np.lexsort((ref_pairs[:, 1], ref_pairs[:, 0]))]
            status = "equal" if np.array_equal(pairs, ref_pairs) else "DIFFERS"
            detail = "r=%.3g, %d pairs" % (r, len(pairs))
            add("pairs", name, n, detail, "treefix query_pairs (ndarray)", ms, low, args.repeats,
                None, status)
            add("pairs", name, n, detail, "cKDTree query_pairs (ndarray)", peer, peer_low,
                args.peer_repeats, peer / ms, status)
            del pairs, ref_pairs
        if "count" in cases:
            radii = [r / 2, r, 2 * r]
            ms, low, counts = ours(lambda: kept.count_neighbors(kept, radii))
            peer, peer_low, ref_counts = theirs(lambda: ref.count_neighbors(ref, radii))
            status = "equal" if np.array_equal(counts, ref_counts) else "DIFFERS"
            add("count", name, n, "r/2, r, 2r", "treefix count_neighbors (self)", ms, low,
                args.repeats, None, status)
            add("count", name, n, "r/2, r, 2r", "cKDTree count_neighbors (self)", peer, peer_low,
                args.peer_repeats, peer / ms, status)
        if "box" in cases and name == "uniform":
            ms, low, (d, i) = ours(lambda: treefix.KDTree(points, boxsize=1.0, runtime=rt)
                                   .query(points, k=8))
            peer, peer_low, (ref_d, ref_i) = theirs(
                lambda: cKDTree(points, boxsize=1.0).query(points, k=8, workers=-1))
            status = "equal" if untied_equal(d, i, ref_d, ref_i) else "DIFFERS"
            add("box", name, n, "boxsize=1, k=8", "treefix KDTree build + query", ms, low,
                args.repeats, None, status)
            add("box", name, n, "boxsize=1, k=8", "cKDTree build + query (workers=-1)", peer,
                peer_low, args.peer_repeats, peer / ms, status)
            del d, i, ref_d, ref_i
        del kept, ref


if __name__ == "__main__":
    main()
