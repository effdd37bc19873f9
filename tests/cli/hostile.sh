#!/usr/bin/env bash
# The hostile-user suite: one row per bad input or hostile setup, from the tables in
# tests/cli/cases/*.tsv. Usage: hostile.sh TREEFIX SCRATCH_DIR [CASES_FILE...]
#
# A table row has five tab-separated fields (lines starting with # are comments):
#   name     what the row proves, unique within its file
#   exit     the expected exit status: a number, or "nz" for any non-zero status
#   stderr   an extended regular expression that standard error must match ("-": anything)
#   command  bash code run in a fresh empty directory, with $T the treefix program, $D the
#            repository's tests/data folder and stdin from /dev/null; the status of the code is
#            the status checked (so set-up steps come first, the command under test last)
#   check    bash code run afterwards in the same directory that must succeed ("-": none),
#            e.g. `[ ! -e out.txt ]` or `cmp keep.txt out.txt`
#
# Every row is also held to the rules that apply to every run: it finishes within
# TREEFIX_CASE_TIMEOUT seconds (default 60: a hang fails), standard error shows no C++
# exception's internal text (std::, bad_alloc, vector::, basic_string) and no sanitizer report,
# and no temporary output file (*.tmp-*, .treefix-tmp*) is left behind.
set -uo pipefail
treefix=$(realpath "$1")
scratch=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../data" && pwd)
if [[ $# -eq 0 ]]; then set -- "$here"/cases/*.tsv; fi
timeout_s=${TREEFIX_CASE_TIMEOUT:-60}
rm -rf "$scratch" && mkdir -p "$scratch"

failures=0
rows=0
fail() {  # fail FILE NAME WHY
  echo "FAIL $(basename "$1") $2: $3" >&2
  failures=$((failures + 1))
}

for table in "$@"; do
  while IFS=$'\t' read -r name want pattern command check extra || [[ -n $name ]]; do
    [[ -z $name || $name == \#* ]] && continue
    rows=$((rows + 1))
    if [[ -z $command || -n ${extra:-} ]]; then
      fail "$table" "$name" "malformed row (want 5 tab-separated fields)"
      continue
    fi
    dir="$scratch/$(basename "$table" .tsv)-$rows"
    mkdir -p "$dir"
    (cd "$dir" && T=$treefix D=$data timeout -k 5 "$timeout_s" bash -c "$command" \
        < /dev/null > stdout.log 2> stderr.log)
    status=$?
    if [[ $status -eq 124 || $status -eq 137 ]]; then
      fail "$table" "$name" "did not finish within ${timeout_s} s"
      continue
    fi
    if [[ $want == nz ]]; then
      [[ $status -ne 0 ]] || fail "$table" "$name" "exit 0, expected a failure"
    elif [[ $status -ne $want ]]; then
      fail "$table" "$name" "exit $status, expected $want"
    fi
    if [[ $pattern != - ]] && ! grep -Eq -- "$pattern" "$dir/stderr.log"; then
      fail "$table" "$name" "stderr does not match /$pattern/"
    fi
    if grep -Eq 'std::|bad_alloc|vector::|basic_string|runtime error:|Sanitizer|terminate called' \
        "$dir/stderr.log"; then
      fail "$table" "$name" "stderr shows internals or a sanitizer report"
    fi
    if [[ $check != - ]] &&
        ! (cd "$dir" && T=$treefix D=$data bash -c "$check" > check.log 2>&1); then
      fail "$table" "$name" "check failed: $check"
    fi
    leftovers=$(find "$dir" \( -name '*.tmp-*' -o -name '.treefix-tmp*' \) -print -quit)
    [[ -z $leftovers ]] || fail "$table" "$name" "temporary file left behind: $leftovers"
    if [[ $failures -gt 0 && -n ${TREEFIX_CASE_VERBOSE:-} ]]; then
      sed 's/^/  stderr: /' "$dir/stderr.log" | head -5 >&2
    fi
  done < "$table"
done
echo "hostile cases: $rows rows, $failures failed"
[[ $rows -gt 0 && $failures -eq 0 ]]
