// bfs_treefix.cl: the seed's parallel treefix (Defour & Marin, Algorithm 1), one call at a time:
// a queue-based, level-synchronous breadth-first search over the forest's child lists (CSR) that
// applies the operator as it goes down (rootfix) or records the queue for the sweep back up
// (leaffix: the folds of levels.cl). Nothing outlives the call. Every kernel is named bfs_*.
//
// The queue holds every vertex once, level after level; slot 0 holds the virtual vertex n whose
// children are the roots (child_offset has n + 2 entries: treefix/treefix/euler_tour.hpp). A level
// is expanded by one launch of a fixed grid (no host read between levels):
//   - rows of fewer than huge_degree children: tile by tile, each work-group scans its tile's
//     degrees, reserves the tile's output with one atomic, then gathers the children with every
//     work-item taking one (Merrill's scan-based gather, which the seed used);
//   - rows of huge_degree children or more (a star's root): every work-group takes a strided share,
//     one atomic per share. Such rows are listed when they are enqueued, so that the next launch
//     knows them before it starts.
// Bounds: bounds[2 l] = the first queue slot of level l, bounds[2 l + 1] = the first slot of its
// huge rows in `huge`; state[l % 3] = the size of level l, state[3 + l % 3] = its huge rows, while
// level l - 1 or l is expanded (three rotating counters: the launch of level l reads its own,
// appends to the next, and clears the one before); state[6]: set when a row would overflow the
// queue (the child lists are not a forest), so that the host refuses the result. Traffic per level:
// the frontier's row offsets, the children, their row offsets (for the huge list), the queue write;
// rootfix adds the parent's result and the child's weight and result. Options: value_op_options
// (-DVALUE_T ..., -DOP_...), -DEDGE_T=int, -DWG_SIZE; value_t as in levels.cl (a wider accumulator
// for an accurate floating-point sum, narrowed by bfs_narrow).
#include "core/common.clh"
#include "primitives/workgroup.clh"

#define COUNT(level) (state[(level) % 3])
#define HUGE_COUNT(level) (state[3 + (level) % 3])
#define OVERFLOW (state[6])

// Level 0: the virtual vertex n alone, listed as huge when the forest has huge_degree roots or
// more.
kernel void bfs_start(global const EDGE_T* child_offset, const int n, const EDGE_T huge_degree,
                      global int* queue, global int* huge, global int* bounds, global int* state) {
  if (get_global_id(0) != 0) return;
  const int is_huge = child_offset[n + 1] - child_offset[n] >= huge_degree;
  queue[0] = n;
  huge[0] = n;
  bounds[0] = 0;
  bounds[1] = 0;
  state[0] = 1;
  state[1] = 0;
  state[2] = 0;
  state[3] = is_huge;
  state[4] = 0;
  state[5] = 0;
  state[6] = 0;
}

// Child c of v enters the queue at `slot`; rootfix (apply) writes its value: the seed's line 9,
// rootfix[c] = rootfix[v] (+) W[c] (exclusive: rootfix[v] (+) W[v], the identity under the roots).
void bfs_enqueue(int v, int c, int slot, int capacity, const int n, int next_huge_base,
                 int huge_capacity, global const EDGE_T* child_offset, const EDGE_T huge_degree,
                 global int* queue, global int* huge, volatile global int* state, const int level,
                 global const weight_t* weight, global value_t* result, const int apply,
                 const int exclusive) {
  if (slot >= capacity) {  // a vertex reached twice: not a forest
    OVERFLOW = 1;
    return;
  }
  queue[slot] = c;
  if (child_offset[c + 1] - child_offset[c] >= huge_degree) {
    const int at = next_huge_base + atomic_inc(&HUGE_COUNT(level + 1));
    if (at < huge_capacity)
      huge[at] = c;
    else
      OVERFLOW = 1;
  }
  if (!apply) return;
  if (v == n)
    result[c] = exclusive ? IDENTITY : TO_VALUE(weight[c]);
  else
    result[c] = OP(result[v], TO_VALUE(exclusive ? weight[v] : weight[c]));
}

