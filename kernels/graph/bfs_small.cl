// bfs_small.cl: consecutive narrow BFS levels run by one work-group in one launch (work-group
// barriers between levels instead of launches). It serves high-diameter graphs (road networks,
// meshes, grids: thousands of levels of a few hundred to a few thousand vertices), where a level
// costs its chain of dependent memory accesses and barriers, not its bandwidth: one work-group
// per level as in Luo, Wong and Hwu's single-block BFS kernel. The state and its hand-over are
// graph/bfs_state.clh.
//
// A level's frontier entries (vertex, first arc, row length) come from local memory, where the
// previous level of this launch left the first `capacity` of them, or from the queue in global
// memory (the rest, and a launch's first level), so local memory does not bound the frontier.
// Two ways to expand a level:
//   - short rows (every row of the level has at most SHORT_ROW arcs, known from the previous
//     level: grids, road networks): each work-item takes SHORT_ENTRIES entries per round and
//     loads all their arcs at once; no scan, no search;
//   - any rows: chunks of `capacity` entries in local memory, a work-group scan of the row
//     lengths numbers the chunk's arcs, and each work-item takes ARCS_PER_ITEM of them per
//     round, finding each arc's row by binary search of the scan (Merrill's scan-based gather).
// Either way each step is issued for all of an item's arcs together (their latencies overlap):
// column, depth, then the claim with the new vertex's row offsets loaded beside it, so that the
// next level needs no dependent load. New vertices are numbered without an atomic per vertex or
// a full scan: each item adds its count to one of SPREAD local counters (lid % SPREAD, so a
// hardware thread group's items hit different counters), one item sums the counters. The search
// state is private (every item computes the same), so a level reads no state from global memory.
// The group leaves, writing the state, when a frontier is too wide (small_level), holds a huge
// row, the search is done, or after most_levels levels. Only one work-group runs; it waits for
// no other. Traffic per level: its arcs' columns and depths, the new vertices' row offsets,
// queue slots and parents; frontier entries past the first `capacity` are re-read from the queue.

#include "primitives/workgroup.clh"

#include "graph/bfs_state.clh"

#ifndef SHORT_ROW
#define SHORT_ROW 4
#endif
#ifndef SHORT_ENTRIES
#define SHORT_ENTRIES 2
#endif
#ifndef ARCS_PER_ITEM
#define ARCS_PER_ITEM 8
#endif
#define SLOTS (SHORT_ROW * SHORT_ENTRIES > ARCS_PER_ITEM ? SHORT_ROW * SHORT_ENTRIES : ARCS_PER_ITEM)
#define SPREAD (WG_SIZE < 32 ? WG_SIZE : 32)

typedef struct {
  uint spread_found[SPREAD], spread_arcs[SPREAD];  // a round's reservations, by lid % SPREAD
  uint spread_base[SPREAD];                         // ... their first slots
  uint round_found, round_arcs;                     // ... and the round's totals
  int long_next_mark;  // the level whose frontier has a row longer than SHORT_ROW
  int found_huge, huge_count;
  uint scratch[WG_SIZE];  // the row-length scan of the any-rows path
} small_local;

// The level being expanded and where its new vertices go.
typedef struct {
  global int* queue;
  int end;             // the frontier's end: new vertices go to queue[end + slot]
  int next_depth, level, capacity;
  local int* next;     // the next level's first `capacity` entries
  local EDGE_T* next_first;
  local uint* next_length;
} level_out;

