// treefix.cl: the Euler-tour (vectorial) treefix of Defour & Marin over a tour of 2n positions in
// which vertex v opens at open_pos[v] and closes at close_pos[v]:
//   rootfix: tour[open] = w, tour[close] = INVERSE(w); inclusive scan;
//            r = S[open] (inclusive) or S[open - 1] (exclusive: proper ancestors only)
//   leaffix: tour[open] = w, tour[close] = IDENTITY; inclusive scan;
//            r = S[close] UNOP S[open - 1] (inclusive) or S[close] UNOP S[open] (exclusive)
// Two forms of the same computation:
//  * three kernels, as in the paper: treefix_write (scatter), scan.cl over the tour,
//    treefix_read_rootfix / treefix_read_leaffix (gather). Traffic per vertex: Write reads 2
//    positions + 1 weight and scatters 2 values; the scan reads 2x and writes 1x the 2n values;
//    Read gathers 1-2 values and writes 1.
//  * fused (default): the scan passes of scan_pass.clh load each tour term by a gather through the
//    tour map (tour.cl: tour_vertex[p] = v at an open, ~v at a close) and store each vertex's
//    result straight from the scan, so the 2n-value tour never exists in memory. Leaffix needs two
//    prefixes of one vertex, which may land in different work-groups: the scan stores both and
//    treefix_leaf_finish subtracts them.
//  * preorder layout (euler_tour.hpp): the map holds pre-order ranks; the weights are permuted
//    into pre-order before the scan and the results back after it (primitives/permute.cl; the
//    leaffix finish gathers through the ranks itself), so that the scan's gathers are nearly
//    contiguous.
// Weights and results are weight_t; the scan combines value_t: the weight type itself (integers,
// and floating point with the fast precision), or for floating-point sums with the accurate
// precision an exact fixed-point value (core/exact_sum.clh) in a format that the host fitted to the
// weights' range. POS_T (int or long) is the position type.
#include "core/common.clh"

#ifndef OP_HAS_INVERSE
#error "the Euler-tour treefix needs an operator with an inverse (sum or xor)"
#endif
#ifndef POS_T
#define POS_T int
#endif

// --- three kernels ---------------------------------------------------------------------------
kernel void treefix_write(global const POS_T* open_pos, global const POS_T* close_pos,
                          global const weight_t* weight, const idx_t n, global value_t* tour,
                          const int rootfix) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const value_t w = TO_VALUE(weight[v]);
  tour[open_pos[v]] = w;
  tour[close_pos[v]] = rootfix ? INVERSE(w) : IDENTITY;
}

kernel void treefix_read_rootfix(global const POS_T* open_pos, global const value_t* tour,
                                 const idx_t n, global weight_t* result, const int exclusive) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const POS_T open = open_pos[v];
  if (exclusive) result[v] = FROM_VALUE(open > 0 ? tour[open - 1] : IDENTITY);
  else result[v] = FROM_VALUE(tour[open]);
}

kernel void treefix_read_leaffix(global const POS_T* open_pos, global const POS_T* close_pos,
                                 global const value_t* tour, const idx_t n,
                                 global weight_t* result, const int exclusive) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const POS_T open = open_pos[v];
  const value_t before = exclusive ? tour[open] : (open > 0 ? tour[open - 1] : IDENTITY);
  result[v] = FROM_VALUE(UNOP(tour[close_pos[v]], before));
}

// --- fused into the scan -----------------------------------------------------------------------
// entry: tour_vertex[p], read once by the scan's load and kept in a register for the store
// (SCAN_STATE_T).
inline value_t tour_term(const int entry, global const weight_t* weight, const int rootfix) {
  if (entry >= 0) return TO_VALUE(weight[entry]);
  return rootfix ? INVERSE(TO_VALUE(weight[~entry])) : IDENTITY;
}

inline void tour_store(const int entry, const value_t inclusive_value,
                       const value_t exclusive_value, const int rootfix, const int exclusive,
                       global weight_t* result, global value_t* open_prefix,
                       global value_t* close_prefix) {
  if (rootfix) {
    if (entry >= 0) result[entry] = FROM_VALUE(exclusive ? exclusive_value : inclusive_value);
  } else if (entry >= 0) {
    open_prefix[entry] = exclusive ? inclusive_value : exclusive_value;
  } else {
    close_prefix[~entry] = inclusive_value;
  }
}

#define SCAN_PARAMS                                                                  \
  , global const int *tour_vertex, global const weight_t *weight, const int rootfix, \
      const int exclusive, global weight_t *result, global value_t *open_prefix,     \
      global value_t *close_prefix
#define SCAN_STATE_T int
#define SCAN_LOAD(p, entry) tour_term((entry) = tour_vertex[p], weight, rootfix)
#define SCAN_STORE(p, inc, exc, entry) \
  tour_store(entry, inc, exc, rootfix, exclusive, result, open_prefix, close_prefix)
#include "primitives/scan_pass.clh"

// ranked: the prefixes are stored by pre-order rank, rank[v] says where.
kernel void treefix_leaf_finish(global const value_t* open_prefix,
                                global const value_t* close_prefix, const idx_t n,
                                global const int* rank, const int ranked,
                                global weight_t* result) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const idx_t at = ranked ? (idx_t)rank[v] : v;
  result[v] = FROM_VALUE(UNOP(close_prefix[at], open_prefix[at]));
}

