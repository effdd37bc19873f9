// treefix.cl: the Write and Read kernels of the Euler-tour (vectorial) treefix of Defour & Marin;
// the Scan between them is scan.cl. Over a tour of 2n positions where vertex v opens at
// open_pos[v] and closes at close_pos[v]:
//   rootfix: Write tour[open] = w, tour[close] = INVERSE(w); inclusive scan;
//            Read r = tour[open] (inclusive) or tour[open - 1] (exclusive: proper ancestors).
//   leaffix: Write tour[open] = w, tour[close] = IDENTITY; inclusive scan;
//            Read r = tour[close] UNOP tour[open - 1] (inclusive) or UNOP tour[open] (exclusive).
// Every position is written exactly once, since open/close of all vertices partition 0..2n-1.
// Traffic: Write reads 2 positions + 1 value and scatters 2 values per vertex; Read gathers 1-2.
// POS_T (int or long) is the position type, chosen by the host from the tour length.
#include "common.clh"

#ifndef POS_T
#define POS_T int
#endif

kernel void treefix_write(global const POS_T* open_pos, global const POS_T* close_pos,
                          global const value_t* weight, const idx_t n, global value_t* tour,
                          const int rootfix) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const value_t w = weight[v];
  tour[open_pos[v]] = w;
#ifdef OP_HAS_INVERSE
  tour[close_pos[v]] = rootfix ? INVERSE(w) : IDENTITY;
#else
  tour[close_pos[v]] = IDENTITY;
#endif
}

kernel void treefix_read_rootfix(global const POS_T* open_pos, global const value_t* tour,
                                 const idx_t n, global value_t* result, const int exclusive) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const POS_T open = open_pos[v];
  if (exclusive) result[v] = open > 0 ? tour[open - 1] : IDENTITY;
  else result[v] = tour[open];
}

#ifdef OP_HAS_INVERSE
kernel void treefix_read_leaffix(global const POS_T* open_pos, global const POS_T* close_pos,
                                 global const value_t* tour, const idx_t n,
                                 global value_t* result, const int exclusive) {
  const idx_t v = get_global_id(0);
  if (v >= n) return;
  const POS_T open = open_pos[v];
  const value_t before = exclusive ? tour[open] : (open > 0 ? tour[open - 1] : IDENTITY);
  result[v] = UNOP(tour[close_pos[v]], before);
}
#endif
