# Where Python graph calls spend their time on the GPU (a diagnosis; see README.md)
import sys, time, statistics, os
sys.path.insert(0, "bench")
import numpy as np, scipy.sparse as sp, scipy.io
from scipy.sparse import csgraph
import treefix
from graph_peers import rmat_arcs, as_csr, with_int64_indices
def med(f, r=7):
    f(); t=[]
    for _ in range(r):
        s=time.perf_counter(); f(); t.append(time.perf_counter()-s)
    return 1e3*statistics.median(t)
tag = os.environ.get("TAG", "")
def row(name, ms): print("%-8s %-60s %9.3f ms" % (tag, name, ms), flush=True)
part = sys.argv[1]
if part == "road":
    A = scipy.io.mmread("shared/data/luxembourg_osm.mtx").tocsr()
    g = treefix.Graph(A)
    row("road Graph(A)", med(lambda: treefix.Graph(A)))
    row("road kept bfs pred", med(lambda: g.breadth_first_order(0)))
    row("road kept bfs nopred", med(lambda: g.breadth_first_order(0, return_predecessors=False)))
    row("road oneshot bfs", med(lambda: treefix.breadth_first_order(A, 0)))
    row("road scipy bfs", med(lambda: csgraph.breadth_first_order(A, 0)))
    row("road kept cc", med(lambda: g.connected_components()))
    import lzma
    pairs = np.loadtxt(lzma.open("shared/data/web-NotreDame.txt.xz"), dtype=np.int64, comments="#")
    n = int(pairs.max()) + 1
    W = sp.csr_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    gw = treefix.Graph(W)
    row("web kept scc", med(lambda: gw.connected_components(connection="strong")))
    row("web oneshot scc", med(lambda: treefix.connected_components(W, connection="strong")))
    row("web scipy scc", med(lambda: csgraph.connected_components(W, connection="strong"), 3))
elif part == "kron":
    rng = np.random.default_rng(21)
    n, src, dst = rmat_arcs(21, rng)
    S = as_csr(n, np.concatenate([src, dst]), np.concatenate([dst, src]))
    for name, M in (("i32", S), ("i64", with_int64_indices(S))):
        row(name + " Graph(A)", med(lambda: treefix.Graph(M), 3))
        row(name + " Graph(A,directed=False)", med(lambda: treefix.Graph(M, directed=False), 3))
        g = treefix.Graph(M, directed=False)
        row(name + " kept bfs pred", med(lambda: g.breadth_first_order(1)))
        row(name + " kept bfs nopred", med(lambda: g.breadth_first_order(1, return_predecessors=False)))
        row(name + " kept cc", med(lambda: g.connected_components()))
        row(name + " oneshot bfs pred", med(lambda: treefix.breadth_first_order(M, 1), 3))
        row(name + " oneshot bfs nopred", med(lambda: treefix.breadth_first_order(M, 1, return_predecessors=False), 3))
        row(name + " oneshot cc", med(lambda: treefix.connected_components(M), 3))
        del g
if part == "scc":
    rng = np.random.default_rng(21)
    n, src, dst = rmat_arcs(21, rng)
    D = as_csr(n, src, dst)
    g = treefix.Graph(D)
    row("k21-dir kept scc", med(lambda: g.connected_components(connection="strong")))
    row("k21-dir oneshot scc", med(lambda: treefix.connected_components(D, connection="strong"), 3))
