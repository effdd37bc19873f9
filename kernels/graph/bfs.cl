// bfs.cl: level-synchronous breadth-first search on a CSR graph (after Merrill, Garland and
// Grimshaw, "Scalable GPU graph traversal"). Every kernel is named bfs_*.
//
// BFS. The queue holds every discovered vertex once, level after level; level L is a slice
// [begin, begin + count) of it, and the vertices discovered while expanding it are appended. Per
// level each vertex of the slice gathers its row:
//   - rows shorter than WG_SIZE: fine-grained gather; a work-group scans the row lengths of its
//     tile in local memory and each work-item then takes one edge of the tile's concatenated rows
//     (binary search of the scan for the owning row), so a tile costs ceil(edges / WG_SIZE)
//     rounds whatever the mix of lengths;
//   - rows of WG_SIZE .. huge_degree-1 edges: the whole work-group sweeps the row, one row at a
//     time (work-items of the tile take turns owning the group);
//   - rows of huge_degree edges or more: skipped here, and swept by bfs_expand_huge with every
//     work-group of the launch, so a vertex with 10^6 neighbours keeps the whole device busy.
// A neighbour is claimed by atomic_cmpxchg on its depth (-1 -> depth + 1); the winner writes its
// parent, so every parent is a neighbour one level up. New vertices are gathered in local memory
// and appended with one global atomic per work-group round. Traffic per level: the slice, its
// row offsets, its edges' columns and depths, and the new vertices.
// Assumptions: none about execution order between work-groups; vertex ids and queue positions
// fit in int; row offsets are EDGE_T (int or long, chosen by the host).
// The level-synchronous treefix sweeps over the same structure are kernels/treefix/levels.cl.

#include "primitives/workgroup.clh"

#include "graph/csr.clh"

