// bfs_small.cl: consecutive narrow BFS levels run by one work-group in one launch (work-group
// barriers between levels instead of launches). It serves high-diameter graphs (road networks,
// meshes, grids: thousands of levels of a few hundred to a few thousand vertices), where a level
// costs its chain of dependent memory accesses and barriers, not its bandwidth. One work-group
// per level as in Luo, Wong and Hwu's single-block BFS kernel; the gathering is Merrill's
// scan-based one. The state and its hand-over are graph/bfs_state.clh.
//
// Per level, the frontier is taken in chunks of `capacity` entries (vertex, first arc, rank) in
// local memory: the first chunk is where the previous level of this launch left it, the others
// (and every chunk of a launch's first level) come from the queue in global memory, so the
// frontier is not limited by local memory. A scan of the row lengths numbers the chunk's arcs;
// every work-item then takes ARCS_PER_ITEM arcs per round, each step of all of them issued
// together (owner by binary search, column, depth, then the claim with the new vertex's row
// offsets loaded beside it, so that the next level needs no dependent load). The round's new
// vertices are numbered by one scan of (count, arcs) pairs, no atomic per vertex, and written
// to the queue and, for the first `capacity` of the level, to the other side of the buffers.
// The search state is private (every work-item computes the same), so a level reads no state
// from global memory. The group leaves, writing the state, when a frontier is too wide
// (small_level), holds a huge row, the search is done, or after most_levels levels.
// Only one work-group runs; it waits for no other.
// Traffic per level: its arcs' columns and depths, the new vertices' row offsets, queue slots
// and parents; frontier entries past the first chunk are re-read from the queue.

#include "graph/bfs_state.clh"

#ifndef ARCS_PER_ITEM
#define ARCS_PER_ITEM 8
#endif

// Raking scan: items of the group in segments of RAKE, one work-item per segment scans its
// segment in place, one work-item scans the segment totals: 3 barriers (plus one to free the
// scratch) against 2 log2(WG_SIZE) for a Hillis-Steele scan. Padding keeps the rakers off each
// other's banks.
#define RAKE (WG_SIZE < 32 ? WG_SIZE : 32)
#define SEGMENTS (WG_SIZE / RAKE)
#define PADDED(i) ((i) + (i) / RAKE)
#define SCAN_ENTRIES (PADDED(WG_SIZE) + SEGMENTS + 1)

