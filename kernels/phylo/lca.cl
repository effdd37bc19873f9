// lca.cl: the lowest-common-ancestor index of a forest and its queries (phylo/lca.clh says how a
// query reads it; include/treefix/phylo/lca.hpp).
//   lca_keys:        key[i] = depth << 32 | parent of the vertex of pre-order rank i (depth from
//                    the tour: 2i - open_pos). Reads pre_order in order, open_pos and parent at
//                    random; writes the keys in order.
//   lca_blocks:      one work-item per block of LCA_BLOCK keys: its prefix and suffix minima, and
//                    its minimum as row 0 of the sparse table.
//   lca_table_level: row j of the sparse table from row j - 1 (one launch per row).
//   lca_pairs:       out[i] = lca(u[i], v[i]); the first pair with a vertex out of range is
//                    recorded in bad[0] (atomic_min) and gets -1.
//   lca_rank_range:  the smallest and largest pre-order rank of a set of vertices (atomic min and
//                    max); the set's lca is the lca of those two (lca_of_range).
// Integers only: results are exact and the same on every run.
#include "phylo/lca.clh"

kernel void lca_keys(global const int* pre_order, global const int* open_pos,
                     global const int* parent, const uint n, global ulong* key) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const int v = pre_order[i];
  const uint depth = 2 * i - (uint)open_pos[v];
  key[i] = ((ulong)depth << 32) | (uint)parent[v];
}

kernel void lca_blocks(global const ulong* key, const uint n, global ulong* prefix_min,
                       global ulong* suffix_min, global ulong* table) {
  const uint block = get_global_id(0);
  const uint start = block * LCA_BLOCK;
  if (start >= n) return;
  const uint end = min(start + LCA_BLOCK, n);
  ulong smallest = ULONG_MAX;
  for (uint i = start; i < end; ++i) {
    smallest = min(smallest, key[i]);
    prefix_min[i] = smallest;
  }
  table[block] = smallest;
  smallest = ULONG_MAX;
  for (uint i = end; i-- > start;) {
    smallest = min(smallest, key[i]);
    suffix_min[i] = smallest;
  }
}

kernel void lca_table_level(global ulong* table, const uint blocks, const uint level) {
  const uint block = get_global_id(0);
  const uint step = 1u << (level - 1);
  if (block + 2 * step > blocks) return;  // a row-j entry covers blocks k .. k + 2^j - 1
  global const ulong* below = table + (ulong)(level - 1) * blocks;
  table[(ulong)level * blocks + block] = min(below[block], below[block + step]);
}

kernel void lca_pairs(global const int* u, global const int* v, const uint count, const int n,
                      LCA_PARAMS, global int* out, volatile global uint* bad) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const int a = u[i], b = v[i];
  if (!lca_vertex_ok(a, n) || !lca_vertex_ok(b, n)) {
    atomic_min(bad, i);
    out[i] = -1;
    return;
  }
  out[i] = lca_of(a, b, LCA_ARGS);
}

// range[0] = min rank, range[1] = max rank over the set (the host fills INT_MAX, -1 first).
kernel void lca_rank_range(global const int* set, const uint count, const int n,
                           global const int* pre_rank, volatile global int* range,
                           volatile global uint* bad) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const int x = set[i];
  if (!lca_vertex_ok(x, n)) {
    atomic_min(bad, i);
    return;
  }
  const int rank = pre_rank[x];
  atomic_min(&range[0], rank);
  atomic_max(&range[1], rank);
}

// out[0] = the lca of the vertices of ranks range[0] and range[1] (one work-item).
kernel void lca_of_range(global const int* range, global const int* pre_order, LCA_PARAMS,
                         global int* out) {
  if (get_global_id(0) != 0) return;
  const uint a = (uint)range[0], b = (uint)range[1];
  out[0] = a == b ? pre_order[a] : lca_of_ranks(a, b, LCA_ARGS);
}
