#!/usr/bin/env bash
# The graph figures a change to the graph and distributed layers could move, before and after it,
# on one GPU machine in one call (within BUDGET_S, default 570 s): no speed lost.
#
# Usage, from the repository root (the "after" tree) on the GPU machine:
#   [BUDGET_S=570] bench/gpu_graph_before_after.sh OUTDIR BEFORE [RANKS]
# BEFORE: a commit (unpacked with git archive), a source folder, or a build folder (holding
# apps/treefix-bench, used as it is). AFTER=BUILD_FOLDER takes that build for the after side
# instead of building this tree. RANKS: 1 (default: one GPU) or the number of GPUs to compare on
# (mpirun -np RANKS; 2 on a two-GPU machine).
#
# Both trees are built side by side (build-before/, build-gpu/: kept between calls on a warm
# machine). Kronecker-22 and -26 are written once as .csr files by the after build (the two
# builds' generators make the same graph; the files make the inputs identical whatever each
# build generates), then, each build in turn (before, after), with the kernels compiled on a
# small graph first, in this order (what the budget leaves no time for is skipped and noted):
#   graph500   64 roots, harmonic-mean TEPS (Graph500), Kronecker-22 and -26: before `treefix bfs
#              --roots 64`, after `treefix-bench graph500 --roots 64` (the roots are drawn by
#              the same rule from another hash: another 64 vertices with arcs)
#   components treefix components on Kronecker-26, phases from --stats
#   bfs        treefix-bench bfs on Kronecker-22 (the same 5 sources for both builds), both
#              directions: median GTEPS of the single-device kernels (RANKS=1 only)
#   rst        treefix rst on Kronecker-22, methods euler, bfs and auto, phases (RANKS=1 only)
#   generate   treefix generate kronecker --scale 24 --distributed (the edge stream in rounds)
# With RANKS > 1 each command runs under mpirun -np RANKS (the partitioned paths); with 1 the
# single-device commands, and graph500 and generate --distributed in the distributed layer's
# world of one. Writes OUTDIR/compare.txt (every figure before, after, after/before),
# the logs and CSVs of every run, OUTDIR/steps.txt, and all of it in OUTDIR/0-results.tgz.
#
# Without GPUs (a test of the script, tiny sizes, existing builds): DEVICE=cpu NO_ICD=1 \
#   SCALES="10 12" AFTER=build bench/gpu_graph_before_after.sh /tmp/out build-before/build
set -uo pipefail
out=$(mkdir -p "${1:?output directory}" && cd "$1" && pwd)
before=${2:?commit or source folder before the change}
ranks=${3:-1}
budget=${BUDGET_S:-570}
read -r small big <<< "${SCALES:-22 26}"
generate_scale=$((big - 2))
scratch=${SCRATCH:-/tmp/graph_before_after}
mkdir -p "$scratch"
steps="$out/steps.txt"
: > "$steps"
note() { echo "[$SECONDS s] $*" | tee -a "$steps"; }
left() { echo $((budget - SECONDS)); }
finish() {
  note "total"
  local archive
  archive=$(mktemp /tmp/graph_before_after.XXXXXX) &&
    tar -C "$out" --exclude=0-results.tgz -czf "$archive" . && mv "$archive" "$out/0-results.tgz"
  exit "${1:-0}"
}
trap 'finish 1' INT TERM

source "$(dirname "$0")/lib/mpi_env.sh"
source "$(dirname "$0")/lib/commit.sh"  # checkout_commit
[[ -n ${DEVICE:-} ]] || export TREEFIX_DEVICE=nvidia
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } \
  > "$out/device.txt" 2>&1
{ date -u; nproc; checkout_commit; } >> "$out/device.txt"

# --- the two builds, side by side ---------------------------------------------------------------
jobs=$(($(nproc) / 2 > 1 ? $(nproc) / 2 : 1))
build() {  # build SOURCE BUILD_DIR NAME
  (cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DTREEFIX_MPI=ON -DTREEFIX_BUILD_TESTS=OFF \
    -DTREEFIX_BUILD_PYTHON=OFF && cmake --build "$2" -j"$jobs" --target treefix treefix-bench) \
    > "$out/build-$3.log" 2>&1
}
if [[ -x $before/apps/treefix-bench ]]; then
  before_build=$(cd "$before" && pwd)
  build_before=
