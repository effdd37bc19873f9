// traversal.cl: orders and intervals of a forest from its Euler tour (include/treefix/phylo/
// traversal.hpp), and the compaction the phylo module's host code builds lists with.
//   traversal_postorder:  post_order[close_pos - pre_rank - size] = v: the closes before v's close
//                         are the events up to it (close_pos + 1) less the opens among them (the
//                         pre-order up to v's subtree's end: pre_rank + size).
//   traversal_depth_keys: depth and vertex of every pre-order rank (a stable sort by depth then
//                         gives the breadth-first order).
//   traversal_tip_flags:  1 for a vertex without children (CSR child offsets).
//   traversal_intervals:  v's subtree as pre-order ranks [begin, end).
//   compact_scatter:      out[position[i]] = i (or map[i]) where flag[i]: with position the
//                         exclusive scan of the flags, the flagged indices in increasing order.
//   gather_ints:          to[i] = from[index[i]].
// One pass each, integers only.

inline int subtree_size(const int open, const int close) { return (close - open + 1) / 2; }

kernel void traversal_postorder(global const int* open_pos, global const int* close_pos,
                                global const int* pre_rank, const uint n, global int* post_order) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  const int close = close_pos[v];
  post_order[close - pre_rank[v] - subtree_size(open_pos[v], close)] = (int)v;
}

kernel void traversal_depth_keys(global const int* pre_order, global const int* open_pos,
                                 const uint n, global uint* depth_key, global int* vertex) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int v = pre_order[i];
  depth_key[i] = 2 * i - (uint)open_pos[v];
  vertex[i] = v;
}

kernel void traversal_tip_flags(global const int* child_offset, const uint n, global int* flag) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  flag[v] = child_offset[v + 1] == child_offset[v];
}

kernel void traversal_intervals(global const int* open_pos, global const int* close_pos,
                                global const int* pre_rank, const uint n, global int* begin,
                                global int* end) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  const int first = pre_rank[v];
  begin[v] = first;
  end[v] = first + subtree_size(open_pos[v], close_pos[v]);
}

kernel void compact_scatter(global const int* flag, global const int* position, const uint n,
                            global const int* map, const int use_map, global int* out) {
  const uint i = get_global_id(0);
  if (i >= n || !flag[i]) return;
  out[position[i]] = use_map ? map[i] : (int)i;
}

kernel void gather_ints(global const int* index, global const int* from, const uint n,
                        global int* to) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  to[i] = from[index[i]];
}
