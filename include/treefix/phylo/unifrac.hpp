#pragma once
// UniFrac distances between samples of abundances on a phylogeny, as scikit-bio's
// beta_diversity("unweighted_unifrac" / "weighted_unifrac") defines them (Lozupone & Knight
// 2005; Lozupone et al. 2007), for every pair of samples at once.
//
// counts: a samples x columns matrix of non-negative integers; column c counts vertex
// columns[c] (usually a tip). For a branch b (vertex b's branch to its parent, length l_b: the
// root's own length included, as scikit-bio does) and a sample s, A_sb is the count of s over b's
// subtree, T_s its total, and f_sb = A_sb / T_s (0 for an empty sample):
//   unweighted           sum_b l_b·[A_ib > 0 xor A_jb > 0] / sum_b l_b·[A_ib > 0 or A_jb > 0]
//                        (0 when the denominator is)
//   weighted             sum_b l_b·|f_ib - f_jb|
//   weighted normalized  that / (D_i + D_j), D_s = sum_b l_b·f_sb = the root distances of the
//                        counted vertices weighted by their shares (0 when both samples are empty)
// How: A is a batched leaffix of the counts. Its columns sorted by pre-order, a subtree's columns
// are a run of them, so each sample's prefix sums (exact, int64) give A_sb as a difference. Only
// branches of non-zero length with counted vertices below stay. The pairs are then dense
// arithmetic: 16 x 16 tiles of sample pairs, 32 branches at a time staged in local memory (as
// Striped UniFrac does on CPUs and GPUs).
// Accuracy (u = 2^-53): every sum over branches is carried with error-free transformations in a
// fixed order, within u·|sum| + m²·u²·sum (m branches), the same bits on every run. Unweighted:
// its terms are exact, so the distance is within 4u relative. Weighted: each f is rounded once,
// so each term is within 3u of its exact value relative to l_b·(f_ib + f_jb), and the distance
// within 4u·(D_i + D_j) absolutely; normalized, within 9u (D itself within 4u relative).
// Memory: (samples x columns + samples x branches) 8-byte values (CapacityError beyond the
// device's).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

struct UnifracOptions {
  bool weighted = false;
  bool normalized = false;  // weighted only
  Profile* profile = nullptr;
};

// The condensed distance matrix (samples·(samples - 1)/2 values, pairs (0,1), (0,2), ...,
// (1,2), ...: scipy's pdist order) into `condensed`. counts: row-major, samples x
// columns.size(). lengths: the tree's n branch lengths. InputError for a column vertex out of
// range or repeated, a negative count (naming the sample and column), or normalized without
// weighted.
void unifrac(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
             const std::int64_t* counts, std::size_t samples, const std::vector<vertex_t>& columns,
             const UnifracOptions& options, double* condensed);

}  // namespace treefix
