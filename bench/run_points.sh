#!/usr/bin/env bash
# The point-set measurements (bench/results/h100-2026-11-25-points), on the GPU
# machine after a build in build-gpu/ (bench/run_gpu.sh's, or -DTREEFIX_BUILD_TESTS=OFF).
# Usage, from the repository root:
#   bench/run_points.sh OUTDIR        (about a minute after the build on the H100 machine)
# Environment: BIN (default build-gpu/apps), SCANS (the directory holding
# stanford_dragon_scan.xyz and pcl_kinect_office1.xyz.xz; default: the first of shared/data,
# ../shared/data, /work/shared/data, scans that has them), N (uniform points, default 1000000),
# TREEFIX_DEVICE (default nvidia).
# Writes (at most 8 files, what the device tool brings back):
#   points.csv    treefix-bench points on the dragon scan (41,841 points), the Kinect office scan
#                 (254,456) and N uniform points: vp-tree build on 1 and on all host threads,
#                 kd-tree build, kNN (k = 8) on the kd- and the vp-tree, correlation at about 85
#                 points per ball; kernel, transfer and end-to-end times
#   ckdtree.csv   bench/ckdtree_peer.py: SciPy's cKDTree (build, query k = 8, query_ball_point) on
#                 the same points, with the same radii, its counts compared with ours
#   run.log       everything printed
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
bin=${BIN:-build-gpu/apps}
n=${N:-1000000}
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
work=${WORK:-/tmp/treefix-points}
mkdir -p "$work"
nproc; date -u

scans=${SCANS:-}
if [[ -z $scans ]]; then
  for d in shared/data ../shared/data /work/shared/data scans; do
    [[ -f $d/stanford_dragon_scan.xyz ]] && { scans=$d; break; }
  done
fi
files=()
if [[ -n $scans && -f $scans/stanford_dragon_scan.xyz ]]; then
  files+=(--points "$scans/stanford_dragon_scan.xyz")
  kinect=$work/pcl_kinect_office1.xyz
  if [[ -f $scans/pcl_kinect_office1.xyz.xz ]]; then
    # xz, or Python's lzma where xz-utils is missing
    xz -dc "$scans/pcl_kinect_office1.xyz.xz" > "$kinect" 2> /dev/null ||
      python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' \
        "$scans/pcl_kinect_office1.xyz.xz" > "$kinect"
    files+=(--points "$kinect")
  fi
else
  echo "run_points.sh: no scans found (set SCANS): uniform points only"
fi

rm -rf "$work/dump"
"$bin/treefix-bench" points "${files[@]}" --uniform "$n" -k 8 --neighbours 85 \
  --repeats 3 --warmup 1 --dump-dir "$work/dump" --csv "$out/points.csv"
python3 bench/ckdtree_peer.py "$work/dump" --csv "$out/ckdtree.csv" --repeats 3 --warmup 1
date -u
