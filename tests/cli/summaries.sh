#!/usr/bin/env bash
# treefix info (trees and graphs, text and --json), rst/root --stats, treefix batch (one process
# for many command lines, exit status per line), --version, and the kernel cache's defaults.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# A forest of two trees: 0 -> {1, 2}, 1 -> {3, 4}, 3 -> 5; and 6 alone.
printf '7\n-1 0 0 1 1 3 -1\n' > forest.txt
"$treefix" info forest.txt > info.txt
grep -q "^vertices  7$" info.txt || fail "info vertices: $(cat info.txt)"
grep -q "^roots     2 (a forest)$" info.txt || fail "info roots: $(cat info.txt)"
grep -q "^leaves    4$" info.txt || fail "info leaves: $(cat info.txt)"
grep -q "^depth     3 " info.txt || fail "info depth: $(cat info.txt)"
grep -q "^children  min 0, mean 0.714286, max 2$" info.txt || fail "info children: $(cat info.txt)"
"$treefix" info forest.txt --json > info.json
python3 - <<'PY' || fail "info --json: $(cat info.json)"
import json
info = json.load(open("info.json"))
assert info["kind"] == "tree" and info["vertices"] == 7 and info["roots"] == 2, info
assert info["level_sizes"] == [2, 2, 2, 1] and info["depth"] == 3 and info["leaves"] == 4, info
PY
# Newick and compressed trees; a deep path's level histogram is cut into ranges.
printf '((A,B)C,D)E;\n' | gzip -c > t.nwk.gz
"$treefix" info t.nwk.gz --json | grep -q '"vertices": 5, "arcs": 4, "roots": 1, "leaves": 3' \
  || fail "info on a gzip Newick tree"
"$treefix" generate path -n 1000 -o path.txt
"$treefix" info path.txt | grep -q "ranges of depths" || fail "info: a deep tree's histogram"

# Graphs: two components (0-1-2 and 3-4) and an isolated vertex 5.
printf '0 1\n1 2\n3 4\n' > g.txt
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n6 6 3\n2 1\n3 2\n5 4\n' > g.mtx
"$treefix" info g.mtx > ginfo.txt
grep -q "^components  3 (weakly connected), the largest 3 vertices$" ginfo.txt \
  || fail "info graph components: $(cat ginfo.txt)"
grep -q "^isolated    1$" ginfo.txt || fail "info graph isolated: $(cat ginfo.txt)"
# Edge lists are directed unless --undirected (as a SciPy matrix's entries): "u v" is u -> v.
"$treefix" info g.txt --json | python3 -c '
import json, sys
g = json.load(sys.stdin)
assert g["kind"] == "graph" and g["components"] == 2 and g["arcs"] == 3, g' \
  || fail "info --json on an edge list"
"$treefix" info g.txt --undirected --json | python3 -c '
import json, sys
g = json.load(sys.stdin)
assert g["kind"] == "graph" and g["components"] == 2 and g["arcs"] == 6, g' \
  || fail "info --json on an edge list read undirected"

# rst and root --stats: component count and depth.
"$treefix" rst --graph g.mtx --stats -o rst.txt 2> rst_stats.txt
grep -q "forest: 3 components, depth 2 (6 vertices, " rst_stats.txt || fail "rst --stats: $(cat rst_stats.txt)"
"$treefix" root --edges g.txt --stats -o root.txt 2> root_stats.txt
grep -q "forest: 2 components, depth 2 (5 vertices, 2 leaves)" root_stats.txt || fail "root --stats: $(cat root_stats.txt)"

# batch: every line its own command, outputs and errors; statuses reported; the batch fails when
# a line does (with that line's status) but runs every line.
cat > jobs.txt <<END
# comments and blank lines are skipped

rootfix --tree forest.txt -o r1.txt
treefix leaffix --tree forest.txt --op max --output 'l 1.txt'
rootfix --tree missing.txt -o r2.txt
rootfix --tree forest.txt --weights "$data/sample.weights" -o r3.txt
END
"$treefix" rootfix --tree forest.txt > want1.txt
"$treefix" leaffix --tree forest.txt --op max > want2.txt
if "$treefix" batch jobs.txt > batch_out.txt 2> batch_err.txt; then fail "batch with a failing line succeeded"; fi
cmp r1.txt want1.txt || fail "batch line 3"
cmp "l 1.txt" want2.txt || fail "batch line 4 (a quoted name)"
grep -q "jobs.txt:3: exit status 0" batch_err.txt || fail "batch status of line 3: $(cat batch_err.txt)"
grep -q "missing.txt: cannot open" batch_err.txt || fail "batch: the failing line's error"
grep -q "jobs.txt:5: exit status 2" batch_err.txt || fail "batch status of line 5: $(cat batch_err.txt)"
grep -q "jobs.txt:6: exit status 2" batch_err.txt || fail "batch: 10 weights for 7 vertices: $(cat batch_err.txt)"
grep -q "4 commands, 2 failed" batch_err.txt || fail "batch summary: $(cat batch_err.txt)"
[ ! -e r2.txt ] && [ ! -e r3.txt ] || fail "batch: a failed line left an output"
printf 'rootfix --tree forest.txt\nrootfix --tree forest.txt\n' | "$treefix" batch --quiet - > twice.txt 2> quiet.txt
cat want1.txt want1.txt | cmp - twice.txt || fail "batch from standard input"
[ "$(cat quiet.txt)" = "treefix batch: 2 commands, 0 failed" ] || fail "batch --quiet: $(cat quiet.txt)"
expect_error_text "a batch cannot run another batch" "$treefix" batch - <<< "batch x"

# --version: the version and a commit (or "unknown").
"$treefix" --version | grep -q "^treefix [0-9]*\.[0-9]*\.[0-9]* (libtreefix-cl .*, commit .*)$" \
  || fail "--version: $("$treefix" --version)"

# The kernel cache: on by default under $XDG_CACHE_HOME/treefix (created), off with
# TREEFIX_CACHE=off, and one warning when it cannot be written. PoCL keeps its own cache under
# $XDG_CACHE_HOME too: it stays where it was, so that these runs do not compile from scratch.
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}"
# (--algorithm euler: auto on a CPU device runs on the host and compiles nothing)
(unset TREEFIX_CACHE_DIR; XDG_CACHE_HOME="$PWD/xdg" "$treefix" rootfix --tree forest.txt --algorithm euler > /dev/null)
ls xdg/treefix/treefix-*.bin > /dev/null 2>&1 || fail "no cache under \$XDG_CACHE_HOME/treefix"
(unset TREEFIX_CACHE_DIR; TREEFIX_CACHE=off XDG_CACHE_HOME="$PWD/off" "$treefix" rootfix --tree forest.txt > /dev/null)
[ ! -e off ] || fail "TREEFIX_CACHE=off still wrote a cache"
touch blocker
TREEFIX_CACHE_DIR="$PWD/blocker/cache" "$treefix" rootfix --tree forest.txt --algorithm euler > out_nocache.txt 2> warn.txt
cmp out_nocache.txt want1.txt || fail "an unwritable cache changed the result"
[ "$(grep -c "warning: kernel cache" warn.txt)" = 1 ] || fail "one warning expected: $(cat warn.txt)"
expect_error_text "TREEFIX_CACHE='maybe': expected on or off" env TREEFIX_CACHE=maybe "$treefix" rootfix --tree forest.txt
echo "summaries: all checks passed"
