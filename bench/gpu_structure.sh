#!/usr/bin/env bash
# The host phases of `treefix-bench pipeline` (read, upload, validate, prepare, compute,
# download, write) of two builds, on one machine in one go: the check that a change to the host
# side (the host executor, the tuning rows) slowed no phase. Runs alternate, before / after /
# before / after, so that drift of the machine shows as a difference between the two rounds of
# one build rather than between the builds.
#
# Usage, from the repository root on the GPU machine:
#   bench/gpu_structure.sh OUTDIR BEFORE AFTER [extra treefix-bench pipeline options]
# BEFORE and AFTER are each a build folder (holding apps/treefix-bench) or a source tree (holding
# CMakeLists.txt), which is then built in its build-gpu/ folder first. For example, with the
# commit to compare against unpacked beside this tree:
#   mkdir -p ../before && git archive 42d0261 | tar -x -C ../before
#   bench/gpu_structure.sh bench/results/h100-DATE-host-phases ../before .
# Writes OUTDIR/pipeline-{before,after}-{1,2}.csv (the pipeline and host-call tables), their logs,
# and OUTDIR/compare.txt: per row, every phase's median after / before (both rounds pooled).
set -uo pipefail
out=$(mkdir -p "${1:?output directory}" && cd "$1" && pwd)
before=${2:?build or source folder before the change}
after=${3:?build or source folder after the change}
shift 3
extra=("$@")

source "$(dirname "$0")/lib/gpu_env.sh"

# The treefix-bench of a build folder, or of a source tree built now.
bench_of() {
  local dir=$1 name=$2
  if [[ -x $dir/apps/treefix-bench ]]; then
    echo "$(cd "$dir" && pwd)/apps/treefix-bench"
    return
  fi
  [[ -f $dir/CMakeLists.txt ]] || { echo "$dir: neither a build nor a source folder" >&2; exit 2; }
  cmake -S "$dir" -B "$dir/build-gpu" -DCMAKE_BUILD_TYPE=Release -DTREEFIX_BUILD_TESTS=OFF \
    > "$out/build-$name.log" 2>&1 &&
    cmake --build "$dir/build-gpu" -j"$(nproc)" --target treefix-bench >> "$out/build-$name.log" 2>&1 ||
    { tail -30 "$out/build-$name.log" >&2; exit 1; }
  echo "$(cd "$dir" && pwd)/build-gpu/apps/treefix-bench"
}
bench_before=$(bench_of "$before" before) || exit 1
bench_after=$(bench_of "$after" after) || exit 1

scratch=${TMPDIR:-/tmp}/treefix-host-phases
export TREEFIX_CACHE_DIR=$scratch/kernel-cache
mkdir -p "$TREEFIX_CACHE_DIR"
nproc > "$out/host.txt"
{ command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv; } \
  >> "$out/host.txt" 2>&1
for round in 1 2; do
  for which in before after; do
    program=bench_$which
    echo "== $which, round $round: ${!program}"
    "${!program}" pipeline --tables pipeline,host-call --repeats 5 --dir "$scratch/files" \
      --csv "$out/pipeline-$which-$round.csv" "${extra[@]}" 2>&1 | tee "$out/pipeline-$which-$round.log"
  done
done

python3 - "$out" > "$out/compare.txt" << 'PY'
# Medians of each phase per (shape, n, format, algorithm), before against after, both rounds.
import csv, statistics, sys
from collections import defaultdict
out = sys.argv[1]
def tables(path):  # the CSV holds tables one after the other, a blank line between
    rows, header = [], None
    for line in csv.reader(open(path)):
        if not line:
            header = None
        elif header is None:
            header = line
        else:
            rows.append(dict(zip(header, line)))
    return rows
times = defaultdict(list)  # (which, key, phase) -> ms
for which in ("before", "after"):
    for run in (1, 2):
        for row in tables(f"{out}/pipeline-{which}-{run}.csv"):
            key = tuple(row.get(k, "-") for k in ("shape", "n", "format", "algorithm"))
            for phase, value in row.items():
                if phase.endswith("_ms"):
                    try:
                        times[(which, key, phase)].append(float(value))
                    except ValueError:
                        pass
print(f"{'shape':16} {'n':>9} {'format':6} {'algorithm':10} {'phase':12} "
      f"{'before_ms':>10} {'after_ms':>10} {'after/before':>12}")
for (which, key, phase) in sorted(k for k in times if k[0] == "before"):
    b, a = times[("before", key, phase)], times.get(("after", key, phase))
    if not a:
        continue
    mb, ma = statistics.median(b), statistics.median(a)
    ratio = f"{ma / mb:.3f}" if mb > 0 else "-"
    print(f"{key[0]:16} {key[1]:>9} {key[2]:6} {key[3]:10} {phase:12} {mb:10.3f} {ma:10.3f} "
          f"{ratio:>12}")
PY
echo "comparison: $out/compare.txt"
head -40 "$out/compare.txt"
