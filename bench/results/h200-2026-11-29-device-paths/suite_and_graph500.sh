#!/usr/bin/env bash
# The GPU unit suite, then Graph500 BFS and the components step on the same build.
set -u
bench/gpu_check.sh "$OUT"
source bench/lib/gpu_env.sh
export TREEFIX_CACHE_DIR=$PWD/build-gpu/kernel-cache
T=build-gpu/apps
g=$OUT/graph.txt
{
  start=$SECONDS
  $T/treefix generate kronecker --scale 22 --format csr -o /tmp/k22.csr 2>&1 | tail -1
  $T/treefix generate kronecker --scale 26 --format csr -o /tmp/k26.csr 2>&1 | tail -1
  echo "[inputs at $((SECONDS - start)) s]"
  for s in 22 26; do
    timeout 120 $T/treefix-bench graph500 --graph /tmp/k$s.csr --roots 64 --csv /tmp/g500-$s.csv 2>&1 | tail -3
  done
  echo "[graph500 at $((SECONDS - start)) s]"
  for i in 1 2 3 4; do
    timeout 100 $T/treefix components --graph /tmp/k26.csr --stats -o /dev/null 2>&1 | grep -E "components:|: components"
  done
  echo "[components at $((SECONDS - start)) s]"
  timeout 100 $T/treefix-bench rooting --parts cc --scale 24 --repeats 7 2>&1 | grep -i "kronecker"
  echo "[done at $((SECONDS - start)) s]"
} > "$g" 2>&1
tar -C /tmp -czf "$OUT/graph500.tgz" g500-22.csv g500-26.csv
