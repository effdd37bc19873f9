// bfs_grid.cl: consecutive medium BFS levels in one launch of every work-group, with a grid-wide
// barrier between levels (Luo, Wong and Hwu's middle layer). One group (bfs_small.cl) is bound by
// one compute unit's memory throughput once a level holds a thousand vertices (15 us a level on
// the H100 for the 2048 grid), a launch per level (bfs.cl) by its launch and tail; here each
// level is spread over all compute units and costs its dependent loads plus one barrier.
//
// Needs every work-group of the launch resident at once, which OpenCL does not promise: the host
// uses it only where Tuning::bfs_grid_barrier says so (NVIDIA GPUs, one or two small groups per
// compute unit) and keeps the portable kernels. A group that waits too long at the barrier
// (spin_limit polls) gives up and marks the search aborted; every group then stops and the host
// runs the search again without this kernel, so a device that does not keep the groups resident
// costs time, never a wrong result or a hang.
//
// Per level, group g takes the frontier entries g, g + G, g + 2G ... (G groups): a level of a
// few hundred vertices still reaches every compute unit. In a tile of WG_SIZE entries a scan of
// the row lengths numbers the arcs, each item takes ARCS_PER_ITEM per round (owner by binary
// search), claims as bfs_small.cl does, and the group reserves queue slots with one atomic on
// the level's counters. New vertices' rows go to side arrays beside the queue, so the next level
// reads them without a dependent load. The level's counters (sync[4 + 4 (generation % 2)]: found,
// arcs, huge rows) are final once the barrier opens; every group computes the same next state.
// Data written by other groups is read through volatile pointers (not from a stale L1 line).

#include "primitives/workgroup.clh"

#include "graph/bfs_state.clh"

#ifndef ARCS_PER_ITEM
#define ARCS_PER_ITEM 4
#endif
#define G_ARRIVED 0     // sync words: groups at the barrier
#define G_GENERATION 1  // barriers passed, ever
#define G_ABORTED 2     // a group gave up waiting
#define G_LEVEL 4       // two sets of {found, arcs, huge}, by generation parity

typedef struct {
  uint scratch[WG_SIZE];
  int vertex[WG_SIZE];
  EDGE_T first[WG_SIZE];
  uint rank[WG_SIZE];
  uint found, arcs, huge;  // a round's new vertices in the group
  uint base;               // ... their first slot after the frontier
  int generation, released;
  uint level_found, level_arcs, level_huge;
} grid_local;

// Every group arrives after its writes; the last one clears the next level's counters and opens
// the barrier. False when this group gave up waiting.
bool grid_barrier(volatile global int* sync, local grid_local* l, int spin_limit) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const int generation = l->generation;
    int released = 1;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (atomic_inc(&sync[G_ARRIVED]) == (int)get_num_groups(0) - 1) {
      const int next = G_LEVEL + 4 * ((generation + 1) & 1);
      for (int k = 0; k < 3; ++k) atomic_xchg(&sync[next + k], 0);
      atomic_xchg(&sync[G_ARRIVED], 0);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_inc(&sync[G_GENERATION]);
    } else {
      for (int spins = 0; atomic_add(&sync[G_GENERATION], 0) == generation; ++spins)
        if (spins >= spin_limit) {
          released = 0;
          atomic_xchg(&sync[G_ABORTED], 1);
          break;
        }
    }
    const int set = G_LEVEL + 4 * (generation & 1);
    l->level_found = (uint)atomic_add(&sync[set], 0);
    l->level_arcs = (uint)atomic_add(&sync[set + 1], 0);
    l->level_huge = (uint)atomic_add(&sync[set + 2], 0);
    l->released = released && !atomic_add(&sync[G_ABORTED], 0);
    l->generation = generation + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return l->released;
}

