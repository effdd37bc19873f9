// bfs_small.cl: consecutive BFS levels with small frontiers, run by one work-group in one launch
// (work-group barriers between levels instead of launches and host round trips). It serves
// high-diameter graphs (road networks, meshes, grids: thousands of levels of a few hundred to a
// few thousand vertices), where the cost of a level is its chain of dependent memory accesses,
// not its bandwidth. The state and its hand-over are graph/bfs_state.clh.
//
// Per level: the frontier (at most SMALL_ITEMS x WG_SIZE vertices) is read from the queue into
// local memory with its row lengths; a work-group scan of the lengths numbers the level's arcs;
// then every work-item takes ARCS_PER_ITEM arcs per round (their loads independent, so their
// latencies overlap), finds each arc's row by binary search of the scan, and claims the
// neighbour (atomic_cmpxchg on its depth, as bfs.cl). New vertices get their queue slot from a
// local counter: no global atomic per round. The group leaves the loop, handing the level to
// bfs_level, when a frontier grows past `small` vertices or `small_arcs` arcs, holds a huge row,
// or should go bottom-up. Only one work-group runs; it waits for no other.
// Traffic per level: the frontier, its row offsets (twice), its arcs' columns and depths, the
// new vertices' queue, parent and degree (their arcs are summed for Beamer's test).

#include "primitives/workgroup.clh"

#include "graph/bfs_state.clh"

#ifndef SMALL_ITEMS
#define SMALL_ITEMS 4  // frontier vertices per work-item
#endif
#define SMALL_CAP (SMALL_ITEMS * WG_SIZE)
#define ARCS_PER_ITEM 4

// The frontier entry owning arc `rank`: the last k < count whose first arc is at or before it.
int owner_of_arc(local const uint* arc_rank, int count, uint rank) {
  int lo = 0, hi = count - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (arc_rank[mid] <= rank) lo = mid; else hi = mid - 1;
  }
  return lo;
}

kernel void bfs_small_levels(global const EDGE_T* row_offset, global const int* column,
                             global int* depth, global int* parent, global int* queue,
                             global int* counters, global int* huge, global const int* state_in,
                             global int* state_out, global int* level_offset,
                             global int* huge_offset, const int n, const int small,
                             const int small_arcs, const int may_bottom_up, const float alpha,
                             const float beta, const EDGE_T huge_degree, const uint arcs) {
  local int front[SMALL_CAP];
  local uint arc_rank[SMALL_CAP];
  local uint scratch[WG_SIZE];
  local int found, stop;
  local uint found_arcs;
  const bfs_params p = {n, small, may_bottom_up, alpha, beta, huge_degree, arcs};
  const int lid = get_local_id(0);
  if (state_in[S_DONE] || !small_level(state_in, small)) {  // bfs_level's turn
    pass_state(state_in, state_out);
    return;
  }
  if (lid == 0)
    for (int f = 0; f < S_FIELDS; ++f) state_out[f] = state_in[f];
  barrier(CLK_GLOBAL_MEM_FENCE);
  for (;;) {
    const int begin = state_out[S_BEGIN], end = state_out[S_END];
    const int count = end - begin, next_depth = state_out[S_DEPTH] + 1;
    // The frontier and its arcs' numbering: each item scans a run of SMALL_ITEMS entries.
    uint run = 0;
    for (int j = 0; j < SMALL_ITEMS; ++j) {
      const int i = lid * SMALL_ITEMS + j;
      uint length = 0;
      if (i < count) {
        const int v = queue[begin + i];
        front[i] = v;
        length = (uint)(row_offset[v + 1] - row_offset[v]);
      }
      arc_rank[i] = length;  // lengths for now, ranks after the scan
      run += length;
    }
    uint total;
    uint rank = wg_sum_uint_exclusive(run, scratch, &total);
    for (int j = 0; j < SMALL_ITEMS; ++j) {
      const int i = lid * SMALL_ITEMS + j;
      const uint length = arc_rank[i];
      arc_rank[i] = rank;
      rank += length;
    }
    if (lid == 0) {
      found = 0;
      found_arcs = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (total > (uint)small_arcs) {  // too many arcs for one group: bfs_level takes this level
      if (lid == 0) state_out[S_WIDE] = 1;
      return;
    }
    for (uint base = 0; base < total; base += ARCS_PER_ITEM * WG_SIZE) {
      int u[ARCS_PER_ITEM], v[ARCS_PER_ITEM];
      for (int j = 0; j < ARCS_PER_ITEM; ++j) {  // independent loads: their latencies overlap
        const uint r = base + j * WG_SIZE + lid;
        u[j] = -1;
        if (r < total) {
          const int k = owner_of_arc(arc_rank, count, r);
          v[j] = front[k];
          u[j] = column[row_offset[v[j]] + (EDGE_T)(r - arc_rank[k])];
        }
      }
      for (int j = 0; j < ARCS_PER_ITEM; ++j) {
        if (u[j] < 0 || !claim(depth, parent, u[j], v[j], next_depth)) continue;
        queue[end + atomic_inc(&found)] = u[j];
        const EDGE_T degree = row_offset[u[j] + 1] - row_offset[u[j]];
        atomic_add(&found_arcs, (uint)degree);
        if (degree >= huge_degree) huge[atomic_inc(&counters[1])] = u[j];
      }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      const int new_end = end + found, new_huge = atomic_add(&counters[1], 0);
      const uint arcs_seen = (uint)counters[2] + found_arcs;
      counters[0] = new_end;  // this group alone appends while it runs
      counters[2] = (int)arcs_seen;
      advance(state_out, state_out, new_end, new_huge, arcs_seen, level_offset, huge_offset, p);
      stop = !small_level(state_out, small) || state_out[S_DONE];
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (stop) return;
  }
}
