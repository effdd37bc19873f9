// kd_points.cl: the steps around the exact kd-tree searches that are no traversal.
//   rows_to_columns  points given as rows (point i's coordinate k at rows[i * dim + k], as NumPy
//                    holds an (n, dim) array) into the structure of arrays of the trees and
//                    searches (coord[k * n + i]); flag[0] = 1 when a value is not finite
//   bin_sums         one work-group per distance bin: sums[b] = the sum over the items of
//                    bins[b * items + item] * (when self_weighted: the weight of the item's
//                    query, weights[query_id[item_base + item]] or weights[item_base + item]), in a
//                    fixed order (a strided pass per work-item, then the group's tree), so the
//                    same bits on every run (count_neighbors' bins, ropes_kd_pairs.clh)
// Option -DREAL (spatial/real.clh), -DWG_SIZE. Traffic: one read and one write per value.
#include "primitives/workgroup.clh"
#include "spatial/real.clh"

WG_DEFINE_SCAN(wg_sum_real, real, WG_ADD, (real)0)

kernel void rows_to_columns(const uint n, const uint dim, global const real* restrict rows,
                            global real* restrict coord, global int* restrict flag) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    for (uint k = 0; k < dim; ++k) {
      const real x = rows[(ulong)i * dim + k];
      if (!isfinite(x)) flag[0] = 1;  // every writer stores the same value
      coord[(ulong)k * n + i] = x;
    }
  }
}

kernel void bin_sums(const uint items, const uint item_base, const uint n_bins,
                     global const real* restrict bins, const int self_weighted,
                     global const real* restrict weights, global const int* restrict query_id,
                     const int has_query_id, global real* restrict sums) {
  local real scratch[WG_SIZE];
  for (uint b = get_group_id(0); b < n_bins; b += get_num_groups(0)) {
    real part = 0;
    for (uint i = get_local_id(0); i < items; i += WG_SIZE) {
      real v = bins[(ulong)b * items + i];
      const uint j = item_base + i;
      if (self_weighted) v *= weights[has_query_id ? query_id[j] : (int)j];
      part += v;
    }
    part = wg_sum_real_reduce(part, scratch);
    if (get_local_id(0) == 0) sums[b] = part;
  }
}
