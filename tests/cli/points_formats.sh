#!/usr/bin/env bash
# Acceptance tests of the point and body formats of `treefix correlate`, `knn` and `nbody`:
# text "n d", plain .xyz rows, .npy arrays; bad inputs refused with where and what.
# $1: the treefix program, $2: a scratch directory.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

# npy_f32 FILE SHAPE HEX: a version 1.0 .npy file of little-endian float32 values (HEX: their
# bytes as \xNN escapes), header padded to 64 bytes as NumPy writes it.
npy_f32() {
  local file="$1" shape="$2" data="$3"
  local header="{'descr': '<f4', 'fortran_order': False, 'shape': $shape, }"
  local pad=$(( (64 - (10 + ${#header} + 1) % 64) % 64 ))
  header="$header$(printf '%*s' "$pad" '')"
  local length=$(( ${#header} + 1 ))
  { printf '\x93NUMPY\x01\x00'
    printf "\\x$(printf '%02x' $((length & 255)))\\x$(printf '%02x' $((length >> 8)))"
    printf '%s\n' "$header"
    printf "$data"; } > "$file"
}

# The unit square's corners and a far point, in the three formats.
cp "$data/square_points.txt" square.txt
printf '0 0\n1 0 \n0 1\r\n# a comment\n1 1\n9 9' > square.xyz
zero='\x00\x00\x00\x00' one='\x00\x00\x80\x3f' nine='\x00\x00\x10\x41'
npy_f32 square.npy '(5, 2)' "$zero$zero$one$zero$zero$one$one$one$nine$nine"
for f in square.txt square.xyz square.npy; do
  "$treefix" correlate --points $f --radius 1 --output out.txt
  [ "$(tr '\n' ' ' < out.txt)" = "3 3 3 3 1 " ] || fail "correlate $f: $(cat out.txt)"
done
# The format by option: rows without header in a .txt file.
cp square.xyz rows.txt
"$treefix" correlate --points rows.txt --input-format xyz --radius 1 --output out.txt
[ "$(tr '\n' ' ' < out.txt)" = "3 3 3 3 1 " ] || fail "correlate --input-format xyz: $(cat out.txt)"
expect_error_text "rows.txt:1: the number of columns must be in 1..16, the header says 0" \
  "$treefix" correlate --points rows.txt --radius 1 --output out.txt
expect_error_text "point format" "$treefix" correlate --points rows.txt --input-format ply --radius 1 --output out.txt

# knn: data and queries in different formats, both index kinds.
printf '0.1 0\n8 8\n' > queries.xyz
for index in kd vp; do
  "$treefix" knn --points square.npy --queries queries.xyz -k 3 --index $index --output out.txt
  [ "$(sed -n 1p out.txt)" = "0 0.100000001 1 0.899999976 2 1.0049876" ] || fail "knn $index: $(cat out.txt)"
done

# nbody: bodies as rows "mass x y z vx vy vz" without a header.
printf '1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' > two.xyz
"$treefix" nbody --bodies two.xyz --accelerations --eps 0 --output out.txt
[ "$(sed -n 1p out.txt)" = "1 0 0" ] || fail "nbody .xyz: $(cat out.txt)"
expect_error_text "expected 7 columns (mass x y z vx vy vz), the first row has 2" \
  "$treefix" nbody --bodies square.xyz --output out.txt
expect_error_text "expected 7 columns" "$treefix" nbody --bodies square.npy --output out.txt

# Bad inputs: where and what.
printf '0 0 0\n1 nan 2\n' > nan.xyz
expect_error_text "nan.xyz:2: row 2, column 2 ('nan') is not finite" \
  "$treefix" correlate --points nan.xyz --radius 1 --output out.txt
printf '0 0 0\n1 2 1e39\n' > big.xyz
expect_error_text "big.xyz:2: row 2, column 3 ('1e39') overflows float" \
  "$treefix" knn --points big.xyz --queries big.xyz -k 1 --output out.txt
printf '0 0 0\n1 2\n3 4 5\n' > ragged.xyz
expect_error_text "ragged.xyz:2: row 2 has only 2 of 3 numbers" \
  "$treefix" correlate --points ragged.xyz --radius 1 --output out.txt
: > empty.xyz
expect_error_text "empty.xyz: empty file: no points" \
  "$treefix" correlate --points empty.xyz --radius 1 --output out.txt
: > empty.npy
expect_error_text "empty.npy: empty file: no points" \
  "$treefix" correlate --points empty.npy --radius 1 --output out.txt
npy_f32 flat.npy '(2,)' "$one$one"
expect_error_text "a .npy array of shape (2,), expected 2 dimensions (n, d)" \
  "$treefix" correlate --points flat.npy --radius 1 --output out.txt
npy_f32 nanpoint.npy '(1, 2)' '\x00\x00\xc0\x7f\x00\x00\x00\x00'
expect_error_text "nanpoint.npy: element [0, 0] (nan) is not finite" \
  "$treefix" correlate --points nanpoint.npy --radius 1 --output out.txt
npy_f32 short.npy '(3, 2)' "$one$one"
expect_error_text "truncated .npy data" "$treefix" correlate --points short.npy --radius 1 --output out.txt
echo "points formats CLI: all good"
