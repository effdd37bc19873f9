// bfs_distributed.cl: one BFS level over a rank's share of a graph split in vertex ranges (a 1-D
// partition). The rank's rows are local (vertex v of the rank is global id first + v) and their
// arcs hold global target ids. depth[] and parent[] are the rank's vertices' (parent: global id).
//
//   dbfs_top_down   one work-item per frontier vertex: its arcs to the rank's own vertices claim
//                   them at once (atomic_cmpxchg on depth), its other arcs are written out as
//                   (target, source) pairs for the host to send to the targets' owners, once per
//                   target and search (the `sent` bitmap); a row of more than heavy_row arcs is
//                   listed in `heavy` instead
//   dbfs_top_down_heavy  the listed rows, one work-group each, its work-items striding over the
//                   row (a Kronecker hub's million arcs would hold one work-item, and every rank
//                   waiting at the exchange, for tens of milliseconds)
//   dbfs_claim      the pairs other ranks sent: each claims its target as above
//   dbfs_bottom_up  one work-item per unvisited vertex: the first neighbour found in the global
//                   frontier bitmap becomes its parent (Beamer's bottom-up step; no atomics on
//                   depth, each vertex is its own work-item's); a row longer than heavy_row with
//                   no parent in its first heavy_row arcs is listed in `heavy`
//   dbfs_bottom_up_heavy  the rest of the listed rows, a work-group each, read side by side until
//                   one work-item finds a parent (from a small frontier most vertices find none
//                   and read their whole row: a hub's million arcs would hold one work-item, and
//                   the level, for milliseconds)
//   dbfs_mark       the rank's frontier queue as its slice of the frontier bitmap
//   dbfs_known      a bottom-up level's whole frontier bitmap added to `sent` (those vertices
//                   are reached: no pair need go to their owners any more)
//   dbfs_sources    depth 0 for the sources (the first queue)
// Every claimed vertex is appended to `next` (local ids) and its row length added to next_arcs,
// which the host needs for the direction choice. Traffic: the frontier's rows (top-down) or the
// unvisited vertices' rows up to the first hit (bottom-up). dbfs_top_down appends with one
// atomic on the shared counter per claim (its rows are short: few claims); the other kernels,
// where a level claims up to millions of vertices, append a work-group's claims with one global
// atomic per round (kernels/primitives/append.clh). Row lengths are summed per work-item. Row
// offsets are EDGE_T (int while the rank's arcs fit, else long: they pass 2^32 from Kronecker
// scale 28 on); ids are int.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#include "primitives/append.clh"
#include "primitives/csr.clh"

// One arc (u, column[e]) of the top-down expansion: returns the local id of the rank's own vertex
// it claimed, else -1 (a remote target is sent to its owner, the first time only).
inline int expand_arc(EDGE_T e, int global_u, __global const int* column, int first, uint local_n,
                      __global int* depth, __global int* parent, int next_depth,
                      __global uint* counts, __global int2* remote, __global uint* sent) {
  const int v = column[e];
  const uint local_v = (uint)(v - first);
  if (local_v < local_n) {
    if (depth[local_v] == -1 && atomic_cmpxchg(&depth[local_v], -1, next_depth) == -1) {
      parent[local_v] = global_u;
      return (int)local_v;
    }
  } else {
    // The first arc to reach v this search sends it; v is claimed (or was reached) at the end of
    // this level, whoever's pair wins on its owner.
    const uint bit = 1u << (v & 31);
    if (!(sent[v >> 5] & bit) && !(atomic_or(&sent[v >> 5], bit) & bit))
      remote[atomic_inc(&counts[1])] = (int2)(v, global_u);
  }
  return -1;
}

__kernel void dbfs_top_down(__global const EDGE_T* row_offset, __global const int* column,
                            __global const int* frontier, uint frontier_size, int first,
                            uint local_n, uint heavy_row, __global int* depth, __global int* parent,
                            int next_depth, __global int* next, __global uint* counts,
                            __global ulong* next_arcs, __global int2* remote, __global int* heavy,
                            __global uint* sent) {
  ulong arcs = 0;
  for (uint i = get_global_id(0); i < frontier_size; i += get_global_size(0)) {
    const int u = frontier[i];
    const EDGE_T begin = row_offset[u], end = row_offset[u + 1];
    if (end - begin > heavy_row) {
      heavy[atomic_inc(&counts[2])] = u;
      continue;
    }
    for (EDGE_T e = begin; e < end; ++e) {
      const int v = expand_arc(e, first + u, column, first, local_n, depth, parent, next_depth,
                               counts, remote, sent);
      if (v >= 0) {
        next[atomic_inc(&counts[0])] = v;
        arcs += (ulong)(row_offset[v + 1] - row_offset[v]);
      }
    }
  }
  if (arcs) atom_add(next_arcs, arcs);
}

