// unifrac.cl: UniFrac distances between samples of abundances on the vertices of a forest
// (include/treefix/phylo/unifrac.hpp). For every branch b (vertex b's branch, length l_b) and
// sample s, A_sb = the counts of s in b's subtree, T_s = all its counts, f_sb = A_sb / T_s
// (A_sb itself when T_s is 0):
//   unweighted           sum_b l_b·[A_ib > 0 xor A_jb > 0] / sum_b l_b·[A_ib > 0 or A_jb > 0]
//   weighted             sum_b l_b·|f_ib - f_jb|
//   weighted normalized  that / (D_i + D_j), D_s = sum_b l_b·f_sb (the tips' root distances
//                        weighted by their shares)
// Steps:
//   unifrac_column_ranks:  each column's pre-order rank (the sort key) and a flag at that rank.
//   unifrac_prefix:        one work-group per sample: its counts in pre-order of the columns,
//                          prefix-summed (int64, exact). A subtree's columns are a run of that
//                          order, so A_sb is a difference of two prefixes. Negative counts are
//                          reported (the smallest sample holding one, in bad[0]).
//   unifrac_branch_flags:  the run [lo, hi) of each vertex's columns; a branch matters when its
//                          length is not 0 and its run is not empty.
//   unifrac_branches:      the branches that matter, listed: run and length (padding: empty runs
//                          of length 0, which add nothing).
//   unifrac_fractions:     F[s][b] = f_sb (weighted), or 1 / 0 for presence (unweighted).
//   unifrac_sample_sums:   D_s, one work-group per sample, in a fixed order.
//   unifrac_pairs:         one work-group per 16 x 16 tile of sample pairs (i < j): F's rows of
//                          both tiles staged through local memory, 32 branches at a time; each
//                          work-item sums its pair's terms in branch order with error-free
//                          transformations (TwoSum: the sum carried as value + compensation).
//                          Writes the condensed matrix (scipy's pdist order).
// Every sum has a fixed order: the same bits on every run. Products and sums are not fused.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "primitives/workgroup.clh"

#define TILE_SIDE 16
#define CHUNK 32

WG_DEFINE_SCAN(wg_sum_long, long, WG_ADD, 0l)

kernel void unifrac_column_ranks(global const int* column, const uint columns,
                                 global const int* pre_rank, global uint* key,
                                 global int* flag_by_rank) {
  const uint j = get_global_id(0);
  if (j >= columns) return;
  const int rank = pre_rank[column[j]];
  key[j] = (uint)rank;
  flag_by_rank[rank] = 1;
}

// prefix[s * (columns + 1) + t] = the counts of sample s over its first t columns in pre-order.
kernel void unifrac_prefix(global const long* counts, global const int* order, const uint columns,
                           global long* prefix, volatile global uint* bad) {
  local long scratch[WG_SIZE];
  const uint s = get_group_id(0), lid = get_local_id(0);
  global const long* row = counts + (ulong)s * columns;
  global long* out = prefix + (ulong)s * (columns + 1);
  long carry = 0;
  for (uint base = 0; base < columns; base += WG_SIZE) {
    const uint t = base + lid;
    const long x = t < columns ? row[order[t]] : 0;
    if (x < 0) atomic_min(bad, s);
    long total;
    const long before = wg_sum_long_exclusive(x, scratch, &total);
    if (t < columns) out[t] = carry + before;
    carry += total;
  }
  if (lid == 0) out[columns] = carry;
}

inline int subtree_size(const int open, const int close) { return (close - open + 1) / 2; }

// below[r]: the columns at pre-order ranks before r (an exclusive scan of the flags; below[n]
// is the column count).
kernel void unifrac_branch_flags(global const int* open_pos, global const int* close_pos,
                                 global const int* pre_rank, global const int* below,
                                 global const double* length, const uint n, global int* flag,
                                 global int* lo, global int* hi) {
  const uint b = get_global_id(0);
  if (b >= n) return;
  const int rank = pre_rank[b];
  const int first = below[rank], last = below[rank + subtree_size(open_pos[b], close_pos[b])];
  lo[b] = first;
  hi[b] = last;
  flag[b] = length[b] != 0.0 && last > first;
}

kernel void unifrac_branches(global const int* branch, const uint count, const uint padded,
                             global const int* lo, global const int* hi,
                             global const double* length, global int* branch_lo,
                             global int* branch_hi, global double* branch_length) {
  const uint j = get_global_id(0);
  if (j >= padded) return;
  if (j < count) {
    const int b = branch[j];
    branch_lo[j] = lo[b];
    branch_hi[j] = hi[b];
    branch_length[j] = length[b];
  } else {
    branch_lo[j] = branch_hi[j] = 0;
    branch_length[j] = 0.0;
  }
}

