// levels.cl: the sweeps of the level-synchronous treefix (include/treefix/treefix/levels.hpp),
// over a forest's vertices grouped by depth (order[level_offset[l] .. level_offset[l + 1]) is level
// l) and its child lists in CSR form. Every kernel is named levels_*.
//   rootfix: one level slice per launch, top level first: read the parent's result, one write.
//   leaffix: one level per launch, deepest first: each vertex folds its children's results,
//            load-balanced three ways as the BFS gathers rows (a work-item, a work-group, or
//            every work-group for a vertex of huge_degree children or more).
//   *_fused: a run of narrow levels by one work-group, a barrier between levels.
// Options: value_op_options (-DVALUE_T ..., -DOP_...), -DEDGE_T=int|long (child offsets),
// -DWG_SIZE. No atomics on values, so results are deterministic for every operator.
// Weights are weight_t; results and partials value_t: the weight type, or for an accurate
// floating-point sum a wider one (-DACC_T=double, or double-word with -DCOMPENSATED: common.clh),
// which levels_narrow converts back once the sweep is done. Those sums fold from IDENTITY (-0, the
// IEEE identity), so that -0 terms sum to -0; the sum of no terms (an exclusive root or leaf) is
// EMPTY_SUM (+0), which levels_narrow writes (a fold from +0 would turn -0 terms into +0).
#include "core/common.clh"
#include "primitives/workgroup.clh"

#include "primitives/csr.clh"

// value_t, OP and IDENTITY come from common.clh; OP(a, b) keeps a before b.
WG_DEFINE_SCAN(wg_value, value_t, OP, IDENTITY)

// rootfix(v) = rootfix(parent) (+) w(v); exclusive: rootfix_excl(v) = rootfix_excl(parent) (+)
// w(parent), identity at a root. One level slice of the BFS order per launch, top level first.
kernel void levels_rootfix(global const int* order, int begin, int count, global const int* parent,
                          global const weight_t* weight, global value_t* result, int exclusive) {
  int i = get_global_id(0);
  if (i >= count) return;
  int v = order[begin + i];
  int p = parent[v];
  if (exclusive) result[v] = p < 0 ? IDENTITY : OP(result[p], TO_VALUE(weight[p]));
  else result[v] = p < 0 ? TO_VALUE(weight[v]) : OP(result[p], TO_VALUE(weight[v]));
}

