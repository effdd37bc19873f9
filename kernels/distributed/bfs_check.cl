// bfs_check.cl: the arc checks of a BFS tree over a rank's rows of an undirected graph
// (distributed_bfs_check.cpp), one work-item per vertex of the rank. Vertex v of the rank is
// global id first + v; depth[] and parent[] are the rank's vertices' (parent: global id, -1 for
// sources and unreached vertices); level[] is every vertex's depth of the whole graph in a byte,
// 255 for unreached (the host uses it only when the deepest level is below 255).
//
// A vertex is at fault when: its depth is 0 and it is not a source or has a parent; it is a source
// at another depth; it is unreached with a parent; its parent is outside the graph, not one level
// up, or not in its row (the reverse of the parent's arc: the graph is undirected); or an arc of
// its row leads to a vertex unreached or more than one level deeper. The smallest such local
// vertex is kept in first_bad (local_n when none): the host words the message.
// EDGE_T: the row offsets' type (long when wide).

__kernel void dbfs_check(__global const EDGE_T* row_offset, __global const int* column,
                         __global const uchar* level, __global const int* depth,
                         __global const int* parent, __global const int* sources,
                         uint source_count, uint local_n, int first, uint n,
                         __global uint* first_bad) {
  for (uint v = get_global_id(0); v < local_n; v += get_global_size(0)) {
    const int d = depth[v], p = parent[v];
    bool is_source = false;
    for (uint s = 0; s < source_count; ++s) is_source |= sources[s] == first + (int)v;
    bool bad;
    if (is_source)
      bad = d != 0 || p != -1;
    else if (d == -1)
      bad = p != -1;
    else
      bad = d <= 0 || d >= 255 || p < 0 || (uint)p >= n || level[p] != d - 1;
    if (!bad && d >= 0) {
      // Unreached (255) compares above every level: one comparison per arc.
      bool parent_in_row = is_source, far = false;
      for (EDGE_T e = row_offset[v]; e < row_offset[v + 1]; ++e) {
        const int w = column[e];
        far |= level[w] > d + 1;
        parent_in_row |= w == p;
      }
      bad = far || !parent_in_row;
    }
    if (bad) atomic_min(first_bad, v);
  }
}
