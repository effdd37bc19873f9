#!/usr/bin/env bash
# The accurate treefix's cost on the GPU machine, side by side in one run: this tree's paper suite
# (euler = the fast precision, euler-accurate = the default) against a baseline build's plain
# Euler tour and CuPy's (bench/cupy_treefix.py on the same dumped trees).
# Usage, from the repository root on that machine, after bench/run_gpu.sh built build-gpu/:
#   bench/gpu_accuracy.sh OUTDIR [BASELINE_BUILD_DIR]
# BASELINE_BUILD_DIR: a build (apps/treefix-bench) of the commit to compare with; its paper suite's
# "euler" is the plain kernel of that commit. Set CUPY=0 to skip CuPy, LOG=N for 2^N vertices.
set -uo pipefail
out=${1:?output directory}
baseline=${2:-}
log=${LOG:-24}
repeats=${REPEATS:-7}
mkdir -p "$out"
export TREEFIX_DEVICE=${TREEFIX_DEVICE:-nvidia}
shapes=star,caterpillar,random,random-shuffled
for type in float double; do
  for fix in rootfix leaffix; do
    name=$type-$fix
    dump=/tmp/treefix-accuracy-dump-$name
    ./build-gpu/apps/treefix-bench paper --min-log "$log" --max-log "$log" --type "$type" \
      --fix "$fix" --shapes $shapes --algorithms euler,euler-accurate --repeats "$repeats" \
      --warmup 2 --dump-dir "$dump" --csv "$out/new-$name.csv" > "$out/new-$name.log" 2>&1
    echo "new $name: exit $?"
    if [[ -n $baseline ]]; then
      "$baseline/apps/treefix-bench" paper --min-log "$log" --max-log "$log" --type "$type" \
        --fix "$fix" --shapes $shapes --algorithms euler --repeats "$repeats" --warmup 2 \
        --csv "$out/baseline-$name.csv" > "$out/baseline-$name.log" 2>&1
      echo "baseline $name: exit $?"
    fi
    if [[ ${CUPY:-1} != 0 ]]; then
      python3 bench/cupy_treefix.py "$dump" --csv "$out/cupy-$name.csv" --repeats "$repeats" \
        > "$out/cupy-$name.log" 2>&1
      echo "cupy $name: exit $?"
    fi
    rm -rf "$dump"
  done
done
# one table: compute_ms per shape, type, fix and algorithm
python3 - "$out" <<'PY'
import csv, glob, os, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    source = os.path.basename(path).split("-")[0]
    with open(path) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r.get("status", "ok") not in ("ok", ""):
                continue
            key = (r["type"], r["fix"], r["shape"])
            rows.setdefault(key, {})[source + ":" + r["algorithm"]] = float(r["compute_ms"])
cols = sorted({c for v in rows.values() for c in v})
print("type fix shape " + " ".join(cols) + " accurate/baseline accurate/fast")
for key in sorted(rows):
    v = rows[key]
    acc = v.get("new:euler-accurate")
    ratio = lambda d: "%.3f" % (acc / v[d]) if acc and v.get(d) else "-"
    print(" ".join(key) + " " + " ".join("%.4f" % v[c] if c in v else "-" for c in cols) +
          " " + ratio("baseline:euler") + " " + ratio("new:euler"))
PY
