"""bench/phylo_peers.py runs at tiny sizes (with the peers installed here, each checked against
treefix), as --peers-only, and --merge joins the two with the peers' speedups."""
import csv
import os
import subprocess
import sys

from conftest import REPO

TINY = ["--log-n", "8", "--tips", "100", "--pairs", "2000", "--cophenetic", "16",
        "--unifrac-tips", "60", "--samples", "20", "--skbio-samples", "6", "--peer-pairs", "20",
        "--repeats", "1", "--warmup", "0"]


def run(*arguments, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, str(REPO / "bench" / "phylo_peers.py"), *arguments,
                    "--workdir", str(tmp_path / "work")] if "--merge" not in arguments else
                   [sys.executable, str(REPO / "bench" / "phylo_peers.py"), *arguments],
                   check=True, env=env, capture_output=True, text=True, timeout=300)


def rows(path):
    return list(csv.DictReader(path.open()))


def test_phylo_peers_runs_checks_and_merges(tmp_path):
    ours, theirs, joined = tmp_path / "ours.csv", tmp_path / "peers.csv", tmp_path / "all.csv"
    run("--csv", str(ours), "--peers", "none", *TINY, tmp_path=tmp_path)
    found = rows(ours)
    assert {r["suite"] for r in found} == {"construct", "newick", "queries", "unifrac"}
    assert all(r["implementation"] == "treefix" and r["status"] == "ok" for r in found)
    run("--csv", str(theirs), "--peers-only", "--suites", "newick,queries,unifrac", *TINY,
        tmp_path=tmp_path)
    peers = rows(theirs)
    checked = [r for r in peers if r["suite"] != "peers"]  # rows of the peers installed here
    assert all(r["status"] == "ok" for r in checked), [r for r in checked if r["status"] != "ok"]
    run("--merge", str(joined), str(ours), str(theirs), tmp_path=tmp_path)
    merged = rows(joined)
    assert len(merged) == len(found) + len(peers)
    assert all(r["speedup_of_treefix"] for r in merged
               if r["implementation"] != "treefix" and r["median_ms"])
