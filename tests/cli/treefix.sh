#!/usr/bin/env bash
# Acceptance of `treefix rootfix/leaffix`: random trees against an independent Python reference,
# every operator/type/kind, and bad inputs (non-zero exit, one-line message, no output file).
set -euo pipefail
treefix=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"

python3 - <<'PY'
import random
random.seed(7)
def write(name, parents):
    with open(name + ".tree", "w") as f:
        f.write(f"{len(parents)}\n" + "\n".join(map(str, parents)) + "\n")
shapes = {
    "one": [-1],
    "star": [-1] + [0] * 999,
    "path": list(range(-1, 1999)),
    "random": [-1] + [random.randrange(v) for v in range(1, 5003)],
}
n = 4099  # a forest of 5 trees with shuffled labels
p = [-1 if v < 5 else random.randrange(v) for v in range(n)]
perm = list(range(n)); random.shuffle(perm)
q = [0] * n
for v in range(n):
    q[perm[v]] = -1 if p[v] == -1 else perm[p[v]]
shapes["forest"] = q
for name, parents in shapes.items():
    write(name, parents)
    with open(name + ".int", "w") as f:
        f.write(" ".join(str(random.randint(-2**31, 2**31 - 1)) for _ in parents) + "\n")
    with open(name + ".real", "w") as f:
        f.write(" ".join(repr(random.uniform(-1, 1)) for _ in parents) + "\n")
PY

check() {  # check TREE WEIGHTS OP TYPE FIX EXCLUSIVE(0/1) ALGORITHM [EXTRA-FLAG]
  local tree=$1 weights=$2 op=$3 type=$4 fix=$5 excl=$6 algo=$7 flag="" extra=${8:-}
  [[ $excl == 1 ]] && flag=--exclusive
  "$treefix" "$fix" --tree "$tree.tree" --weights "$weights" --op "$op" --type "$type" $flag \
      --algorithm "$algo" $extra --output got.txt
  python3 - "$tree.tree" "$weights" "$op" "$type" "$fix" "$excl" got.txt <<'PY'
import sys, math
tree, weights, op, vtype, fix, excl, got = sys.argv[1:]
tok = open(tree).read().split(); n = int(tok[0]); parent = list(map(int, tok[1:1 + n]))
raw = open(weights).read().split()
isint = vtype.startswith("int")
bits = 32 if vtype == "int32" else 64
def wrap(x):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x
w = [wrap(int(x)) for x in raw] if isint else [float(x) for x in raw]
if vtype == "float":  # the program reads weights into float
    import struct
    w = [struct.unpack("f", struct.pack("f", x))[0] for x in w]
combine = {"sum": (lambda a, b: wrap(a + b)) if isint else (lambda a, b: a + b),
           "xor": lambda a, b: wrap(a ^ b), "min": min, "max": max}[op]
ident = {"sum": 0, "xor": 0, "min": math.inf, "max": -math.inf}[op]
if isint and op in ("min", "max"):  # integer identities are the type's bounds
    ident = (1 << (bits - 1)) - 1 if op == "min" else -(1 << (bits - 1))
children = [[] for _ in range(n)]
for v in range(n):
    if parent[v] != -1: children[parent[v]].append(v)
order = [v for v in range(n) if parent[v] == -1]
i = 0
while i < len(order):
    order.extend(children[order[i]]); i += 1
if fix == "rootfix":
    inc = [ident] * n
    for v in order:
        inc[v] = combine(ident if parent[v] == -1 else inc[parent[v]], w[v])
    r = [ident if parent[v] == -1 else inc[parent[v]] for v in range(n)] if excl == "1" else inc
else:
    total, below = [ident] * n, [ident] * n
    for v in reversed(order):
        t = ident
        for c in children[v]: t = combine(t, total[c])
        below[v] = t; total[v] = combine(t, w[v])
    r = below if excl == "1" else total
out = open(got).read().split()
assert len(out) == n, f"{len(out)} lines for {n} vertices"
for v in range(n):
    if isint or op in ("min", "max"):
        assert float(out[v]) == r[v], f"{tree} {fix} {op} {vtype}: vertex {v}: got {out[v]}, expected {r[v]}"
    else:  # a few thousand terms of magnitude <= 1: far inside the error bound of the tests
        tol = 1e-2 if vtype == "float" else 1e-10
        assert abs(float(out[v]) - r[v]) <= tol, f"{tree} {fix}: vertex {v}: got {out[v]}, expected {r[v]}"
PY
}

for tree in one star path random forest; do
  for fix in rootfix leaffix; do
    for excl in 0 1; do
      check $tree $tree.int sum int64 $fix $excl auto
      check $tree $tree.int xor int32 $fix $excl euler
      check $tree $tree.real sum double $fix $excl euler
      check $tree $tree.real sum float $fix $excl auto
      check $tree $tree.real min double $fix $excl auto
      check $tree $tree.int max int64 $fix $excl sequential
    done
  done
done
for tree in star random forest; do
  for fix in rootfix leaffix; do  # --accurate: same reference, far inside the tolerance
    check $tree $tree.real sum float $fix 0 euler --accurate
    check $tree $tree.real sum double $fix 1 euler --accurate
  done
done
echo "random trees agree with the Python reference"

# defaults: all weights 1, int64, sum, to standard output
[[ $("$treefix" leaffix --tree star.tree | head -1) == 1000 ]]

