#!/usr/bin/env python3
"""Cut the test excerpts of the real graphs in $TREEFIX_DATA (see SOURCE.md here).

    python3 make_excerpts.py DATA_DIR OUT_DIR

Each excerpt is the subgraph induced by the first K vertices reached by a BFS from a fixed start
vertex (so it keeps the graph's local structure: long paths of the road network, the mesh's
cells, the web graph's hubs), relabelled 1..K in BFS order, written as Matrix Market pattern
symmetric (lower triangle). Directed inputs are symmetrised; self loops and repeats dropped.
"""
import lzma
import sys
from collections import deque


def open_text(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def read_mtx(path):
    adj = {}
    with open_text(path) as f:
        header = True
        for line in f:
            if line.startswith("%"):
                continue
            if header:
                header = False
                continue
            i, j = line.split()[:2]
            add(adj, int(i) - 1, int(j) - 1)
    return adj


def read_metis(path):
    adj = {}
    with open_text(path) as f:
        lines = (l for l in f if not l.startswith("%"))
        next(lines)
        for v, line in enumerate(lines):
            for w in line.split():
                add(adj, v, int(w) - 1)
    return adj


def read_edges(path):
    adj = {}
    with open_text(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("%") or not line.strip():
                continue
            u, v = line.split()[:2]
            add(adj, int(u), int(v))
    return adj


def add(adj, u, v):
    if u == v:
        return
    adj.setdefault(u, set()).add(v)
    adj.setdefault(v, set()).add(u)


def excerpt(adj, start, k):
    order, seen, queue = [], {start}, deque([start])
    while queue and len(order) < k:
        v = queue.popleft()
        order.append(v)
        for w in sorted(adj.get(v, ())):
            if w not in seen:
                seen.add(w)
                queue.append(w)
    ids = {v: i for i, v in enumerate(order)}
    edges = sorted({(max(ids[u], ids[w]), min(ids[u], ids[w]))
                    for u in order for w in adj.get(u, ()) if w in ids})
    return len(order), edges


def write(path, n, edges, note):
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate pattern symmetric\n")
        f.write("%% %s\n" % note)
        f.write("%d %d %d\n" % (n, n, len(edges)))
        for i, j in edges:
            f.write("%d %d\n" % (i + 1, j + 1))


def main():
    data, out = sys.argv[1], sys.argv[2]
    jobs = [("luxembourg_osm.mtx", read_mtx, 0, 6000, "luxembourg_excerpt.mtx"),
            ("wave.graph.xz", read_metis, 0, 3000, "wave_excerpt.mtx"),
            ("web-NotreDame.txt.xz", read_edges, 0, 3000, "notredame_excerpt.mtx"),
            ("soc-Epinions1_lcc_undirected.txt.xz", read_edges, 0, 600, "epinions_excerpt.mtx")]
    for name, reader, start, k, target in jobs:
        n, edges = excerpt(reader(data + "/" + name), start, k)
        write(out + "/" + target, n, edges,
              "excerpt of %s: the first %d vertices of a BFS from vertex %d, BFS order" %
              (name, n, start))
        print(target, n, len(edges))


if __name__ == "__main__":
    main()
