// surgery.cl: the index work of tree surgery (include/treefix/phylo/surgery.hpp): new parent
// arrays, numbered in the new tree's pre-order, with each new vertex's origin. Branch lengths
// move as their 64-bit patterns (ulong): nothing here rounds.
//   surgery_mark:     flag[list[i]] = 1 (the kept vertices).
//   prune_mark_lcas:  flag the lca of every two kept vertices adjacent in pre-order (phylo/lca.clh):
//                     with them the kept set is closed under lca (the induced tree's branch points).
//   prune_parents:    for the induced tree's vertices in pre-order, the parent of node[i] is
//                     lca(node[i-1], node[i]) (the deepest earlier node above node[i]), numbered by
//                     its place in the list (position, by pre-order rank); -1 for a first node or
//                     across trees. ancestor[i] keeps the original vertex for the branch's length.
//   reroot_path:      on the path from the pivot y up to its root, each branch turns over: the
//                     parent of parent[c] becomes c and takes c's length; also the old root and its
//                     child on the path (info[0], info[1]).
//   reroot_visits:    where each vertex is first met on the tour rotated to start at x's open
//                     (within x's tree only): an ancestor of x on the way up from x, any other
//                     vertex at its open. Marks those places (all but a removed vertex) for a
//                     scan, which numbers the rerooted tree in pre-order.
//   reroot_emit:      the new tree by new rank: parent, length, origin (vertex n is a new root on
//                     an edge).
//   ladder_size_keys, ladder_parent_keys: sort keys of the ladderized child order.
//   ladder_offsets:   each vertex's place among its siblings after the sort, as pre-order steps.
//   relabel_emit:     the new tree by a new id of every vertex (ladderize).
//   edge_count_lengths: 1.0 for every vertex with a parent, 0.0 for a root (as bit patterns).
#include "phylo/lca.clh"

kernel void surgery_mark(global const int* list, const uint count, global int* flag) {
  const uint i = get_global_id(0);
  if (i < count) flag[list[i]] = 1;
}

kernel void prune_mark_lcas(global const int* node, const uint count, LCA_PARAMS,
                            global int* flag) {
  const uint i = get_global_id(0);
  if (i == 0 || i >= count) return;
  const int l = lca_of(node[i - 1], node[i], LCA_ARGS);
  if (l >= 0) flag[l] = 1;  // idempotent: equal values from every writer
}

kernel void prune_parents(global const int* node, const uint count, LCA_PARAMS,
                          global const int* position, global int* new_parent,
                          global int* ancestor) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const int l = i == 0 ? -1 : lca_of(node[i - 1], node[i], LCA_ARGS);
  ancestor[i] = l;
  new_parent[i] = l >= 0 ? position[lca_pre_rank[l]] : -1;
}

// y: the pivot, whose tree is rerooted; its ancestors-or-self c with a parent turn their branch.
kernel void reroot_path(global const int* open_pos, global const int* close_pos,
                        global const int* parent, global const ulong* length, const uint n,
                        const int y, global int* new_parent, global ulong* new_length,
                        global int* info) {
  const uint c = get_global_id(0);
  if (c >= n) return;
  if (!(open_pos[c] <= open_pos[y] && close_pos[y] <= close_pos[c])) return;
  const int p = parent[c];
  if (p < 0) {
    info[0] = (int)c;  // the old root
    return;
  }
  new_parent[p] = (int)c;
  new_length[p] = length[c];
  if (parent[p] < 0) info[1] = (int)c;  // the old root's child on the path
}

