// path_length.cl: the sums of branch lengths along paths of a forest, exact (include/treefix/
// phylo/path_lengths.hpp).
//   scan_* (scan_pass.clh): a rootfix over the Euler tour (+w at v's open, -w at its close) whose
//     store keeps the exact fixed-point prefix at every open: prefix[v] = the exact sum of the
//     weights of v and its ancestors (core/exact_sum.clh: a +w and its -w cancel exactly, so no
//     digit of another subtree survives). The tour map holds vertex ids, or pre-order ranks in
//     the pre-order layout (ranked: pre_order names the vertex).
//   path_root_distances: prefix[v] rounded once.
//   path_distance_pairs: the path between u and v through l = lca(u, v) (phylo/lca.clh):
//     (prefix[u] - prefix[l]) + (prefix[v] - prefix[l]), exact, rounded once; INFINITY across
//     trees. The first pair with a vertex out of range is recorded in bad[0] and gets NAN.
//   path_cophenetic: the same for every pair of a list of k vertices, rows first_row.. of the
//     k x k matrix (0 on the diagonal).
//   path_differences: prefix[vertex] - prefix[ancestor] rounded once (the whole root path when
//     ancestor < 0): the length of a branch that merges the ones on a path (pruning).
// Options: -DVALUE_T=double -DVALUE_FLOAT64 -DOP_SUM and an exact format (-DEXACT_*).
#include "core/common.clh"
#include "phylo/lca.clh"

inline value_t path_term(const int entry, global const int* pre_order, const int ranked,
                         global const weight_t* weight) {
  const int at = entry >= 0 ? entry : ~entry;
  const value_t w = TO_VALUE(weight[ranked ? pre_order[at] : at]);
  return entry >= 0 ? w : INVERSE(w);
}

inline void path_store(const int entry, const value_t inclusive, global const int* pre_order,
                       const int ranked, global value_t* prefix) {
  if (entry >= 0) prefix[ranked ? pre_order[entry] : entry] = inclusive;
}

#define SCAN_PARAMS                                                                        \
  , global const int *tour_vertex, global const int *pre_order, const int ranked,          \
      global const weight_t *weight, global value_t *prefix
#define SCAN_STATE_T int
#define SCAN_LOAD(p, entry) path_term((entry) = tour_vertex[p], pre_order, ranked, weight)
#define SCAN_STORE(p, inc, exc, entry) path_store(entry, inc, pre_order, ranked, prefix)
#include "primitives/scan_pass.clh"

// The exact length of the path between u and v, rounded once.
inline weight_t path_between(const int u, const int v, global const value_t* prefix,
                             LCA_PARAMS) {
  const int l = lca_of(u, v, LCA_ARGS);
  if (l < 0) return INFINITY;
  const value_t at_l = prefix[l];
  return FROM_VALUE(OP(UNOP(prefix[u], at_l), UNOP(prefix[v], at_l)));
}

kernel void path_root_distances(global const value_t* prefix, const uint n,
                                global weight_t* out) {
  const uint v = get_global_id(0);
  if (v >= n) return;
  out[v] = FROM_VALUE(prefix[v]);
}

kernel void path_distance_pairs(global const int* u, global const int* v, const uint count,
                                const int n, LCA_PARAMS, global const value_t* prefix,
                                global weight_t* out, volatile global uint* bad) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const int a = u[i], b = v[i];
  if (!lca_vertex_ok(a, n) || !lca_vertex_ok(b, n)) {
    atomic_min(bad, i);
    out[i] = NAN;
    return;
  }
  out[i] = path_between(a, b, prefix, LCA_ARGS);
}

// out[(row - first_row) * k + column] for rows first_row .. first_row + rows - 1.
kernel void path_cophenetic(global const int* vertex, const uint k, const uint first_row,
                            const uint rows, LCA_PARAMS, global const value_t* prefix,
                            global weight_t* out) {
  const ulong i = get_global_id(0);
  if (i >= (ulong)rows * k) return;
  const uint row = first_row + (uint)(i / k), column = (uint)(i % k);
  out[i] = row == column ? (weight_t)0 : path_between(vertex[row], vertex[column], prefix, LCA_ARGS);
}

kernel void path_differences(global const int* vertex, global const int* ancestor,
                             const uint count, global const value_t* prefix,
                             global weight_t* out) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const int above = ancestor[i];
  const value_t below = prefix[vertex[i]];
  out[i] = FROM_VALUE(above >= 0 ? UNOP(below, prefix[above]) : below);
}
