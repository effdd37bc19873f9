#!/usr/bin/env bash
# treefix.KDTree on the GPU machine: build the Python module, run the kd-tree tests there (SciPy's
# own suite through python/tests/test_scipy_kdtree.py, and ours), then time it against cKDTree
# (bench/kdtree_peers.py). From the repository root on that machine:
#   bench/gpu_kdtree.sh OUTDIR [small|large]     (PYTHON=/path/to/python3 for another interpreter)
#     small  10^6 uniform 3-D points and the Kinect scan, every case (the default)
#     large  10^7 uniform 3-D points, every case (cKDTree alone takes minutes: one run each)
# KDTREE_ARGS adds arguments to kdtree_peers.py. Builds in build-gpu-python/ (as
# bench/gpu_python.sh, whose build it reuses), then writes OUTDIR/kdtree-gpu.txt,
# kdtree-build.log, kdtree-tests-gpu.log (small only), kdtree_peers-PHASE.csv and .log.
set -uo pipefail
out=${1:?output directory}
phase=${2:-small}
mkdir -p "$out"
python=${PYTHON:-$(command -v python3)}
source bench/lib/gpu_env.sh
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  "$python" -c 'import sys, numpy, scipy; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)'
  nproc; } 2>&1 | tee "$out/kdtree-gpu.txt"
source bench/lib/python_module.sh
build_python_module "$out/kdtree-build.log" || exit 1
case $phase in
  small)
    timeout 300 "$python" -m pytest -q -p no:cacheprovider -rxXfs python/tests/test_scipy_kdtree.py \
      python/tests/test_kdtree_exact.py python/tests/test_points.py > "$out/kdtree-tests-gpu.log" 2>&1
    echo "kd-tree tests on GPU: exit $?"; tail -3 "$out/kdtree-tests-gpu.log"
    sizes=1000000 scan=default repeats=() ;;
  large)  # cKDTree once a case (about 4 minutes), ours 3 times after a warm-up
    sizes=10000000 scan=none repeats=(--repeats 3 --warmup 1 --peer-repeats 1 --peer-warmup 0) ;;
  *) echo "phase: small or large, not $phase"; exit 2 ;;
esac
scan_args=()
[[ $scan == none ]] && scan_args=(--scan none)
timeout 540 "$python" bench/kdtree_peers.py --csv "$out/kdtree_peers-$phase.csv" --sizes "$sizes" \
  "${scan_args[@]}" "${repeats[@]}" ${KDTREE_ARGS:-} 2>&1 | tee "$out/kdtree_peers-$phase.log"
