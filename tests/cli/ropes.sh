#!/usr/bin/env bash
# Acceptance tests of `treefix nbody`, `treefix correlate` and `treefix knn`.
# $1: the treefix program, $2: a scratch directory.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# --- correlate: a square of side 1 and a far point; radius 1 reaches the two adjacent corners
cp "$data/square_points.txt" square.txt
for v in lockstep independent recursive auto; do
  for s in on off auto; do
    "$treefix" correlate --points square.txt --radius 1 --variant $v --sort $s --output out.txt
    [ "$(tr '\n' ' ' < out.txt)" = "3 3 3 3 1 " ] || fail "correlate $v $s: $(cat out.txt)"
  done
done
"$treefix" correlate --points square.txt --radius 0.5 > stdout.txt
[ "$(tr '\n' ' ' < stdout.txt)" = "1 1 1 1 1 " ] || fail "correlate to stdout: $(cat stdout.txt)"

# --- knn: nearest first, ties by the smaller index, distances printed
cat > queries.txt <<'P'
2 2
0.1 0
8 8
P
for index in kd vp; do
  for v in lockstep independent recursive; do
    "$treefix" knn --points square.txt --queries queries.txt -k 3 --index $index --variant $v --output out.txt
    [ "$(sed -n 1p out.txt)" = "0 0.100000001 1 0.899999976 2 1.0049876" ] || fail "knn $index $v: $(cat out.txt)"
    [ "$(sed -n 2p out.txt | cut -d' ' -f1)" = "4" ] || fail "knn far query $index $v: $(cat out.txt)"
  done
done

# --- nbody: two unit masses at distance 1 attract with a = 1 (eps 0)
cat > two.txt <<'P'
2 7
1 0 0 0 0 0 0
1 1 0 0 0 0 0
P
"$treefix" nbody --bodies two.txt --accelerations --eps 0 --output out.txt
[ "$(sed -n 1p out.txt)" = "1 0 0" ] || fail "nbody accelerations: $(cat out.txt)"
[ "$(sed -n 2p out.txt)" = "-1 0 0" ] || fail "nbody accelerations: $(cat out.txt)"
"$treefix" nbody --bodies two.txt --steps 3 --dt 0.01 --eps 0 --variant lockstep --output out.txt
[ "$(head -n1 out.txt)" = "2 7" ] || fail "nbody steps header: $(cat out.txt)"
[ "$(wc -l < out.txt)" = "3" ] || fail "nbody steps rows: $(cat out.txt)"
# they move towards each other, symmetrically
awk 'NR==2 { if ($2 <= 0 || $5 <= 0) exit 1 } NR==3 { if ($2 >= 1 || $5 >= 0) exit 1 }' out.txt \
  || fail "nbody steps did not attract: $(cat out.txt)"
"$treefix" nbody --bodies two.txt --steps 0 --output out.txt
cmp -s <(sed -n 2,3p out.txt) <(printf '1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n') || fail "nbody steps 0 changed: $(cat out.txt)"

# the output in the format its name says, read back as bodies unchanged (.xyz: rows only; .npy)
for ext in xyz npy; do
  "$treefix" nbody --bodies two.txt --steps 0 --output "out.$ext"
  "$treefix" nbody --bodies "out.$ext" --steps 0 --output back.txt
  cmp -s back.txt out.txt || fail "nbody .$ext output does not read back: $(cat back.txt)"
done
[ "$(wc -l < out.xyz)" = "2" ] || fail "nbody .xyz output has a header: $(cat out.xyz)"
rm -f out.xyz out.npy back.txt

# snapshots every 2 steps, each written whole; the last one equals the output
"$treefix" nbody --bodies two.txt --steps 5 --output-every 2 --output out.txt --stats 2> stats.txt
[ -s out.txt.step2 ] && [ -s out.txt.step4 ] || fail "nbody snapshots missing: $(ls)"
[ ! -e out.txt.step5 ] && [ ! -e out.txt.step1 ] || fail "nbody wrote snapshots off the period: $(ls)"
ls | grep -q 'tmp-' && fail "temporary files left: $(ls)"
for phase in upload steps download "device sort" "device build" "device summary" "device traverse" "device integrate"; do
  grep -q "treefix nbody: $phase" stats.txt || fail "nbody --stats lacks $phase: $(cat stats.txt)"
