#pragma once
// The tree of a breadth-first search as a weighted sparse matrix, with
// scipy.sparse.csgraph.breadth_first_tree's meaning: for every reached vertex v other than the
// source, the entry (parent[v], v) carrying the matrix's weight of that arc — searched as
// directed, the values stored at (p, v) summed (repeats add up, as SciPy's indexing adds them;
// a stored zero stays a stored zero); searched as undirected, the smaller of the sums at (p, v)
// and (v, p) where each zero counts as +inf (so +inf when both are zero). The weights are looked
// up on the device (a binary search in each parent's sorted row); the host lays out the n - 1
// entries by parent, then child.
#include <cstdint>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/device_matrix.hpp"

namespace treefix {

// An n x n sparse matrix in CSR form on the host, float64 values (SciPy's csr_matrix arrays).
struct WeightedCsr {
  std::vector<std::int64_t> row_offset;  // n + 1
  std::vector<vertex_t> column;
  std::vector<double> value;
};

// `parent`: a BFS parent array of the matrix's graph (negative: no parent); `matrix` must hold
// its values.
WeightedCsr bfs_tree_matrix(Runtime& runtime, const DeviceMatrix& matrix,
                            const DeviceArray<vertex_t>& parent, bool directed);

}  // namespace treefix
