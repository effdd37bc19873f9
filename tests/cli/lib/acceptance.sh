# The start and the checks that the acceptance scripts share. A script runs as
# `bash tests/cli/NAME.sh TREEFIX SCRATCH-DIR` (tests/CMakeLists.txt) and, after
# `set -euo pipefail`, sources this file (it lives in a subfolder so that CTest does not take it
# for a script of its own):
#
#   source "$(dirname "$0")/lib/acceptance.sh"
#
# which sets treefix (the program under test, $1), dir (the scratch directory, $2, emptied and
# entered), data (tests/data) and src (the repository), and defines fail, expect_error and expect_error_text.
treefix="$1"
dir="$2"
data="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../data" && pwd)"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"

# fail MESSAGE...: the script stops, printing FAIL: MESSAGE on standard error.
fail() { echo "FAIL: $*" >&2; exit 1; }

# refused GREP-MODE PATTERN COMMAND...: the command must exit non-zero, print a message matching
# PATTERN (grep -G: a regular expression, -F: plain text) on standard error, and leave no out.txt
# (the output file of a failed run is never half-written). Its output goes to stdout.txt and
# stderr.txt.
refused() {
  local mode="$1" want="$2"
  shift 2
  rm -f out.txt
  if "$@" > stdout.txt 2> stderr.txt; then fail "expected failure: $*"; fi
  grep -q "$mode" -e "$want" stderr.txt || fail "message '$want' missing for: $*: $(cat stderr.txt)"
  [ ! -e out.txt ] || fail "partial output left by: $*"
}
# expect_error PATTERN COMMAND...: refused with a message matching the regular expression PATTERN.
expect_error() { refused -G "$@"; }
# expect_error_text TEXT COMMAND...: refused with a message containing TEXT.
expect_error_text() { refused -F "$@"; }
