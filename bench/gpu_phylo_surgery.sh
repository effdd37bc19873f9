#!/usr/bin/env bash
# Tree(parents), Tree(parents, lengths=), reroot and prune of a 2^24-vertex tree through the
# Python module on the GPU machine (bench/phylo_surgery_phases.py), after the module's tree and
# phylogeny tests on the GPU. From the repository root on that machine:
#   bench/gpu_phylo_surgery.sh OUTDIR      (PYTHON=/path/to/python3; LOG_N=24; REPEATS=5)
# Builds in build-gpu-python/ as bench/gpu_python.sh does (sharing build-gpu/'s kernel cache).
# Writes OUTDIR/python-build.log, phylo-tests-gpu.log, phylo_surgery_phases.csv and .log.
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
source bench/lib/gpu_env.sh
source bench/lib/python_module.sh
build_python_module "$out/python-build.log" || exit 1
timeout 180 "$python" -m pytest -q -p no:cacheprovider python/tests/test_trees.py \
  python/tests/test_phylo.py python/tests/test_phylo_edited.py > "$out/phylo-tests-gpu.log" 2>&1
echo "tree and phylogeny tests on GPU: exit $?"; tail -3 "$out/phylo-tests-gpu.log"
timeout 300 "$python" bench/phylo_surgery_phases.py --csv "$out/phylo_surgery_phases.csv" \
  --log-n "${LOG_N:-24}" --repeats "${REPEATS:-5}" 2>&1 | tee "$out/phylo_surgery_phases.log"
