// normalise.cl: a sparse matrix handed over as it lies in host memory (a SciPy matrix's arrays, a
// file's CSR) brought to the library's CSR graphs on the device (lib/graph/device_matrix.cpp):
//
//   offsets_from_int/long  row offsets in the graph's EDGE_T, checked: 0 first, the entry count
//                          last, never decreasing, none outside 0..entries
//   ids_from_long          int64 vertex ids narrowed to int (a chunk of the transfer at a time),
//                          checked against 0..n-1
//   check_ids              the same check for int ids that came as they are
//   check_rows             per arc: column out of range, rows not sorted, duplicates, self loops
//   arc_rows               the row of every arc (the sort path's keys)
//   entry_rows             the rows of listed entries
//   gather_ints/longs      to[i] = from[order[i]] (columns, rows, and values by their width)
//   offsets_from_rows      row offsets of entries sorted by row
//   mark_kept              1 for every arc that is neither a self loop nor a repeat of the arc
//                          before it (rows sorted), else 0
//   compact_columns/offsets  the kept arcs moved together, through the exclusive scan of the marks
//   arc_sums               per work-group, keyed sums over its arcs and over their reverses
//                          (graph/detail/arc_hash.hpp: the symmetry test, as on the host)
//   both_directions        every arc and its reverse, as (row, column) pairs (symmetrisation)
// Flags are ints set to 1 by plain stores (every writer stores the same value); the host finds
// the first offending entry in its own copy for the message. Traffic: each kernel reads its arrays
// once; the arc kernels read each tile's row offsets from cache.
// Vertices are int (below 2^31 - 1); arc indices and row offsets EDGE_T; the sort path's counts
// are int (below 2^31, the radix sort's limit).
#include "graph/arc_rows.clh"

// row_offset[i] = in[i] (int or long row offsets as the caller's array holds them), flagging
// offsets outside 0 .. entries, a first one not 0, a last one not `entries`, or a decrease.
#define OFFSETS_FROM(NAME, IN_T)                                                                 \
  kernel void NAME(global const IN_T* in, global EDGE_T* row_offset, const int count,            \
                   const EDGE_T entries, global int* bad) {                                      \
    const int i = get_global_id(0);                                                              \
    if (i >= count) return;                                                                      \
    const long x = in[i];                                                                        \
    if (x < 0 || x > (long)entries || (i == 0 && x != 0) ||                                      \
        (i == count - 1 && x != (long)entries) || (i > 0 && (long)in[i - 1] > x))                \
      bad[0] = 1;                                                                                \
    row_offset[i] = (EDGE_T)x;                                                                   \
  }
OFFSETS_FROM(offsets_from_int, int)
OFFSETS_FROM(offsets_from_long, long)

// out[base + i] = in[i] for i < count (a chunk of at most 2^31 - 1 ids).
kernel void ids_from_long(global const long* in, global int* out, const EDGE_T base,
                          const int count, const int n, global int* bad) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const long id = in[i];
  if (id < 0 || id >= n) bad[0] = 1;
  out[base + i] = (int)id;
}

kernel void check_ids(global const int* ids, const EDGE_T count, const int n, global int* bad) {
  for (long i = get_global_id(0); i < count; i += get_global_size(0))
    if (ids[i] < 0 || ids[i] >= n) bad[0] = 1;
}

// flags: [0] a column outside 0..n-1, [1] a row not sorted, [2] a repeated arc, [3] a self loop.
kernel void check_rows(global const EDGE_T* row_offset, global const int* column, const int n,
                       const EDGE_T arcs, global int* flags) {
  local int bounds[2];
  CSR_EACH_ARC(e, v, row_offset, n, arcs, bounds) {
    const int w = column[e];
    if (w < 0 || w >= n) flags[0] = 1;
    if (w == v) flags[3] = 1;
    if (e > row_offset[v]) {
      const int before = column[e - 1];
      if (w < before) flags[1] = 1;
      if (w == before) flags[2] = 1;
    }
  }
}

kernel void arc_rows(global const EDGE_T* row_offset, const int n, const EDGE_T arcs,
                     global int* row) {
  local int bounds[2];
  CSR_EACH_ARC(e, v, row_offset, n, arcs, bounds) row[e] = v;
}

