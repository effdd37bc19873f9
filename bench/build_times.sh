#!/usr/bin/env bash
# The README's first command and its test command, from a fresh clone, timed, with the compile
# time of every translation unit:
#
#   bench/build_times.sh OUTDIR [COMMIT] [first]   (default HEAD; as root on Debian 12: apt-get)
#
# Runs the first two ```sh blocks of the clone's README.md as they are written, one after the
# other (with `first`, the first alone), with ccache off (CCACHE_DISABLE=1) and an empty kernel
# cache. Writes to OUTDIR:
#   times.txt        seconds of each command (apt-get, configure, build and what it runs), its exit
#                    status, and the load average before and after (the machine may be shared:
#                    read the times with it)
#   first.log, test.log   the commands' output
#   units-first.tsv, units-test.tsv   wall s, CPU s (user + system), object: every compile
#   slowest.txt      the ten slowest translation units of each command, by CPU seconds
set -uo pipefail
[[ $# -ge 1 ]] || { sed -n '2,15p' "$0"; exit 2; }
out=$(realpath -m "$1")
commit=${2:-HEAD}
commands=(first test)
[[ ${3:-} == first ]] && commands=(first)
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
git clone -q "$repo" "$work/clone" && git -C "$work/clone" checkout -q "$commit" || exit 1
cd "$work/clone" || exit 1

block() {  # block N: the N-th ```sh block of README.md
  awk -v want="$1" '/^```sh$/ { n++; next } /^```$/ { if (n == want) exit } n == want' README.md
}
export CCACHE_DISABLE=1 TREEFIX_CACHE_DIR=$work/kernel-cache
export CMAKE_CXX_COMPILER_LAUNCHER=$repo/bench/lib/time_compile.sh  # CMake reads it (>= 3.17)
{
  echo "commit $(git rev-parse --short HEAD), $(nproc) cores, $(date -u +%FT%TZ)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/times.txt"
for name in "${commands[@]}"; do
  command=$(block "$([[ $name == first ]] && echo 1 || echo 2)")
  export TREEFIX_TU_LOG=$out/units-$name.tsv
  : > "$TREEFIX_TU_LOG"
  start=$(date +%s.%N)
  bash -c "$command" > "$out/$name.log" 2>&1
  status=$?
  end=$(date +%s.%N)
  awk -v n="$name" -v s="$start" -v e="$end" -v st="$status" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" \
    'BEGIN { printf "%s command: %.0f s (exit status %d); load average after: %s\n", n, e - s, st, l }' \
    >> "$out/times.txt"
done
# The apt-get part alone, now that the packages are there (what it cost above when they were).
apt=$(block 1 | sed 's/ && cmake .*//')
start=$(date +%s.%N)
bash -c "$apt" > /dev/null 2>&1
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "apt-get part of the first command, packages installed: %.0f s\n", e - s }' \
  >> "$out/times.txt"
# CMake's own probes (try_compile: cmTC_*) are not units of the project.
for name in "${commands[@]}"; do
  grep -v '/cmTC_' "$out/units-$name.tsv" > "$out/units.tmp"
  mv "$out/units.tmp" "$out/units-$name.tsv"
done
{
  for name in "${commands[@]}"; do
    echo "== $name command: $(wc -l < "$out/units-$name.tsv") translation units, $(awk -F'\t' \
      '{ c += $2 } END { printf "%.0f", c }' "$out/units-$name.tsv") CPU seconds; the ten slowest:"
    sort -t$'\t' -k2,2 -rn "$out/units-$name.tsv" | head -10 |
      awk -F'\t' '{ printf "%7.1f s CPU %7.1f s wall  %s\n", $2, $1, $3 }'
  done
} > "$out/slowest.txt"
cat "$out/times.txt" "$out/slowest.txt"
rm -rf "$work"