// x: the new root's vertex (or the vertex below a new root on its branch), y: the pivot; its tree's
// tour is [first, first + tour_length). removed: a vertex left out (the old root, suppressed), or
// -1. The tour rotated to start at x's open, less the two events above the old root, is a tour of
// the rerooted tree: a vertex is first met at its open, or, above x, on the way up from its child
// on the path (that child's close; new_parent holds it, x for the pivot under a new root).
kernel void reroot_visits(global const int* open_pos, global const int* close_pos, const uint n,
                          const int x, const int y, const int on_edge, const int first,
                          const int tour_length, const int removed,
                          global const int* new_parent, global int* place, global int* mark) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  const int open = open_pos[v], close = close_pos[v];
  int at = open;
  if (open >= first && open < first + tour_length) {  // in x's tree: the rotated tour
    const bool above_x = open < open_pos[x] && close_pos[x] < close;
    const int child_on_path = on_edge && (int)v == y ? x : new_parent[v];
    const int visit = above_x ? close_pos[child_on_path] : open;
    at = first + (visit - open_pos[x] + tour_length) % tour_length;
  }
  place[v] = at;
  if ((int)v != removed) mark[at] = 1;
}

// Over v < n, and v == n for a new root on an edge (then root_rank is its rank). rank_of(p):
// the new rank of old vertex p (shifted by one from first on, when a new root comes first).
kernel void reroot_emit(const uint n, const int with_new_root, const int first, const int removed,
                        const int root_rank, global const int* place, global const int* scanned,
                        global const int* new_parent, global const ulong* new_length,
                        global int* out_parent, global ulong* out_length, global int* out_origin) {
  const uint v = get_global_id(0);
  if (v > n || (v == n && !with_new_root) || (int)v == removed) return;
  const int p = new_parent[v];
  int rank = root_rank, parent_rank = -1;
  if (v < n) rank = scanned[place[v]] + (with_new_root && place[v] >= first);
  if (p == (int)n)
    parent_rank = root_rank;
  else if (p >= 0)
    parent_rank = scanned[place[p]] + (with_new_root && place[p] >= first);
  out_parent[rank] = parent_rank;
  out_length[rank] = new_length[v];
  out_origin[rank] = v < n ? (int)v : -1;
}

// key[i] of order[i]: its subtree size (ascending), or n minus it (descending).
kernel void ladder_size_keys(global const int* order, global const int* open_pos,
                             global const int* close_pos, const uint n, const int descending,
                             global uint* key) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int v = order[i];
  const uint size = (uint)((close_pos[v] - open_pos[v] + 1) / 2);
  key[i] = descending ? n - size : size;
}

// key[i] of order[i]: its parent, n for a root (the child lists' virtual vertex).
kernel void ladder_parent_keys(global const int* order, global const int* parent, const uint n,
                               global uint* key) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int p = parent[order[i]];
  key[i] = p < 0 ? n : (uint)p;
}

// sorted: the vertices grouped by parent as the child lists are (child_offset), each group in
// its new order; before[i]: the exclusive scan of their subtree sizes. A vertex's offset is the
// size of its earlier siblings, plus one for the parent (a root: none).
kernel void ladder_offsets(global const int* sorted, global const int* before,
                           global const int* parent, global const int* child_offset,
                           const uint n, global int* offset) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int v = sorted[i];
  const int p = parent[v];
  const int group_start = child_offset[p < 0 ? (int)n : p];
  offset[v] = before[i] - before[group_start] + (p >= 0);
}

kernel void relabel_emit(global const int* new_id, global const int* parent,
                         global const ulong* length, const uint n, global int* out_parent,
                         global ulong* out_length, global int* out_origin) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  const int i = new_id[v], p = parent[v];
  out_parent[i] = p >= 0 ? new_id[p] : -1;
  out_length[i] = length[v];
  out_origin[i] = (int)v;
}

// The lengths of a tree without any, by which path lengths count edges: 1.0 (its IEEE pattern)
// on every branch, 0.0 at a root.
kernel void edge_count_lengths(global const int* parent, const uint n, global ulong* length) {
  const uint v = get_global_id(0);
  if (v < n) length[v] = parent[v] >= 0 ? 0x3FF0000000000000UL : 0UL;
}
