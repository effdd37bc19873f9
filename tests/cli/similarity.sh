#!/usr/bin/env bash
# treefix similarity / semtrees: ranked output on the hand-worked examples, device and CPU agree,
# --top and --output, generated trees, and bad inputs exit non-zero with a message.
set -euo pipefail
treefix="$1"
scratch="$2"
data="$(cd "$(dirname "$0")/../data/ruleml" && pwd)"
rm -rf "$scratch"
mkdir -p "$scratch"

expected="1.000000 car_a.xml
0.950000 car_c.xml
0.800000 car_b.xml
0.562500 car_engine.xml
0.562500 car_engine2.xml
0.250000 car_leaf.xml
0.000000 truck.xml"

got="$("$treefix" similarity --reference "$data/car_a.xml" --trees "$data")"
[ "$got" = "$expected" ] || { echo "device ranking differs:"; echo "$got"; exit 1; }
got="$("$treefix" similarity --cpu --threads 2 --reference "$data/car_a.xml" --trees "$data")"
[ "$got" = "$expected" ] || { echo "CPU ranking differs:"; echo "$got"; exit 1; }

"$treefix" similarity --reference "$data/car_a.xml" --trees "$data" --top 2 --output "$scratch/top2.txt"
[ "$(cat "$scratch/top2.txt")" = "$(echo "$expected" | head -n 2)" ] || { echo "--top 2 wrong"; exit 1; }

got="$("$treefix" similarity --reference "$data/car_engine.xml" --trees "$data/car_engine2.xml")"
[ "$got" = "0.580000 $data/car_engine2.xml" ] || { echo "single file: $got"; exit 1; }

# Generated trees: device (float) and CPU (double) agree per file within 1e-5.
"$treefix" semtrees --count 300 --seed 7 --output-dir "$scratch/gen"
[ "$(ls "$scratch/gen" | wc -l)" -eq 300 ] || { echo "semtrees wrote the wrong number of files"; exit 1; }
"$treefix" similarity --reference "$scratch/gen/tree_000000.xml" --trees "$scratch/gen" > "$scratch/device.txt"
"$treefix" similarity --cpu --reference "$scratch/gen/tree_000000.xml" --trees "$scratch/gen" > "$scratch/cpu.txt"
[ "$(wc -l < "$scratch/device.txt")" -eq 300 ] || { echo "expected 300 lines"; exit 1; }
join -j 2 <(sort -k 2 "$scratch/device.txt") <(sort -k 2 "$scratch/cpu.txt") |
  awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 1e-5) { print "differ: " $0; bad = 1 } } END { exit bad }' ||
  { echo "device and CPU differ on generated trees"; exit 1; }
[ "$(join -j 2 <(sort -k 2 "$scratch/device.txt") <(sort -k 2 "$scratch/cpu.txt") | wc -l)" -eq 300 ] ||
  { echo "device and CPU name different files"; exit 1; }
head -n 1 "$scratch/device.txt" | grep -q "^1.000000 tree_000000.xml$" || { echo "reference not first"; exit 1; }

# Bad inputs: non-zero exit, a message naming the file, and no output file left behind.
for bad in malformed missing_weight weight_sum duplicate_arc no_ctor; do
  if "$treefix" similarity --reference "$data/bad/$bad.xml" --trees "$data" --output "$scratch/bad.txt" 2> "$scratch/err.txt"; then
    echo "bad reference $bad.xml accepted"; exit 1
  fi
  grep -q "$bad.xml" "$scratch/err.txt" || { echo "message does not name $bad.xml:"; cat "$scratch/err.txt"; exit 1; }
  [ ! -e "$scratch/bad.txt" ] || { echo "partial output left for $bad.xml"; exit 1; }
  if "$treefix" similarity --reference "$data/car_a.xml" --trees "$data/bad" --output "$scratch/bad.txt" 2> "$scratch/err.txt"; then
    echo "directory with bad trees accepted"; exit 1
  fi
  [ ! -e "$scratch/bad.txt" ] || { echo "partial output left"; exit 1; }
done
if "$treefix" similarity --reference "$data/no-such.xml" --trees "$data" 2> "$scratch/err.txt"; then
  echo "missing reference accepted"; exit 1
fi
grep -q "no-such.xml" "$scratch/err.txt"
mkdir -p "$scratch/empty"
if "$treefix" similarity --reference "$data/car_a.xml" --trees "$scratch/empty" 2> "$scratch/err.txt"; then
  echo "empty directory accepted"; exit 1
fi
grep -q "no \*.xml files" "$scratch/err.txt"
if "$treefix" similarity --reference "$data/car_a.xml" --trees "$data" --top 0 2> /dev/null; then
  echo "--top 0 accepted"; exit 1
fi
echo "similarity CLI: ok"
