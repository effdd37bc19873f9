#!/usr/bin/env python3
"""Where the time of Tree(parents), reroot and prune goes on a large tree, beside CuPy's copies of
the bytes they move over the host link (pageable host memory, when CuPy is installed).

Tree surgery returns a new Tree that stays on the device: the edited parent array and lengths are
made there and the new tree is toured there (no upload, no validation); only the origins come back
(return_origin=True). This script times each whole call and, for comparison, a new Tree made from
NumPy copies of the call's result (an upload, a validation and a tour), and CuPy's pageable copies
of the same
bytes. From the repository root, with the module on PYTHONPATH:

    python3 bench/phylo_surgery_phases.py --csv OUT.csv [--log-n 24] [--repeats 5]
"""
import argparse
import sys

import numpy as np

from peer_common import host_link_copies, timed, write_csv


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--csv", required=True)
    arguments.add_argument("--log-n", type=int, default=24)
    arguments.add_argument("--repeats", type=int, default=5)
    args = arguments.parse_args()
    import treefix
    rt = treefix.Runtime()
    copies = host_link_copies()
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
    ms, low, _ = timed(lambda: treefix.Tree(parents, runtime=rt), args.repeats, 1)
    add("Tree(int32 parents)", ms, low, "%d MB up" % (parents.nbytes >> 20))
    ms, low, tree = timed(lambda: treefix.Tree(parents, lengths=lengths, runtime=rt),
                          args.repeats, 1)
    add("Tree(int32 parents, lengths=float64)", ms, low,
        "%d MB up" % ((parents.nbytes + lengths.nbytes) >> 20))
    if copies is not None:
        up, down = copies
        ms, low, _ = timed(lambda: up(parents), args.repeats, 1)
        add("CuPy's pageable copy: upload of the parents", ms, low,
            "%d MB" % (parents.nbytes >> 20))
        ms, low, _ = timed(lambda: up(lengths), args.repeats, 1)
        add("CuPy's pageable copy: upload of the lengths", ms, low,
            "%d MB" % (lengths.nbytes >> 20))
        on_device = (up(parents), up(lengths), up(parents))
        ms, low, _ = timed(lambda: down(on_device), args.repeats, 1)
        add("CuPy's pageable copy: download of parents, lengths, origins", ms, low,
            "%d MB" % (sum(a.nbytes for a in on_device) >> 20))
        del on_device
    tree.lca(np.zeros(2, np.int32), np.zeros(2, np.int32))  # the index prune uses, built once
    tips = tree.tips()
    internal = int(tree.parents[int(tips[0])])
    keep = rng.choice(tips, len(tips) // 2, replace=False).astype(np.int32)
    for name, call in (("reroot at a vertex", lambda: tree.reroot(internal, return_origin=True)),
                       ("prune to half the tips", lambda: tree.prune(keep, return_origin=True))):
        ms, low, (edited, origin) = timed(call, args.repeats, 1)
        add(name + ": the whole call", ms, low, "%d vertices out" % edited.n)
        edited_parents, edited_lengths = edited.parents, edited.lengths
        ms_tree, low_tree, _ = timed(
            lambda: treefix.Tree(edited_parents, lengths=edited_lengths, runtime=rt),
            args.repeats, 1)
        add(name + ": its result as Tree(parents, lengths=)", ms_tree, low_tree,
            "upload, validation and tour of the same tree, for comparison")
        del edited, origin
    write_csv(args.csv, ["step", "median_ms", "min_ms", "note"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
