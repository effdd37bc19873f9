"""bench/graph_peers.py runs at toy sizes (SciPy checks every answer) and writes its CSV; its
reader of raw CSR files (the Kronecker-27 rows) gives SciPy's matrix with int64 indices."""
import csv
import os
import subprocess
import sys

import numpy as np
import scipy.sparse as sp

from conftest import REPO


def test_graph_peers_runs_and_checks_its_results(tmp_path):
    out = tmp_path / "graph_peers.csv"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, str(REPO / "bench" / "graph_peers.py"), "--csv", str(out),
                    "--kron", "7", "--data", str(tmp_path / "none"), "--repeats", "1",
                    "--warmup", "1"],
                   check=True, env=env, capture_output=True, text=True, timeout=300)
    rows = list(csv.DictReader(out.open()))
    calls = {row["call"] for row in rows}
    assert {"breadth_first_order(A, s)", "connected_components(A)", "Graph.minimum_spanning_tree",
            "Graph.connected_components('strong')", "Graph(A, directed=False)"} <= calls
    assert {row["index_bits"] for row in rows} == {"32", "64"}
    assert all(row["status"] == "ok" for row in rows), [r for r in rows if r["status"] != "ok"]


def test_raw_csr_files_read_as_int64_scipy_matrices(tmp_path):
    sys.path.insert(0, str(REPO / "bench"))
    import graph_peers
    graph = sp.random(50, 50, density=0.1, format="csr", random_state=1)
    offsets, columns = graph.indptr.astype(np.int64), graph.indices.astype(np.int32)
    header = np.zeros(8, np.int64)
    header[2], header[3] = 50, graph.nnz
    path = tmp_path / "g.csr"
    with open(path, "wb") as f:
        f.write(header.tobytes() + offsets.tobytes() + columns.tobytes())
    read = graph_peers.read_raw_csr(str(path))
    assert read.indptr.dtype == np.int64 and read.indices.dtype == np.int64
    assert np.array_equal(read.indptr, graph.indptr) and np.array_equal(read.indices, graph.indices)
