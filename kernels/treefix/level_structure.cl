// level_structure.cl: the level structure of the level-synchronous treefix, from vertices sorted
// by depth (include/treefix/treefix/levels.hpp). Every kernel is named level_*.
//   level_offsets:   level_offset[d] = first position of depth d in the sorted depths (every depth
//                    from 0 to the deepest occurs), level_offset[levels] = n.
//   level_huge_rows: the vertices with huge_degree children or more, appended (position, vertex)
//                    through an atomic counter; few by construction (at most n / huge_degree),
//                    the host sorts them by position.
kernel void level_offsets(global const uint* sorted_depth, const uint n, global int* level_offset) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const uint d = sorted_depth[i];
  if (i == 0 || sorted_depth[i - 1] != d) level_offset[d] = (int)i;
  if (i + 1 == n) level_offset[d + 1] = (int)n;
}

kernel void level_huge_rows(global const int* order, global const int* child_offset,
                            const uint n, const int huge_degree, volatile global int* count,
                            global int* found, const int capacity) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int v = order[i];
  if (child_offset[v + 1] - child_offset[v] < huge_degree) return;
  const int slot = atomic_inc(count);
  if (slot < capacity) {
    found[2 * slot] = (int)i;
    found[2 * slot + 1] = v;
  }
}
