// bfs.cl: level-synchronous breadth-first search on a CSR graph (after Merrill, Garland and
// Grimshaw, "Scalable GPU graph traversal"; Beamer's direction-optimising switch), driven from the
// device: the host enqueues bfs_level launches in batches and reads nothing per level.
//
// The queue holds every discovered vertex once, level after level; level L is a slice
// [begin, end) of it, and the vertices discovered while expanding it are appended
// (counters[0] = queue length, counters[1] = huge-row list length). Each launch reads the
// search's state from `state_in` (never written during the launch) and the next level's state
// goes to `state_out`; the host swaps the two between launches. A launch expands one level:
//   - frontier of at most `small` vertices, no huge row: work-group 0 alone runs this level and
//     the following ones with work-group barriers in between, as long as they stay small (no
//     launch, no host round trip per level); the other groups return at once;
//   - otherwise every group takes part: top-down over tiles of the slice, then the rows of
//     huge_degree arcs or more swept by all groups; or bottom-up over all vertices. The group
//     that finishes last (an atomic count, no waiting) writes the next state: the new slice, the
//     level offsets, and the direction of the next level (Beamer's test on vertex counts).
// Per tile each vertex of the slice gathers its row:
//   - rows shorter than WG_SIZE: a work-group scans the row lengths of its tile in local memory
//     and each work-item then takes one arc of the tile's concatenated rows (binary search of the
//     scan for the owning row), so a tile costs ceil(arcs / WG_SIZE) rounds whatever the mix;
//   - rows of WG_SIZE .. huge_degree-1 arcs: the whole work-group sweeps them, one at a time.
// A neighbour is claimed by atomic_cmpxchg on its depth (-1 -> depth + 1); the winner writes its
// parent, so every parent is a neighbour one level up. New vertices are gathered in local memory
// and appended with one global atomic per work-group round. Traffic per level: the slice, its row
// offsets, its arcs' columns and depths, and the new vertices.
// Assumptions: no work-group ever waits for another (the last finisher is found by an atomic
// counter, not by waiting); vertex ids and queue positions fit in int; row offsets are EDGE_T.
// The level-synchronous treefix sweeps over the same structure are kernels/treefix/levels.cl.

#include "primitives/workgroup.clh"

#include "graph/csr.clh"

// The search's state between launches (int fields of state_in / state_out).
#define S_BEGIN 0        // the frontier: queue[begin, end)
#define S_END 1
#define S_HUGE_BEGIN 2   // the frontier's huge rows: huge[huge_begin, huge_end)
#define S_HUGE_END 3
#define S_DEPTH 4        // depth of the frontier's vertices
#define S_BOTTOM_UP 5    // expand this frontier bottom-up
#define S_PREVIOUS 6     // size of the previous frontier (Beamer's test)
#define S_DONE 7         // 1 once a level came out empty
#define S_BOTTOM_UP_LEVELS 8
#define S_FIELDS 9

// Per-search constants, one struct so that the helpers take one argument.
typedef struct {
  int n, small, may_bottom_up;
  float alpha, beta;
  EDGE_T huge_degree;
} bfs_params;

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

// True for exactly one caller per vertex u: the one that moves depth[u] from -1 to next_depth.
bool claim(global int* depth, global int* parent, int u, int v, int next_depth) {
  if (depth[u] != -1) return false;  // cheap filter; the atomic decides
  if (atomic_cmpxchg(depth + u, -1, next_depth) != -1) return false;
  parent[u] = v;
  return true;
}

// Local memory of one work-group's expansion.
typedef struct {
  uint scratch[WG_SIZE];
  uint row_rank[WG_SIZE];
  int items[WG_SIZE];
  EDGE_T row_begin[WG_SIZE];
  int row_vertex[WG_SIZE];
  int block[2];
  int big_owner, big_vertex;
  EDGE_T big_begin, big_end;
} bfs_local;

