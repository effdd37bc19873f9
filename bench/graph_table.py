#!/usr/bin/env python3
"""Side-by-side table of bench/run_graph.sh's results: our suites beside the peers.

    python3 bench/graph_table.py OUTDIR > OUTDIR/graph_table.md

Reads OUTDIR/bfs.csv, rooting.csv, paper-graphs.csv (treefix-bench) and peers/peers.txt
(peers.sh). Connectivity is compared on the labelling kernels alone (our "connectivity" phase;
ECL-CC's compute time covers the same five kernels); the spanning-forest packing is listed apart.
"""
import csv
import os
import re
import sys


def tables(path):
    """The CSV tables of one file (blank lines separate them), each a list of dict rows."""
    if not os.path.exists(path):
        return []
    blocks, block = [], []
    with open(path) as f:
        for line in f:
            if line.strip():
                block.append(line)
            elif block:
                blocks.append(block)
                block = []
    if block:
        blocks.append(block)
    return [list(csv.DictReader(b)) for b in blocks]


def rows(path):
    return [r for t in tables(path) for r in t]


def peers(path):
    """{(peer prefix, input): (time_ms, extra)} from peers.txt."""
    found = {}
    if not os.path.exists(path):
        return found
    for line in open(path):
        if line.startswith("#"):
            continue
        m = re.match(r"(\S+)\s+(\S+)\s+time_ms=(\S+)\s+(.*)", line)
        if m:
            found[(m.group(1).split("(")[0], m.group(2))] = (float(m.group(3)), m.group(4))
    return found


def phase(note, name):
    m = re.search(r"\b%s=([0-9.]+)" % re.escape(name), note or "")
    return float(m.group(1)) if m else None


def fmt(x, digits=2):
    return "-" if x is None else ("%.*f" % (digits, x))


def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else "%.2f" % (a / b)


def main():
    out = sys.argv[1]
    bfs = rows(os.path.join(out, "bfs.csv"))
    rooting = rows(os.path.join(out, "rooting.csv"))
    paper = rows(os.path.join(out, "paper-graphs.csv"))
    peer = peers(os.path.join(out, "peers", "peers.txt"))
    device = (bfs or rooting or [{}])[0]
    print("# Graphs on %s (driver %s, %s)\n" % (device.get("device", "?"), device.get("driver", "?"),
                                                 device.get("date", "?")))

    print("## Connected components (labelling kernels, ms: the default setting, and the best)\n")
    print("| graph | ours (default) | best | best setting | forest packing | ECL-CC (GPU) | ours / ECL-CC | gapbs Afforest (16 cores) |")
    print("|---|---|---|---|---|---|---|---|")
    pairs = [("kronecker scale 22", "kron22"), ("grid 2048x2048", "grid2048")]
    cc = [r for r in rooting if r.get("part") == "cc"]
    names = [p[0] for p in pairs] + sorted({r["input"] for r in cc} - {p[0] for p in pairs})
    for name in names:
        mine = [(phase(r["note"], "connectivity"), r) for r in cc if r["input"] == name]
        mine = [m for m in mine if m[0] is not None]
        if not mine:
            continue
        best, row = min(mine, key=lambda m: m[0])
        default = next((m[0] for m in mine if m[1]["method"] == "samples=auto"), best)
        key = dict(pairs).get(name)
        ecl = peer.get(("ecl-cc-v1.1", key), (None,))[0] if key else None
        gap = peer.get(("gapbs-cc-afforest", key), (None,))[0] if key else None
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, fmt(default, 3), fmt(best, 3), row["method"],
            fmt(phase(row["note"], "cc-forest"), 3), fmt(ecl, 3), ratio(default, ecl),
            fmt(gap, 2)))

    print("\n## BFS (median of random sources; wall ms and GTEPS on the wall time)\n")
    print("| graph | levels | ours wall ms | kernel ms | GTEPS | variant | gapbs (16 cores) ms | gapbs GTEPS | ours / gapbs time |")
    print("|---|---|---|---|---|---|---|---|---|")
    bfs_pairs = {"kronecker-22": "kron22", "grid-2048x2048": "grid2048"}
    for name in dict.fromkeys(r["graph"] for r in bfs):
        mine = [r for r in bfs if r["graph"] == name]
        best = min(mine, key=lambda r: float(r["wall_ms"]))
        key = bfs_pairs.get(name)
        g = peer.get(("gapbs-bfs", key)) if key else None
        gteps = re.search(r"GTEPS=([0-9.]+)", g[1]).group(1) if g else "-"
        print("| %s | %s | %s | %s | %s | %s, small %s, groups %s | %s | %s | %s |" % (
            name, best["levels"], best["wall_ms"], best["kernel_ms"], best["GTEPS(wall)"],
            best["bfs"], best["small_frontier"], best["groups"], fmt(g[0] if g else None),
            gteps, ratio(float(best["wall_ms"]), g[0] if g else None)))

    print("\n## Rooted spanning forests (kernel ms / wall ms, depth of the tree)\n")
    rst = [r for r in rooting if r.get("part") == "rst"]
    methods = ["bfs", "euler+ruling-set", "pr"]
    print("| graph | " + " | ".join(methods) + " |")
    print("|---|" + "---|" * len(methods))
    for name in dict.fromkeys(r["input"] for r in rst):
        cells = []
        for m in methods:
            r = next((r for r in rst if r["input"] == name and r["method"] == m), None)
            cells.append("%s / %s, depth %s" % (r["kernel_ms"], r["wall_ms"], r["depth"]) if r else "-")
        print("| %s | %s |" % (name, " | ".join(cells)))

    if paper:
        print("\n## Treefix (rootfix, sum) on each real graph's BFS spanning tree (ms)\n")
        algs = list(dict.fromkeys(r["algorithm"] for r in paper))
        # branching: children per internal vertex; vertices per level (n / depth): the seed
        # paper's Table I "branching" (older CSVs lack the column)
        print("| graph | n | depth | branching | vertices per level | " + " | ".join(algs) + " |")
        print("|---|---|---|---|---|" + "---|" * len(algs))
        for shape in dict.fromkeys(r["shape"] for r in paper):
            rs = [r for r in paper if r["shape"] == shape]
            cells = [next((r["compute_ms"] or r["status"] for r in rs if r["algorithm"] == a), "-")
                     for a in algs]
            per_level = rs[0].get("vertices_per_level") or "%.1f" % (
                int(rs[0]["n"]) / max(int(rs[0]["depth"]), 1))
            print("| %s | %s | %s | %s | %s | %s |" % (os.path.basename(shape), rs[0]["n"], rs[0]["depth"],
                                                       rs[0]["branching"], per_level, " | ".join(cells)))
    if not peer:
        print("\n(no peers/peers.txt: run without SKIP_PEERS for the peer columns)")


if __name__ == "__main__":
    main()
