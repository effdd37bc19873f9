// bfs.cl: level-synchronous breadth-first search on a CSR graph (after Merrill, Garland and
// Grimshaw, "Scalable GPU graph traversal"; Beamer's direction-optimising switch), driven from the
// device: the host enqueues launches in batches and reads nothing per level.
//
// The queue holds every discovered vertex once, level after level; level L is a slice
// [begin, end) of it, and the vertices discovered while expanding it are appended
// (counters[0] = queue length, counters[1] = huge-row list length, counters[2] = the arcs of
// every vertex appended, for Beamer's test; each work-item sums its share and each group adds it
// once). Each launch reads the
// search's state from `state_in` (never written during the launch) and the next level's state
// goes to `state_out` (graph/bfs_state.clh); the host swaps the two between launches and
// alternates two or three kernels, each passing the state on when the level is not its own:
//   - bfs_small_levels (graph/bfs_small.cl): narrow frontiers, many levels in one work-group;
//   - bfs_grid_levels (graph/bfs_grid.cl, NVIDIA): medium ones, many levels with a grid barrier;
//   - bfs_level (here): every group takes part in one level: top-down over tiles of the slice,
//     then the rows of huge_degree arcs or more swept by all groups; or bottom-up over all
//     vertices. The group that finishes last (an atomic count, no waiting) writes the next state:
//     the new slice, the level offsets, and the direction of the next level (Beamer's test on
//     arc counts).
// Per tile each vertex of the slice gathers its row:
//   - rows shorter than WG_SIZE: a work-group scans the row lengths of its tile in local memory
//     and each work-item then takes one arc of the tile's concatenated rows (binary search of the
//     scan for the owning row), so a tile costs ceil(arcs / WG_SIZE) rounds whatever the mix;
//   - rows of WG_SIZE .. huge_degree-1 arcs: the whole work-group sweeps them, one at a time.
// A slice of fewer tiles than groups gives each tile a team of groups that share its arcs.
// A neighbour is claimed by atomic_cmpxchg on its depth (-1 -> depth + 1); the winner writes its
// parent, so every parent is a neighbour one level up. New vertices are gathered in local memory
// and appended with one global atomic per work-group round. Traffic per level: the slice, its row
// offsets, its arcs' columns and depths, and the new vertices.
// Assumptions: no work-group ever waits for another (the last finisher is found by an atomic
// counter, not by waiting); vertex ids and queue positions fit in int; row offsets are EDGE_T.
// The level-synchronous treefix sweeps over the same structure are kernels/treefix/levels.cl.

#include "primitives/workgroup.clh"

#include "graph/bfs_state.clh"

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

// Local memory of one work-group's expansion.
typedef struct {
  uint scratch[WG_SIZE];
  uint row_rank[WG_SIZE];
  int items[WG_SIZE];
  EDGE_T row_begin[WG_SIZE];
  int row_vertex[WG_SIZE];
  int block[2];
  uint arcs;  // the group's sum of its work-items' arc counts
  int big_owner, big_vertex;
  EDGE_T big_begin, big_end;
} bfs_local;

