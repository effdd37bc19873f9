#!/usr/bin/env python3
"""Where the time of Tree(parents), reroot and prune goes on a large tree, beside the floors of
the bytes they move over the host link (CuPy copies of the same bytes, when CuPy is installed).

Tree surgery returns a new Tree: the edited parent array, lengths and origins are computed on the
device, come back to the host, and the new Tree is made from them (upload, validation, tour). This
script times each whole call and the new Tree's construction from the call's own result, so that
the rest is the device's edit and its download; the floors are what the same bytes cost to move
alone. From the repository root, with the module on PYTHONPATH:

    python3 bench/phylo_surgery_phases.py --csv OUT.csv [--log-n 24] [--repeats 5]
"""
import argparse
import csv
import statistics
import sys
import time

import numpy as np


def timed(call, repeats, warmup=1, sync=None):
    """Median and minimum wall milliseconds of `call` over `repeats` runs after `warmup`."""
    result = None
    for _ in range(warmup):
        result = call()
        if sync:
            sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = call()
        if sync:
            sync()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times), result


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--log-n", type=int, default=24)
    arguments.add_argument("--repeats", type=int, default=5)
    args = arguments.parse_args()
    import treefix
    rt = treefix.Runtime()
    try:
        import cupy
    except ImportError:  # floors are then left out
        cupy = None
    rows = []

    def add(step, ms, low, note=""):
        rows.append({"step": step, "median_ms": "%.3f" % ms, "min_ms": "%.3f" % low, "note": note})
        print("%-60s %10.3f %10.3f  %s" % (step, ms, low, note), flush=True)

    n = 1 << args.log_n
    rng = np.random.default_rng(3)
    parents = treefix.generate("random-shuffled", n, seed=1)
    lengths = rng.exponential(1.0, n)
    print("# %s, n = %d, medians of %d runs after one warm-up" % (rt, n, args.repeats))
    print("%-60s %10s %10s" % ("step", "median ms", "min ms"))
    ms, low, _ = timed(lambda: treefix.Tree(parents, runtime=rt), args.repeats)
    add("Tree(int32 parents)", ms, low, "%d MB up" % (parents.nbytes >> 20))
    ms, low, tree = timed(lambda: treefix.Tree(parents, lengths=lengths, runtime=rt), args.repeats)
    add("Tree(int32 parents, lengths=float64)", ms, low,
        "%d MB up" % ((parents.nbytes + lengths.nbytes) >> 20))
    if cupy is not None:
        sync = cupy.cuda.Device().synchronize
        ms, low, _ = timed(lambda: cupy.asarray(parents), args.repeats, sync=sync)
        add("floor: CuPy upload of the parents", ms, low, "%d MB" % (parents.nbytes >> 20))
        ms, low, _ = timed(lambda: cupy.asarray(lengths), args.repeats, sync=sync)
        add("floor: CuPy upload of the lengths", ms, low, "%d MB" % (lengths.nbytes >> 20))
        on_device = (cupy.asarray(parents), cupy.asarray(lengths), cupy.asarray(parents))
        ms, low, _ = timed(lambda: [cupy.asnumpy(a) for a in on_device], args.repeats)
        add("floor: CuPy download of parents, lengths, origins", ms, low,
            "%d MB" % (sum(a.nbytes for a in on_device) >> 20))
        del on_device
    tree.lca(np.zeros(2, np.int32), np.zeros(2, np.int32))  # the index prune uses, built once
    tips = tree.tips()
    internal = int(tree.parents[int(tips[0])])
    keep = rng.choice(tips, len(tips) // 2, replace=False).astype(np.int32)
    for name, call in (("reroot at a vertex", lambda: tree.reroot(internal, return_origin=True)),
                       ("prune to half the tips", lambda: tree.prune(keep, return_origin=True))):
        ms, low, (edited, origin) = timed(call, args.repeats)
        add(name + ": the whole call", ms, low, "%d vertices out" % edited.n)
        edited_parents, edited_lengths = edited.parents, edited.lengths
        ms_tree, low_tree, _ = timed(
            lambda: treefix.Tree(edited_parents, lengths=edited_lengths, runtime=rt), args.repeats)
        add(name + ": of which the new Tree", ms_tree, low_tree,
            "Tree(parents, lengths=) of the result")
        add(name + ": the rest (edit on the device, download)", ms - ms_tree, low - low_tree,
            "difference of the two above")
        del edited, origin
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["step", "median_ms", "min_ms", "note"])
        writer.writeheader()
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
