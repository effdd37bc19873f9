// bfs_distributed.cl: one BFS level over a rank's share of a graph split in vertex ranges (a 1-D
// partition). The rank's rows are local (vertex v of the rank is global id first + v) and their
// arcs hold global target ids. depth[] and parent[] are the rank's vertices' (parent: global id).
//
//   dbfs_top_down   one work-item per frontier vertex: its arcs to the rank's own vertices claim
//                   them at once (atomic_cmpxchg on depth), its other arcs are written out as
//                   (target, source) pairs for the host to send to the targets' owners; a row of
//                   more than heavy_row arcs is listed in `heavy` instead
//   dbfs_top_down_heavy  the listed rows, one work-group each, its work-items striding over the
//                   row (a Kronecker hub's million arcs would hold one work-item, and every rank
//                   waiting at the exchange, for tens of milliseconds)
//   dbfs_claim      the pairs other ranks sent: each claims its target as above
//   dbfs_bottom_up  one work-item per unvisited vertex: the first neighbour found in the global
//                   frontier bitmap becomes its parent (Beamer's bottom-up step; no atomics on
//                   depth, each vertex is its own work-item's)
//   dbfs_mark       the rank's frontier queue as its slice of the frontier bitmap
//   dbfs_sources    depth 0 for the sources (the first queue)
// Every claimed vertex is appended to `next` (local ids) and its row length added to next_arcs,
// which the host needs for the direction choice. Traffic: the frontier's rows (top-down) or the
// unvisited vertices' rows up to the first hit (bottom-up); one atomic per claim and per remote
// arc. Row offsets are long (a rank's arcs may pass 2^32); ids are int.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

inline void claimed(int v, __global const long* row_offset, __global int* next,
                    __global uint* next_count, __global ulong* next_arcs) {
  next[atomic_inc(next_count)] = v;
  atom_add(next_arcs, (ulong)(row_offset[v + 1] - row_offset[v]));
}

// One arc (u, column[e]) of the top-down expansion.
inline void expand_arc(long e, int global_u, __global const long* row_offset,
                       __global const int* column, int first, uint local_n, __global int* depth,
                       __global int* parent, int next_depth, __global int* next,
                       __global uint* counts, __global ulong* next_arcs, __global int2* remote) {
  const int v = column[e];
  const uint local_v = (uint)(v - first);
  if (local_v < local_n) {
    if (depth[local_v] == -1 && atomic_cmpxchg(&depth[local_v], -1, next_depth) == -1) {
      parent[local_v] = global_u;
      claimed((int)local_v, row_offset, next, &counts[0], next_arcs);
    }
  } else {
    remote[atomic_inc(&counts[1])] = (int2)(v, global_u);
  }
}

__kernel void dbfs_top_down(__global const long* row_offset, __global const int* column,
                            __global const int* frontier, uint frontier_size, int first,
                            uint local_n, uint heavy_row, __global int* depth, __global int* parent,
                            int next_depth, __global int* next, __global uint* counts,
                            __global ulong* next_arcs, __global int2* remote,
                            __global int* heavy) {
  for (uint i = get_global_id(0); i < frontier_size; i += get_global_size(0)) {
    const int u = frontier[i];
    const long begin = row_offset[u], end = row_offset[u + 1];
    if (end - begin > heavy_row) {
      heavy[atomic_inc(&counts[2])] = u;
      continue;
    }
    for (long e = begin; e < end; ++e)
      expand_arc(e, first + u, row_offset, column, first, local_n, depth, parent, next_depth, next,
                 counts, next_arcs, remote);
  }
}

// After dbfs_top_down on the same in-order queue: counts[2] holds the number of listed rows.
__kernel void dbfs_top_down_heavy(__global const long* row_offset, __global const int* column,
                                  __global const int* heavy, int first, uint local_n,
                                  __global int* depth, __global int* parent, int next_depth,
                                  __global int* next, __global uint* counts,
                                  __global ulong* next_arcs, __global int2* remote) {
  const uint rows = counts[2];
  for (uint h = get_group_id(0); h < rows; h += get_num_groups(0)) {
    const int u = heavy[h];
    const long end = row_offset[u + 1];
    for (long e = row_offset[u] + (long)get_local_id(0); e < end; e += (long)get_local_size(0))
      expand_arc(e, first + u, row_offset, column, first, local_n, depth, parent, next_depth, next,
                 counts, next_arcs, remote);
  }
}

__kernel void dbfs_claim(__global const long* row_offset, __global const int2* received,
                         uint received_count, int first, __global int* depth,
                         __global int* parent, int next_depth, __global int* next,
                         __global uint* counts, __global ulong* next_arcs) {
  for (uint i = get_global_id(0); i < received_count; i += get_global_size(0)) {
    const int2 pair = received[i];
    const int v = pair.x - first;
    if (depth[v] == -1 && atomic_cmpxchg(&depth[v], -1, next_depth) == -1) {
      parent[v] = pair.y;
      claimed(v, row_offset, next, &counts[0], next_arcs);
    }
  }
}

__kernel void dbfs_bottom_up(__global const long* row_offset, __global const int* column,
                             __global const uint* frontier_bits, uint local_n,
                             __global int* depth, __global int* parent, int next_depth,
                             __global int* next, __global uint* counts,
                             __global ulong* next_arcs) {
  for (uint v = get_global_id(0); v < local_n; v += get_global_size(0)) {
    if (depth[v] != -1) continue;
    for (long e = row_offset[v]; e < row_offset[v + 1]; ++e) {
      const int w = column[e];
      if ((frontier_bits[w >> 5] >> (w & 31)) & 1u) {
        depth[v] = next_depth;
        parent[v] = w;
        claimed((int)v, row_offset, next, &counts[0], next_arcs);
        break;
      }
    }
  }
}

__kernel void dbfs_mark(__global const int* queue, uint count, __global uint* bits) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) {
    const int v = queue[i];
    atomic_or(&bits[v >> 5], 1u << (v & 31));
  }
}

__kernel void dbfs_sources(__global const int* queue, uint count, __global int* depth) {
  for (uint i = get_global_id(0); i < count; i += get_global_size(0)) depth[queue[i]] = 0;
}