// Exclusive scan of pairs over the group's items in local-id order; *total = the sum of all.
// Every item must call it.
uint2 rake_scan(uint2 x, local uint2* scratch, uint2* total) {
  const int lid = get_local_id(0);
  local uint2* segment_total = scratch + PADDED(WG_SIZE);
  scratch[PADDED(lid)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < SEGMENTS) {
    local uint2* segment = scratch + lid * (RAKE + 1);
    uint2 sum = (uint2)(0u, 0u);
    for (int k = 0; k < RAKE; ++k) {
      const uint2 value = segment[k];
      segment[k] = sum;
      sum += value;
    }
    segment_total[lid] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint2 sum = (uint2)(0u, 0u);
    for (int s = 0; s < SEGMENTS; ++s) {
      const uint2 value = segment_total[s];
      segment_total[s] = sum;
      sum += value;
    }
    segment_total[SEGMENTS] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint2 result = scratch[PADDED(lid)] + segment_total[lid / RAKE];
  *total = segment_total[SEGMENTS];
  barrier(CLK_LOCAL_MEM_FENCE);
  return result;
}

// Local buffers (2 x capacity entries each, the host sizes them): one side holds the frontier
// chunk being expanded, the other receives the next level's first `capacity` vertices.
kernel void bfs_small_levels(global const EDGE_T* row_offset, global const int* column,
                             global int* depth, global int* parent, global int* queue,
                             global int* counters, global int* huge, global const int* state_in,
                             global int* state_out, global int* level_offset,
                             global int* huge_offset, const int n, const int small,
                             const uint small_arcs, const int may_bottom_up, const float alpha,
                             const float beta, const EDGE_T huge_degree, const uint arcs,
                             const int most_levels, const int capacity,
                             local int* vertex_buffer, local EDGE_T* first_buffer,
                             local uint* rank_buffer) {
  local uint2 scratch[SCAN_ENTRIES];
  local int found_huge, huge_count;
  const bfs_params p = {n, small, small_arcs, may_bottom_up, alpha, beta, huge_degree, arcs};
  const int lid = get_local_id(0);
  bfs_state now = load_state(state_in);
  if (now.done || !small_level(now, p)) {  // bfs_level's turn
    pass_state(state_in, state_out);
    return;
  }
  if (lid == 0) found_huge = 0;  // set once, and the group leaves after that level
  int side = 0;           // the side of the buffers holding the frontier's first chunk ...
  bool buffered = false;  // ... once a level of this launch has put it there
  for (int level = 1;; ++level) {
    local int* front = vertex_buffer + side * capacity;
    local EDGE_T* front_first = first_buffer + side * capacity;
    local uint* front_rank = rank_buffer + side * capacity;
    local int* next = vertex_buffer + (1 - side) * capacity;
    local EDGE_T* next_first = first_buffer + (1 - side) * capacity;
    local uint* next_length = rank_buffer + (1 - side) * capacity;
    const int count = now.end - now.begin, next_depth = now.depth + 1;
    int found = 0;        // vertices found by this level so far (the same on every item)
    uint found_arcs = 0;  // ... and their arcs
    for (int chunk_begin = 0; chunk_begin < count; chunk_begin += capacity) {
      const int chunk = min(capacity, count - chunk_begin);
      if (!buffered || chunk_begin > 0) {
        for (int i = lid; i < chunk; i += WG_SIZE) {
          const int v = queue[now.begin + chunk_begin + i];
          const EDGE_T first = row_offset[v];
          front[i] = v;
          front_first[i] = first;
          front_rank[i] = (uint)(row_offset[v + 1] - first);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      // Row lengths to arc ranks: each item scans a run of `per` entries.
      const int per = (chunk + WG_SIZE - 1) / WG_SIZE;
      uint run = 0;
      for (int j = 0; j < per; ++j) {
        const int i = lid * per + j;
        if (i < chunk) run += front_rank[i];
      }
      uint2 chunk_total;
      uint rank = rake_scan((uint2)(run, 0u), scratch, &chunk_total).s0;
      for (int j = 0; j < per; ++j) {
        const int i = lid * per + j;
        if (i < chunk) {
          const uint length = front_rank[i];
          front_rank[i] = rank;
          rank += length;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      int top = 1;  // the owner search's first step: the largest power of two <= chunk
      while (top <= chunk / 2) top *= 2;
      for (uint base = 0; base < chunk_total.s0; base += ARCS_PER_ITEM * WG_SIZE) {
        int owner[ARCS_PER_ITEM], u[ARCS_PER_ITEM];
        bool won[ARCS_PER_ITEM];
        EDGE_T first[ARCS_PER_ITEM];
        uint length[ARCS_PER_ITEM];
        // Each step for all arcs at once: their latencies overlap.
        for (int j = 0; j < ARCS_PER_ITEM; ++j) owner[j] = 0;
        for (int step = top; step > 0; step >>= 1)
          for (int j = 0; j < ARCS_PER_ITEM; ++j) {
            const uint r = base + (uint)(j * WG_SIZE + lid);
            const int probe = owner[j] + step;
            if (probe < chunk && front_rank[probe] <= r) owner[j] = probe;
          }
        for (int j = 0; j < ARCS_PER_ITEM; ++j) {
          const uint r = base + (uint)(j * WG_SIZE + lid);
          u[j] = -1;
          if (r < chunk_total.s0)
            u[j] = column[front_first[owner[j]] + (EDGE_T)(r - front_rank[owner[j]])];
        }
        for (int j = 0; j < ARCS_PER_ITEM; ++j) won[j] = u[j] >= 0 && depth[u[j]] == -1;
        for (int j = 0; j < ARCS_PER_ITEM; ++j)  // rows of the candidates, beside the claims
          if (won[j]) {
            first[j] = row_offset[u[j]];
            length[j] = (uint)(row_offset[u[j] + 1] - first[j]);
          }
        for (int j = 0; j < ARCS_PER_ITEM; ++j)
          if (won[j]) won[j] = atomic_cmpxchg(depth + u[j], -1, next_depth) == -1;
        uint my_found = 0, my_arcs = 0;
        for (int j = 0; j < ARCS_PER_ITEM; ++j)
          if (won[j]) {
            parent[u[j]] = front[owner[j]];
            ++my_found;
            my_arcs += length[j];
            if ((EDGE_T)length[j] >= huge_degree) {
              huge[atomic_inc(&counters[1])] = u[j];
              found_huge = 1;  // benign race: every writer stores 1
            }
          }
        uint2 round_total;
        int slot = found + (int)rake_scan((uint2)(my_found, my_arcs), scratch, &round_total).s0;
        for (int j = 0; j < ARCS_PER_ITEM; ++j)
          if (won[j]) {
            queue[now.end + slot] = u[j];
            if (slot < capacity) {
              next[slot] = u[j];
              next_first[slot] = first[j];
              next_length[slot] = length[j];
            }
            ++slot;
          }
        found += (int)round_total.s0;
        found_arcs += round_total.s1;
      }
    }
    // The level's queue slots and buffers are written and found_huge is final.
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    int huge_end = now.huge_end;
    if (found_huge) {  // the same on every item
      if (lid == 0) huge_count = atomic_add(&counters[1], 0);
      barrier(CLK_LOCAL_MEM_FENCE);
      huge_end = huge_count;
    }
    now = advance(now, now.end + found, huge_end, now.arcs_seen + found_arcs, p);
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
