"""Checks a rooted spanning forest of a graph: python3 check_forest.py EDGES FOREST REFERENCE.

EDGES is an edge list ("u v" per line, 0-based), FOREST and REFERENCE parent arrays in the tree
format (n, then n parents, -1 at roots). Passes when FOREST has REFERENCE's roots, every parent
arc is an edge, and the parent pointers have no cycle: then every vertex reaches its component's
one root, so FOREST spans the same components rooted the same way. Exit 1 with the first fault.
"""
import sys


def read_tree(path):
    values = [int(t) for t in open(path).read().split()]
    n, parent = values[0], values[1:]
    assert len(parent) == n, f"{path}: {len(parent)} parents for n = {n}"
    return parent


def main():
    edges_path, forest_path, reference_path = sys.argv[1:4]
    parent, reference = read_tree(forest_path), read_tree(reference_path)
    if len(parent) != len(reference):
        sys.exit(f"{forest_path}: {len(parent)} vertices, the reference has {len(reference)}")
    edges = set()
    for line in open(edges_path):
        fields = line.split()
        if len(fields) >= 2 and not line.startswith(("#", "%")):
            u, v = int(fields[0]), int(fields[1])
            edges.add((u, v))
            edges.add((v, u))
    roots = {v for v, p in enumerate(parent) if p == -1}
    reference_roots = {v for v, p in enumerate(reference) if p == -1}
    if roots != reference_roots:
        sys.exit(f"roots differ: {sorted(roots ^ reference_roots)[:10]}")
    for v, p in enumerate(parent):
        if p != -1 and (p, v) not in edges:
            sys.exit(f"vertex {v}: parent {p} is not a neighbour")
    state = [0] * len(parent)  # 0 unseen, 1 on the current path, 2 reaches a root
    for v in range(len(parent)):
        path = []
        while v != -1 and state[v] == 0:
            state[v] = 1
            path.append(v)
            v = parent[v]
        if v != -1 and state[v] == 1:
            sys.exit(f"cycle through vertex {v}")
        for u in path:
            state[u] = 2


if __name__ == "__main__":
    main()
