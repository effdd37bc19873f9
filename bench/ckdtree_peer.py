#!/usr/bin/env python3
"""SciPy's cKDTree on the point sets that `treefix-bench points --dump-dir DIR` (or
`treefix-bench ropes --dump-dir DIR`) wrote, so that the CPU peer answers the same questions on
the same points as our traversals:

    build      cKDTree(points)                                       (default leafsize 16)
    query      tree.query(points, k=k, workers=-1)                   kNN, the points as queries
    ball       tree.query_ball_point(points, r, return_length=True, workers=-1)
                                                                     correlation counts

The manifest DIR/points_manifest.csv (bench/README.md, "Point dumps") lists one point set per
row: name, file (a float32 .npy array of shape (n, d)), n, dim, radius, k, counts_file (our
correlation counts as an int64 .npy array, or empty). Times are host wall clocks
(time.perf_counter), medians over --repeats runs after --warmup runs. Where our counts are given,
SciPy's are compared with them: the median count must be equal (status "ok"); the number of
points whose count differs is reported too, since SciPy tests |p - q| <= r in double precision
and we test the squared float distance against float(r)^2, which can differ for pairs at the
radius within rounding.

Writes CSV rows with the device column "cpu-scipy", the number of worker threads, n, build_ms,
query_ms and ball_ms, like the suites' CSV (device, driver, date first).

Usage:  bench/ckdtree_peer.py DUMP_DIR --csv OUT.csv [--repeats 5] [--warmup 1] [--workers -1]
"""
import csv
import os
import platform
import statistics
import sys
import time

import peer_common

MANIFEST = "points_manifest.csv"
MANIFEST_COLUMNS = ["name", "file", "n", "dim", "radius", "k", "counts_file"]
COLUMNS = ["device", "driver", "date", "set", "threads", "n", "dim", "k", "radius", "build_ms",
           "query_ms", "ball_ms", "mean_ball", "median_ball", "our_median_ball", "counts_differ",
           "runs", "status"]


def fail(message):
    sys.exit("ckdtree_peer.py: " + message)


def read_manifest(dump_dir):
    path = os.path.join(dump_dir, MANIFEST)
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in MANIFEST_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                fail("%s: missing columns %s (bench/README.md, 'Point dumps')" % (path, missing))
            entries = list(reader)
    except OSError as e:
        fail("cannot read %s: %s" % (path, e))
    if not entries:
        fail("%s lists no point sets" % path)
    for line, e in enumerate(entries, 2):
        try:
            e["n"], e["dim"], e["k"] = int(e["n"]), int(e["dim"]), int(e["k"])
            e["radius"] = float(e["radius"])
        except ValueError:
            fail("%s:%d: n, dim, k must be integers and radius a number" % (path, line))
        if e["k"] < 1 or e["radius"] < 0:
            fail("%s:%d: k must be >= 1 and radius >= 0" % (path, line))
    return entries


def load_points(np, dump_dir, entry):
    path = os.path.join(dump_dir, entry["file"])
    points = np.load(path)
    if points.ndim != 2 or points.shape != (entry["n"], entry["dim"]):
        fail("%s has shape %s, the manifest says (%d, %d)"
             % (path, points.shape, entry["n"], entry["dim"]))
    if not np.all(np.isfinite(points)):
        fail("%s holds non-finite coordinates" % path)
    return points


def timed(function, warmup, repeats):
    """The last result and the median wall milliseconds of the timed runs."""
    times, result = [], None
    for run in range(warmup + repeats):
        t0 = time.perf_counter()
        result = function()
        if run >= warmup:
            times.append((time.perf_counter() - t0) * 1e3)
    return result, statistics.median(times)


def main():
    arguments = peer_common.parser(__doc__, "directory written by treefix-bench points --dump-dir",
                                   repeats=5, warmup=1)
    arguments.add_argument("--workers", type=int, default=-1, help="SciPy workers (-1: all cores)")
    args = peer_common.parse(arguments)
    entries = read_manifest(args.dump_dir)
    import numpy as np
    import scipy
    from scipy.spatial import cKDTree
    threads = os.cpu_count() if args.workers == -1 else args.workers
    driver = "SciPy %s, NumPy %s, %s, %d threads" % (
        scipy.__version__, np.__version__, platform.processor() or platform.machine(), threads)
    date = peer_common.utc_date()
    print("# device: cpu-scipy | driver: %s | date: %s" % (driver, date))
    rows = []
    for entry in entries:
        points = load_points(np, args.dump_dir, entry)
        # The radius as the float our kernels compare with (squared in float there).
        radius = float(np.float32(entry["radius"]))
        tree, build_ms = timed(lambda: cKDTree(points), args.warmup, args.repeats)
        k = min(entry["k"], entry["n"])
        _, query_ms = timed(lambda: tree.query(points, k=k, workers=args.workers),
                            args.warmup, args.repeats)
        counts, ball_ms = timed(
            lambda: tree.query_ball_point(points, radius, return_length=True,
                                          workers=args.workers),
            args.warmup, args.repeats)
        counts = np.asarray(counts, dtype=np.int64)
        status, ours_median, differ = "no-counts", "", ""
        if entry["counts_file"]:
            ours = np.load(os.path.join(args.dump_dir, entry["counts_file"])).astype(np.int64)
            if ours.shape != counts.shape:
                fail("%s: %d counts for %d points" % (entry["counts_file"], ours.size, counts.size))
            ours_median = float(np.median(ours))
            differ = int(np.count_nonzero(ours != counts))
            status = "ok" if ours_median == float(np.median(counts)) else "median-differs"
        row = {"device": "cpu-scipy", "driver": driver, "date": date, "set": entry["name"],
               "threads": threads, "n": entry["n"], "dim": entry["dim"], "k": k,
               "radius": "%.9g" % radius, "build_ms": "%.3f" % build_ms,
               "query_ms": "%.3f" % query_ms, "ball_ms": "%.3f" % ball_ms,
               "mean_ball": "%.2f" % float(np.mean(counts)) if counts.size else "0",
               "median_ball": float(np.median(counts)) if counts.size else 0,
               "our_median_ball": ours_median, "counts_differ": differ,
               "runs": args.repeats, "status": status}
        rows.append(row)
        print("%-24s n %9d  build %9.3f ms  query(k=%d) %9.3f ms  ball(r=%.4g) %9.3f ms  "
              "mean %6.1f  %s%s" % (entry["name"], entry["n"], build_ms, k, query_ms, radius,
                                    ball_ms, float(row["mean_ball"]), status,
                                    "" if differ in ("", 0) else " (%d counts differ)" % differ))
    peer_common.write_csv(args.csv, COLUMNS, rows)
    return 1 if any(r["status"] == "median-differs" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
