// matrix_values.cl: what depends on the type of a matrix's values (-DVALUE_T=int|long|float|
// double with -DVALUE_INT32/INT64/FLOAT32/FLOAT64, core/common.clh's options without an
// operator): the sort keys of the minimum spanning forest's edge order, and the weights of a BFS
// tree's arcs (lib/graph/minimum_spanning_tree.cpp, lib/graph/bfs_tree.cpp).
//
// weight_word  key[i] = word `word` (0 low, 1 high) of an unsigned key of value[order[i]] that
//              orders as the values do: integers with the sign bit flipped; floats with the sign
//              bit set for positives and every bit flipped for negatives, -0 taken as +0 and every
//              NaN as one positive NaN (after +inf, as NumPy sorts them).
// tree_weight  for each vertex v with parent p: the sums of the values stored at (p, v) and at
//              (v, p), 0 where none is (rows sorted by column: a binary search, then the run of
//              repeats).
#if defined(VALUE_FLOAT64) || defined(VALUE_INT64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef EDGE_T
#define EDGE_T int
#endif

#if defined(VALUE_INT32)
uint key_low(int w) { return as_uint(w) ^ 0x80000000u; }
uint key_high(int w) { return 0; }
#elif defined(VALUE_INT64)
ulong key64(long w) { return as_ulong(w) ^ 0x8000000000000000ul; }
uint key_low(long w) { return (uint)key64(w); }
uint key_high(long w) { return (uint)(key64(w) >> 32); }
#elif defined(VALUE_FLOAT32)
uint key32(float w) {
  const uint bits = isnan(w) ? 0x7fc00000u : as_uint(w == 0.0f ? 0.0f : w);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}
uint key_low(float w) { return key32(w); }
uint key_high(float w) { return 0; }
#else
ulong key64(double w) {
  const ulong bits = isnan(w) ? 0x7ff8000000000000ul : as_ulong(w == 0.0 ? 0.0 : w);
  return (bits & 0x8000000000000000ul) ? ~bits : bits | 0x8000000000000000ul;
}
uint key_low(double w) { return (uint)key64(w); }
uint key_high(double w) { return (uint)(key64(w) >> 32); }
#endif

kernel void weight_word(global const VALUE_T* value, global const int* order, const int count,
                        const int word, global uint* key) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const VALUE_T w = value[order[i]];
  key[i] = word ? key_high(w) : key_low(w);
}

// The sum of the values at (row, col) in a matrix with sorted rows (0 where none is stored).
VALUE_T stored_value(global const EDGE_T* row_offset, global const int* column,
                     global const VALUE_T* value, int row, int col) {
  EDGE_T low = row_offset[row], high = row_offset[row + 1];
  while (low < high) {  // the first entry whose column is col or more
    const EDGE_T mid = low + (high - low) / 2;
    if (column[mid] < col)
      low = mid + 1;
    else
      high = mid;
  }
  VALUE_T sum = 0;
  const EDGE_T end = row_offset[row + 1];
  for (EDGE_T e = low; e < end && column[e] == col; ++e) sum += value[e];
  return sum;
}

// forward[v]: the values at (parent[v], v); backward[v]: at (v, parent[v]); for every v with a
// parent. transposed: the matrix holds A^T.
kernel void tree_weight(global const EDGE_T* row_offset, global const int* column,
                        global const VALUE_T* value, global const int* parent, const int n,
                        const int transposed, global VALUE_T* forward, global VALUE_T* backward) {
  const int v = get_global_id(0);
  if (v >= n) return;
  const int p = parent[v];
  if (p < 0) return;
  forward[v] = stored_value(row_offset, column, value, transposed ? v : p, transposed ? p : v);
  backward[v] = stored_value(row_offset, column, value, transposed ? p : v, transposed ? v : p);
}
