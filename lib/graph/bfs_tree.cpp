// The tree of a BFS as a weighted sparse matrix (treefix/graph/bfs_tree.hpp): the arcs' weights
// from graph/matrix_values.cl, then the entries laid out by parent on the host.
#include "treefix/graph/bfs_tree.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/graph/minimum_spanning_tree.hpp"

namespace treefix {

WeightedCsr bfs_tree_matrix(Runtime& runtime, const DeviceMatrix& m,
                            const DeviceArray<vertex_t>& parent, bool directed) {
  if (!m.has_values)
    throw InputError("breadth-first tree: the matrix was uploaded without its values");
  const std::size_t n = m.n;
  WeightedCsr tree;
  tree.row_offset.assign(n + 1, 0);
  if (n == 0) return tree;
  return translate_device_errors("breadth-first tree", [&] {
    std::vector<vertex_t> up = parent.download(runtime);
    std::vector<double> forward(n), backward(n);
    visit_value_type(m.value_type, [&](auto zero) {
      using T = decltype(zero);
      Kernels k(runtime, "graph/matrix_values.cl", matrix_value_options(m), {});
      DeviceArray<T> there(runtime, n, "tree weights"), back(runtime, n, "tree weights");
      k.run("tree_weight", k.items(n), m.row_offset, m.column, m.values, parent,
            static_cast<cl_int>(n), cl_int(m.transposed), there, back);
      const std::vector<T> a = there.download(runtime), b = back.download(runtime);
      for (std::size_t v = 0; v < n; ++v)
        if (up[v] >= 0) {
          forward[v] = static_cast<double>(a[v]);
          backward[v] = static_cast<double>(b[v]);
        }
    });
    // Children counted per parent, then placed in increasing order: rows come sorted.
    for (std::size_t v = 0; v < n; ++v)
      if (up[v] >= 0) ++tree.row_offset[up[v] + 1];
    for (std::size_t v = 0; v < n; ++v) tree.row_offset[v + 1] += tree.row_offset[v];
    tree.column.resize(static_cast<std::size_t>(tree.row_offset[n]));
    tree.value.resize(tree.column.size());
    std::vector<std::int64_t> next(tree.row_offset.begin(), tree.row_offset.end() - 1);
    constexpr double inf = std::numeric_limits<double>::infinity();
    for (std::size_t v = 0; v < n; ++v) {
      if (up[v] < 0) continue;
      const std::int64_t at = next[up[v]]++;
      tree.column[at] = static_cast<vertex_t>(v);
      const double a = forward[v] == 0 ? inf : forward[v];
      const double b = backward[v] == 0 ? inf : backward[v];
      // NumPy's minimum: NaN when either is NaN
      tree.value[at] = directed ? forward[v] : std::isnan(a) || std::isnan(b) ? a + b
                                                                              : std::min(a, b);
    }
    return tree;
  });
}

}  // namespace treefix
