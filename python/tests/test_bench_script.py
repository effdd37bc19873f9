"""bench/python_peers.py runs (tiny sizes, without CuPy where there is none) and writes its CSV."""
import csv
import os
import subprocess
import sys

from conftest import REPO


def test_python_peers_runs_and_checks_its_results(tmp_path):
    out = tmp_path / "peers.csv"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, str(REPO / "bench" / "python_peers.py"), "--csv", str(out),
                    "--suites", "treefix,graph,knn", "--log-n", "10", "--kron", "8",
                    "--points", "3000", "--repeats", "2", "--warmup", "1"],
                   check=True, env=env, capture_output=True, text=True, timeout=300)
    rows = list(csv.DictReader(out.open()))
    suites = {row["suite"] for row in rows}
    assert suites == {"treefix", "graph", "knn"}
    assert all(row["status"] == "ok" for row in rows), [r for r in rows if r["status"] != "ok"]
    assert all(float(row["median_ms"]) > 0 and row["device"] for row in rows)