// Runs of narrow levels (host-chosen: few vertices, no huge row) are swept by one work-group in
// one launch, a barrier between levels instead of a launch: a path costs one launch, not one per
// vertex. barrier(CLK_GLOBAL_MEM_FENCE) orders the group's global writes before the next level.
kernel void levels_rootfix_fused(global const int* order, global const int* level_offset,
                                 int first_level, int last_level, global const int* parent,
                                 global const weight_t* weight, global value_t* result,
                                 int exclusive) {
  for (int l = first_level; l < last_level; ++l) {
    const int end = level_offset[l + 1];
    for (int i = level_offset[l] + get_local_id(0); i < end; i += WG_SIZE) {
      int v = order[i];
      int p = parent[v];
      if (exclusive) result[v] = p < 0 ? IDENTITY : OP(result[p], TO_VALUE(weight[p]));
      else result[v] = p < 0 ? TO_VALUE(weight[v]) : OP(result[p], TO_VALUE(weight[v]));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// What child c contributes to its parent: its inclusive leaffix.
#define CHILD_TOTAL(c) (exclusive ? OP(result[c], TO_VALUE(weight[c])) : result[c])

// leaffix(v) = w(v) (+) leaffix of its children (exclusive: without w(v)) for the vertices
// order[begin .. begin + count), tiles `group`, `group + groups`, ... of them. Rows of
// huge_degree children or more are left to leaffix_huge_*. Called by every work-item.
// big[0] = owner, big[1] = vertex; big_range = [begin, end) of the row being folded.
void levels_leaffix_tiles(global const int* order, int begin, int count, int group, int groups,
                   global const EDGE_T* child_offset, global const int* child,
                   global const weight_t* weight, global value_t* result, int exclusive,
                   EDGE_T huge_degree, local value_t* scratch, local int* big,
                   local EDGE_T* big_range) {
  const int lid = get_local_id(0);
  const int tiles = (count + WG_SIZE - 1) / WG_SIZE;
  for (int tile = group; tile < tiles; tile += groups) {
    const int i = tile * WG_SIZE + lid;
    EDGE_T first, degree;
    const int v = csr_row_of(order, begin, count, i, child_offset, &first, &degree);
    // few children: the work-item folds them itself
    if (v >= 0 && degree < WG_SIZE && degree < huge_degree) {
      value_t acc = IDENTITY;
      for (EDGE_T e = first; e < first + degree; ++e) {
        int c = child[e];
        acc = OP(acc, CHILD_TOTAL(c));
      }
      result[v] = exclusive ? acc : OP(acc, TO_VALUE(weight[v]));
    }
    // many children: the work-group reduces them, one vertex at a time
    bool is_big = v >= 0 && degree >= WG_SIZE && degree < huge_degree;
    for (;;) {
      if (lid == 0) big[0] = -1;
      barrier(CLK_LOCAL_MEM_FENCE);
      if (is_big) atomic_max(big, lid);
      barrier(CLK_LOCAL_MEM_FENCE);
      const int owner = big[0];
      if (lid == owner) {
        big_range[0] = first;
        big_range[1] = first + degree;
        big[1] = v;
        is_big = false;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (owner < 0) break;
      value_t acc = IDENTITY;
      for (EDGE_T e = big_range[0] + lid; e < big_range[1]; e += WG_SIZE) {
        int c = child[e];
        acc = OP(acc, CHILD_TOTAL(c));
      }
      acc = wg_value_reduce(acc, scratch);
      if (lid == 0) result[big[1]] = exclusive ? acc : OP(acc, TO_VALUE(weight[big[1]]));
    }
  }
}

// One level slice per launch, deepest level first.
kernel void levels_leaffix(global const int* order, int begin, int count,
                          global const EDGE_T* child_offset, global const int* child,
                          global const weight_t* weight, global value_t* result, int exclusive,
                          EDGE_T huge_degree) {
  local value_t scratch[WG_SIZE];
  local int big[2];
  local EDGE_T big_range[2];
  levels_leaffix_tiles(order, begin, count, get_group_id(0), get_num_groups(0), child_offset, child,
                weight, result, exclusive, huge_degree, scratch, big, big_range);
}

// A run of narrow levels [first_level, last_level), deepest first, by one work-group.
kernel void levels_leaffix_fused(global const int* order, global const int* level_offset,
                                 int first_level, int last_level,
                                 global const EDGE_T* child_offset, global const int* child,
                                 global const weight_t* weight, global value_t* result,
                                 int exclusive, EDGE_T huge_degree) {
  local value_t scratch[WG_SIZE];
  local int big[2];
  local EDGE_T big_range[2];
  for (int l = last_level - 1; l >= first_level; --l) {
    levels_leaffix_tiles(order, level_offset[l], level_offset[l + 1] - level_offset[l], 0, 1,
                  child_offset, child, weight, result, exclusive, huge_degree, scratch, big,
                  big_range);
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// Huge rows, step 1: work-group g reduces its strided share of the children of each huge vertex
// h into partial[h * groups + g].
kernel void levels_leaffix_huge_partial(global const int* huge, int huge_first, int huge_count,
                                 global const EDGE_T* child_offset, global const int* child,
                                 global const weight_t* weight, global const value_t* result,
                                 int exclusive, global value_t* partial) {
  local value_t scratch[WG_SIZE];
  const int lid = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  for (int h = 0; h < huge_count; ++h) {
    const int v = huge[huge_first + h];
    const EDGE_T end = child_offset[v + 1];
    value_t acc = IDENTITY;
    for (EDGE_T e = child_offset[v] + (EDGE_T)g * WG_SIZE + lid; e < end;
         e += (EDGE_T)groups * WG_SIZE) {
      int c = child[e];
      acc = OP(acc, CHILD_TOTAL(c));
    }
    acc = wg_value_reduce(acc, scratch);
    if (lid == 0) partial[h * groups + g] = acc;
  }
}

// Huge rows, step 2: work-group h folds the `groups` partials of huge vertex h.
kernel void levels_leaffix_huge_finish(global const int* huge, int huge_first, int groups,
                                global const weight_t* weight, global value_t* result,
                                int exclusive, global const value_t* partial) {
  local value_t scratch[WG_SIZE];
  const int lid = get_local_id(0), h = get_group_id(0);
  value_t acc = IDENTITY;
  for (int g = lid; g < groups; g += WG_SIZE) acc = OP(acc, partial[h * groups + g]);
  acc = wg_value_reduce(acc, scratch);
  const int v = huge[huge_first + h];
  if (lid == 0) result[v] = exclusive ? acc : OP(acc, TO_VALUE(weight[v]));
}

// The wide results of an accurate sweep, rounded to the weight type; `empty`: 1 when the roots'
// results combine no terms (exclusive rootfix), 2 the leaves' (exclusive leaffix), else 0.
kernel void levels_narrow(global const value_t* wide, const int n, global weight_t* result,
                          global const int* parent, global const EDGE_T* child_offset,
                          const int empty) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const bool no_terms = (empty == 1 && parent[v] < 0) ||
                        (empty == 2 && child_offset[v + 1] == child_offset[v]);
  result[v] = FROM_VALUE(no_terms ? EMPTY_SUM : wide[v]);
}
