#!/usr/bin/env bash
# A first run with empty caches, as a new user meets it: the whole process of
# `treefix rootfix --tree NEWICK` (the default algorithm, then --algorithm euler), Python's
# `Tree.from_newick` + a first `rootfix`, and `treefix warmup`, each with a fresh, empty kernel
# cache (TREEFIX_CACHE_DIR) and an empty PoCL cache (POCL_CACHE_DIR: PoCL keeps compiled kernels
# of its own). Prints one line per measurement and writes them as CSV.
# Usage, from the repository root:  bench/first_run.sh BUILD_DIR NEWICK OUT.csv [DEVICE]
set -euo pipefail
build=${1:?build directory}; tree=${2:?Newick file}; csv=${3:?CSV output}; device=${4:-}
treefix=$build/apps/treefix
[[ -n $device ]] && export TREEFIX_DEVICE=$device
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# fresh CACHE-NAME: empty caches for one measurement
fresh() {
  rm -rf "$scratch/$1" && mkdir -p "$scratch/$1/treefix" "$scratch/$1/pocl"
  export TREEFIX_CACHE_DIR=$scratch/$1/treefix POCL_CACHE_DIR=$scratch/$1/pocl
}
# seconds COMMAND...: wall seconds of the whole process
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $start:.3f}')"
}
programs() { find "$TREEFIX_CACHE_DIR" -name 'treefix-*.bin' | wc -l; }
echo "measurement,seconds,programs_compiled,load_1min" > "$csv"
record() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  printf '%-44s %8s s  %3s programs  (load %s)\n' "$1" "$2" "$3" "$load"
  echo "$1,$2,$3,$load" >> "$csv"
}
fresh cli
record "treefix rootfix (auto)" "$(seconds "$treefix" rootfix --tree "$tree" -o "$scratch/d.txt")" "$(programs)"
fresh cli-euler
record "treefix rootfix --algorithm euler" \
  "$(seconds "$treefix" rootfix --tree "$tree" --algorithm euler -o "$scratch/d.txt")" "$(programs)"
fresh python
py="import sys, warnings, treefix; warnings.simplefilter('ignore')
t = treefix.Tree.from_newick(sys.argv[1]); t.rootfix(t.lengths)"
record "python Tree.from_newick + rootfix" \
  "$(seconds env PYTHONPATH="$build/python" /usr/bin/python3 -c "$py" "$tree")" "$(programs)"
fresh warmup
record "treefix warmup" "$(seconds "$treefix" warmup)" "$(programs)"
record "treefix rootfix --algorithm euler, warmed" \
  "$(seconds "$treefix" rootfix --tree "$tree" --algorithm euler -o "$scratch/d.txt")" "$(programs)"
