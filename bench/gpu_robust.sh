#!/usr/bin/env bash
# On the GPU machine, in one call: what the first-run, interruption and non-finite work may cost
# there. The treefix suites (the fast float Euler tour now passes over the weights once more, to
# find infinities and NaNs), the Python module against its peers (every download waits
# interruptibly), and a first run with empty caches on the GPU, then `treefix warmup`.
# From the repository root on that machine:  bench/gpu_robust.sh OUTDIR
# Writes OUTDIR/{paper,treefix-rootfix,...}.csv and logs (bench/run_gpu.sh), OUTDIR/python/
# (bench/gpu_python.sh) and OUTDIR/first-run.csv (bench/first_run.sh).
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out/python"
suites=$(mktemp)
grep -E '^(treefix|paper) ' bench/gpu_suites.txt > "$suites"
SKIP_TESTS=${SKIP_TESTS:-} bench/run_gpu.sh "$out" "$suites"
bench/gpu_python.sh "$out/python"
birds=../shared/data/birds_gumbs2022.nwk
[[ -f $birds ]] || birds=shared/data/birds_gumbs2022.nwk
bench/first_run.sh build-gpu "$birds" "$out/first-run.csv" nvidia 2>&1 | tee "$out/first-run.log"
tar -C "$out" -czf /tmp/results-robust.tgz . && mv /tmp/results-robust.tgz "$out/results-robust.tgz"