expect_failure() {  # expect_failure PATTERN ARGS...: non-zero exit, message on stderr, no output
  local pattern=$1; shift
  rm -f bad.out
  if "$treefix" "$@" --output bad.out 2> err.txt; then echo "expected failure: $*"; exit 1; fi
  grep -q -- "$pattern" err.txt || { echo "message for '$*' lacks '$pattern':"; cat err.txt; exit 1; }
  [[ ! -e bad.out ]] || { echo "partial output left by: $*"; exit 1; }
}
printf '3\n-1 0 7\n' > range.tree
printf '3\n1 2 0\n' > cycle.tree
printf '3\n-1 0\n' > short.tree
printf '2\n-1 x\n' > word.tree
printf '3\n-1 0 0\n' > three.tree
printf '1 2\n' > two.w
expect_failure "parent 7" rootfix --tree range.tree
expect_failure "cycle" leaffix --tree cycle.tree
expect_failure "short.tree" rootfix --tree short.tree
expect_failure "word.tree:2" rootfix --tree word.tree
expect_failure "2 weights for 3" rootfix --tree three.tree --weights two.w
expect_failure "xor needs an integer" rootfix --tree three.tree --op xor --type float
expect_failure "unknown operator" rootfix --tree three.tree --op product
expect_failure "cannot open" rootfix --tree missing.tree
expect_failure "has none" rootfix --tree three.tree --op min --algorithm euler
expect_failure "no OpenCL device matches" rootfix --tree three.tree --device no-such-device
printf '0\n' > empty.tree
"$treefix" rootfix --tree empty.tree --output empty.out && [[ ! -s empty.out ]]
echo "bad inputs are refused"

# --- formats: .npy in and out, Newick, convert -------------------------------------------------
python3 - <<'PY'
import struct
def save(name, fmt, values):  # a 1-D .npy array, as np.save writes it
    descr = {"d": "<f8", "f": "<f4", "i": "<i4", "q": "<i8"}[fmt]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(name, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
tok = open("forest.tree").read().split()
n = int(tok[0])
save("forest-weights.npy", "d", [((v * 37) % 11 - 5) / 4 for v in range(n)])  # exact in float
save("forest-tenths.npy", "d", [0.1] * n)                                       # not exact in float
save("forest-parents64.npy", "q", [int(x) for x in tok[1:1 + n]])
open("truncated.npy", "wb").write(open("forest-weights.npy", "rb").read()[:-3])
PY
"$treefix" convert --tree forest.tree --output forest.npy
"$treefix" convert --tree forest.npy --output forest-back.tree
cmp forest.tree forest-back.tree
"$treefix" convert --tree forest-parents64.npy --output forest-64.tree
cmp forest.tree forest-64.tree
# the type comes from the weights' dtype (float64); text and .npy paths agree exactly
"$treefix" rootfix --tree forest.npy --weights forest-weights.npy --output npy-out.npy --stats 2> stats.txt
grep -q "treefix rootfix: validate" stats.txt && grep -q "treefix rootfix: total" stats.txt
python3 - <<'PY'
import struct
tok = open("forest.tree").read().split(); n = int(tok[0])
with open("forest-weights.txt", "w") as f:
    f.write("\n".join(repr(((v * 37) % 11 - 5) / 4) for v in range(n)) + "\n")
PY
"$treefix" rootfix --tree forest.tree --weights forest-weights.txt --type double --output text-out.txt
python3 - <<'PY'
import struct
raw = open("npy-out.npy", "rb").read()
assert raw[:6] == b"\x93NUMPY" and b"'<f8'" in raw[:128], raw[:128]
hl = struct.unpack("<H", raw[8:10])[0]
got = struct.unpack("<%dd" % ((len(raw) - 10 - hl) // 8), raw[10 + hl:])
want = [float(x) for x in open("text-out.txt").read().split()]
assert list(got) == want, "npy and text outputs differ"
PY
# --type float: exact conversions pass, inexact ones are refused; --type float writes <f4
"$treefix" leaffix --tree forest.npy --weights forest-weights.npy --type float --output f.npy
python3 -c "assert b\"'<f4'\" in open('f.npy','rb').read()[:128]"
expect_failure "is not exactly a float" rootfix --tree forest.npy --weights forest-tenths.npy --type float
expect_failure "truncated" rootfix --tree forest.npy --weights truncated.npy
echo ".npy trees, weights and outputs agree with text"

# Newick: distances from the root (the README's example), clade sizes, names
printf '((A:1,B:2)C:0.5,[a comment] D:3e0)root;\n' > tiny.nwk
[[ "$("$treefix" rootfix --tree tiny.nwk --type double | tr '\n' ' ')" == "0 0.5 1.5 2.5 3 " ]]
[[ "$("$treefix" rootfix --tree tiny.nwk | tr '\n' ' ')" == "0 0.5 1.5 2.5 3 " ]]  # double by default
printf '1 1 1 1 1\n' > ones.txt
[[ "$("$treefix" leaffix --tree tiny.nwk --weights ones.txt --type int64 | tr '\n' ' ')" == "5 3 1 1 1 " ]]
"$treefix" convert --tree tiny.nwk --output tiny.tree --names tiny.names --weights-out tiny.lengths
[[ "$(tr '\n' ' ' < tiny.tree)" == "5 -1 0 1 1 0 " ]]
[[ "$(tr '\n' ' ' < tiny.names)" == "root C A B D " ]]
[[ "$(tr '\n' ' ' < tiny.lengths)" == "0 0.5 1 2 3 " ]]
printf '((A,B)C,D' > open.nwk
expect_failure "byte 0 (line 1): unbalanced parentheses" rootfix --tree open.nwk
expect_failure "has no weights" convert --tree forest.tree --weights-out w.txt
echo "Newick trees and convert work"