// After dbfs_top_down on the same in-order queue: counts[2] holds the number of listed rows.
__kernel void dbfs_top_down_heavy(__global const EDGE_T* row_offset, __global const int* column,
                                  __global const int* heavy, int first, uint local_n,
                                  __global int* depth, __global int* parent, int next_depth,
                                  __global int* next, __global uint* counts,
                                  __global ulong* next_arcs, __global int2* remote,
                                  __global uint* sent) {
  local wg_append_tile tile;
  ulong arcs = 0;
  const uint rows = counts[2];
  for (uint h = get_group_id(0); h < rows; h += get_num_groups(0)) {
    const int u = heavy[h];
    const EDGE_T end = row_offset[u + 1];
    // every work-item takes the same number of steps (wg_append holds barriers)
    for (EDGE_T base = row_offset[u]; base < end; base += (EDGE_T)get_local_size(0)) {
      const EDGE_T e = base + (EDGE_T)get_local_id(0);
      const int v = e < end ? expand_arc(e, first + u, column, first, local_n, depth, parent,
                                         next_depth, counts, remote, sent)
                            : -1;
      if (v >= 0) arcs += (ulong)(row_offset[v + 1] - row_offset[v]);
      const uint slot = wg_append(v >= 0, &counts[0], &tile);
      if (v >= 0) next[slot] = v;
    }
  }
  if (arcs) atom_add(next_arcs, arcs);
}

__kernel void dbfs_claim(__global const EDGE_T* row_offset, __global const int2* received,
                         uint received_count, int first, __global int* depth, __global int* parent,
                         int next_depth, __global int* next, __global uint* counts,
                         __global ulong* next_arcs) {
  local wg_append_tile tile;
  ulong arcs = 0;
  WG_TILES(i, received_count) {
    const int v = i < received_count ? received[i].x - first : 0;
    const bool found = i < received_count && depth[v] == -1 &&
                       atomic_cmpxchg(&depth[v], -1, next_depth) == -1;
    if (found) {
      parent[v] = received[i].y;
      arcs += (ulong)(row_offset[v + 1] - row_offset[v]);
    }
    const uint slot = wg_append(found, &counts[0], &tile);
    if (found) next[slot] = v;
  }
  if (arcs) atom_add(next_arcs, arcs);
}

// The first neighbour of unvisited vertex v found in the frontier bitmap, among the first
// heavy_row arcs of its row; -1 when none is (the row is listed in `heavy` when it has more).
inline int search_parent(uint v, __global const EDGE_T* row_offset, __global const int* column,
                         __global const uint* frontier_bits, uint heavy_row, __global int* heavy,
                         __global uint* counts) {
  const EDGE_T begin = row_offset[v], end = row_offset[v + 1];
  const EDGE_T scanned = min(end, begin + (EDGE_T)heavy_row);
  for (EDGE_T e = begin; e < scanned; ++e) {
    const int w = column[e];
    if ((frontier_bits[w >> 5] >> (w & 31)) & 1u) return w;
  }
  if (scanned < end) heavy[atomic_inc(&counts[2])] = (int)v;
  return -1;
}

__kernel void dbfs_bottom_up(__global const EDGE_T* row_offset, __global const int* column,
                             __global const uint* frontier_bits, uint local_n, uint heavy_row,
                             __global int* heavy, __global int* depth, __global int* parent,
                             int next_depth, __global int* next, __global uint* counts,
                             __global ulong* next_arcs) {
  local wg_append_tile tile;
  ulong arcs = 0;
  WG_TILES(v, local_n) {
    const int found_parent =
        v < local_n && depth[v] == -1
            ? search_parent(v, row_offset, column, frontier_bits, heavy_row, heavy, counts)
            : -1;
    const bool found = found_parent >= 0;
    if (found) {
      depth[v] = next_depth;
      parent[v] = found_parent;
      arcs += (ulong)(row_offset[v + 1] - row_offset[v]);
    }
    const uint slot = wg_append(found, &counts[0], &tile);
    if (found) next[slot] = (int)v;
  }
  if (arcs) atom_add(next_arcs, arcs);
}

// After dbfs_bottom_up on the same in-order queue: counts[2] holds the number of listed rows.
__kernel void dbfs_bottom_up_heavy(__global const EDGE_T* row_offset, __global const int* column,
                                   __global const uint* frontier_bits, uint heavy_row,
                                   __global const int* heavy, __global int* depth,
                                   __global int* parent, int next_depth, __global int* next,
                                   __global uint* counts, __global ulong* next_arcs) {
  local wg_append_tile tile;
  __local int found_parent;  // -1 until a work-item finds a frontier neighbour (any one will do)
  ulong arcs = 0;
  const uint rows = counts[2];
  for (uint h = get_group_id(0); h < rows; h += get_num_groups(0)) {
    const int v = heavy[h];
    const EDGE_T end = row_offset[v + 1];
    if (get_local_id(0) == 0) found_parent = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (EDGE_T base = row_offset[v] + (EDGE_T)heavy_row; base < end; base += (EDGE_T)get_local_size(0)) {
      const EDGE_T e = base + (EDGE_T)get_local_id(0);
      if (e < end) {
        const int w = column[e];
        if ((frontier_bits[w >> 5] >> (w & 31)) & 1u) atomic_xchg(&found_parent, w);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      const bool stop = found_parent != -1;  // read by all before any writes again
      barrier(CLK_LOCAL_MEM_FENCE);
      if (stop) break;
    }
    const bool found = get_local_id(0) == 0 && found_parent != -1;
    if (found) {
      depth[v] = next_depth;
      parent[v] = found_parent;
      arcs += (ulong)(end - row_offset[v]);
    }
    const uint slot = wg_append(found, &counts[0], &tile);
    if (found) next[slot] = v;
  }
  if (arcs) atom_add(next_arcs, arcs);
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

__kernel void dbfs_known(__global const uint* frontier_bits, uint words, __global uint* sent) {
  for (uint i = get_global_id(0); i < words; i += get_global_size(0))
    if (frontier_bits[i]) sent[i] |= frontier_bits[i];
}
