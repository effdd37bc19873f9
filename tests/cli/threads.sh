#!/usr/bin/env bash
# The host thread count: --threads before the subcommand, else TREEFIX_THREADS, else
# OMP_NUM_THREADS. Outputs are the same bytes on one thread and on several (a float treefix, a
# graph conversion, a kNN over a vantage-point tree built on the host); a malformed count is refused before any work.
set -euo pipefail
source "$(dirname "$0")/lib/acceptance.sh"

"$treefix" generate random --vertices 200003 --seed 5 -o tree.txt
awk 'BEGIN { srand(7); for (i = 0; i < 200003; ++i) printf "%.6f\n", rand() - 0.5 }' > w.txt
for threads in 1 3 8; do
  "$treefix" --threads "$threads" rootfix --tree tree.txt --weights w.txt --type float \
    --algorithm euler --device cpu -o "root_$threads.txt"
  "$treefix" --threads "$threads" convert --graph "$data/petersen.mtx" --output "g_$threads.csr"
  "$treefix" --threads "$threads" knn --points "$data/dragon_scan_2k.xyz" -k 4 --index vp \
    -o "knn_$threads.txt"
done
for threads in 3 8; do
  cmp root_1.txt "root_$threads.txt" || fail "rootfix differs on $threads threads"
  cmp g_1.csr "g_$threads.csr" || fail "convert differs on $threads threads"
  cmp knn_1.txt "knn_$threads.txt" || fail "knn differs on $threads threads"
done
TREEFIX_THREADS=2 "$treefix" knn --points "$data/dragon_scan_2k.xyz" -k 4 --index vp -o knn_env.txt
cmp knn_1.txt knn_env.txt || fail "knn differs with TREEFIX_THREADS=2"
OMP_NUM_THREADS=2 "$treefix" knn --points "$data/dragon_scan_2k.xyz" -k 4 --index vp -o knn_omp.txt
cmp knn_1.txt knn_omp.txt || fail "knn differs with OMP_NUM_THREADS=2"

expect_error_text "--threads" "$treefix" --threads 0 devices
expect_error_text "--threads" "$treefix" --threads many devices
expect_error_text "TREEFIX_THREADS='none': expected a positive integer" \
  env TREEFIX_THREADS=none "$treefix" knn --points "$data/dragon_scan_2k.xyz" -k 4 --index vp -o out.txt