// Appends the vertices found by the work-group (u where found) to the queue with one global
// atomic; those with huge rows also go to the huge list. Called by every work-item of the group.
void append_found(bool found, int u, global int* queue, global int* counters, global int* huge,
                  global const EDGE_T* row_offset, EDGE_T huge_degree, local bfs_local* l,
                  uint* arcs) {
  const int lid = get_local_id(0);
  if (lid == 0) l->block[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (found) l->items[atomic_inc(&l->block[0])] = u;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int count = l->block[0];
  if (lid == 0 && count > 0) l->block[1] = atomic_add(counters, count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count) {
    int w = l->items[lid];
    queue[l->block[1] + lid] = w;
    const EDGE_T degree = row_offset[w + 1] - row_offset[w];
    *arcs += (uint)degree;
    if (degree >= huge_degree) huge[atomic_inc(counters + 1)] = w;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Arc e (< end) of vertex v's row claims its neighbour; the group appends what it found. Called
// by every work-item of the group, in a loop over a row's arcs.
void expand_arc(EDGE_T e, EDGE_T end, int v, global const int* column, global int* depth,
                global int* parent, int next_depth, global int* queue, global int* counters,
                global int* huge, global const EDGE_T* row_offset, EDGE_T huge_degree,
                local bfs_local* l, uint* arcs) {
  bool found = false;
  int u = -1;
  if (e < end) {
    u = column[e];
    found = claim(depth, parent, u, v, next_depth);
  }
  append_found(found, u, queue, counters, huge, row_offset, huge_degree, l, arcs);
}

// Top-down expansion of queue[begin, end), its tiles shared among `groups` work-groups, this one
// being `group`. With at least as many tiles as groups, each group takes whole tiles. With fewer
// (a frontier of a few long rows, as the level after a hub's: a thousand vertices may hold
// millions of arcs), a team of groups / tiles groups shares each tile, each member taking every
// team-th round of WG_SIZE arcs of its rows, so that every group has arcs to claim rather than a
// few groups all of them.
void expand_tiles(int group, int groups, int begin, int end, int next_depth,
                  global const EDGE_T* row_offset, global const int* column, global int* depth,
                  global int* parent, global int* queue, global int* counters, global int* huge,
                  EDGE_T huge_degree, local bfs_local* l, uint* arcs) {
  const int lid = get_local_id(0);
  const int count = end - begin;
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;
  if (tiles == 0) return;
  const int team = max(1, groups / tiles);
  const int member = group % team;
  for (int tile = group / team; tile < tiles; tile += groups / team) {
    EDGE_T first, degree;
    const int v = csr_row_of(queue, begin, count, tile * WG_SIZE + lid, row_offset, &first, &degree);
    // Rows of WG_SIZE .. huge_degree-1 arcs: the group sweeps them one at a time.
    bool big = v >= 0 && degree >= WG_SIZE && degree < huge_degree;
    for (;;) {
      if (lid == 0) l->big_owner = -1;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (big) atomic_max(&l->big_owner, lid);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int owner = l->big_owner;
      if (lid == owner) {
        l->big_begin = first;
        l->big_end = first + degree;
        l->big_vertex = v;
        big = false;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (owner < 0) break;
      const EDGE_T row_end = l->big_end;
      const int row_vertex = l->big_vertex;
      for (EDGE_T base = l->big_begin + (EDGE_T)member * WG_SIZE; base < row_end;
           base += (EDGE_T)team * WG_SIZE)
        expand_arc(base + lid, row_end, row_vertex, column, depth, parent, next_depth, queue,
                   counters, huge, row_offset, huge_degree, l, arcs);
    }

    // Rows shorter than WG_SIZE: fine-grained gather over the tile's concatenated rows.
    uint small = (v >= 0 && degree < WG_SIZE && degree < huge_degree) ? (uint)degree : 0u;
    uint total;
    l->row_rank[lid] = wg_sum_uint_exclusive(small, l->scratch, &total);
    l->row_begin[lid] = first;
    l->row_vertex[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint base = (uint)member * WG_SIZE; base < total; base += (uint)team * WG_SIZE) {
      const uint rank = base + lid;
      bool found = false;
      int u = -1;
      if (rank < total) {
        int k = owner_of_rank(l->row_rank, rank);
        u = column[l->row_begin[k] + (rank - l->row_rank[k])];
        found = claim(depth, parent, u, l->row_vertex[k], next_depth);
      }
      append_found(found, u, queue, counters, huge, row_offset, huge_degree, l, arcs);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Rows of huge_degree arcs or more, huge[first .. first + count): every work-group of the launch
// takes a strided share of each row.
void expand_huge(int first, int count, int next_depth, global const EDGE_T* row_offset,
                 global const int* column, global int* depth, global int* parent,
                 global int* queue, global int* counters, global int* huge, EDGE_T huge_degree,
                 local bfs_local* l, uint* arcs) {
  const int lid = get_local_id(0);
  for (int h = 0; h < count; ++h) {
    const int v = huge[first + h];
    const EDGE_T end = row_offset[v + 1];
    for (EDGE_T base = row_offset[v] + (EDGE_T)get_group_id(0) * WG_SIZE; base < end;
         base += (EDGE_T)get_num_groups(0) * WG_SIZE)
      expand_arc(base + lid, end, v, column, depth, parent, next_depth, queue, counters, huge,
                 row_offset, huge_degree, l, arcs);
  }
}

// Bottom-up step (Beamer, undirected graphs only): every unvisited vertex looks through its own
// row for a neighbour on level `depth_now` and stops at the first. Chosen only when the frontier
// is a large share of the unvisited vertices, where it reads far fewer arcs than top-down. No
// atomics for claiming: each vertex is decided by its own work-item, and depth_now values do
// not change during the step.
void expand_bottom_up(int depth_now, global const EDGE_T* row_offset, global const int* column,
                      global int* depth, global int* parent, global int* queue,
                      global int* counters, global int* huge, EDGE_T huge_degree, int n,
                      local bfs_local* l, uint* arcs) {
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
    append_found(found, v, queue, counters, huge, row_offset, huge_degree, l, arcs);
  }
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
  const EDGE_T degree = row_offset[s + 1] - row_offset[s];
  atomic_add(counters + 2, (int)(uint)degree);  // the sources' arcs (few sources)
  if (degree >= huge_degree) huge[atomic_inc(counters + 1)] = s;
}

// One level of the search with every work-group; see the note at the top.
// finished: [0] counts the groups done with this launch (reset by the last one).
kernel void bfs_level(global const EDGE_T* row_offset, global const int* column,
                      global int* depth, global int* parent, global int* queue,
                      global int* counters, global int* huge, global const int* state_in,
                      global int* state_out, global int* level_offset, global int* huge_offset,
                      volatile global int* finished, const int n, const int small,
                      const uint small_arcs, const int grid_frontier, const uint grid_arcs,
                      const int may_bottom_up, const float alpha, const float beta,
                      const EDGE_T huge_degree, const uint arcs) {
  local bfs_local l;
  const int lid = get_local_id(0);
  const bfs_params p = {n,    small,         small_arcs, grid_frontier, grid_arcs,
                        may_bottom_up, alpha, beta,      huge_degree,   arcs};
  const bfs_state now = load_state(state_in);
  if (now.done || small_level(now, p) || grid_level(now, p)) {  // another kernel's turn
    pass_state(state_in, state_out);
    return;
  }
  const int begin = now.begin, end = now.end, level_depth = now.depth;
  const int huge_begin = now.huge_begin, huge_end = now.huge_end;
  uint my_arcs = 0;  // arcs of the vertices this work-item appended
  if (now.bottom_up) {
    expand_bottom_up(level_depth, row_offset, column, depth, parent, queue, counters, huge,
                     huge_degree, n, &l, &my_arcs);
  } else {
    expand_tiles(get_group_id(0), get_num_groups(0), begin, end, level_depth + 1, row_offset,
                 column, depth, parent, queue, counters, huge, huge_degree, &l, &my_arcs);
    expand_huge(huge_begin, huge_end - huge_begin, level_depth + 1, row_offset, column, depth,
                parent, queue, counters, huge, huge_degree, &l, &my_arcs);
  }
  // The last group to finish writes the next state (all appends of this launch are done): each
  // group takes a ticket after its work; the one holding the last ticket advances the state.
  // (The ticket goes through local memory: PoCL 3.1 miscompiles the exchange tested in place.)
  if (lid == 0) l.arcs = 0;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (my_arcs) atomic_add(&l.arcs, my_arcs);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    if (l.arcs) atomic_add(counters + 2, (int)l.arcs);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    l.block[0] = atomic_inc(&finished[0]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0 && l.block[0] == (int)get_num_groups(0) - 1) {
    int new_end, new_huge;
    uint arcs_seen;
    read_counters(counters, &new_end, &new_huge, &arcs_seen);
    const bfs_state next = advance(now, new_end, new_huge, arcs_seen, p);
    store_state(state_out, next);
    record_level(next, level_offset, huge_offset);
    finished[0] = 0;
  }
}