// Appends the vertices found by the work-group (u where found) to the queue with one global
// atomic; those with huge rows also go to the huge list. Called by every work-item of the group.
void append_found(bool found, int u, global int* queue, global int* counters, global int* huge,
                  global const EDGE_T* row_offset, EDGE_T huge_degree, local bfs_local* l) {
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
    if (row_offset[w + 1] - row_offset[w] >= huge_degree) huge[atomic_inc(counters + 1)] = w;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Arc e (< end) of vertex v's row claims its neighbour; the group appends what it found. Called
// by every work-item of the group, in a loop over a row's arcs.
void expand_arc(EDGE_T e, EDGE_T end, int v, global const int* column, global int* depth,
                global int* parent, int next_depth, global int* queue, global int* counters,
                global int* huge, global const EDGE_T* row_offset, EDGE_T huge_degree,
                local bfs_local* l) {
  bool found = false;
  int u = -1;
  if (e < end) {
    u = column[e];
    found = claim(depth, parent, u, v, next_depth);
  }
  append_found(found, u, queue, counters, huge, row_offset, huge_degree, l);
}

// Top-down expansion of the tiles first_tile, first_tile + tile_step, ... of queue[begin, end).
void expand_tiles(int first_tile, int tile_step, int begin, int end, int next_depth,
                  global const EDGE_T* row_offset, global const int* column, global int* depth,
                  global int* parent, global int* queue, global int* counters, global int* huge,
                  EDGE_T huge_degree, local bfs_local* l) {
  const int lid = get_local_id(0);
  const int count = end - begin;
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;
  for (int tile = first_tile; tile < tiles; tile += tile_step) {
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
      for (EDGE_T base = l->big_begin; base < row_end; base += WG_SIZE)
        expand_arc(base + lid, row_end, row_vertex, column, depth, parent, next_depth, queue,
                   counters, huge, row_offset, huge_degree, l);
    }

    // Rows shorter than WG_SIZE: fine-grained gather over the tile's concatenated rows.
    uint small = (v >= 0 && degree < WG_SIZE && degree < huge_degree) ? (uint)degree : 0u;
    uint total;
    l->row_rank[lid] = wg_sum_uint_exclusive(small, l->scratch, &total);
    l->row_begin[lid] = first;
    l->row_vertex[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint base = 0; base < total; base += WG_SIZE) {
      const uint rank = base + lid;
      bool found = false;
      int u = -1;
      if (rank < total) {
        int k = owner_of_rank(l->row_rank, rank);
        u = column[l->row_begin[k] + (rank - l->row_rank[k])];
        found = claim(depth, parent, u, l->row_vertex[k], next_depth);
      }
      append_found(found, u, queue, counters, huge, row_offset, huge_degree, l);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// Rows of huge_degree arcs or more, huge[first .. first + count): every work-group of the launch
// takes a strided share of each row.
void expand_huge(int first, int count, int next_depth, global const EDGE_T* row_offset,
                 global const int* column, global int* depth, global int* parent,
                 global int* queue, global int* counters, global int* huge, EDGE_T huge_degree,
                 local bfs_local* l) {
  const int lid = get_local_id(0);
  for (int h = 0; h < count; ++h) {
    const int v = huge[first + h];
    const EDGE_T end = row_offset[v + 1];
    for (EDGE_T base = row_offset[v] + (EDGE_T)get_group_id(0) * WG_SIZE; base < end;
         base += (EDGE_T)get_num_groups(0) * WG_SIZE)
      expand_arc(base + lid, end, v, column, depth, parent, next_depth, queue, counters, huge,
                 row_offset, huge_degree, l);
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
                      local bfs_local* l) {
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
    append_found(found, v, queue, counters, huge, row_offset, huge_degree, l);
  }
}

// The state after the level [begin, end) of `now` (a private copy) produced queue[end, new_end)
// and huge[.., huge_end): written to `next` (one work-item). Records the level's offsets when it
// is not empty.
void advance(const int* now, global int* next, int new_end, int huge_end,
             global int* level_offset, global int* huge_offset, bfs_params p) {
  const int begin = now[S_BEGIN], end = now[S_END];
  const int count = new_end - end, previous = end - begin;
  int bottom_up = now[S_BOTTOM_UP];
  // Beamer's switch, on vertex counts (known without a reduction)
  // (a frontier small enough for one work-group stays top-down: that path is cheaper still)
  if (!bottom_up)
    bottom_up = p.may_bottom_up && count > p.small && count > previous &&
                (float)count > (p.n - new_end) / p.alpha;
  else
    bottom_up = !(count < previous && (float)count < p.n / p.beta);
  const int depth = now[S_DEPTH] + 1;
  next[S_BEGIN] = end;
  next[S_END] = new_end;
  next[S_HUGE_BEGIN] = now[S_HUGE_END];
  next[S_HUGE_END] = huge_end;
  next[S_DEPTH] = depth;
  next[S_BOTTOM_UP] = bottom_up;
  next[S_PREVIOUS] = previous;
  next[S_DONE] = count == 0;
  next[S_BOTTOM_UP_LEVELS] = now[S_BOTTOM_UP_LEVELS] + now[S_BOTTOM_UP];
  if (count > 0) {
    level_offset[depth + 1] = new_end;
    huge_offset[depth + 1] = huge_end;
  }
}

// The group's view of the counters once all its appends are done (after a barrier).
void read_counters(global int* counters, int* new_end, int* new_huge) {
  *new_end = atomic_add(&counters[0], 0);
  *new_huge = atomic_add(&counters[1], 0);
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

// One level (or, for small frontiers, many) of the search; see the note at the top.
// finished: [0] counts the groups done with this launch (reset by the last one).
kernel void bfs_level(global const EDGE_T* row_offset, global const int* column,
                      global int* depth, global int* parent, global int* queue,
                      global int* counters, global int* huge, global const int* state_in, global int* state_out,
                      global int* level_offset, global int* huge_offset,
                      volatile global int* finished, const int n, const int small,
                      const int may_bottom_up, const float alpha, const float beta,
                      const EDGE_T huge_degree) {
  local bfs_local l;
  local int leave[1];  // group 0's decision to leave the small-frontier loop
  const bfs_params p = {n, small, may_bottom_up, alpha, beta, huge_degree};
  const int lid = get_local_id(0);
  if (state_in[S_DONE]) {
    if (get_global_id(0) == 0)
      for (int f = 0; f < S_FIELDS; ++f) state_out[f] = state_in[f];
    return;
  }
  const int begin = state_in[S_BEGIN], end = state_in[S_END], level_depth = state_in[S_DEPTH];
  const int huge_begin = state_in[S_HUGE_BEGIN], huge_end = state_in[S_HUGE_END];
  const bool bottom_up = state_in[S_BOTTOM_UP];

  if (!bottom_up && end - begin <= small && huge_end == huge_begin) {
    // Small frontier: group 0 runs levels until one grows past `small` or holds a huge row.
    if (get_group_id(0) != 0) return;
    if (lid == 0)
      for (int f = 0; f < S_FIELDS; ++f) state_out[f] = state_in[f];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (;;) {
      const int b = state_out[S_BEGIN], e = state_out[S_END];
      expand_tiles(0, 1, b, e, state_out[S_DEPTH] + 1, row_offset, column, depth, parent, queue,
                   counters, huge, huge_degree, &l);
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      if (lid == 0) {
        int now[S_FIELDS], new_end, new_huge;
        for (int f = 0; f < S_FIELDS; ++f) now[f] = state_out[f];
        read_counters(counters, &new_end, &new_huge);
        advance(now, state_out, new_end, new_huge, level_offset, huge_offset, p);
        // stay in this group while the next level is small, top-down and without huge rows
        leave[0] = state_out[S_DONE] || new_end - now[S_END] > p.small ||
                   new_huge > now[S_HUGE_END] || state_out[S_BOTTOM_UP];
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      if (leave[0]) return;
    }
  }

  if (bottom_up)
    expand_bottom_up(level_depth, row_offset, column, depth, parent, queue, counters, huge,
                     huge_degree, n, &l);
  else {
    expand_tiles(get_group_id(0), get_num_groups(0), begin, end, level_depth + 1, row_offset,
                 column, depth, parent, queue, counters, huge, huge_degree, &l);
    expand_huge(huge_begin, huge_end - huge_begin, level_depth + 1, row_offset, column, depth,
                parent, queue, counters, huge, huge_degree, &l);
  }
  // The last group to finish writes the next state (all appends of this launch are done).
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (atomic_inc(&finished[0]) == (int)get_num_groups(0) - 1) {
      int now[S_FIELDS], new_end, new_huge;
      for (int f = 0; f < S_FIELDS; ++f) now[f] = state_in[f];
      read_counters(counters, &new_end, &new_huge);
      advance(now, state_out, new_end, new_huge, level_offset, huge_offset, p);
      finished[0] = 0;
    }
  }
}