// Expands level `level` into level + 1 (see the top of the file). A fixed grid: every work-group
// loops over its share, so the host needs no frontier size to launch.
kernel void bfs_expand(const int level, const int n, global const EDGE_T* child_offset,
                       global const int* child, const EDGE_T huge_degree, global int* queue,
                       global int* huge, const int huge_capacity, global int* bounds,
                       volatile global int* state, global const weight_t* weight,
                       global value_t* result, const int apply, const int exclusive) {
  local uint scratch[WG_SIZE];
  local uint row_start[WG_SIZE];  // the tile's output offsets (exclusive scan of degrees)
  local EDGE_T row_first[WG_SIZE];
  local int row_vertex[WG_SIZE];
  local int base;
  const int lid = get_local_id(0), group = get_group_id(0), groups = get_num_groups(0);
  const int capacity = n + 1;
  const int begin = bounds[2 * level], count = COUNT(level);
  const int huge_begin = bounds[2 * level + 1], huge_count = HUGE_COUNT(level);
  const int next_begin = begin + count, next_huge_begin = huge_begin + huge_count;
  if (get_global_id(0) == 0) {
    bounds[2 * level + 2] = next_begin;
    bounds[2 * level + 3] = next_huge_begin;
    COUNT(level + 2) = 0;  // level - 1's: read by the launch before this one only
    HUGE_COUNT(level + 2) = 0;
  }
  // Huge rows: every work-group takes chunks of WG_SIZE children, strided over the groups.
  for (int h = 0; h < huge_count; ++h) {
    const int v = huge[huge_begin + h];
    const EDGE_T end = child_offset[v + 1];
    for (EDGE_T chunk = child_offset[v] + (EDGE_T)group * WG_SIZE; chunk < end;
         chunk += (EDGE_T)groups * WG_SIZE) {
      const int take = (int)min((EDGE_T)WG_SIZE, end - chunk);
      if (lid == 0) base = atomic_add(&COUNT(level + 1), take);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid < take)
        bfs_enqueue(v, child[chunk + lid], next_begin + base + lid, capacity, n, next_huge_begin,
                    huge_capacity, child_offset, huge_degree, queue, huge, state, level, weight,
                    result, apply, exclusive);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  // The other rows, a tile of WG_SIZE frontier vertices at a time.
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;
  for (int tile = group; tile < tiles; tile += groups) {
    const int i = tile * WG_SIZE + lid;
    int v = -1;
    EDGE_T first = 0, degree = 0;
    if (i < count) {
      v = queue[begin + i];
      first = child_offset[v];
      degree = child_offset[v + 1] - first;
      if (degree >= huge_degree) degree = 0;  // expanded above
    }
    uint total;
    const uint start = wg_sum_uint_exclusive((uint)degree, scratch, &total);
    row_start[lid] = start;
    row_first[lid] = first;
    row_vertex[lid] = v;
    if (lid == 0) base = total ? atomic_add(&COUNT(level + 1), (int)total) : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lid; s < total; s += WG_SIZE) {
      // the tile entry whose children hold output s: the last start <= s (an empty row shares its
      // start with the row after it, which is the one that owns s)
      int lo = 0, hi = WG_SIZE - 1;
      while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (row_start[mid] <= s)
          lo = mid;
        else
          hi = mid - 1;
      }
      bfs_enqueue(row_vertex[lo], child[row_first[lo] + (s - row_start[lo])],
                  next_begin + base + (int)s, capacity, n, next_huge_begin, huge_capacity,
                  child_offset, huge_degree, queue, huge, state, level, weight, result, apply,
                  exclusive);
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile's arrays are rewritten by the next tile
  }
}

// The wide results of an accurate sum, rounded to the weight type, over the queue (slot 0, the
// virtual vertex, excluded): `empty` 1 writes the empty sum at the roots (an exclusive rootfix:
// level 1 of the queue, slots 1 .. bounds[4]), 2 at the leaves (an exclusive leaffix), else 0.
kernel void bfs_narrow(global const value_t* wide, const int n, global const int* queue,
                       global const int* bounds, global const EDGE_T* child_offset,
                       global weight_t* result, const int empty) {
  const int slot = get_global_id(0) + 1;
  if (slot > n) return;
  const int v = queue[slot];
  const bool no_terms =
      (empty == 1 && slot < bounds[4]) || (empty == 2 && child_offset[v + 1] == child_offset[v]);
  result[v] = FROM_VALUE(no_terms ? EMPTY_SUM : wide[v]);
}
