// bfs_check.cl: the arc checks of a BFS tree over a block of rows of an undirected graph
// (lib/graph/bfs_check.cpp: the whole graph on one device, a rank's share of a partitioned one),
// one work-item per vertex of the block. Vertex v of the block is global id first + v; depth[]
// and parent[] are the block's vertices' (parent: global id, -1 for sources and unreached
// vertices); level[] is every vertex's depth of the whole graph in a byte, 255 for unreached (the
// host uses it only when the deepest level is below 255).
//
// A vertex is at fault when: its depth is 0 and it is not a source or has a parent; it is a source
// at another depth; it is unreached with a parent; its parent is outside the graph, not one level
// up, or not in its row (the reverse of the parent's arc: the graph is undirected); or an arc of
// its row leads to a vertex unreached or more than one level deeper. The smallest such local
// vertex is kept in first_bad (local_n when none): the host words the message.
// Rows longer than heavy_row are left by bfs_check_rows to bfs_check_heavy, a work-group per row
// (appended to heavy[]): a hub's million arcs would keep one work-item busy long after the rest.
// EDGE_T: the row offsets' type (long when wide).

inline bool is_source(int vertex, __global const int* sources, uint source_count) {
  bool found = false;
  for (uint s = 0; s < source_count; ++s) found |= sources[s] == vertex;
  return found;
}

__kernel void bfs_check_rows(__global const EDGE_T* row_offset, __global const int* column,
                         __global const uchar* level, __global const int* depth,
                         __global const int* parent, __global const int* sources,
                         uint source_count, uint local_n, int first, uint n, uint heavy_row,
                         __global int* heavy, __global uint* heavy_count,
                         __global uint* first_bad) {
  for (uint v = get_global_id(0); v < local_n; v += get_global_size(0)) {
    const int d = depth[v], p = parent[v];
    const bool source = is_source(first + (int)v, sources, source_count);
    bool bad;
    if (source)
      bad = d != 0 || p != -1;
    else if (d == -1)
      bad = p != -1;
    else
      bad = d <= 0 || d >= 255 || p < 0 || (uint)p >= n || level[p] != d - 1;
    const EDGE_T begin = row_offset[v], end = row_offset[v + 1];
    if (!bad && d >= 0 && end - begin > heavy_row) {
      heavy[atomic_inc(heavy_count)] = (int)v;
    } else if (!bad && d >= 0) {
      // Unreached (255) compares above every level: one comparison per arc.
      bool parent_in_row = source, far = false;
      for (EDGE_T e = begin; e < end; ++e) {
        const int w = column[e];
        far |= level[w] > d + 1;
        parent_in_row |= w == p;
      }
      bad = far || !parent_in_row;
    }
    if (bad) atomic_min(first_bad, v);
  }
}

// The heavy rows: each work-group takes rows of the list in turn, its work-items striding the row.
__kernel void bfs_check_heavy(__global const EDGE_T* row_offset, __global const int* column,
                               __global const uchar* level, __global const int* depth,
                               __global const int* parent, __global const int* sources,
                               uint source_count, int first, __global const int* heavy,
                               __global const uint* heavy_count, __global uint* first_bad) {
  __local int parent_in_row;
  const uint rows = *heavy_count;
  for (uint h = get_group_id(0); h < rows; h += get_num_groups(0)) {
    const int v = heavy[h], d = depth[v], p = parent[v];
    if (get_local_id(0) == 0) parent_in_row = is_source(first + v, sources, source_count);
    barrier(CLK_LOCAL_MEM_FENCE);
    bool far = false, found = false;
    const EDGE_T step = (EDGE_T)get_local_size(0), end = row_offset[v + 1];
    for (EDGE_T e = row_offset[v] + (EDGE_T)get_local_id(0); e < end; e += step) {
      const int w = column[e];
      far |= level[w] > d + 1;
      found |= w == p;
    }
    if (found) parent_in_row = 1;  // every writer writes 1
    if (far) atomic_min(first_bad, (uint)v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && !parent_in_row) atomic_min(first_bad, (uint)v);
    barrier(CLK_LOCAL_MEM_FENCE);  // parent_in_row is reset for the next row after every read
  }
}
