#pragma once
// Minimum spanning forests on the device (kernels/graph/mst.cl, graph/matrix_values.cl), with
// scipy.sparse.csgraph.minimum_spanning_tree's meaning: every stored off-diagonal entry (r, c, w)
// of a matrix is an undirected edge {r, c} of weight w (entries between the same two vertices
// are parallel edges; the lighter wins), and the forest comes back as entries of the matrix, each
// where it is stored.
//
// Edges are ranked in a total order, so the forest is unique: by weight, then the smaller end,
// then the larger end, then entries whose row is the smaller end first, then stored order. That
// is the order in which SciPy's Kruskal meets the edges of a csr matrix in canonical form whose
// edges are stored both ways with equal weights, or once (upper or lower triangle): the same
// forest, entry for entry, ties included. With distinct weights every order gives the one minimum
// spanning forest. Borůvka's rounds on the ranks then find it: each component's lightest edge
// hooks it to another (a pair that chose the same edge hooks once), O(log n) rounds.
//
// Weights are int32, int64, float32 or float64, compared exactly in their own type (NaN after
// +inf, -0 equal to +0); the forest's values are returned as float64, SciPy's type (int64 values
// beyond 2^53 round there). Zero-weight edges take part; SciPy drops stored zeros from its result
// (csr eliminate_zeros) and so does treefix.minimum_spanning_tree, not this function.
//
// Cost: ranking sorts every entry by 3 + 2 log2(n) / 8 + 4 (8 for 64-bit weights) radix passes,
// once per matrix (EdgeRanks keeps it); each round reads the live edges once. Sizes: fewer than
// 2^31 entries (CapacityError beyond).
#include <cstddef>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/device_matrix.hpp"

namespace treefix {

// A matrix's edges in the order above: rank r is entry entry[r] (an index into the matrix's
// entries, CSR order), joining src[r] and dst[r] (its row and column). Diagonal entries are
// ranked too, and never chosen.
struct EdgeRanks {
  DeviceArray<vertex_t> entry, src, dst;
  std::size_t edges() const { return entry.size(); }
};
EdgeRanks rank_edges(Runtime& runtime, const DeviceMatrix& matrix, Profile* profile = nullptr);

// The forest as entries of the matrix, in CSR order (by row, then stored position).
struct SpanningForest {
  std::vector<vertex_t> row, column;
  std::vector<double> value;
  std::size_t components = 0;  // trees, isolated vertices included
  std::size_t rounds = 0;      // Borůvka rounds
};

// `matrix` must hold its values (MatrixUpload::values). `ranks`: rank_edges of the same matrix
// (kept by callers that ask again).
SpanningForest minimum_spanning_forest(Runtime& runtime, const DeviceMatrix& matrix,
                                       const EdgeRanks& ranks, Profile* profile = nullptr);
SpanningForest minimum_spanning_forest(Runtime& runtime, const DeviceMatrix& matrix,
                                       Profile* profile = nullptr);

// The values of entries `entry` (indices into the matrix's entries) as float64, read back.
std::vector<double> entry_values(Runtime& runtime, const DeviceMatrix& matrix,
                                 const DeviceArray<vertex_t>& entry, std::size_t count);

// "-DVALUE_T=double -DVALUE_FLOAT64" and the offsets' EDGE_T: graph/matrix_values.cl's options.
std::string matrix_value_options(const DeviceMatrix& matrix);

}  // namespace treefix
