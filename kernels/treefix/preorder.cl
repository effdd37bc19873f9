// preorder.cl: the pre-order of a forest from its Euler tour map, and what is derived from it
// (include/treefix/treefix/euler_tour.hpp).
//   scan_* (scan_pass.clh): a scan of 1 at every open and 0 at every close; at v's open the
//     exclusive count is v's pre-order rank: pre_order[rank] = v, pre_rank[v] = rank. Reads the
//     map in order; writes pre_order in order, pre_rank at random.
//   preorder_far_steps: how many consecutive pre-order vertices lie more than FAR ids apart
//     (one atomic per work-group): the measure of how scattered the map's gathers are.
//   preorder_relabel: the map in pre-order ranks (i / ~i) instead of vertex ids.
//   preorder_depths: depth(v) = 2 * rank(v) - open_pos[v] (opens before v's open minus closes
//     before it), by pre-order rank, with the deepest (a work-group maximum, then one atomic).
// Options: -DVALUE_T=int -DOP_SUM (the scan's value), -DPOS_T (open_pos: int only here).
#include "core/common.clh"

#ifndef FAR
#define FAR 16
#endif

// v: tour_vertex[p], kept by the scan's load (SCAN_STATE_T) so that the store reads the map once.
inline void preorder_store(const int v, const int rank, global int* pre_order,
                           global int* pre_rank) {
  if (v >= 0) {
    pre_order[rank] = v;
    pre_rank[v] = rank;
  }
}

#define SCAN_PARAMS , global const int *tour_vertex, global int *pre_order, global int *pre_rank
#define SCAN_STATE_T int
#define SCAN_LOAD(p, v) (((v) = tour_vertex[p]) >= 0 ? 1 : 0)
#define SCAN_STORE(p, inc, exc, v) preorder_store(v, exc, pre_order, pre_rank)
#include "primitives/scan_pass.clh"

WG_DEFINE_SCAN(wg_max_uint, uint, max, 0u)

kernel void preorder_far_steps(global const int* pre_order, const uint n, global uint* far) {
  local uint scratch[WG_SIZE];
  uint count = 0;
  for (uint i = get_global_id(0); i + 1 < n; i += get_global_size(0)) {
    const long step = (long)pre_order[i + 1] - (long)pre_order[i];
    count += step > FAR || step < -FAR;
  }
  const uint total = wg_sum_uint_reduce(count, scratch);
  if (get_local_id(0) == 0 && total) atomic_add(far, total);
}

kernel void preorder_relabel(global int* tour_vertex, global const int* pre_rank,
                             const uint events) {
  const uint p = get_global_id(0);
  if (p >= events) return;
  const int entry = tour_vertex[p];
  tour_vertex[p] = entry >= 0 ? pre_rank[entry] : ~pre_rank[~entry];
}

// With write_keys, depth_key[i] / vertex[i] = depth and id of the vertex of rank i (for a stable
// sort by depth: the breadth-first order); always max_depth[0] = the largest depth.
kernel void preorder_depths(global const int* pre_order, global const int* open_pos, const uint n,
                            const int write_keys, global uint* depth_key, global int* vertex,
                            global uint* max_depth) {
  local uint scratch[WG_SIZE];
  uint deepest = 0;
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    const int v = pre_order[i];
    const uint depth = (uint)(2 * (int)i - open_pos[v]);
    deepest = max(deepest, depth);
    if (write_keys) {
      depth_key[i] = depth;
      vertex[i] = v;
    }
  }
  deepest = wg_max_uint_reduce(deepest, scratch);
  if (get_local_id(0) == 0) atomic_max(max_depth, deepest);
}
