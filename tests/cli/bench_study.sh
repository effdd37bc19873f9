#!/usr/bin/env bash
# Acceptance of the study pipeline at tiny sizes: treefix-bench paper (with --dump-dir) and
# accuracy write CSVs, bench/cupy_treefix.py --numpy reproduces the dumped results, bench/plot.py
# draws the figures; bad arguments exit non-zero with a message. Python parts need NumPy and
# matplotlib and are skipped (said so) where no python3 has them.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"
bench=$(dirname "$treefix")/treefix-bench
mkdir -p results

"$bench" paper --min-log 3 --max-log 9 --repeats 2 --warmup 1 --shapes star,caterpillar,random-shuffled \
  --algorithms sequential,cpu-euler,cpu-levels,levels,euler --dump-dir dump \
  --csv results/paper.csv > paper.txt 2> paper.err
lines=$(grep -c . results/paper.csv)
[[ $lines == $((1 + 3 * 7 * 5)) ]] || fail "paper.csv has $lines lines"
# every row is ok, or (only for the device algorithms not in this build) unavailable
if grep -v '^device' results/paper.csv | grep -v ',ok$' | grep -v ',levels,.*,unavailable$' | grep -q .; then
  fail "unexpected status in paper.csv"; fi
grep -q ',euler,.*,ok$' results/paper.csv || fail "no euler timing"
[[ $(grep -c . dump/index.csv) == $((1 + 3 * 7)) ]] || fail "dump index"
[[ $(stat -c %s dump/star_512.open.i32) == 2048 ]] || fail "dump size"

"$bench" paper --min-log 4 --max-log 6 --repeats 1 --fix rootfix,leaffix --type int64 --shapes path \
  --algorithms sequential,cpu-euler,euler --dump-dir dump-both --csv results/paper-leaffix.csv > /dev/null 2>&1
grep -q 'path,64,int64,leaffix,euler,.*,ok$' results/paper-leaffix.csv || fail "leaffix int64 row"
grep -q 'path,64,int64,rootfix,cpu-euler,.*,ok$' results/paper-leaffix.csv || fail "rootfix int64 row"
[[ $(grep -c ',ok$' results/paper-leaffix.csv) == 18 ]] || fail "both fixes: 3 sizes x 2 fixes x 3 algorithms"
[[ $(grep -c ',leaffix,' dump-both/index.csv) == 3 ]] || fail "dump index of both fixes"

"$bench" accuracy --terms 200 --trees 3 --max-cond-log 6 --csv results/accuracy.csv > accuracy.txt 2>/dev/null
# 4 settings x 6 condition numbers x 6 algorithms (sequential, euler, levels; each fast and accurate)
[[ $(grep -c . results/accuracy.csv) == $((1 + 4 * 6 * 6)) ]] || fail "accuracy.csv rows"
# the accurate euler rounds the exact sum once: within one rounding at every condition number
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["algorithm"] == "euler" && $col["max_rel_error"] > 6e-8 { bad = 1 } END { exit bad }' \
  results/accuracy.csv || fail "accurate euler beyond one rounding"
"$bench" accuracy --type double --terms 100 --trees 2 --max-cond-log 3 --settings leaffix:random,rootfix:caterpillar \
  --algorithms sequential,euler --csv results/accuracy-double.csv > /dev/null 2>&1
[[ $(grep -c ',double,.*,ok$' results/accuracy-double.csv) == 12 ]] || fail "accuracy --type double rows"
# the achieved condition numbers are near the targets and the float errors grow with them
python_ok=
for py in python3 /usr/bin/python3; do
  if command -v "$py" > /dev/null && "$py" -c 'import numpy, matplotlib' 2> /dev/null; then python_ok=$py; break; fi
done
awk -F, 'NR > 1 && $(NF) == "ok" { t = $10; a = $11; if (a < t / 10 || a > t * 10) bad = 1 } END { exit bad }' \
  results/accuracy.csv || fail "achieved condition numbers far from the targets"

expect_error error "$bench" paper --min-log 5 --max-log 4
expect_error error "$bench" paper --min-log 3 --max-log 3 --shapes nosuchshape
expect_error error "$bench" paper --min-log 3 --max-log 3 --algorithms nosuchalgorithm
expect_error error "$bench" paper --min-log 3 --max-log 3 --shapes graph:missing.mtx
expect_error error "$bench" accuracy --terms 1
expect_error error "$bench" accuracy --type int32
expect_error error "$bench" accuracy --settings rootfix:star --trees 1 --max-cond-log 1

if [[ -z $python_ok ]]; then
  echo "SKIP: no python3 with numpy and matplotlib: cupy_treefix.py and plot.py not exercised"
  exit 0
fi
"$python_ok" "$src/bench/cupy_treefix.py" dump --numpy --repeats 2 --csv results/cupy.csv > cupy.txt 2>&1 \
  || fail "cupy_treefix.py --numpy: $(tail -3 cupy.txt)"
[[ $(grep -c ',numpy,.*,ok$' results/cupy.csv) == 21 ]] || fail "cupy.csv rows"
"$python_ok" "$src/bench/cupy_treefix.py" dump-both --numpy --repeats 1 --csv both.csv > /dev/null 2>&1 \
  || fail "cupy_treefix.py --numpy on int64 rootfix and leaffix"
[[ $(grep -c ',int64,leaffix,numpy,.*,ok$' both.csv) == 3 ]] || fail "numpy leaffix rows"
# a corrupted expected result must be reported, with a non-zero exit
printf '\x01\x02\x03\x04' | dd of=dump/random-shuffled_64.rootfix.expected.bin bs=1 seek=8 conv=notrunc 2> /dev/null
if "$python_ok" "$src/bench/cupy_treefix.py" dump --numpy --repeats 1 --csv bad.csv > bad.txt 2>&1; then
  fail "corrupted expected result not detected"; fi
grep -q "differs" bad.txt || fail "no message for the corrupted result"
if "$python_ok" "$src/bench/cupy_treefix.py" no-such-dir --numpy --csv x.csv 2> err.txt; then fail "missing dump dir accepted"; fi

"$python_ok" "$src/bench/plot.py" results > plot.txt || fail "plot.py"
for png in perf_rootfix_float_star perf_rootfix_float_caterpillar perf_rootfix_float_random-shuffled \
           perf_leaffix_int64_path accuracy_float; do
  [[ -s results/$png.png ]] || fail "missing $png.png"
done
grep -q 'numpy / euler' results/summary.md || fail "summary.md lacks the numpy ratio"
if "$python_ok" "$src/bench/plot.py" no-such-dir 2> err.txt; then fail "plot.py accepted a missing directory"; fi
echo "bench study pipeline: ok"