// The item k of the tile that owns `rank` of the concatenated rows: the last k whose row starts
// at or before rank (empty rows share their start with the next row and come before it).
int owner_of_rank(local const uint* row_rank, uint rank) {
  int lo = 0, hi = WG_SIZE - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (row_rank[mid] <= rank) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// --- BFS ------------------------------------------------------------------------------------

// True for exactly one caller per vertex u: the one that moves depth[u] from -1 to next_depth.
bool claim(global int* depth, global int* parent, int u, int v, int next_depth) {
  if (depth[u] != -1) return false;  // cheap filter; the atomic decides
  if (atomic_cmpxchg(depth + u, -1, next_depth) != -1) return false;
  parent[u] = v;
  return true;
}

// Appends the vertices found by the work-group (u where found) to the queue with one global
// atomic; those with huge rows also go to the huge list. Called by every work-item of the group.
// counters[0] = queue length, counters[1] = huge list length.
void append_found(bool found, int u, global int* queue, global int* counters, global int* huge,
                  global const EDGE_T* row_offset, EDGE_T huge_degree, local int* items,
                  local int* block) {
  const int lid = get_local_id(0);
  if (lid == 0) block[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (found) items[atomic_inc(block)] = u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int count = block[0];
  if (lid == 0 && count > 0) block[1] = atomic_add(counters, count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count) {
    int w = items[lid];
    queue[block[1] + lid] = w;
    if (row_offset[w + 1] - row_offset[w] >= huge_degree) huge[atomic_inc(counters + 1)] = w;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Edge e (< end) of vertex v's row claims its neighbour; the group appends what it found. Called
// by every work-item of the group, in a loop over a row's edges.
void expand_edge(EDGE_T e, EDGE_T end, int v, global const int* column, global int* depth,
                 global int* parent, int next_depth, global int* queue, global int* counters,
                 global int* huge, global const EDGE_T* row_offset, EDGE_T huge_degree,
                 local int* items, local int* block) {
  bool found = false;
  int u = -1;
  if (e < end) {
    u = column[e];
    found = claim(depth, parent, u, v, next_depth);
  }
  append_found(found, u, queue, counters, huge, row_offset, huge_degree, items, block);
}

kernel void bfs_reset(global int* depth, global int* parent, int n) {
  for (int v = get_global_id(0); v < n; v += get_global_size(0)) {
    depth[v] = -1;
    parent[v] = -1;
  }
}

// queue[0..count) holds the (distinct) sources; counters = {count, 0} on entry.
kernel void bfs_sources(global const EDGE_T* row_offset, global int* depth, global const int* queue,
                        int count, global int* counters, global int* huge, EDGE_T huge_degree) {
  int i = get_global_id(0);
  if (i >= count) return;
  int s = queue[i];
  depth[s] = 0;
  if (row_offset[s + 1] - row_offset[s] >= huge_degree) huge[atomic_inc(counters + 1)] = s;
}

kernel void bfs_expand(global const EDGE_T* row_offset, global const int* column,
                       global int* depth, global int* parent, global int* queue, int begin,
                       int count, global int* counters, global int* huge, EDGE_T huge_degree,
                       int next_depth) {
  local uint scratch[WG_SIZE];
  local uint row_rank[WG_SIZE];
  local int items[WG_SIZE];
  local int block[2];
  local EDGE_T row_begin[WG_SIZE];
  local int row_vertex[WG_SIZE];
  local int big_owner;
  local EDGE_T big_begin, big_end;
  local int big_vertex;
  const int lid = get_local_id(0);
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;

  for (int tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {
    const int i = tile * WG_SIZE + lid;
    EDGE_T first, degree;
    const int v = csr_row_of(queue, begin, count, i, row_offset, &first, &degree);
    // Rows of WG_SIZE .. huge_degree-1 edges: the group sweeps them one at a time.
    bool big = v >= 0 && degree >= WG_SIZE && degree < huge_degree;
    for (;;) {
      if (lid == 0) big_owner = -1;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (big) atomic_max(&big_owner, lid);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int owner = big_owner;
      if (lid == owner) {
        big_begin = first;
        big_end = first + degree;
        big_vertex = v;
        big = false;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (owner < 0) break;
      for (EDGE_T base = big_begin; base < big_end; base += WG_SIZE)
        expand_edge(base + lid, big_end, big_vertex, column, depth, parent, next_depth, queue,
                    counters, huge, row_offset, huge_degree, items, block);
    }

    // Rows shorter than WG_SIZE: fine-grained gather over the tile's concatenated rows.
    uint small = (v >= 0 && degree < WG_SIZE && degree < huge_degree) ? (uint)degree : 0u;
    uint total;
    row_rank[lid] = wg_sum_uint_exclusive(small, scratch, &total);
    row_begin[lid] = first;
    row_vertex[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint base = 0; base < total; base += WG_SIZE) {
      const uint rank = base + lid;
      bool found = false;
      int u = -1;
      if (rank < total) {
        int k = owner_of_rank(row_rank, rank);
        u = column[row_begin[k] + (rank - row_rank[k])];
        found = claim(depth, parent, u, row_vertex[k], next_depth);
      }
      append_found(found, u, queue, counters, huge, row_offset, huge_degree, items, block);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Rows of huge_degree edges or more, huge[first .. first + count): every work-group of the
// launch takes a strided share of each row.
kernel void bfs_expand_huge(global const EDGE_T* row_offset, global const int* column,
                            global int* depth, global int* parent, global int* queue,
                            global int* counters, global int* huge, int huge_first, int huge_count,
                            EDGE_T huge_degree, int next_depth) {
  local int items[WG_SIZE];
  local int block[2];
  const int lid = get_local_id(0);
  for (int h = 0; h < huge_count; ++h) {
    const int v = huge[huge_first + h];
    const EDGE_T end = row_offset[v + 1];
    for (EDGE_T base = row_offset[v] + (EDGE_T)get_group_id(0) * WG_SIZE; base < end;
         base += (EDGE_T)get_num_groups(0) * WG_SIZE)
      expand_edge(base + lid, end, v, column, depth, parent, next_depth, queue, counters, huge,
                  row_offset, huge_degree, items, block);
  }
}

// Bottom-up step (Beamer's direction-optimising BFS, undirected graphs only): every unvisited
// vertex looks through its own row for a neighbour on level `depth_now` and stops at the first.
// One pass over all vertices on purpose: chosen by the host only when the frontier is a large
// share of the unvisited vertices, where it reads far fewer edges than the top-down expansion.
// No atomics for claiming: each vertex is decided by its own work-item, and depth_now values do
// not change during the step.
kernel void bfs_bottom_up(global const EDGE_T* row_offset, global const int* column,
                          global int* depth, global int* parent, global int* queue,
                          global int* counters, global int* huge, EDGE_T huge_degree,
                          int depth_now, int n) {
  local int items[WG_SIZE];
  local int block[2];
  const int lid = get_local_id(0);
  for (int base = get_group_id(0) * WG_SIZE; base < n; base += get_num_groups(0) * WG_SIZE) {
    const int v = base + lid;
    bool found = false;
    if (v < n && depth[v] == -1) {
      const EDGE_T end = row_offset[v + 1];
      for (EDGE_T e = row_offset[v]; e < end; ++e) {
        int u = column[e];
        if (depth[u] == depth_now) {
          depth[v] = depth_now + 1;
          parent[v] = u;
          found = true;
          break;
        }
      }
    }
    append_found(found, v, queue, counters, huge, row_offset, huge_degree, items, block);
  }
}
