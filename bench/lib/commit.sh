# Sourced by the GPU scripts: checkout_commit prints the commit a run measures, as
# bench/peer_common.py's checkout_commit does: $TREEFIX_COMMIT when set, else the checkout's HEAD
# (short) with "+changes" when its tracked files differ from HEAD, else "unknown". A tree copied
# to the GPU machine may carry an older .git than its files: name the commit there with
# TREEFIX_COMMIT=..., or the marker shows that HEAD is not what ran.
# (absolute: the scripts change directory)
checkout_commit_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout_commit() {
  if [[ -n ${TREEFIX_COMMIT:-} ]]; then
    echo "$TREEFIX_COMMIT"
    return
  fi
  local head
  if ! head=$(git -C "$checkout_commit_dir" rev-parse --short HEAD 2> /dev/null); then
    echo unknown
    return
  fi
  if git -C "$checkout_commit_dir" diff --quiet HEAD -- 2> /dev/null; then
    echo "$head"
  else
    echo "$head+changes"
  fi
}