done
"$treefix" nbody --bodies two.txt --steps 4 --output-every 2 --output same.txt
cmp -s same.txt same.txt.step4 || fail "nbody last snapshot differs from the output"
expect_error "output-every" "$treefix" nbody --bodies two.txt --steps 4 --output-every 2
rm -f out.txt.step* same.txt*
# coordinates near the float limit: finite accelerations, not NaN
cat > huge.txt <<'P'
3 7
1 3e38 3e38 -3e38 0 0 0
1 -3e38 3e38 3e38 0 0 0
1 3e38 -3e38 0 0 0 0
P
"$treefix" nbody --bodies huge.txt --accelerations --output out.txt
grep -qi nan out.txt && fail "nbody made NaN of huge coordinates: $(cat out.txt)"
"$treefix" nbody --bodies huge.txt --steps 3 --output out.txt
grep -qi nan out.txt && fail "nbody steps made NaN of huge coordinates: $(cat out.txt)"
printf '2 7\n1 0 0 0 0 0 0\n1 1e-19 0 0 0 0 0\n' > close.txt
expect_error "eps" "$treefix" nbody --bodies close.txt --eps 0 --steps 2 --output out.txt
"$treefix" correlate --points square.txt --radius 1 --stats --output out.txt 2> stats.txt
for phase in upload build query download "device sort" "device traverse"; do
  grep -q "treefix correlate: $phase" stats.txt || fail "correlate --stats lacks $phase: $(cat stats.txt)"
done
"$treefix" knn --points square.txt --queries queries.txt -k 2 --stats --output out.txt 2> stats.txt
for phase in upload build query download "device traverse"; do
  grep -q "treefix knn: $phase" stats.txt || fail "knn --stats lacks $phase: $(cat stats.txt)"
done

# --- bad inputs: non-zero exit, a message naming the problem, no output file
printf '3 2\n0 0\n1\n2 2\n' > short_row.txt
expect_error "short_row.txt:3" "$treefix" correlate --points short_row.txt --radius 1 --output out.txt
printf '2 2\n0 0\n1 x\n' > not_number.txt
expect_error "not_number.txt:3" "$treefix" correlate --points not_number.txt --radius 1 --output out.txt
printf '3 2\n0 0\n1 1\n' > few_rows.txt
expect_error "few_rows.txt" "$treefix" knn --points few_rows.txt --queries queries.txt -k 1 --output out.txt
printf '1 2\n0 0\n5 5\n' > extra.txt
expect_error "more than" "$treefix" correlate --points extra.txt --radius 1 --output out.txt
printf '1 2\n0 nan\n' > nan.txt
expect_error "not finite" "$treefix" correlate --points nan.txt --radius 1 --output out.txt
expect_error "radius" "$treefix" correlate --points square.txt --radius -1 --output out.txt
expect_error "k = 6" "$treefix" knn --points square.txt --queries queries.txt -k 6 --output out.txt
printf '1 3\n0 0 0\n' > q3.txt
expect_error "coordinates" "$treefix" knn --points square.txt --queries q3.txt -k 1 --output out.txt
expect_error "--index" "$treefix" knn --points square.txt --queries queries.txt -k 1 --index ball --output out.txt
expect_error "variant" "$treefix" correlate --points square.txt --radius 1 --variant fast --output out.txt
expect_error "sort mode" "$treefix" correlate --points square.txt --radius 1 --sort maybe --output out.txt
printf '1 6\n1 0 0 0 0 0\n' > six.txt
expect_error "7 columns" "$treefix" nbody --bodies six.txt --output out.txt
printf '1 7\n-1 0 0 0 0 0 0\n' > negative.txt
expect_error "negative mass" "$treefix" nbody --bodies negative.txt --output out.txt
expect_error "theta" "$treefix" nbody --bodies two.txt --theta -1 --output out.txt
expect_error "cannot open" "$treefix" nbody --bodies missing.txt --output out.txt
echo "ropes CLI: all good"
