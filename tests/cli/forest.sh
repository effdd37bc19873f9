#!/usr/bin/env bash
# treefix forest-order: visit orders of forest files on the device equal the hand-derived ones and
# the CPU's; bad files exit non-zero with the place and leave no output.
set -euo pipefail
treefix="$1"
scratch="$2"
rm -rf "$scratch"
mkdir -p "$scratch"

# Tree 0: 0 is the root with children 1 and 2; 3 is a child of 1. Tree 1: one node.
printf '2\n4\n-1 0 0 1\n1\n-1\n' > "$scratch/general.txt"
check() {  # order, expected text, extra options
  local got
  got="$("$treefix" forest-order --forest "$3" --order "$1" ${4:-})"
  [ "$got" = "$2" ] || { echo "order $1 of $3: got '$got', expected '$2'"; exit 1; }
  got="$("$treefix" forest-order --cpu --forest "$3" --order "$1" ${4:-})"
  [ "$got" = "$2" ] || { echo "CPU order $1 of $3: got '$got'"; exit 1; }
}
check pre  $'0 1 3 2\n0' "$scratch/general.txt"
check post $'3 1 2 0\n0' "$scratch/general.txt"
check bfs  $'0 1 2 3\n0' "$scratch/general.txt"

# Binary: root 2 with left 1; 1 has left 0 and right 3.
printf '1\n4\n-1 -1\n0 3\n1 -1\n-1 -1\n' > "$scratch/binary.txt"
check in   '0 1 3 2' "$scratch/binary.txt" --binary
check pre  '2 1 0 3' "$scratch/binary.txt" --binary
check post '0 3 1 2' "$scratch/binary.txt" --binary
check bfs  '2 1 0 3' "$scratch/binary.txt" --binary

"$treefix" forest-order --forest "$scratch/general.txt" --order post --output "$scratch/out.txt"
[ "$(cat "$scratch/out.txt")" = $'3 1 2 0\n0' ] || { echo "--output wrong"; exit 1; }

fails() {  # expected message fragment, then the arguments
  local fragment="$1"; shift
  if "$treefix" forest-order "$@" --output "$scratch/bad.txt" 2> "$scratch/err.txt"; then
    echo "accepted: $*"; exit 1
  fi
  grep -q -- "$fragment" "$scratch/err.txt" || { echo "message for $*:"; cat "$scratch/err.txt"; exit 1; }
  [ ! -e "$scratch/bad.txt" ] || { echo "partial output for $*"; exit 1; }
}
printf '1\n3\n-1 2 1\n' > "$scratch/cycle.txt"
fails "cycle" --forest "$scratch/cycle.txt"
printf '1\n3\n-1 0 7\n' > "$scratch/range.txt"
fails "range.txt:3" --forest "$scratch/range.txt"
printf '1\n3\n-1 0\n' > "$scratch/short.txt"
fails "file ends" --forest "$scratch/short.txt"
fails "binary forests only" --forest "$scratch/general.txt" --order in
fails "unknown traversal" --forest "$scratch/general.txt" --order sideways
fails "cannot open" --forest "$scratch/missing.txt"

# treefix convert --xml: an XML document's element tree as a tree file (or .npy), weights, names.
xml="$(cd "$(dirname "$0")/../data/xml" && pwd)/khronos_gl_excerpt.xml"
"$treefix" convert --xml "$xml" --output "$scratch/gl.tree" --weight text-length \
  --weights-out "$scratch/gl.weights" --names "$scratch/gl.names"
[ "$(head -n 1 "$scratch/gl.tree")" = 174 ] || { echo "convert: wrong element count"; exit 1; }
[ "$(sed -n 2p "$scratch/gl.tree")" = -1 ] || { echo "convert: element 0 is not the root"; exit 1; }
[ "$(wc -l < "$scratch/gl.weights")" -eq 174 ] || { echo "convert: wrong weight count"; exit 1; }
[ "$(head -n 1 "$scratch/gl.names")" = registry ] || { echo "convert: names"; exit 1; }
[ "$(awk '{ s += $1 } END { print s }' "$scratch/gl.weights")" = 2400 ] || { echo "convert: text lengths"; exit 1; }
# rootfix and leaffix of the document: depth 4 at most, the root's subtree is the document.
"$treefix" rootfix --tree "$scratch/gl.tree" --exclusive --output "$scratch/depth.txt"
[ "$(sort -n "$scratch/depth.txt" | tail -n 1)" = 4 ] || { echo "convert: depth"; exit 1; }
"$treefix" leaffix --tree "$scratch/gl.tree" --weights "$scratch/gl.weights" --type float64 --output "$scratch/text.txt"
[ "$(head -n 1 "$scratch/text.txt")" = 2400 ] || { echo "convert: leaffix of text lengths"; head -n 1 "$scratch/text.txt"; exit 1; }
"$treefix" convert --xml "$xml" --output "$scratch/gl.npy"
head -c 6 "$scratch/gl.npy" | grep -q "NUMPY" || { echo "convert: .npy output"; exit 1; }
grep -q "<i4" "$scratch/gl.npy" || { echo "convert: .npy dtype"; exit 1; }
# Malformed XML: refused with the place, nothing written.
printf '<a>\n  <b>\n</a>\n' > "$scratch/broken.xml"
if "$treefix" convert --xml "$scratch/broken.xml" --output "$scratch/broken.tree" --weight text-length \
    --weights-out "$scratch/broken.w" 2> "$scratch/err.txt"; then
  echo "convert accepted malformed XML"; exit 1
fi
grep -q "broken.xml:3: malformed XML" "$scratch/err.txt" || { echo "convert message:"; cat "$scratch/err.txt"; exit 1; }
[ ! -e "$scratch/broken.tree" ] && [ ! -e "$scratch/broken.w" ] || { echo "convert wrote output for bad XML"; exit 1; }
if "$treefix" convert --xml "$xml" --output "$scratch/x.tree" --weight attribute 2> "$scratch/err.txt"; then
  echo "convert --weight attribute without --attribute accepted"; exit 1
fi
[ ! -e "$scratch/x.tree" ] || { echo "convert wrote output for bad options"; exit 1; }
echo "forest CLI: ok"
