"""bench/kdtree_peers.py runs (tiny sizes) and finds treefix.KDTree's results equal to cKDTree's."""
import csv
import os
import subprocess
import sys

from conftest import REPO


def test_kdtree_peers_runs_and_checks_its_results(tmp_path):
    out = tmp_path / "kdtree.csv"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, str(REPO / "bench" / "kdtree_peers.py"), "--csv", str(out),
                    "--sizes", "3000", "--scan", "none", "--repeats", "1", "--warmup", "0",
                    "--peer-repeats", "1", "--peer-warmup", "0"],
                   check=True, env=env, capture_output=True, text=True, timeout=300)
    rows = list(csv.DictReader(out.open()))
    assert {row["case"] for row in rows} == {"knn", "ball", "pairs", "count", "box"}
    checked = [row for row in rows if not row["implementation"].startswith("python:")]
    assert all(row["status"].startswith("equal") for row in checked), checked
    assert all(float(row["median_ms"]) > 0 and row["device"] and row["commit"] for row in rows)
