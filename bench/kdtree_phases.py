#!/usr/bin/env python3
"""Where the time of build + query(k) goes for treefix.KDTree on one point set: the build alone,
the query of a kept tree alone, and beside them CuPy's copies of the same bytes over the host
link (pageable host memory, when CuPy is installed: a reference, not a floor). From the repository root, with the module on
PYTHONPATH:

    python3 bench/kdtree_phases.py --csv OUT.csv [--points FILE.xyz[.xz] | --uniform N] [--k 8]
"""
import argparse
import lzma
import sys

import numpy as np

from peer_common import host_link_copies, timed, write_csv


def load_points(path):
    """x y z per line (.xyz, or .xyz.xz); other columns ignored."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return np.loadtxt(f, usecols=(0, 1, 2), dtype=np.float64)


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--points", default=None)
    arguments.add_argument("--uniform", type=int, default=1000000)
    arguments.add_argument("--k", type=int, default=8)
    arguments.add_argument("--repeats", type=int, default=7)
    args = arguments.parse_args()
    import treefix
    rt = treefix.Runtime()
    copies = host_link_copies()
    if args.points:
        points, label = load_points(args.points), args.points.rsplit("/", 1)[-1]
    else:
        points, label = np.random.default_rng(1).random((args.uniform, 3)), "uniform"
    rows = []

    def add(step, ms, low, note=""):
        rows.append({"points": label, "n": len(points), "step": step, "median_ms": "%.3f" % ms,
                     "min_ms": "%.3f" % low, "note": note})
        print("%-48s %10.3f %10.3f  %s" % (step, ms, low, note), flush=True)

    print("# %s, %s: %d points, medians of %d runs after one warm-up"
          % (rt, label, len(points), args.repeats))
    ms, low, _ = timed(lambda: treefix.KDTree(points, runtime=rt).query(points, k=args.k),
                       args.repeats, 1)
    add("build + query(k=%d)" % args.k, ms, low)
    ms, low, tree = timed(lambda: treefix.KDTree(points, runtime=rt), args.repeats, 1)
    add("build alone", ms, low, "%.1f MB of float64 up" % (points.nbytes / 1e6))
    ms, low, (d, i) = timed(lambda: tree.query(points, k=args.k), args.repeats, 1)
    add("query(k=%d) of the kept tree" % args.k, ms, low,
        "%.1f MB up, %.1f MB down" % (points.nbytes / 1e6, (d.nbytes + i.nbytes) / 1e6))
    if copies is not None:
        up, down = copies
        ms, low, _ = timed(lambda: up(points), args.repeats, 1)
        add("CuPy's pageable copy: upload of the points", ms, low)
        on_device = (up(d), up(i))
        ms, low, _ = timed(lambda: down(on_device), args.repeats, 1)
        add("CuPy's pageable copy: download of distances, indices", ms, low)
    write_csv(args.csv, ["points", "n", "step", "median_ms", "min_ms", "note"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