// One tile of the group's frontier entries: its arcs claimed, its new vertices appended.
void expand_tile(int tile, int count, bfs_state now, bool rows_on_side,
                 global const EDGE_T* row_offset, global const int* column, global int* depth,
                 global int* parent, volatile global int* queue, global int* counters,
                 global int* huge, volatile global EDGE_T* side_first,
                 volatile global uint* side_length, volatile global int* level_counters,
                 EDGE_T huge_degree, local grid_local* l) {
  const int lid = get_local_id(0), groups = get_num_groups(0);
  const int index = (tile * WG_SIZE + lid) * groups + get_group_id(0);
  int vertex = -1;
  EDGE_T first = 0;
  uint length = 0;
  if (index < count) {
    vertex = queue[now.begin + index];
    if (rows_on_side) {
      first = side_first[now.begin + index];
      length = side_length[now.begin + index];
    } else {
      first = row_offset[vertex];
      length = (uint)(row_offset[vertex + 1] - first);
    }
  }
  uint total;
  const uint rank = wg_sum_uint_exclusive(length, l->scratch, &total);
  l->vertex[lid] = vertex;
  l->first[lid] = first;
  l->rank[lid] = rank;
  if (lid == 0) l->found = l->arcs = l->huge = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint base = 0; base < total; base += ARCS_PER_ITEM * WG_SIZE) {
    int owner[ARCS_PER_ITEM], u[ARCS_PER_ITEM];
    bool won[ARCS_PER_ITEM];
    EDGE_T row[ARCS_PER_ITEM];
    uint arcs[ARCS_PER_ITEM];
    for (int j = 0; j < ARCS_PER_ITEM; ++j) owner[j] = 0;
    for (int step = WG_SIZE / 2; step > 0; step >>= 1)
      for (int j = 0; j < ARCS_PER_ITEM; ++j)
        if (l->rank[owner[j] + step] <= base + (uint)(j * WG_SIZE + lid)) owner[j] += step;
    for (int j = 0; j < ARCS_PER_ITEM; ++j) {
      const uint r = base + (uint)(j * WG_SIZE + lid);
      u[j] = r < total ? column[l->first[owner[j]] + (EDGE_T)(r - l->rank[owner[j]])] : -1;
      won[j] = u[j] >= 0 && depth[u[j]] == -1;
    }
    for (int j = 0; j < ARCS_PER_ITEM; ++j)
      if (won[j]) {
        row[j] = row_offset[u[j]];
        arcs[j] = (uint)(row_offset[u[j] + 1] - row[j]);
      }
    for (int j = 0; j < ARCS_PER_ITEM; ++j)
      if (won[j]) won[j] = atomic_cmpxchg(depth + u[j], -1, now.depth + 1) == -1;
    uint mine = 0, my_arcs = 0, my_huge = 0;
    for (int j = 0; j < ARCS_PER_ITEM; ++j)
      if (won[j]) {
        parent[u[j]] = l->vertex[owner[j]];
        ++mine;
        my_arcs += arcs[j];
        if ((EDGE_T)arcs[j] >= huge_degree) {
          huge[atomic_inc(&counters[1])] = u[j];
          ++my_huge;
        }
      }
    uint slot = mine ? atomic_add(&l->found, mine) : 0;
    if (my_arcs) atomic_add(&l->arcs, my_arcs);
    if (my_huge) atomic_add(&l->huge, my_huge);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      if (l->found) l->base = (uint)atomic_add(&level_counters[0], (int)l->found);
      if (l->arcs) atomic_add(&level_counters[1], (int)l->arcs);
      if (l->huge) atomic_add(&level_counters[2], (int)l->huge);
      l->found = l->arcs = l->huge = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    slot += l->base;
    for (int j = 0; j < ARCS_PER_ITEM; ++j)
      if (won[j]) {
        queue[now.end + slot] = u[j];
        side_first[now.end + slot] = row[j];
        side_length[now.end + slot] = arcs[j];
        ++slot;
      }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the tile's entries are no longer read
}

kernel void bfs_grid_levels(global const EDGE_T* row_offset, global const int* column,
                            global int* depth, global int* parent, volatile global int* queue,
                            global int* counters, global int* huge, global const int* state_in,
                            global int* state_out, global int* level_offset,
                            global int* huge_offset, volatile global int* sync,
                            volatile global EDGE_T* side_first, volatile global uint* side_length,
                            const int n, const int small, const uint small_arcs,
                            const int grid_frontier, const uint grid_arcs,
                            const int may_bottom_up, const float alpha, const float beta,
                            const EDGE_T huge_degree, const uint arcs, const int most_levels,
                            const int spin_limit) {
  local grid_local l;
  const bfs_params p = {n,    small,         small_arcs, grid_frontier, grid_arcs,
                        may_bottom_up, alpha, beta,      huge_degree,   arcs};
  const int lid = get_local_id(0);
  const bool leader = get_group_id(0) == 0 && lid == 0;  // writes the levels and the state
  bfs_state now = load_state(state_in);
  if (now.done || !grid_level(now, p) || atomic_add(&sync[G_ABORTED], 0)) {
    pass_state(state_in, state_out);
    if (get_global_id(0) == 0 && atomic_add(&sync[G_ABORTED], 0)) state_out[S_DONE] = 1;
    return;
  }
  if (lid == 0) l.generation = atomic_add(&sync[G_GENERATION], 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int level = 1;; ++level) {
    const int count = now.end - now.begin;
    volatile global int* level_counters = sync + G_LEVEL + 4 * (l.generation & 1);
    const int per_tile = WG_SIZE * (int)get_num_groups(0);
    for (int tile = 0; tile * per_tile + (int)get_group_id(0) < count; ++tile)
      expand_tile(tile, count, now, level > 1, row_offset, column, depth, parent, queue,
                  counters, huge, side_first, side_length, level_counters, huge_degree, &l);
    if (!grid_barrier(sync, &l, spin_limit)) {
      if (lid == 0) state_out[S_DONE] = 1;  // the host starts again without this kernel
      return;
    }
    now = advance(now, now.end + (int)l.level_found, now.huge_end + (int)l.level_huge,
                  now.arcs_seen + l.level_arcs, p);
    if (leader) record_level(now, level_offset, huge_offset);
    if (now.done || !grid_level(now, p) || level >= most_levels) {
      if (leader) {
        store_state(state_out, now);
        counters[0] = now.end;
        counters[2] = (int)now.arcs_seen;
      }
      return;
    }
  }
}
