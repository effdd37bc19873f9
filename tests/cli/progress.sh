#!/usr/bin/env bash
# Progress on standard error: shown when it is a terminal (here a pseudo-terminal made by
# util-linux's `script`), never when it is a file or a pipe. TREEFIX_PROGRESS_DELAY=0 drops the
# 2 s quiet start so that short runs show it.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
export TREEFIX_PROGRESS_DELAY=0

# on_terminal LOG COMMAND...: runs the command with a terminal for its standard streams; what the
# terminal showed goes to LOG. Fails when the command fails.
on_terminal() {
  local log="$1" command
  shift
  command=$(printf '%q ' "$@")
  script -qec "$command" /dev/null > "$log" < /dev/null || fail "on a terminal: $*: $(cat "$log")"
}

printf '2 7\n1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' > two.txt

# nbody: the steps, with and without snapshots.
on_terminal nbody.log "$treefix" nbody --bodies two.txt --steps 5 --dt 0.01 --eps 0 -o steps.txt
grep -q "treefix nbody: step 1 of 5" nbody.log || fail "nbody showed no steps: $(cat -v nbody.log)"
on_terminal snap.log "$treefix" nbody --bodies two.txt --steps 4 --output-every 2 --eps 0 -o snap.txt
grep -q "treefix nbody: step 1 of 4, 0 snapshots written" snap.log \
  || fail "nbody showed no snapshots: $(cat -v snap.log)"
# The result is the one written without a terminal.
"$treefix" nbody --bodies two.txt --steps 5 --dt 0.01 --eps 0 -o plain.txt 2> err.txt
cmp steps.txt plain.txt || fail "nbody on a terminal wrote another result"
[ ! -s err.txt ] || fail "nbody printed progress into a file: $(cat -v err.txt)"
"$treefix" nbody --bodies two.txt --steps 5 --dt 0.01 --eps 0 -o plain.txt 2>&1 | cat > piped.txt
[ ! -s piped.txt ] || fail "nbody printed progress into a pipe: $(cat -v piped.txt)"

# semtrees: the files as they are written.
on_terminal semtrees.log "$treefix" semtrees --count 20 --output-dir trees
grep -q "treefix semtrees: 1 of 20 files written" semtrees.log \
  || fail "semtrees showed no files: $(cat -v semtrees.log)"
[ "$(ls trees | wc -l)" -eq 20 ] || fail "semtrees on a terminal wrote $(ls trees | wc -l) files"
"$treefix" semtrees --count 20 --output-dir trees-plain 2> err.txt
[ ! -s err.txt ] || fail "semtrees printed progress into a file: $(cat -v err.txt)"
diff -r trees trees-plain > /dev/null || fail "semtrees on a terminal wrote other trees"

# batch: the lines as they run.
printf 'generate path -n 10 -o p.txt\nrootfix --tree p.txt -o r.txt\n' > jobs.txt
on_terminal batch.log "$treefix" batch jobs.txt
grep -q "treefix batch: line 1 of 2" batch.log || fail "batch showed no lines: $(cat -v batch.log)"

# The line is erased once the work is done: the last thing shown is the erasure.
tail -c 4 nbody.log | od -c | grep -q '\\r 033   \[   K' || fail "nbody's line was not erased: $(cat -v nbody.log)"

# A delay that is not a number of seconds is refused, naming the variable.
if TREEFIX_PROGRESS_DELAY=soon script -qec \
  "$(printf '%q ' "$treefix" nbody --bodies two.txt --steps 1 -o bad.txt)" /dev/null > bad.log; then
  fail "TREEFIX_PROGRESS_DELAY=soon accepted"
fi
grep -q "TREEFIX_PROGRESS_DELAY='soon'" bad.log || fail "bad delay message: $(cat -v bad.log)"
[ ! -e bad.txt ] || fail "a refused run left its output"
echo "progress: all checks passed"
