#!/usr/bin/env bash
# The spatial measurements (bench/results/h100-2026-11-23-spatial), on the GPU machine, from the
# repository root (it builds into build-spatial/ unless BIN points at built programs):
#   bench/run_spatial.sh OUTDIR          BUDGET=seconds (default 230): later parts are skipped
#                                        when the budget runs out; N=points and bodies (1000000)
# Real scans (x y z rows) are taken from $SPATIAL_DATA (default /work/shared/data, or a copy
# carried to the device): stanford_dragon_scan.xyz and pcl_kinect_office1.xyz(.xz).
# Writes at most 8 files:
#   spatial.csv   treefix-bench spatial: key sorts (ours per tile size against Boost.Compute),
#                 kd-tree and octree builds per phase, a Barnes-Hut step per phase against the
#                 16-thread CPU step, kNN and correlation end to end, the auto table
 #  spatial-pcl_kinect_office1.csv   the same tables (no sort, no nbody) for the Kinect scan
#   cli.txt       `treefix nbody --steps`, `treefix knn`, `treefix correlate` on the same 1M
#                 points with --stats (process start to exit, phases)
#   tests.log     the spatial and radix-sort unit tests on this device
#   ckdtree.csv   SciPy cKDTree on the suite's points (bench/ckdtree_peer.py), when present
#   run.log       everything printed
set -uo pipefail
out=${1:?output directory}
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
started=$(date +%s)
budget=${BUDGET:-230}
left() { echo $((budget - ($(date +%s) - started))); }
n=${N:-1000000}
data=${SPATIAL_DATA:-/work/shared/data}
work=${WORK:-/tmp/treefix-spatial}
mkdir -p "$work"
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
export TREEFIX_CACHE_DIR=${TREEFIX_CACHE_DIR:-$work/kernel-cache}
nproc; date -u

if [ -z "${BIN:-}" ]; then
  cmake -S . -B build-spatial -DCMAKE_BUILD_TYPE=Release > "$work/build.log" 2>&1 &&
    cmake --build build-spatial -j"$(nproc)" --target treefix treefix-bench treefix-tests \
      >> "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
  bin=build-spatial
else
  bin=$BIN
fi
echo "built: $(($(date +%s) - started)) s"

# Real scans (x y z rows, read as .xyz).
real=()
for scan in stanford_dragon_scan pcl_kinect_office1; do
  src="$data/$scan.xyz"
  [ -f "$src" ] || src="$data/$scan.xyz.xz"
  [ -f "$src" ] || continue
  if [[ $src == *.xz ]]; then xz -dc "$src" > "$work/$scan.xyz"; else cp "$src" "$work/$scan.xyz"; fi
  real+=("$work/$scan.xyz")
done

# The suite: one process per real scan set after the main one, so each table has its points.
timeout $(($(left) - 60)) "$bin/apps/treefix-bench" spatial --points "$n" --bodies "$n" \
  --sort-sizes 1048576,4194304 --repeats 5 --warmup 1 --cpu-repeats 2 \
  --dump-dir "$work/points" --dump-bodies --csv "$out/spatial.csv" \
  ${real[0]:+--real "${real[0]}"}
for scan in "${real[@]:1}"; do
  [ "$(left)" -gt 70 ] || break
  timeout $(($(left) - 50)) "$bin/apps/treefix-bench" spatial --points 0 --bodies 0 \
    --tables build,knn,correlate,auto --real "$scan" --repeats 5 --cpu-repeats 2 \
    --dump-dir "$work/points-$(basename "$scan" .xyz)" --csv "$out/spatial-$(basename "$scan" .xyz).csv"
done

# The CLI end to end, process start to exit, with its phases.
{
  if [ "$(left)" -gt 30 ]; then
    p="$work/points/uniform.npy"
    /usr/bin/time -f "knn wall %e s" "$bin/apps/treefix" knn --points "$p" --queries "$p" -k 8 \
      --stats --output "$work/knn.txt"
    r=$(awk -F, '$1 == "uniform" { print $5 }' "$work/points/points_manifest.csv")
    /usr/bin/time -f "correlate wall %e s" "$bin/apps/treefix" correlate --points "$p" \
      --radius "$r" --stats --output "$work/correlate.txt"
    for steps in 1 11; do
      /usr/bin/time -f "nbody --steps $steps wall %e s" "$bin/apps/treefix" nbody \
        --bodies "$work/points/bodies_plummer.npy" --steps $steps --dt 0.001 --stats \
        --output "$work/nbody.txt"
    done
  fi
} > "$out/cli.txt" 2>&1

# Correctness on this device.
if [ "$(left)" -gt 20 ]; then
  timeout $(($(left) - 5)) "$bin/tests/treefix-tests" \
    -tc='radix sort*,device-built*,device builds*,ropes*' > "$out/tests.log" 2>&1
  tail -3 "$out/tests.log"
fi

# The SciPy peer on the same points (bench/ckdtree_peer.py reads points_manifest.csv there).
if [ "$(left)" -gt 15 ]; then
  timeout $(($(left) - 5)) python3 bench/ckdtree_peer.py "$work/points" --csv "$out/ckdtree.csv" \
    --repeats 3 --warmup 1
fi
echo "spatial: done in $(($(date +%s) - started)) s"