kernel void unifrac_fractions(global const long* prefix, const uint samples, const uint columns,
                              global const int* branch_lo, global const int* branch_hi,
                              const uint padded, const int presence, global double* fraction) {
  const ulong i = get_global_id(0);
  if (i >= (ulong)samples * padded) return;
  const uint s = (uint)(i / padded), j = (uint)(i % padded);
  global const long* row = prefix + (ulong)s * (columns + 1);
  const long below = row[branch_hi[j]] - row[branch_lo[j]];
  const long total = row[columns];
  if (presence)
    fraction[i] = below > 0 ? 1.0 : 0.0;
  else
    fraction[i] = total > 0 ? (double)below / (double)total : (double)below;
}

// s + c += x without losing a bit of x (Knuth's TwoSum; no branch, no fused operation).
inline void compensated_add(double* s, double* c, const double x) {
  const double t = *s + x;
  const double z = t - *s;
  *c += (*s - (t - z)) + (x - z);
  *s = t;
}

kernel void unifrac_sample_sums(global const double* fraction, global const double* branch_length,
                                const uint padded, global double* sums) {
  local double value[WG_SIZE], error[WG_SIZE];
  const uint s = get_group_id(0), lid = get_local_id(0);
  global const double* row = fraction + (ulong)s * padded;
  double sum = 0.0, c = 0.0;
  for (uint j = lid; j < padded; j += WG_SIZE) compensated_add(&sum, &c, branch_length[j] * row[j]);
  value[lid] = sum;
  error[lid] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint stride = WG_SIZE / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      double a = value[lid], e = error[lid] + error[lid + stride];
      compensated_add(&a, &e, value[lid + stride]);
      value[lid] = a;
      error[lid] = e;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) sums[s] = value[0] + error[0];
}

// Work-group g covers tiles (ti, tj), ti <= tj, numbered tj·(tj + 1)/2 + ti; work-item
// (a, b) = (lid / 16, lid % 16) the pair (16·ti + a, 16·tj + b) when that is i < j < samples.
kernel void unifrac_pairs(global const double* fraction, global const double* branch_length,
                          const uint padded, const uint samples, const int unweighted,
                          const int normalized, global const long* prefix, const uint columns,
                          global const double* sample_sums, global double* out) {
  local double rows[TILE_SIDE][CHUNK], cols[TILE_SIDE][CHUNK], len[CHUNK];
  const ulong g = get_group_id(0);
  ulong tj = (ulong)((sqrt(8.0 * (double)g + 1.0) - 1.0) / 2.0);
  while (tj * (tj + 1) / 2 > g) --tj;
  while ((tj + 1) * (tj + 2) / 2 <= g) ++tj;
  const ulong ti = g - tj * (tj + 1) / 2;
  const uint lid = get_local_id(0);
  const uint a = lid / TILE_SIDE, b = lid % TILE_SIDE;
  const ulong i = ti * TILE_SIDE + a, j = tj * TILE_SIDE + b;
  double num = 0.0, num_c = 0.0, den = 0.0, den_c = 0.0;
  for (uint base = 0; base < padded; base += CHUNK) {
    for (uint k = lid; k < TILE_SIDE * CHUNK; k += WG_SIZE) {
      const uint r = k / CHUNK, c = k % CHUNK;
      const ulong row_i = ti * TILE_SIDE + r, row_j = tj * TILE_SIDE + r;
      rows[r][c] = row_i < samples ? fraction[row_i * padded + base + c] : 0.0;
      cols[r][c] = row_j < samples ? fraction[row_j * padded + base + c] : 0.0;
    }
    if (lid < CHUNK) len[lid] = branch_length[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (unweighted) {
      for (uint c = 0; c < CHUNK; ++c) {
        const double x = rows[a][c], y = cols[b][c], l = len[c];
        compensated_add(&num, &num_c, x != y ? l : 0.0);
        compensated_add(&den, &den_c, x != 0.0 || y != 0.0 ? l : 0.0);
      }
    } else {
      for (uint c = 0; c < CHUNK; ++c)
        compensated_add(&num, &num_c, len[c] * fabs(rows[a][c] - cols[b][c]));
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (!(i < j && j < samples)) return;
  const double unique = num + num_c;
  double d;
  if (unweighted) {
    const double observed = den + den_c;
    d = observed == 0.0 ? 0.0 : unique / observed;
  } else if (normalized) {
    const long total_i = prefix[i * (columns + 1) + columns];
    const long total_j = prefix[j * (columns + 1) + columns];
    d = total_i == 0 && total_j == 0 ? 0.0 : unique / (sample_sums[i] + sample_sums[j]);
  } else {
    d = unique;
  }
  out[i * samples - i * (i + 1) / 2 + (j - i - 1)] = d;
}