else
  if [[ -d $before ]]; then
    before_src=$(cd "$before" && pwd)
  else
    before_src=$PWD/build-before/src
    if [[ ! -f $before_src/.commit || $(cat "$before_src/.commit") != "$before" ]]; then
      rm -rf "$before_src" && mkdir -p "$before_src" &&
        git archive "$before" | tar -x -C "$before_src" && echo "$before" > "$before_src/.commit" ||
        { note "cannot unpack $before"; finish 1; }
    fi
  fi
  before_build=$PWD/build-before/build
  build "$before_src" "$before_build" before &
  build_before=$!
fi
after_rc=0
if [[ -n ${AFTER:-} ]]; then
  after_build=$(cd "$AFTER" && pwd)
else
  after_build=$PWD/build-gpu
  build "$PWD" "$after_build" after
  after_rc=$?
fi
before_rc=0
[[ -z $build_before ]] || { wait "$build_before"; before_rc=$?; }
note "built: before rc=$before_rc ($before_build), after rc=$after_rc ($after_build)"
((before_rc == 0 && after_rc == 0)) || { tail -20 "$out"/build-*.log; finish 1; }
declare -A bin=([before]=$before_build/apps [after]=$after_build/apps)
cores=$(nproc)
# run WHICH NAME SECONDS PROGRAM ARGS...: one run, its output in NAME-WHICH.log, within the budget
run() {
  local which=$1 name=$2 limit=$3 program=$4
  shift 4
  if (($(left) < limit + 20)); then
    note "skipped $name ($which): needs ~$limit s, $(left) s left"
    return 1
  fi
  export TREEFIX_CACHE_DIR=$scratch/kernels-$which
  mkdir -p "$TREEFIX_CACHE_DIR"
  local command=("${bin[$which]}/$program" "$@")
  if ((ranks > 1)); then
    command=(mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$ranks"
      -x OMP_NUM_THREADS=$((cores / ranks)) "${command[@]}")
  fi
  timeout "$limit" "${command[@]}" > "$out/$name-$which.log" 2>&1
  local rc=$?
  note "$name ($which): rc=$rc"
  return $rc
}

# --- the inputs, and every kernel compiled once per build ---------------------------------------
k_small=$scratch/k$small.csr
k_big=$scratch/k$big.csr
[[ -s $k_small ]] || "${bin[after]}/treefix" generate kronecker --scale "$small" --format csr \
  -o "$k_small" 2> "$out/input-$small.log"
[[ -s $k_big ]] || "${bin[after]}/treefix" generate kronecker --scale "$big" --format csr \
  -o "$k_big" 2> "$out/input-$big.log"
note "inputs: $(ls -l "$k_small" "$k_big" | awk '{print $5, $9}' | tr '\n' ' ')"
"${bin[after]}/treefix" generate kronecker --scale 12 --format csr -o "$scratch/k12.csr"
for which in before after; do
  run "$which" warm-bfs 60 treefix bfs --graph "$scratch/k12.csr" -o /dev/null
  run "$which" warm-cc 60 treefix components --graph "$scratch/k12.csr" -o /dev/null
  if ((ranks == 1)); then
    for method in euler bfs auto; do
      run "$which" "warm-rst-$method" 60 treefix rst --graph "$scratch/k12.csr" --method "$method" \
        -o /dev/null
    done
  fi
done

# --- the measurements, the builds in turn --------------------------------------------------------
graph500() {  # graph500 WHICH SCALE FILE
  if [[ $1 == before ]]; then
    run before "graph500-$2" 150 treefix bfs --graph "$3" --roots 64
  else
    run after "graph500-$2" 150 treefix-bench graph500 --graph "$3" --roots 64 \
      --csv "$out/graph500-$2-after.csv"
  fi
}
# The most telling first (later ones are skipped when the budget runs out).
for which in before after; do graph500 "$which" "$small" "$k_small"; done
for which in before after; do graph500 "$which" "$big" "$k_big"; done
for which in before after; do
  run "$which" "components-$big" 120 treefix components --graph "$k_big" --stats -o /dev/null
done
if ((ranks == 1)); then
  for which in before after; do
    run "$which" "bfs-$small" 120 treefix-bench bfs --scale 10 --grid-side 64 --graph "$k_small" \
      --skip-trees --repeats 5 --csv "$out/bfs-$small-$which.csv"
  done
fi
if ((ranks == 1)); then
  for which in before after; do
    for method in euler bfs auto; do
      run "$which" "rst-$method-$small" 60 treefix rst --graph "$k_small" --method "$method" \
        --stats -o /dev/null
    done
  done
fi
for which in before after; do
  run "$which" "generate-$generate_scale" 120 treefix generate kronecker \
    --scale "$generate_scale" --distributed -o "$scratch/generated-$which.csr"