// row[i] = the row of entry entry[i] (a binary search over all rows).
kernel void entry_rows(global const EDGE_T* row_offset, const int n, global const int* entry,
                       const int count, global int* row) {
  const int i = get_global_id(0);
  if (i < count) row[i] = csr_last_row_at(row_offset, 0, n - 1, entry[i]);
}

kernel void gather_ints(global const int* from, global const int* order, global int* to,
                        const int count) {
  const int i = get_global_id(0);
  if (i < count) to[i] = from[order[i]];
}

kernel void gather_longs(global const long* from, global const int* order, global long* to,
                         const int count) {
  const int i = get_global_id(0);
  if (i < count) to[i] = from[order[i]];
}

// Entries sorted by row: row_offset[v] = the first entry whose row is v or more (a binary
// search per vertex, so that a run of empty rows costs no work-item more than the others).
kernel void offsets_from_rows(global const int* row, const int count, const int n,
                              global EDGE_T* row_offset) {
  const int v = get_global_id(0);
  if (v > n) return;
  int low = 0, high = count;
  while (low < high) {
    const int mid = low + (high - low) / 2;
    if (row[mid] < v)
      low = mid + 1;
    else
      high = mid;
  }
  row_offset[v] = low;
}

kernel void mark_kept(global const EDGE_T* row_offset, global const int* column, const int n,
                      const EDGE_T arcs, global int* keep) {
  local int bounds[2];
  CSR_EACH_ARC(e, v, row_offset, n, arcs, bounds) {
    const int w = column[e];
    keep[e] = w != v && (e == row_offset[v] || column[e - 1] != w);
  }
}

// position: the exclusive scan of mark_kept's marks, arcs + 1 entries (the last is the total).
kernel void compact_columns(global const int* column, global const int* position,
                            const int arcs, global int* out) {
  const int e = get_global_id(0);
  if (e < arcs && position[e + 1] != position[e]) out[position[e]] = column[e];
}

kernel void compact_offsets(global const EDGE_T* row_offset, global const int* position,
                            const int n, global EDGE_T* out) {
  const int v = get_global_id(0);
  if (v <= n) out[v] = position[row_offset[v]];
}

#include "primitives/mix.clh"
#include "primitives/workgroup.clh"

// sums[4 g .. 4 g + 3]: work-group g's sums, wrapping, over the arcs (v, w) it visited, of
// mix64((v << 32 | w) ^ key_l) (lanes 0 and 1) and of the same for the reverse (w, v) (lanes 2
// and 3): graph/detail/arc_hash.hpp's ArcSums, for a block of rows whose row v is vertex
// first + v. Every group writes its four (zero when it had no arc).
kernel void arc_sums(global const EDGE_T* row_offset, global const int* column, const int n,
                     const EDGE_T arcs, const long first, const ulong key0, const ulong key1,
                     global ulong* sums) {
  local int bounds[2];
  local ulong scratch[WG_SIZE];
  ulong lane[4] = {0, 0, 0, 0};
  CSR_EACH_ARC(e, v, row_offset, n, arcs, bounds) {
    const ulong u = (ulong)(first + v), w = (uint)column[e];
    const ulong arc = (u << 32) | w, reverse = (w << 32) | u;
    lane[0] += mix64(arc ^ key0);
    lane[1] += mix64(arc ^ key1);
    lane[2] += mix64(reverse ^ key0);
    lane[3] += mix64(reverse ^ key1);
  }
  for (int l = 0; l < 4; ++l) {
    const ulong total = wg_sum_ulong_reduce(lane[l], scratch);
    if (get_local_id(0) == 0) sums[4 * get_group_id(0) + l] = total;
  }
}

// Arc e (v -> w) becomes the pairs e = (v, w) and arcs + e = (w, v).
kernel void both_directions(global const EDGE_T* row_offset, global const int* column,
                            const int n, const EDGE_T arcs, global int* row, global int* col) {
  local int bounds[2];
  CSR_EACH_ARC(e, v, row_offset, n, arcs, bounds) {
    const int w = column[e];
    row[e] = v;
    col[e] = w;
    row[arcs + e] = w;
    col[arcs + e] = v;
  }
}
