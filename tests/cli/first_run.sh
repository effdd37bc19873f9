#!/usr/bin/env bash
# What a first user meets around the results: a first rootfix on a CPU device compiles nothing;
# `treefix warmup` fills the cache so that a device rootfix compiles nothing more; the device
# words (`pocl` on PoCL); an unknown subcommand with its closest names; exit statuses as
# documented (2 bad input, 1 a write that fails); text-only outputs refuse other formats. (The
# notice of a first compilation: tests/test_runtime_robust.cpp.)
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
suite_cache=${TREEFIX_CACHE_DIR:-}

# auto on a CPU device: the host's pass, no program compiled, an empty cache stays empty
export TREEFIX_CACHE_DIR="$dir/cache"
cpu=$("$treefix" devices | grep -c '(CPU' || true)
"$treefix" rootfix --tree "$data/sample.tree" --weights "$data/sample.weights" -o out.txt
[ "$(paste -sd' ' out.txt)" = "5 8 3 15 9 7 7 9 10 12" ] || fail "rootfix: $(cat out.txt)"
if ((cpu > 0)) && [ -z "${TREEFIX_DEVICE:-}" ]; then
  [ ! -d "$TREEFIX_CACHE_DIR" ] || [ -z "$(ls "$TREEFIX_CACHE_DIR")" ] ||
    fail "auto on a CPU device compiled kernels"
fi
expect_error_text "the disk cache is off" env TREEFIX_CACHE=off "$treefix" warmup

# warmup of the treefix paths into the suite's cache (built by the unit tests already, mostly):
# a device rootfix afterwards compiles nothing more
if [ -n "$suite_cache" ]; then export TREEFIX_CACHE_DIR="$suite_cache"; else unset TREEFIX_CACHE_DIR; fi
"$treefix" warmup --threads 2 --module treefix 2> warmup.txt
grep -q '^treefix warmup: [0-9]* programs in' warmup.txt || fail "warmup: $(cat warmup.txt)"
cache=${TREEFIX_CACHE_DIR:-$HOME/.cache/treefix}
built=$(ls "$cache" | wc -l)
((built >= 10)) || fail "warmup left $built programs"
expect_error_text "--module: " "$treefix" warmup --module trees
"$treefix" rootfix --tree "$data/sample.tree" --algorithm levels --op max -o out.txt
"$treefix" leaffix --tree "$data/sample.tree" --algorithm euler --type float -o out.txt
[ "$(ls "$cache" | wc -l)" = "$built" ] || fail "a warmed-up cache was missing a program"

# device words: what `treefix devices` shows for the device selects it
if "$treefix" devices | grep -qi pocl; then
  "$treefix" rootfix --tree "$data/sample.tree" --device pocl -o out.txt
fi
expect_error_text "no OpenCL device matches 'no-such-device'" \
  "$treefix" rootfix --tree "$data/sample.tree" --device no-such-device

# an unknown subcommand: exit 2 with the closest names
expect_error_text "unknown subcommand 'rootfx' (did you mean rootfix?)" \
  "$treefix" rootfx --tree "$data/sample.tree"
[ "$("$treefix" rootfx > /dev/null 2>&1; echo $?)" = 2 ] || fail "unknown subcommand: status"
expect_error_text "the subcommands are:" "$treefix" zzzzzzzz
"$treefix" --threads 2 rootfix --tree "$data/sample.tree" -o out.txt  # a value is not a name

# exit statuses as documented: bad input 2 (an output that cannot be created is one), a write
# that fails under way 1
status() { "$@" > /dev/null 2>&1 && echo 0 || echo $?; }
[ "$(status "$treefix" rootfix --tree missing.tree)" = 2 ] || fail "missing input: not 2"
[ "$(status "$treefix" rootfix --tree "$data/sample.tree" -o no-such-dir/out.txt)" = 2 ] ||
  fail "an output in a missing folder: not 2"
[ "$(status "$treefix" rootfix --tree "$data/sample.tree" -o /dev/full)" = 1 ] ||
  fail "a failed write: not 1"

# outputs that are text only refuse the names of other formats before any work
expect_error_text "is written as text" \
  "$treefix" similarity --reference "$data/ruleml/car_a.xml" --trees "$data/ruleml" -o s.npy
echo ok