done
cmp -s "$scratch/generated-before.csr" "$scratch/generated-after.csr" &&
  note "generate: the two builds wrote the same bytes" || note "generate: the files differ"
rm -f "$scratch"/generated-*.csr

# --- the comparison ------------------------------------------------------------------------------
python3 - "$out" "$small" "$big" "$generate_scale" > "$out/compare.txt" << 'PY'
# Every figure of both builds: before, after, after/before.
import csv, glob, os, re, sys
out, small, big, gen = sys.argv[1:5]
def text(name):
    path = os.path.join(out, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""
sys.path.insert(0, "bench")
from current_tables import tables_of  # noqa: E402
def tables(path):  # every row of every table of a CSV (none when it is missing)
    return [row for table in tables_of(path) for row in table] if os.path.exists(path) else []
figures = []  # (what, before, after, higher is better)
for scale in (small, big):
    num = r"([0-9.]+(?:e[-+]?[0-9]+)?)"
    m = re.search(rf"harmonic mean {num} GTEPS \(min {num}, max {num}\), mean time {num} ms",
                  text(f"graph500-{scale}-before.log"))
    rows = [r for r in tables(os.path.join(out, f"graph500-{scale}-after.csv")) if "hmean_GTEPS" in r]
    a = rows[0] if rows else {}
    if m or a:
        b = [float(x) for x in m.groups()] if m else [None] * 4
        figures += [
            (f"graph500 kronecker-{scale}: harmonic mean GTEPS", b[0], a.get("hmean_GTEPS"), 1),
            (f"graph500 kronecker-{scale}: min GTEPS", b[1], a.get("min_GTEPS"), 1),
            (f"graph500 kronecker-{scale}: max GTEPS", b[2], a.get("max_GTEPS"), 1),
            (f"graph500 kronecker-{scale}: mean search ms", b[3], a.get("mean_ms"), 0)]
bfs = {which: tables(os.path.join(out, f"bfs-{small}-{which}.csv")) for which in ("before", "after")}
for row in bfs["before"]:
    if not row.get("graph", "").endswith(".csr"):
        continue
    twin = [r for r in bfs["after"] if r.get("graph") == row["graph"] and r.get("bfs") == row["bfs"]]
    if twin:
        for column, better in (("GTEPS(wall)", 1), ("kernel_ms", 0), ("wall_ms", 0)):
            figures.append((f"bfs kronecker-{small} {row['bfs']}: {column}", row.get(column),
                            twin[0].get(column), better))
def phases(name):  # "treefix ...: <phase> <ms> ms" lines of --stats
    found = {}
    for line in text(name).splitlines():
        m = re.match(r"treefix [a-z]+: (.+?) +([0-9.]+) ms$", line)
        if m:
            found[m.group(1)] = float(m.group(2))
        m = re.match(r"components: .* ([0-9.]+) ms$", line)
        if m:
            found["components (distributed)"] = float(m.group(1))
    return found
for stem in [f"components-{big}"] + [f"rst-{m}-{small}" for m in ("euler", "bfs", "auto")]:
    b, a = phases(f"{stem}-before.log"), phases(f"{stem}-after.log")
    for phase in b:
        if phase in a:
            figures.append((f"{stem}: {phase} ms", b[phase], a[phase], 0))
gb = re.search(r"generate ([0-9.e+-]+) ms, write ([0-9.e+-]+) ms", text(f"generate-{gen}-before.log"))
ga = re.search(r"generate ([0-9.e+-]+) ms, write ([0-9.e+-]+) ms", text(f"generate-{gen}-after.log"))
if gb and ga:
    figures.append((f"generate kronecker-{gen}: generate ms", gb.group(1), ga.group(1), 0))
    figures.append((f"generate kronecker-{gen}: write ms", gb.group(2), ga.group(2), 0))
print(f"{'figure':62} {'before':>10} {'after':>10} {'after/before':>13}")
for what, b, a, better in figures:
    try:
        b, a = float(b), float(a)
        ratio = f"{a / b:.3f}" if b else "-"
        print(f"{what:62} {b:10.4g} {a:10.4g} {ratio:>13}")
    except (TypeError, ValueError):
        print(f"{what:62} {str(b):>10} {str(a):>10} {'-':>13}")
print("\n(GTEPS: higher is better; ms: lower is better. The graph500 roots differ between the "
      "builds: the same rule, another hash.)")
PY
cat "$out/compare.txt"
finish 0