// Claims the round's arcs v[j] -> u[j] (u[j] < 0: none), numbers the winners across the group
// after `*found` and appends them. Every item calls it (two barriers).
void settle_round(const int* u, const int* v, global const EDGE_T* row_offset,
                  global int* depth, global int* parent, global int* counters, global int* huge,
                  EDGE_T huge_degree, level_out o, local small_local* l, uint* found,
                  uint* found_arcs) {
  const int lid = get_local_id(0);
  bool won[SLOTS];
  EDGE_T first[SLOTS];
  uint length[SLOTS];
  for (int j = 0; j < SLOTS; ++j) won[j] = u[j] >= 0 && depth[u[j]] == -1;
  for (int j = 0; j < SLOTS; ++j)  // the candidates' rows, loaded beside the claims
    if (won[j]) {
      first[j] = row_offset[u[j]];
      length[j] = (uint)(row_offset[u[j] + 1] - first[j]);
    }
  for (int j = 0; j < SLOTS; ++j)
    if (won[j]) won[j] = atomic_cmpxchg(depth + u[j], -1, o.next_depth) == -1;
  uint mine = 0, my_arcs = 0;
  for (int j = 0; j < SLOTS; ++j)
    if (won[j]) {
      parent[u[j]] = v[j];
      ++mine;
      my_arcs += length[j];
      if ((EDGE_T)length[j] >= huge_degree) {
        huge[atomic_inc(&counters[1])] = u[j];
        l->found_huge = 1;  // benign race: every writer stores 1
      }
    }
  const int spread = lid % SPREAD;
  uint slot = 0;
  if (mine) {
    slot = atomic_add(&l->spread_found[spread], mine);
    atomic_add(&l->spread_arcs[spread], my_arcs);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint total = 0, arcs = 0;
    for (int s = 0; s < SPREAD; ++s) {
      const uint count = l->spread_found[s];
      l->spread_base[s] = total;
      total += count;
      arcs += l->spread_arcs[s];
      l->spread_found[s] = 0;
      l->spread_arcs[s] = 0;
    }
    l->round_found = total;
    l->round_arcs = arcs;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  slot += *found + l->spread_base[spread];
  for (int j = 0; j < SLOTS; ++j)
    if (won[j]) {
      o.queue[o.end + slot] = u[j];
      if (slot < (uint)o.capacity) {
        o.next[slot] = u[j];
        o.next_first[slot] = first[j];
        o.next_length[slot] = length[j];
      }
      if (length[j] > SHORT_ROW) l->long_next_mark = o.level + 1;
      ++slot;
    }
  *found += l->round_found;
  *found_arcs += l->round_arcs;
}

// Local buffers (2 x capacity entries each, the host sizes them): one side holds the frontier's
// first entries, the other receives the next level's.
kernel void bfs_small_levels(global const EDGE_T* row_offset, global const int* column,
                             global int* depth, global int* parent, global int* queue,
                             global int* counters, global int* huge, global const int* state_in,
                             global int* state_out, global int* level_offset,
                             global int* huge_offset, const int n, const int small,
                             const uint small_arcs, const int grid_frontier,
                             const uint grid_arcs, const int may_bottom_up, const float alpha,
                             const float beta, const EDGE_T huge_degree, const uint arcs,
                             const int most_levels, const int capacity,
                             local int* vertex_buffer, local EDGE_T* first_buffer,
                             local uint* length_buffer) {
  local small_local l;
  const bfs_params p = {n,    small,         small_arcs, grid_frontier, grid_arcs,
                        may_bottom_up, alpha, beta,      huge_degree,   arcs};
  const int lid = get_local_id(0);
  bfs_state now = load_state(state_in);
  if (now.done || !small_level(now, p)) {  // bfs_level's turn
    pass_state(state_in, state_out);
    return;
  }
  if (lid < SPREAD) l.spread_found[lid] = l.spread_arcs[lid] = 0;
  if (lid == 0) l.found_huge = 0, l.long_next_mark = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  int side = 0;
  bool buffered = false;  // the frontier's first entries are in the buffers' `side`
  for (int level = 1;; ++level) {
    local int* front = vertex_buffer + side * capacity;
    local EDGE_T* front_first = first_buffer + side * capacity;
    local uint* front_length = length_buffer + side * capacity;
    const level_out o = {queue, now.end, now.depth + 1, level, capacity,
                         vertex_buffer + (1 - side) * capacity,
                         first_buffer + (1 - side) * capacity,
                         length_buffer + (1 - side) * capacity};
    const int count = now.end - now.begin;
    uint found = 0, found_arcs = 0;  // the level's new vertices and their arcs (uniform)
    if (buffered && l.long_next_mark != level) {
      // Short rows: SHORT_ENTRIES entries per item and round, all their arcs at once.
      for (int round = 0; round < count; round += SHORT_ENTRIES * WG_SIZE) {
        int u[SLOTS], v[SLOTS];
        for (int i = 0; i < SHORT_ENTRIES; ++i) {
          const int k = round + i * WG_SIZE + lid;
          int vertex = -1;
          EDGE_T first = 0;
          uint length = 0;
          if (k < min(count, capacity)) {
            vertex = front[k];
            first = front_first[k];
            length = front_length[k];
          } else if (k < count) {
            vertex = queue[now.begin + k];
            first = row_offset[vertex];
            length = (uint)(row_offset[vertex + 1] - first);
          }
          for (int t = 0; t < SHORT_ROW; ++t) {
            v[i * SHORT_ROW + t] = vertex;
            u[i * SHORT_ROW + t] = t < length ? column[first + t] : -1;
          }
        }
        for (int j = SHORT_ROW * SHORT_ENTRIES; j < SLOTS; ++j) u[j] = -1;
        settle_round(u, v, row_offset, depth, parent, counters, huge, huge_degree, o, &l, &found,
                     &found_arcs);
      }
    } else {
      // Any rows: chunks of the frontier in local memory, their arcs numbered by a scan.
      for (int chunk_begin = 0; chunk_begin < count; chunk_begin += capacity) {
        const int chunk = min(capacity, count - chunk_begin);
        if (!buffered || chunk_begin > 0) {
          for (int i = lid; i < chunk; i += WG_SIZE) {
            const int vertex = queue[now.begin + chunk_begin + i];
            const EDGE_T first = row_offset[vertex];
            front[i] = vertex;
            front_first[i] = first;
            front_length[i] = (uint)(row_offset[vertex + 1] - first);
          }
          barrier(CLK_LOCAL_MEM_FENCE);
        }
        // Row lengths to arc ranks, in place: each item scans a run of `per` entries.
        const int per = (chunk + WG_SIZE - 1) / WG_SIZE;
        uint run = 0;
        for (int j = 0; j < per; ++j)
          if (lid * per + j < chunk) run += front_length[lid * per + j];
        uint total;
        uint rank = wg_sum_uint_exclusive(run, l.scratch, &total);
        for (int j = 0; j < per; ++j) {
          const int i = lid * per + j;
          if (i < chunk) {
            const uint length = front_length[i];
            front_length[i] = rank;
            rank += length;
          }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        int top = 1;  // the owner search's first step: the largest power of two <= chunk
        while (top <= chunk / 2) top *= 2;
        for (uint base = 0; base < total; base += ARCS_PER_ITEM * WG_SIZE) {
          const uint active = min((uint)ARCS_PER_ITEM, (total - base + WG_SIZE - 1) / WG_SIZE);
          int owner[ARCS_PER_ITEM], u[SLOTS], v[SLOTS];
          for (int j = 0; j < ARCS_PER_ITEM; ++j) owner[j] = 0;
          for (int step = top; step > 0; step >>= 1)  // one step for all arcs at a time
            for (int j = 0; j < ARCS_PER_ITEM; ++j) {
              const int probe = owner[j] + step;
              if (j < active && probe < chunk &&
                  front_length[probe] <= base + (uint)(j * WG_SIZE + lid))
                owner[j] = probe;
            }
          for (int j = 0; j < SLOTS; ++j) {
            const uint r = base + (uint)(j * WG_SIZE + lid);
            u[j] = v[j] = -1;
            if (j < ARCS_PER_ITEM && r < total) {
              const int k = owner[j];
              v[j] = front[k];
              u[j] = column[front_first[k] + (EDGE_T)(r - front_length[k])];
            }
          }
          settle_round(u, v, row_offset, depth, parent, counters, huge, huge_degree, o, &l,
                       &found, &found_arcs);
        }
      }
    }
    // The level's queue slots and buffers are written; found_huge and long_next_mark are final.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    int huge_end = now.huge_end;
    if (l.found_huge) {  // the same on every item
      if (lid == 0) l.huge_count = atomic_add(&counters[1], 0);
      barrier(CLK_LOCAL_MEM_FENCE);
      huge_end = l.huge_count;
    }
    now = advance(now, now.end + (int)found, huge_end, now.arcs_seen + found_arcs, p);
    if (lid == 0) record_level(now, level_offset, huge_offset);
    if (now.done || !small_level(now, p) || level >= most_levels) {
      if (lid == 0) {
        store_state(state_out, now);
        counters[0] = now.end;  // this group alone appended while it ran
        counters[2] = (int)now.arcs_seen;
      }
      return;
    }
    side = 1 - side;
    buffered = true;
  }
}
