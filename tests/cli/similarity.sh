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
got="$("$treefix" similarity --definition weighted --reference "$data/car_a.xml" --trees "$data")"
[ "$got" = "$expected" ] || { echo "weighted is not the default:"; echo "$got"; exit 1; }

# The thesis' definition (docs/forests.md): children paired by position, 1/6 for the leaf.
thesis="1.000000 car_a.xml
0.650000 car_c.xml
0.550000 car_engine.xml
0.550000 car_engine2.xml
0.166667 car_leaf.xml
0.000000 car_b.xml
0.000000 truck.xml"
for where in "" "--cpu"; do
  got="$("$treefix" similarity $where --definition thesis --reference "$data/car_a.xml" --trees "$data")"
  [ "$got" = "$thesis" ] || { echo "thesis ranking ($where) differs:"; echo "$got"; exit 1; }
done
if "$treefix" similarity --definition recursive --reference "$data/car_a.xml" --trees "$data" 2> "$scratch/err.txt"; then
  echo "unknown definition accepted"; exit 1
fi
grep -q "weighted" "$scratch/err.txt" || { echo "no list of definitions:"; cat "$scratch/err.txt"; exit 1; }
"$treefix" similarity --parse host --stats --reference "$data/car_a.xml" --trees "$data" > /dev/null 2> "$scratch/stats.txt"
for phase in parse construct "device setup" compute sort write total; do
  grep -q "treefix similarity: $phase" "$scratch/stats.txt" || { echo "--stats lacks $phase"; cat "$scratch/stats.txt"; exit 1; }
done
# --parse device: the host reads the files, the device parses them (these files are all in the
# form it takes: no "host reader" phase), and the ranking is the same.
"$treefix" similarity --parse device --stats --reference "$data/car_a.xml" --trees "$data" > "$scratch/on-device.txt" 2> "$scratch/stats.txt"
for phase in "read files" "sort names" upload "parse on the device" compute sort write total; do
  grep -q "treefix similarity: $phase" "$scratch/stats.txt" || { echo "--parse device --stats lacks $phase"; cat "$scratch/stats.txt"; exit 1; }
done
if grep -q "host reader" "$scratch/stats.txt"; then echo "the device gave up on $data"; cat "$scratch/stats.txt"; exit 1; fi
[ "$(cat "$scratch/on-device.txt")" = "$expected" ] || { echo "--parse device ranking differs"; cat "$scratch/on-device.txt"; exit 1; }
if "$treefix" similarity --cpu --parse device --reference "$data/car_a.xml" --trees "$data" 2> "$scratch/err.txt"; then
  echo "--cpu --parse device accepted"; exit 1
fi
grep -q "goes without --cpu" "$scratch/err.txt" || { echo "--cpu --parse device: wrong message"; cat "$scratch/err.txt"; exit 1; }
# auto: the device parse only on a GPU (this test's device may be a CPU); the ranking is the same.
[ "$("$treefix" similarity --parse auto --reference "$data/car_a.xml" --trees "$data")" = "$expected" ] || { echo "--parse auto ranking differs"; exit 1; }
if "$treefix" similarity --parse gpu --reference "$data/car_a.xml" --trees "$data" 2> /dev/null; then echo "--parse gpu accepted"; exit 1; fi

"$treefix" similarity --reference "$data/car_a.xml" --trees "$data" --top 2 --output "$scratch/top2.txt"
[ "$(cat "$scratch/top2.txt")" = "$(echo "$expected" | head -n 2)" ] || { echo "--top 2 wrong"; exit 1; }

got="$("$treefix" similarity --reference "$data/car_engine.xml" --trees "$data/car_engine2.xml")"
[ "$got" = "0.580000 $data/car_engine2.xml" ] || { echo "single file: $got"; exit 1; }

# Generated trees: device (float) and CPU (double) agree per file within 1e-5, both definitions.
"$treefix" semtrees --count 300 --seed 7 --output-dir "$scratch/gen"
[ "$(ls "$scratch/gen" | wc -l)" -eq 300 ] || { echo "semtrees wrote the wrong number of files"; exit 1; }
for definition in weighted thesis; do
  "$treefix" similarity --definition $definition --reference "$scratch/gen/tree_000000.xml" --trees "$scratch/gen" > "$scratch/device.txt"
  "$treefix" similarity --definition $definition --cpu --reference "$scratch/gen/tree_000000.xml" --trees "$scratch/gen" > "$scratch/cpu.txt"
  [ "$(wc -l < "$scratch/device.txt")" -eq 300 ] || { echo "expected 300 lines"; exit 1; }
  join -j 2 <(sort -k 2 "$scratch/device.txt") <(sort -k 2 "$scratch/cpu.txt") |
    awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 1e-5) { print "differ: " $0; bad = 1 } } END { exit bad }' ||
    { echo "device and CPU differ on generated trees ($definition)"; exit 1; }
  [ "$(join -j 2 <(sort -k 2 "$scratch/device.txt") <(sort -k 2 "$scratch/cpu.txt") | wc -l)" -eq 300 ] ||
    { echo "device and CPU name different files"; exit 1; }
  head -n 1 "$scratch/device.txt" | grep -q "^1.000000 tree_000000.xml$" || { echo "reference not first"; exit 1; }
  # Highest first, and every value in [0, 1].
  awk 'NR > 1 && $1 > prev { print "not sorted at line " NR; bad = 1 } { prev = $1; if ($1 < 0 || $1 > 1) bad = 1 } END { exit bad }' "$scratch/device.txt" ||
    { echo "ranking out of order or out of [0, 1]"; exit 1; }
done

# semtrees: shapes whose trees cannot be held are refused up front, with the numbers; a prefix
# cannot leave the directory.
if "$treefix" semtrees --count 1 --max-height 64 --max-children 64 --output-dir "$scratch/huge" 2> "$scratch/err.txt"; then
  echo "semtrees --max-height 64 --max-children 64 accepted"; exit 1
fi
grep -q "nodes expected" "$scratch/err.txt" || { echo "no estimate in:"; cat "$scratch/err.txt"; exit 1; }
[ ! -e "$scratch/huge" ] || { echo "semtrees created the directory of a refused run"; exit 1; }
for prefix in "../escape" "sub/tree" ".."; do
  if "$treefix" semtrees --count 1 --prefix "$prefix" --output-dir "$scratch/prefixed" 2> "$scratch/err.txt"; then
    echo "prefix '$prefix' accepted"; exit 1
  fi
  grep -q "path separator" "$scratch/err.txt" || { echo "message for prefix $prefix:"; cat "$scratch/err.txt"; exit 1; }
done
[ ! -e "$scratch/escape_000000.xml" ] || { echo "a file escaped the output directory"; exit 1; }

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
# Weights through the number policy: finite numbers only.
printf '<cterm><_opc><ctor>Car</ctor></_opc>\n<_r n="Make" w="inf"><ind>Ford</ind></_r></cterm>\n' > "$scratch/inf.xml"
if "$treefix" similarity --reference "$scratch/inf.xml" --trees "$data" 2> "$scratch/err.txt"; then
  echo "weight inf accepted"; exit 1
fi
grep -q "inf.xml:2: .*'inf' is not finite" "$scratch/err.txt" || { echo "message for inf:"; cat "$scratch/err.txt"; exit 1; }
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
