#!/usr/bin/env bash
# The phylogenetic queries on the GPU machine, in one call: build the Python module, run the
# phylo tests on the GPU, time treefix at full size (bench/phylo_peers.py: 2^24 random tree, a
# 10^6-tip Newick tree, 10^7 pairs, 4,096-tip cophenetic, UniFrac of 1,000 samples over 10^5
# tips); with PEERS=1 also each installed peer (DendroPy, ete3, Bio.Phylo, scikit-bio) on the
# same inputs under a time limit of its own (the peers need no GPU: they can as well run on a
# CPU machine with --peers-only, see the script's help), and join the CSVs. From the repository
# root on that machine:
#   bench/gpu_phylo.sh OUTDIR    (PYTHON=python3, OURS_TIMEOUT=300, PEERS=1, PEER_TIMEOUT=120)
# Builds in build-gpu-python/ (as bench/gpu_python.sh does, sharing its kernel cache). Writes
# OUTDIR/phylo-build.log, phylo-tests-gpu.log, phylo_treefix.csv/.log, phylo_PEER.csv/.log for
# each peer, phylo_peers.csv (all rows joined, peers' speedups filled in) and results-phylo.tgz.
# A peer not installed gets a "skipped: not installed" row; one that runs out of time keeps the
# rows it finished and a "timed out" line in its log.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
source bench/lib/gpu_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/phylo-gpu.txt"
for peer in dendropy ete3 Bio skbio; do
  "$python" -c "import $peer; print('$peer', getattr($peer, '__version__', '?'))" 2>/dev/null ||
    echo "$peer: not installed"
done | tee -a "$out/phylo-gpu.txt"
source bench/lib/python_module.sh
build_python_module "$out/phylo-build.log" || exit 1
timeout 120 "$python" -m pytest -q -p no:cacheprovider python/tests/test_phylo.py > "$out/phylo-tests-gpu.log" 2>&1
echo "phylo tests on GPU: exit $?"; tail -3 "$out/phylo-tests-gpu.log"
work=/tmp/phylo-peers-work  # the generated Newick trees, shared by the runs below
mkdir -p "$work"
timeout "${OURS_TIMEOUT:-300}" "$python" bench/phylo_peers.py --csv "$out/phylo_treefix.csv" \
  --peers none --workdir "$work" ${PHYLO_ARGS:-} 2>&1 | tee "$out/phylo_treefix.log"
csvs=("$out/phylo_treefix.csv")
for peer in $([[ ${PEERS:-0} == 1 ]] && echo skbio biopython ete3 dendropy); do
  timeout "${PEER_TIMEOUT:-120}" "$python" bench/phylo_peers.py --csv "$out/phylo_$peer.csv" \
    --peers-only --peers "$peer" --suites newick,queries,unifrac --workdir "$work" ${PHYLO_ARGS:-} \
    > "$out/phylo_$peer.log" 2>&1
  status=$?
  [[ $status == 124 ]] && echo "timed out after ${PEER_TIMEOUT:-120} s" >> "$out/phylo_$peer.log"
  echo "$peer: exit $status"; tail -4 "$out/phylo_$peer.log"
  [[ -s "$out/phylo_$peer.csv" ]] && csvs+=("$out/phylo_$peer.csv")
done
"$python" bench/phylo_peers.py --merge "$out/phylo_peers.csv" "${csvs[@]}"
tar -C "$out" -czf /tmp/results-phylo.tgz . && mv /tmp/results-phylo.tgz "$out/results-phylo.tgz"
