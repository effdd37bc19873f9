// normalise.cl: a sparse matrix handed over as it lies in host memory (a SciPy matrix's arrays, a
// file's CSR) brought to the library's CSR graphs on the device (lib/graph/device_normalise.cpp):
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
//   symmetry_hash          per work-group, sum over its arcs of mix(arc ^ key) - mix(reverse ^ key)
//                          for two keys: all zero when the arc set equals its reverse
//   both_directions        every arc and its reverse, as (row, column) pairs (symmetrisation)
// Flags are ints set to 1 by plain stores (every writer stores the same value); the host finds
// the first offending entry in its own copy for the message. Traffic: each kernel reads its arrays
// once; the arc kernels read each tile's row offsets from cache.
// Vertices are int (below 2^31 - 1); arc indices and row offsets EDGE_T; the sort path's counts
// are int (below 2^31, the radix sort's limit).
#include "graph/arc_rows.clh"

kernel void offsets_from_int(global const int* in, global EDGE_T* row_offset, const int count,
                             const EDGE_T entries, global int* bad) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const long x = in[i];
  if (x < 0 || x > (long)entries || (i == 0 && x != 0) || (i == count - 1 && x != (long)entries) ||
      (i > 0 && (long)in[i - 1] > x))
    bad[0] = 1;
  row_offset[i] = (EDGE_T)x;
}

kernel void offsets_from_long(global const long* in, global EDGE_T* row_offset, const int count,
                              const EDGE_T entries, global int* bad) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const long x = in[i];
  if (x < 0 || x > (long)entries || (i == 0 && x != 0) || (i == count - 1 && x != (long)entries) ||
      (i > 0 && in[i - 1] > x))
    bad[0] = 1;
  row_offset[i] = (EDGE_T)x;
}

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
  for (long tile = ARC_TILE_FIRST; tile < arcs; tile += ARC_TILE_STRIDE) {
    csr_tile_rows(row_offset, n, tile, arcs, bounds);
    const long e = tile + get_local_id(0);
    if (e < arcs) {
      const int v = csr_arc_row(row_offset, bounds, e);
      const int w = column[e];
      if (w < 0 || w >= n) flags[0] = 1;
      if (w == v) flags[3] = 1;
      if (e > row_offset[v]) {
        const int before = column[e - 1];
        if (w < before) flags[1] = 1;
        if (w == before) flags[2] = 1;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

kernel void arc_rows(global const EDGE_T* row_offset, const int n, const EDGE_T arcs,
                     global int* row) {
  local int bounds[2];
  for (long tile = ARC_TILE_FIRST; tile < arcs; tile += ARC_TILE_STRIDE) {
    csr_tile_rows(row_offset, n, tile, arcs, bounds);
    const long e = tile + get_local_id(0);
    if (e < arcs) row[e] = csr_arc_row(row_offset, bounds, e);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
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
  for (long tile = ARC_TILE_FIRST; tile < arcs; tile += ARC_TILE_STRIDE) {
    csr_tile_rows(row_offset, n, tile, arcs, bounds);
    const long e = tile + get_local_id(0);
    if (e < arcs) {
      const int v = csr_arc_row(row_offset, bounds, e);
      const int w = column[e];
      keep[e] = w != v && (e == row_offset[v] || column[e - 1] != w);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
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

// splitmix64's finaliser: a bijection that scrambles bits.
ulong mix64(ulong x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ul;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebul;
  return x ^ (x >> 31);
}

#include "primitives/workgroup.clh"

// partial[2 g + lane]: work-group g's sum, wrapping, of mix(arc ^ key_lane) - mix(reverse ^
// key_lane) over the arcs it visited. Every group writes its two slots (zero when it had none).
kernel void symmetry_hash(global const EDGE_T* row_offset, global const int* column, const int n,
                          const EDGE_T arcs, const ulong key0, const ulong key1,
                          global ulong* partial) {
  local int bounds[2];
  local ulong scratch[WG_SIZE];
  ulong lane0 = 0, lane1 = 0;
  for (long tile = ARC_TILE_FIRST; tile < arcs; tile += ARC_TILE_STRIDE) {
    csr_tile_rows(row_offset, n, tile, arcs, bounds);
    const long e = tile + get_local_id(0);
    if (e < arcs) {
      const ulong v = (uint)csr_arc_row(row_offset, bounds, e), w = (uint)column[e];
      const ulong arc = (v << 32) | w, reverse = (w << 32) | v;
      lane0 += mix64(arc ^ key0) - mix64(reverse ^ key0);
      lane1 += mix64(arc ^ key1) - mix64(reverse ^ key1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  lane0 = wg_sum_ulong_reduce(lane0, scratch);
  lane1 = wg_sum_ulong_reduce(lane1, scratch);
  if (get_local_id(0) == 0) {
    partial[2 * get_group_id(0)] = lane0;
    partial[2 * get_group_id(0) + 1] = lane1;
  }
}

// Arc e (v -> w) becomes the pairs e = (v, w) and arcs + e = (w, v).
kernel void both_directions(global const EDGE_T* row_offset, global const int* column,
                            const int n, const EDGE_T arcs, global int* row, global int* col) {
  local int bounds[2];
  for (long tile = ARC_TILE_FIRST; tile < arcs; tile += ARC_TILE_STRIDE) {
    csr_tile_rows(row_offset, n, tile, arcs, bounds);
    const long e = tile + get_local_id(0);
    if (e < arcs) {
      const int v = csr_arc_row(row_offset, bounds, e), w = column[e];
      row[e] = v;
      col[e] = w;
      row[arcs + e] = w;
      col[arcs + e] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
