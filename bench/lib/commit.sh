# Sourced by the GPU scripts: checkout_commit prints the commit a run measures, as
# bench/peer_common.py's checkout_commit decides it ($TREEFIX_COMMIT when set, else HEAD marked
# "+changes" when the files differ from it): a tree copied to the GPU machine may carry an older
# .git than its files. (Any python3 will do: peer_common needs only the standard library.)
checkout_commit_bench=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)  # absolute: scripts cd
checkout_commit() {
  PYTHONPATH="$checkout_commit_bench" python3 -c \
    'import peer_common; print(peer_common.checkout_commit())' 2> /dev/null || echo unknown
}
