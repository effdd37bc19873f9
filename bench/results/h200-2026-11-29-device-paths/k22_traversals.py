#!/usr/bin/env python3
"""Kronecker-22 one-shot and kept BFS and components from a SciPy csr (int32 and int64 indices),
beside SciPy: graph_peers.py's traversal rows alone, for a call too short for the whole suite."""
import sys

sys.path.insert(0, "bench")  # run from the repository root
import numpy as np  # noqa: E402
import graph_peers as gp  # noqa: E402


def main():
    import argparse
    import treefix
    import scipy
    p = argparse.ArgumentParser()
    p.add_argument("--csv", required=True)
    args = p.parse_args(["--csv", sys.argv[1]])  # then: commit, scale (default 22)
    args.repeats, args.warmup, args.peer_repeats, args.skip_peers = 3, 1, 1, False
    rt = treefix.Runtime()
    info = rt.device
    header = {"device": info["name"], "driver": info["platform"] + " " + info["driver"],
              "date": gp.peer_common.utc_date(), "commit": sys.argv[2], "scipy": scipy.__version__}
    bench = gp.Bench(treefix, rt, args, header)
    scale = int(sys.argv[3]) if len(sys.argv) > 3 else 22
    n, src, dst = gp.rmat_arcs(scale, np.random.default_rng(scale))
    symmetric = gp.as_csr(n, np.concatenate([src, dst]), np.concatenate([dst, src]))
    del src, dst
    bench.traversals("kronecker-%d" % scale, symmetric, symmetric)
    wide = gp.with_int64_indices(symmetric)
    bench.traversals("kronecker-%d" % scale, wide, wide if gp.SCIPY_TAKES_INT64 else symmetric)


if __name__ == "__main__":
    main()
