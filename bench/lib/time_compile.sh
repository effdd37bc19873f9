#!/usr/bin/env bash
# A compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that runs the compile and appends one line to
# $TREEFIX_TU_LOG: wall seconds, CPU seconds (user + system) and the object file. Used by
# bench/build_times.sh to find the slowest translation units.
out=""
prev=""
for arg in "$@"; do
  [[ $prev == -o ]] && out=$arg
  prev=$arg
done
times=$(mktemp)
start=$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$times" "$@"
status=$?
end=$(date +%s.%N)
read -r user system < <(tail -1 "$times")
rm -f "$times"
awk -v s="$start" -v e="$end" -v u="$user" -v y="$system" -v o="$out" \
  'BEGIN { printf "%.2f\t%.2f\t%s\n", e - s, u + y, o }' >> "$TREEFIX_TU_LOG"
exit $status
